// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;

import java.util.List;

/**
 * All-reduce on two levels, S servers of R ranks. A lane's share of the tile is cut into R slices
 * (slice j is carried across servers by the ranks of local index j) and each slice into S chunks
 * (chunk k is the one whose reduction the column's ring completes on server k). Both algorithms
 * keep partial sums in flight only: the reduction inside a server feeds each step of the
 * inter-server ring as it goes, and each chunk is written once, in its final place.
 *
 * <p>Not planned per rank: every rank is laid out and the planned ranks' steps kept
 * ({@link Tiles}), so a plan is correct for any ranks but costs the whole job's steps.
 */
final class HierarchicalGenerators {
    private HierarchicalGenerators() {
    }

    /** Slice j, chunk k of a lane's share [ps, ps+pl). */
    private static Region part(boolean input, long ps, long pl, Grid g, int j, int k) {
        int jj = Math.floorMod(j, g.R);
        int kk = Math.floorMod(k, g.S);
        long sliceStart = Split.start(pl, g.R, jj);
        long sliceSize = Split.size(pl, g.R, jj);
        long off = ps + sliceStart + Split.start(sliceSize, g.S, kk);
        long len = Split.size(sliceSize, g.S, kk);
        return input ? Region.input(off, len) : Region.output(off, len);
    }

    /**
     * Hierarchical ring: in inter-ring step t (1..S) every rank sends its chunk s-t of each other
     * slice to that slice's rank in the server (full mesh), and the slice's rank adds them to the
     * ring's message and its own input before passing it on; the step that completes a chunk
     * writes it and sends it to the next server and to the server's other ranks at once, and
     * every later ring step forwards the chunk it receives the same two ways (broadcast inside the
     * server). 2(S-1) inter-server steps; one intra-server hop for the reduction, one for the
     * broadcast.
     */
    static Plan hierRing(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.HIER_RING);
        int n = call.nranks();
        int lanes = ch.count();
        int S = g.S;
        return Tiles.perLane(Algorithm.HIER_RING, Collective.ALL_REDUCE, call, lanes, Math.multiplyExact(maxMessage, (long) n),
                (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                List<Link> locals = g.localPeers(x, c);
                List<Link> prev = Steps.linkIf(S > 1, g.rank(s - 1, i), c);
                Link next = new Link(g.rank(s + 1, i), c);
                for (int t = 1; t <= S; t++) {
                    int k = s - t;
                    for (int j = 0; j < g.R; j++) {
                        if (j != i) {
                            b.add(x, c, Step.send(part(true, ps, pl, g, j, k), new Link(g.rank(s, j), c)));
                        }
                    }
                    List<Link> from = Steps.join(t > 1 ? prev : List.of(), locals);
                    if (t < S) {
                        b.add(x, c, Steps.of(from, part(true, ps, pl, g, i, k), null, List.of(next), false));
                    } else {
                        List<Link> to = Steps.join(S > 1 ? List.of(next) : List.of(), locals);
                        b.add(x, c, Steps.of(from, part(true, ps, pl, g, i, k), part(false, ps, pl, g, i, k), to, true));
                    }
                }
                for (int u = 0; u < S; u++) {
                    int k = s - u;
                    if (u > 0) {
                        List<Link> to = Steps.join(u < S - 1 ? List.of(next) : List.of(), locals);
                        b.add(x, c, Steps.of(prev, null, part(false, ps, pl, g, i, k), to, false));
                    }
                    for (int j = 0; j < g.R; j++) {
                        if (j != i) {
                            b.add(x, c, Step.recv(new Link(g.rank(s, j), c), part(false, ps, pl, g, j, k)));
                        }
                    }
                }
            }
        });
    }

    /**
     * 2D torus: in inter-ring step t the server's ring reduce-scatters chunk s-t of every slice
     * (R-1 hops, each rank adding its input), its last hop feeding the inter-server ring step of
     * the slice's rank; once a chunk is complete, the inter-server ring gathers it and each ring
     * step also starts the server's ring all-gather of that chunk. 2(S-1) inter-server steps,
     * 2(R-1) intra-server hops per chunk.
     */
    static Plan torus2d(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.TORUS_2D);
        int n = call.nranks();
        int lanes = ch.count();
        int S = g.S;
        int R = g.R;
        return Tiles.perLane(Algorithm.TORUS_2D, Collective.ALL_REDUCE, call, lanes, Math.multiplyExact(maxMessage, (long) n),
                (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                List<Link> prev = Steps.linkIf(S > 1, g.rank(s - 1, i), c);
                List<Link> next = Steps.linkIf(S > 1, g.rank(s + 1, i), c);
                List<Link> left = Steps.linkIf(R > 1, g.rank(s, i - 1), c);
                List<Link> right = Steps.linkIf(R > 1, g.rank(s, i + 1), c);
                for (int t = 1; t <= S; t++) {
                    int k = s - t;
                    if (R > 1) {
                        b.add(x, c, Step.send(part(true, ps, pl, g, i - 1, k), right.get(0)));
                        for (int d = 2; d < R; d++) {
                            b.add(x, c, Step.recvReduceSend(left, part(true, ps, pl, g, i - d, k), right));
                        }
                    }
                    List<Link> from = Steps.join(left, t > 1 ? prev : List.of());
                    if (t < S) {
                        b.add(x, c, Steps.of(from, part(true, ps, pl, g, i, k), null, next, false));
                    } else {
                        b.add(x, c, Steps.of(from, part(true, ps, pl, g, i, k), part(false, ps, pl, g, i, k),
                                Steps.join(next, right), true));
                    }
                }
                for (int u = 0; u < S; u++) {
                    int k = s - u;
                    if (u > 0) {
                        b.add(x, c, Steps.of(prev, null, part(false, ps, pl, g, i, k),
                                Steps.join(u < S - 1 ? next : List.of(), right), false));
                    }
                    for (int d = 1; d < R; d++) {
                        b.add(x, c, Steps.of(left, null, part(false, ps, pl, g, i - d, k), d < R - 1 ? right : List.of(), false));
                    }
                }
            }
        });
    }
}
