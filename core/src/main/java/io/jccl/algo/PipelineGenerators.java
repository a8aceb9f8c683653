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
 * HCCL's fine-grained hierarchical pipeline on S servers of R ranks: the ranks of each local index
 * run the inter-server ring, and every ring step also moves the block it handles over the
 * intra-server full mesh, so both levels of links carry data at once. Blocks land directly in
 * their final place; in place, a rank's own block is never copied.
 *
 * <p>Not planned per rank: every rank is laid out and the planned ranks' steps kept
 * ({@link Tiles}), so a plan is correct for any ranks but costs the whole job's steps.
 */
final class PipelineGenerators {
    private PipelineGenerators() {
    }

    /**
     * Ring step t (0..S-1) brings rank (s, i) the block of rank (s-t, i) from the previous server;
     * the rank writes it, passes it to the next server and sends it to the R-1 other ranks of its
     * server, then receives from each of them the block their own ring step brought.
     */
    static Plan allGather(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.PIPELINE);
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.PIPELINE, Collective.ALL_GATHER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                List<Link> locals = g.localPeers(x, c);
                for (int t = 0; t < g.S; t++) {
                    int y = g.rank(s - t, i);
                    List<Link> to = Steps.join(Steps.linkIf(t < g.S - 1, g.rank(s + 1, i), c), locals);
                    Region out = Region.output(y * count + ps, pl);
                    b.add(x, c, t == 0 ? Steps.of(List.of(), Region.input(ps, pl), out, to, false)
                            : Steps.of(List.of(new Link(g.rank(s - 1, i), c)), null, out, to, false));
                    for (int j = 0; j < g.R; j++) {
                        if (j != i) {
                            b.add(x, c, Step.recv(new Link(g.rank(s, j), c), Region.output(g.rank(s - t, j) * count + ps, pl)));
                        }
                    }
                }
            }
        });
    }

    /**
     * The mirror image: in ring step t (1..S) every rank sends its input block of rank (s-t, j) to
     * rank (s, j) of its server, which adds them, with its own input, to the partial sum arriving
     * from the previous server and passes it on; step S completes the rank's own block.
     */
    static Plan reduceScatter(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.PIPELINE);
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.PIPELINE, Collective.REDUCE_SCATTER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                List<Link> locals = g.localPeers(x, c);
                for (int t = 1; t <= g.S; t++) {
                    int k = s - t;
                    for (int j = 0; j < g.R; j++) {
                        if (j != i) {
                            b.add(x, c, Step.send(Region.input(g.rank(k, j) * count + ps, pl), new Link(g.rank(s, j), c)));
                        }
                    }
                    List<Link> from = Steps.join(Steps.linkIf(t > 1, g.rank(s - 1, i), c), locals);
                    Region mine = Region.input(g.rank(k, i) * count + ps, pl);
                    b.add(x, c, t < g.S ? Steps.of(from, mine, null, List.of(new Link(g.rank(s + 1, i), c)), false)
                            : Steps.of(from, mine, Region.output(ps, pl), List.of(), true));
                }
            }
        });
    }

    /**
     * Across servers first, then inside: in round t (1..S-1) rank (s, i) sends server s+t's R blocks
     * to its column peer there, and forwards each block arriving from server s-t to the rank of its
     * server it is for (through one scratch slot), receiving the blocks the others forward to it;
     * round 0 is the exchange inside the server. Pipelined per block.
     */
    static Plan allToAll(Call call, Channels ch, long maxMessage) {
        Grid g = Grid.of(ch.layout(), Algorithm.PIPELINE);
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.PIPELINE, Collective.ALL_TO_ALL, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                int s = g.server(x);
                int i = g.index(x);
                b.add(x, c, Step.localCopy(Region.input(x * count + ps, pl), Region.output(x * count + ps, pl), false));
                for (int u = 1; u < g.R; u++) {
                    int to = g.rank(s, i + u);
                    int from = g.rank(s, i - u);
                    b.add(x, c, Step.send(Region.input(to * count + ps, pl), new Link(to, c)));
                    b.add(x, c, Step.recv(new Link(from, c), Region.output(from * count + ps, pl)));
                }
                for (int t = 1; t < g.S; t++) {
                    Link up = new Link(g.rank(s + t, i), c);
                    Link down = new Link(g.rank(s - t, i), c);
                    for (int k = 0; k < g.R; k++) {
                        b.add(x, c, Step.send(Region.input(g.rank(s + t, k) * count + ps, pl), up));
                        if (k != i) {
                            b.add(x, c, Step.recvCopySend(down, Region.scratch(c * maxMessage, pl), List.of(new Link(g.rank(s, k), c))));
                            continue;
                        }
                        b.add(x, c, Step.recv(down, Region.output(down.peer() * count + ps, pl)));
                        for (int j = 0; j < g.R; j++) {
                            if (j != i) {
                                b.add(x, c, Step.recv(new Link(g.rank(s, j), c), Region.output(g.rank(s - t, j) * count + ps, pl)));
                            }
                        }
                    }
                }
            }
        });
    }
}
