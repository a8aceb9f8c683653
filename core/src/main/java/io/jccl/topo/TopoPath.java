// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The route from one node to another: its links in order, its type (the farthest kind of hop on
 * it) and its bandwidth (the slowest link).
 */
public record TopoPath(PathType type, double bw, List<TopoLink> links) {
    static final TopoPath DISCONNECTED = new TopoPath(PathType.DIS, 0, List.of());
    static final TopoPath LOCAL = new TopoPath(PathType.LOC, Bandwidth.LOC, List.of());

    public TopoPath {
        links = List.copyOf(links);
    }

    public int hops() {
        return links.size();
    }

    /** This path followed by {@code next}, as NCCL joins two paths through an intermediate node. */
    TopoPath then(TopoPath next, PathType type) {
        List<TopoLink> l = new ArrayList<>(links);
        l.addAll(next.links);
        return new TopoPath(type, Math.min(bw, next.bw), l);
    }

    /** The nodes after the first, in order. */
    public List<TopoNode> nodes() {
        return links.stream().map(TopoLink::to).toList();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s/%.1f", type, bw);
    }
}
