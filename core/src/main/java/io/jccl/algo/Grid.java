// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Link;
import io.jccl.topo.ServerLayout;

import java.util.ArrayList;
import java.util.List;

/**
 * A uniform server layout as the hierarchical generators walk it: S servers of R ranks, rank
 * (s, j) being local index j of server s. Servers form rings in index order (s sends to s+1), as
 * do the ranks of a server (j to j+1); the ranks of one local index across the servers are a
 * column.
 */
final class Grid {
    final ServerLayout layout;
    /** Servers. */
    final int S;
    /** Ranks per server. */
    final int R;

    private Grid(ServerLayout layout) {
        this.layout = layout;
        this.S = layout.servers();
        this.R = layout.perServer();
    }

    /** The grid of {@code layout}, which {@code algorithm} needs uniform. */
    static Grid of(ServerLayout layout, Algorithm algorithm) {
        if (!layout.uniform()) {
            throw new IllegalArgumentException(algorithm.id() + " needs the same number of ranks on every server; the layout is "
                    + layout);
        }
        return new Grid(layout);
    }

    int server(int rank) {
        return layout.serverOf(rank);
    }

    int index(int rank) {
        return layout.localIndex(rank);
    }

    /** Rank (s, j), both taken modulo the grid. */
    int rank(int s, int j) {
        return layout.rank(Math.floorMod(s, S), Math.floorMod(j, R));
    }

    /** Links to the other ranks of {@code rank}'s server, by local index. */
    List<Link> localPeers(int rank, int channel) {
        int s = server(rank);
        int i = index(rank);
        List<Link> l = new ArrayList<>(R - 1);
        for (int j = 0; j < R; j++) {
            if (j != i) {
                l.add(new Link(rank(s, j), channel));
            }
        }
        return l;
    }
}
