// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.transport.net.IbFake;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * kill -9 of one rank process in the middle of all-reduces over the IB net ({@code JCCL_NET=IB}
 * on the fake libibverbs, every rank claiming a host of its own so that every connection is the
 * network transport's): every survivor fails with a JcclException naming the killed rank, its pid
 * and host within {@link #NAMED_WITHIN} (never a hang, never the communicator's timeout), then
 * closes or aborts its communicator leaving no queue pair, memory registration or completion
 * queue of the fake alive. Cases: 2 and 3 processes, Simple with 4 MiB messages and LL with
 * 1 MiB, InfiniBand and RoCE (two queue pairs per connection), with the keep-alive and without it
 * (JCCL_KEEPALIVE_MS=0: the IB net alone must find the death, through the side sockets the dead
 * process's kernel closes); the victim and the moment are drawn (the seed is printed, {@code -Djccl.test.seed}
 * repeats a draw). Runs in the fake-verbs JVM.
 */
class IbPeerKillTest {
    /**
     * The survivors' bound from the kill to their error (PeerKillTest's for sockets), far below
     * JCCL_TIMEOUT ({@link #TIMEOUT_S} s) and below the fake's queue pair retry budget (2 s):
     * measured 45 to 151 ms on the 2-core development VM.
     */
    private static final Duration NAMED_WITHIN = Duration.ofSeconds(2);
    private static final int TIMEOUT_S = 30;
    private static Path lib;

    record Run(int processes, String device, String protocol, long count, boolean keepAlive, boolean abort, int victim,
            int delayMillis) {
        @Override
        public String toString() {
            return processes + " processes, " + device + ", " + protocol + ", " + (count * 4 >> 10) + " KiB" + (keepAlive ? "" : ", JCCL_KEEPALIVE_MS=0")
                    + (abort ? ", abort" : ", close") + ": kill rank " + victim + " " + delayMillis + " ms in";
        }
    }

    static List<Run> runs() {
        long seed = Long.getLong("jccl.test.seed", System.nanoTime());
        System.out.println("IbPeerKillTest seed " + seed);
        Random rnd = new Random(seed);
        List<Run> runs = new ArrayList<>();
        // processes, device (RoCE with 2 queue pairs per connection), protocol, count, keep-alive, abort
        Object[][] cases = {
            {2, "fake_ib0:1", "Simple", 1L << 20, true, false},
            {2, "fake_ib0:1", "Simple", 1L << 20, false, true},
            {2, "fake_ib0:1", "LL", 1L << 18, false, false},
            {3, "fake_roce0:1:eth", "Simple", 1L << 20, true, true},
            {3, "fake_ib0:1", "Simple", 1L << 20, false, false},
        };
        for (Object[] c : cases) {
            int n = (Integer) c[0];
            runs.add(new Run(n, (String) c[1], (String) c[2], (Long) c[3], (Boolean) c[4], (Boolean) c[5], rnd.nextInt(n),
                    rnd.nextInt(300)));
        }
        return runs;
    }

    @BeforeAll
    static void fakeVerbs() throws Exception {
        lib = IbFake.library();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    @Timeout(150)
    void everySurvivorNamesTheKilledRankAndLeaksNothing(Run run) throws Exception {
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(90));
        try (BootstrapRoot root = BootstrapRoot.start(config);
             RankProcesses job = new RankProcesses(root, run.processes(), r -> env(run, r), List.of("-Djccl.ibverbs.lib=" + lib),
                     false, IbKillRank.class, Long.toString(run.count()), run.abort() ? "abort" : "close")) {
            try {
                if (!job.awaitAll("looping", 120)) {
                    fail("the job did not start:\n" + outputs(job));
                }
                Thread.sleep(run.delayMillis());
                long killed = job.signal(run.victim(), "KILL");
                assertThat(job.awaitExit(run.victim(), 10)).isTrue();
                String named = "rank " + run.victim() + " (pid " + job.pid(run.victim()) + " on ";
                for (int r = 0; r < run.processes(); r++) {
                    if (r == run.victim()) {
                        continue;
                    }
                    if (!job.awaitExit(r, TIMEOUT_S + 30)) {
                        fail("rank " + r + " still runs " + (TIMEOUT_S + 30) + " s after rank " + run.victim() + " was killed:\n"
                                + job.output(r) + job.threadDump(r));
                    }
                    String out = job.output(r);
                    RankProcesses.Line failed = job.firstLine(r, l -> l.startsWith("failed: "));
                    assertThat(failed).as("rank %d's failure:\n%s", r, out).isNotNull();
                    assertThat(failed.text()).as("rank %d's failure", r).startsWith("failed: io.jccl.JcclException").contains(named);
                    Duration took = Duration.ofNanos(failed.nanos() - killed);
                    System.out.printf("IbPeerKillTest %s: rank %d failed %d ms after the kill: %s%n", run, r, took.toMillis(),
                            failed.text());
                    System.out.printf("IbPeerKillTest %s: rank %d %s, %s%n", run, r, job.firstLine(r, l -> l.startsWith("closed in ")),
                            job.firstLine(r, l -> l.startsWith("live ")));
                    assertThat(took).as("rank %d's failure: %s", r, failed.text()).isLessThan(NAMED_WITHIN);
                    assertThat(job.exitValue(r)).as(out).isEqualTo(3);
                    RankProcesses.Line live = job.firstLine(r, l -> l.startsWith("live "));
                    assertThat(live).as(out).isNotNull();
                    assertThat(live.text()).as("rank %d's verbs objects after the close:\n%s", r, out).startsWith("live qp=0 mr=0 cq=0 ");
                }
                assertThat(job.shmFiles()).as("jccl's files in /dev/shm").allMatch(p -> p.getFileName().toString().startsWith("jccl-fake-ib-"));
            } finally {
                // the fake's file of the killed rank, if no survivor's verbs found it stale
                Files.deleteIfExists(Path.of("/dev/shm/jccl-fake-ib-" + job.pid(run.victim())));
            }
        }
    }

    private static Map<String, String> env(Run run, int rank) {
        Map<String, String> env = new HashMap<>();
        env.put("JCCL_HOSTID", "ibhost" + rank);
        env.put("JCCL_NET", "IB");
        env.put("JCCL_FAKE_IB_DEVICES", run.device());
        env.put("JCCL_IB_QPS_PER_CONNECTION", run.device().endsWith(":eth") ? "2" : "1");
        env.put("JCCL_PROTO", run.protocol());
        env.put("JCCL_TIMEOUT", Integer.toString(TIMEOUT_S));
        if (!run.keepAlive()) {
            env.put("JCCL_KEEPALIVE_MS", "0");
        }
        return env;
    }

    private static String outputs(RankProcesses job) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < job.size(); r++) {
            b.append("--- rank ").append(r).append('\n').append(job.output(r));
        }
        return b.toString();
    }
}
