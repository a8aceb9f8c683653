// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.Locale;

/**
 * One direction of a link between two nodes. Links of one type between the same two nodes are
 * one link whose bandwidth is their sum (a GPU's 18 NVLinks to the NVSwitches are one link of 18
 * times an NVLink's bandwidth). {@link #id()} numbers the links of a system from 0, for searches
 * that keep the bandwidth left on each.
 */
public final class TopoLink {
    private final LinkType type;
    private final TopoNode from;
    private final TopoNode to;
    private double bw;
    private int id = -1;

    TopoLink(LinkType type, TopoNode from, TopoNode to, double bw) {
        this.type = type;
        this.from = from;
        this.to = to;
        this.bw = bw;
    }

    public LinkType type() {
        return type;
    }

    public TopoNode from() {
        return from;
    }

    public TopoNode to() {
        return to;
    }

    /** GB/s in this direction. */
    public double bw() {
        return bw;
    }

    public int id() {
        return id;
    }

    void addBw(double more) {
        bw += more;
    }

    void id(int id) {
        this.id = id;
    }

    @Override
    public String toString() {
        return from.name() + " -" + type + String.format(Locale.ROOT, "[%.1f]", bw) + "-> " + to.name();
    }
}
