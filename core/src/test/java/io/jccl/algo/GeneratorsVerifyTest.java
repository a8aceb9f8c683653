// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;
import io.jccl.verify.VerifyResult;
import io.jccl.verify.Verifier;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Every generator, proved by the symbolic verifier over rank counts, channels, sizes and tilings. */
class GeneratorsVerifyTest {
    private static final long SEED = 20261122L;

    /** Counts that do not divide evenly, the empty and the single element among them. */
    private static long[] counts(int n) {
        long big = n >= 31 ? 97 : 1001;
        return new long[] {0, 1, 7, n + 1L, big};
    }

    private static void check(Collective c, Algorithm a, int n, int channels, long count, long maxMessage, int root) {
        Call call = new Call(c, n, count, root);
        Plan plan = Algorithms.plan(call, a, Channels.flat(n, channels), maxMessage);
        for (boolean inPlace : c == Collective.ALL_TO_ALL ? new boolean[] {false} : new boolean[] {false, true}) {
            VerifyResult r = Verifier.collective(plan, call, inPlace, 2);
            assertThat(r.ok()).as("%s %s n=%d channels=%d count=%d maxMessage=%d root=%d inPlace=%s:%n%s",
                    c, a.id(), n, channels, count, maxMessage, root, inPlace, r.describe()).isTrue();
        }
    }

    @Test
    void everyGeneratorIsCorrectForEveryRankCount() {
        Random rnd = new Random(SEED);
        int cases = 0;
        for (Collective c : Collective.values()) {
            if (c == Collective.SEND_RECV) {
                continue;
            }
            for (Algorithm a : Algorithms.supported(c)) {
                for (int n : Matrix.rankCounts()) {
                    if (a.needsServers() && n > 16 && !Matrix.FULL) {
                        continue; // one server of many ranks: HierarchicalVerifyTest lays them on servers
                    }
                    for (long count : counts(n)) {
                        // Channel counts and message sizes: all combinations in the full run, a
                        // seeded sample otherwise; 1-element messages make every element its own tile.
                        int[] channelChoices = Matrix.FULL ? new int[] {1, 2, 3} : new int[] {1 + rnd.nextInt(3)};
                        long[] messageChoices = Matrix.FULL ? new long[] {1, 3, 64}
                                : new long[] {new long[] {1, 3, 64}[rnd.nextInt(3)]};
                        if (n >= 31 && count > 7 && !Matrix.FULL) {
                            messageChoices = new long[] {64};
                        }
                        for (int ch : channelChoices) {
                            for (long m : messageChoices) {
                                int root = c.rooted() ? rnd.nextInt(n) : 0;
                                check(c, a, n, ch, count, m, root);
                                cases++;
                            }
                        }
                    }
                }
            }
        }
        assertThat(cases).isGreaterThan(100);
    }

    @Test
    void everyRootOfRootedCollectives() {
        for (Collective c : List.of(Collective.BROADCAST, Collective.REDUCE, Collective.GATHER, Collective.SCATTER)) {
            for (int n : new int[] {2, 3, 5, 8}) {
                for (int root = 0; root < n; root++) {
                    check(c, Algorithms.supported(c).get(0), n, 2, 11, 2, root);
                }
            }
        }
    }

    @Test
    void schedulesAreDeterministicAndPlanWholeTilesOnce() {
        Call call = new Call(Collective.ALL_REDUCE, 6, 1000, 0);
        Plan p = Algorithms.plan(call, Algorithm.RING, Channels.flat(6, 2), 10);
        // 1000 elements in tiles of 10 * 6 ranks * 2 channels = 120: 8 full tiles and one of 40.
        assertThat(p.segments(0)).hasSize(2);
        assertThat(p.segments(0).get(0).repeat()).isEqualTo(8);
        assertThat(p.segments(0).get(1).firstShift()).isEqualTo(960);
        assertThat(Algorithms.plan(call, Algorithm.RING, Channels.flat(6, 2), 10).segments(0).get(0).schedule().toString())
                .isEqualTo(p.segments(0).get(0).schedule().toString());
    }

    @Test
    void ringAllReduceMovesTwoNMinusOneChunksPerRank() {
        int n = 5;
        Call call = new Call(Collective.ALL_REDUCE, n, 100, 0);
        Plan p = Algorithms.plan(call, Algorithm.RING, Channels.flat(n, 1), 20);
        // One tile of 100 elements: 5 chunks of 20; each rank sends 2(n-1) chunks to its successor.
        var volume = p.segments(0).get(0).schedule().volume();
        assertThat(volume).hasSize(n);
        assertThat(volume.values()).allMatch(v -> v == 2L * (n - 1) * 20);
    }

    @Test
    void unsupportedPairsAreRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Algorithms.generator(Collective.ALL_GATHER, Algorithm.TREE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tree does not plan allgather");
    }

    @Test
    void randomPointToPointGroupsComplete() {
        Random rnd = new Random(SEED + 1);
        for (int trial = 0; trial < (Matrix.FULL ? 400 : 80); trial++) {
            int n = 1 + rnd.nextInt(9);
            int lanes = 1 + rnd.nextInt(3);
            long maxMessage = 1 + rnd.nextInt(8);
            List<List<io.jccl.plan.P2pOp>> ops = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                ops.add(new ArrayList<>());
            }
            int pairs = rnd.nextInt(3 * n + 1);
            for (int i = 0; i < pairs; i++) {
                int a = rnd.nextInt(n);
                int b = rnd.nextInt(n);
                long bytes = rnd.nextInt(40);
                // Each rank lists its operations in its own order: insert at random positions.
                List<io.jccl.plan.P2pOp> la = ops.get(a);
                List<io.jccl.plan.P2pOp> lb = ops.get(b);
                insertKeepingPeerOrder(la, io.jccl.plan.P2pOp.send(b, bytes), rnd);
                insertKeepingPeerOrder(lb, io.jccl.plan.P2pOp.recv(a, bytes), rnd);
            }
            Plan plan = P2pPlanner.plan(n, ops, maxMessage, lanes);
            VerifyResult r = Verifier.pointToPoint(plan, ops, 1);
            assertThat(r.ok()).as("trial %d n=%d lanes=%d max=%d ops=%s:%n%s", trial, n, lanes, maxMessage, ops, r.describe()).isTrue();
        }
    }

    /** Inserts after every operation of the same direction and peer, so pairs stay matched in order. */
    private static void insertKeepingPeerOrder(List<io.jccl.plan.P2pOp> l, io.jccl.plan.P2pOp op, Random rnd) {
        int last = -1;
        for (int i = 0; i < l.size(); i++) {
            if (l.get(i).send() == op.send() && l.get(i).peer() == op.peer()) {
                last = i;
            }
        }
        l.add(last + 1 + rnd.nextInt(l.size() - last), op);
    }
}
