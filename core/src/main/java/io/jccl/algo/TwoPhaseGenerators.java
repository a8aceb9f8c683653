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
 * The two-phase hierarchical algorithms the fine-grained pipeline is measured against: one level
 * of links works while the other waits. All-gather runs the inter-server ring of each column
 * first (each rank gathering its column's S blocks), then the intra-server full mesh of those
 * blocks; gathering inside the server first would carry every block R times across servers.
 * Reduce-scatter is the mirror: the full mesh reduces, into scratch, the partial sums of the
 * server for the rank's column, then the column's ring reduce-scatters them across servers.
 *
 * <p>Not planned per rank: every rank is laid out and the planned ranks' steps kept
 * ({@link Tiles}), so a plan is correct for any ranks but costs the whole job's steps.
 */
final class TwoPhaseGenerators {
    private TwoPhaseGenerators() {
    }

    static Plan allGather(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.HIER_2PHASE);
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.HIER_2PHASE, Collective.ALL_GATHER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                for (int t = 0; t < g.S; t++) {
                    Region out = Region.output(g.rank(s - t, i) * count + ps, pl);
                    List<Link> to = Steps.linkIf(t < g.S - 1, g.rank(s + 1, i), c);
                    b.add(x, c, t == 0 ? Steps.of(List.of(), Region.input(ps, pl), out, to, false)
                            : Steps.of(List.of(new Link(g.rank(s - 1, i), c)), null, out, to, false));
                }
                List<Link> locals = g.localPeers(x, c);
                if (locals.isEmpty()) {
                    continue;
                }
                for (int q = 0; q < g.S; q++) {
                    b.add(x, c, Step.send(Region.output(g.rank(q, i) * count + ps, pl), locals.toArray(Link[]::new)));
                    for (Link l : locals) {
                        b.add(x, c, Step.recv(l, Region.output(g.rank(q, g.index(l.peer())) * count + ps, pl)));
                    }
                }
            }
        });
    }

    static Plan reduceScatter(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.HIER_2PHASE);
        int n = call.nranks();
        long count = call.count();
        int S = g.S;
        return Tiles.perLane(Algorithm.HIER_2PHASE, Collective.REDUCE_SCATTER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                List<Link> locals = g.localPeers(x, c);
                // The server's partial sum of block (q, i): in scratch once the mesh has reduced it.
                Region[] partial = new Region[S];
                for (int q = 0; q < S; q++) {
                    Region in = Region.input(g.rank(q, i) * count + ps, pl);
                    if (locals.isEmpty()) {
                        partial[q] = in;
                        continue;
                    }
                    for (Link l : locals) {
                        b.add(x, c, Step.send(Region.input(g.rank(q, g.index(l.peer())) * count + ps, pl), l));
                    }
                    boolean last = S == 1;
                    partial[q] = last ? Region.output(ps, pl) : Region.scratch((c * S + q) * maxMessage, pl);
                    b.add(x, c, Step.recvReduceCopy(locals, in, partial[q], last));
                }
                if (S == 1) {
                    if (locals.isEmpty()) {
                        b.add(x, c, Step.localCopy(partial[0], Region.output(ps, pl), true));
                    }
                    continue;
                }
                List<Link> prev = List.of(new Link(g.rank(s - 1, i), c));
                List<Link> next = List.of(new Link(g.rank(s + 1, i), c));
                b.add(x, c, Step.send(partial[Math.floorMod(s - 1, S)], next.get(0)));
                for (int t = 2; t < S; t++) {
                    b.add(x, c, Step.recvReduceSend(prev, partial[Math.floorMod(s - t, S)], next));
                }
                b.add(x, c, Step.recvReduceCopy(prev, partial[s], Region.output(ps, pl), true));
            }
        });
    }
}
