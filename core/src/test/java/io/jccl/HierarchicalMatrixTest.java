// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.proto.Protocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The host engine's correctness matrix for the algorithms of docs/hierarchical.md, on 2x2, 2x4 and
 * 4x2 servers emulated in one process (each rank's JCCL_HOSTID names its server), and the recursive
 * ones and PAT also on 3, 5 and 6 ranks (not powers of two): every protocol, rotating through data
 * types, reductions, counts (the million-element one now and then) and in-place forms; checked as
 * HostCollectivesMatrixTest checks (same seed property). -Pfull takes every type and reduction.
 */
class HierarchicalMatrixTest {
    private static final boolean FULL = Boolean.getBoolean("jccl.test.full");
    private static final int[][] LAYOUTS = {{2, 2}, {2, 4}, {4, 2}};
    private static final long[] COUNTS = {0, 1, 7, 1000, 1_048_579};
    private static final Harness HARNESS = new Harness(Config.defaults().withBuffSize(256 << 10));

    static List<HostCollectivesMatrixTest.Case> cases() {
        List<HostCollectivesMatrixTest.Case> cases = new ArrayList<>();
        java.util.Random rnd = new java.util.Random(HostCollectivesMatrixTest.SEED);
        int k = 0;
        DataType[] types = DataType.values();
        for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER, Collective.ALL_TO_ALL)) {
            for (Algorithm a : Algorithms.supported(c)) {
                if (a.ordinal() <= Algorithm.DIRECT.ordinal()) {
                    continue; // HostCollectivesMatrixTest's
                }
                List<int[]> layouts = new ArrayList<>(List.of(LAYOUTS));
                if (!a.needsServers()) {
                    layouts.addAll(List.of(new int[] {3, 1}, new int[] {5, 1}, new int[] {1, 6}));
                }
                for (int[] sr : layouts) {
                    int n = sr[0] * sr[1];
                    for (Protocol p : Protocol.values()) {
                        // By default two cases per cell on 4 ranks, one on 8 (8 threads on 2 cores are slow).
                        int perCell = FULL ? types.length * 6 : n <= 4 ? 2 : 1;
                        for (int i = 0; i < perCell; i++) {
                            k++;
                            DataType t = types[FULL ? i % types.length : (k * 7 + i) % types.length];
                            RedOp op = c.reduces() ? HostCollectivesMatrixTest.op(FULL ? i / types.length : k, t) : null;
                            long count = COUNTS[k % 4];
                            if (k % 29 == 0 && (FULL || p == Protocol.SIMPLE && n <= 4)) {
                                count = COUNTS[4]; // by default only in Simple on 4 ranks: 8 threads on 2 cores are slow
                            }
                            boolean[] ip = HostCollectivesMatrixTest.inPlaceChoices(c);
                            cases.add(new HostCollectivesMatrixTest.Case(c, t, op, n, count, ip[(k / 2) % ip.length], a, p,
                                    1 + (k / 3) % 2, 0, sr[0]));
                        }
                    }
                }
            }
        }
        return cases;
    }

    @TestFactory
    List<DynamicTest> matrix() {
        List<HostCollectivesMatrixTest.Case> cases = cases();
        Set<String> covered = new HashSet<>();
        for (HostCollectivesMatrixTest.Case c : cases) {
            covered.add(c.coll() + "/" + c.algo());
        }
        assertThat(covered).hasSize(11);
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> HostCollectivesMatrixTest.run(HARNESS, c)))
                .toList();
    }

    @AfterAll
    static void close() {
        HARNESS.close();
    }

    /** Configurations of ranks whose host identities are {@code hosts}, all forcing {@code algo}. */
    private static List<Config> ranksOn(String algo, String... hosts) {
        List<Config> l = new ArrayList<>();
        for (String h : hosts) {
            l.add(Config.defaults().withAlgorithms(algo).withHostId(h));
        }
        return l;
    }

    @Test
    void forcingALayeredAlgorithmOnUnevenServersFailsNamingTheLayout() {
        Communicator[] comms = Communicator.initAll(ranksOn("hierring", "a", "a", "a", "b", "b"));
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(64);
            assertThatThrownBy(() -> comms[0].allReduce(buf, buf, 16, DataType.FLOAT32, RedOp.SUM, s))
                    .isInstanceOf(JcclException.class)
                    .hasMessageContaining("hierring")
                    .hasMessageContaining("servers of 3+2 ranks")
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_USAGE));
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void forcingAnAlgorithmOnTheWrongCollectiveFails() {
        Communicator[] comms = Communicator.initAll(ranksOn("torus2d", "a", "a", "b", "b"));
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(256);
            assertThatThrownBy(() -> comms[0].allGather(buf, buf, 4, DataType.FLOAT32, s))
                    .isInstanceOf(JcclException.class)
                    .hasMessageContaining("JCCL_ALGO")
                    .hasMessageContaining("allgather");
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void ranksJoiningThroughTheBootstrapFormServersFromTheirHostIdentities() throws Exception {
        // As on the emulated fabric: each rank names its server in JCCL_HOSTID; rank 0's JCCL_ALGO
        // and JCCL_INTER_BW reach all. The layered algorithm then runs across the 2 x 2 servers.
        Config loopback = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(java.time.Duration.ofSeconds(20));
        int n = 4;
        try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(loopback)) {
            io.jccl.bootstrap.CommId id = root.id();
            List<Communicator> comms = CommunicatorInitTest.ranks(n, r -> Communicator.init(id, n, r,
                    (r == 0 ? loopback.withAlgorithms("pipeline").withInterServer(0.5, Double.NaN) : loopback)
                            .withHostId("server-" + r / 2)));
            try {
                for (Communicator c : comms) {
                    assertThat(c.choiceFor(Collective.ALL_GATHER, 1000, DataType.INT32).algorithm()).isEqualTo("pipeline");
                }
                List<Boolean> ok = CommunicatorInitTest.ranks(n, r -> {
                    Communicator c = comms.get(r);
                    try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                        MemorySegment out = arena.allocate(4L * 1000 * n);
                        MemorySegment in = out.asSlice(4L * 1000 * r, 4L * 1000);
                        for (int i = 0; i < 1000; i++) {
                            in.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i, r * 1_000_000 + i);
                        }
                        c.allGather(in, out, 1000, DataType.INT32, s);
                        s.synchronize();
                        for (int b = 0; b < n; b++) {
                            for (int i = 0; i < 1000; i += 97) {
                                if (out.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, b * 1000L + i) != b * 1_000_000 + i) {
                                    return false;
                                }
                            }
                        }
                        return true;
                    }
                });
                assertThat(ok).containsOnly(true);
            } finally {
                comms.forEach(Communicator::close);
            }
        }
        // Servers of 3 and 1 ranks: the layout every rank computed is named when hierring is forced.
        try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(loopback)) {
            io.jccl.bootstrap.CommId id = root.id();
            List<Communicator> comms = CommunicatorInitTest.ranks(n, r -> Communicator.init(id, n, r,
                    loopback.withAlgorithms("hierring").withHostId(r < 3 ? "big" : "small")));
            try {
                List<String> errors = CommunicatorInitTest.ranks(n, r -> {
                    try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                        MemorySegment buf = arena.allocate(64);
                        comms.get(r).allReduce(buf, buf, 16, DataType.FLOAT32, RedOp.SUM, s);
                        return "no error";
                    } catch (JcclException e) {
                        return e.getMessage();
                    }
                });
                assertThat(errors).allSatisfy(m -> assertThat(m).contains("servers of 3+1 ranks"));
            } finally {
                comms.forEach(Communicator::close);
            }
        }
    }

    @Test
    void hostIdentitiesMakeServersAndEveryRankChoosesAlike() {
        // 2 x 4 in one process: every rank reports the same choice per size, from what they share.
        Communicator[] comms = Communicator.initAll(ranksOn("ring,tree,hierring,torus2d,rhd,butterfly",
                "s0", "s0", "s0", "s0", "s1", "s1", "s1", "s1"));
        try {
            for (long count : new long[] {2, 1 << 10, 1 << 20, 1 << 24}) {
                CallChoice first = comms[0].choiceFor(Collective.ALL_REDUCE, count, DataType.FLOAT32);
                for (Communicator c : comms) {
                    assertThat(c.choiceFor(Collective.ALL_REDUCE, count, DataType.FLOAT32)).isEqualTo(first);
                }
            }
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }
}
