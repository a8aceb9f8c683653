// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A rank of 4 processes stopped ({@code SIGSTOP}) or killed in the middle of checked all-reduces,
 * with the default keep-alive (a heartbeat a second): every survivor fails naming it and its pid
 * (within 3 s of the stop, 2 s of the kill), shrinks to the ranks still alive and runs checked
 * all-reduces there ({@link ChurnRank} {@code shrink}). A stopped rank that resumes fails saying it
 * was declared lost. One run of each in the default suite, 10 with {@code -Pfull}.
 */
class LostRankShrinkTest {
    private static final int N = 4;
    private static final boolean FULL = Boolean.getBoolean("jccl.test.full");

    static java.util.stream.IntStream runs() {
        return java.util.stream.IntStream.range(0, FULL ? 10 : 1);
    }

    @ParameterizedTest(name = "run {0}")
    @MethodSource("runs")
    @Timeout(180)
    void aStoppedRankIsNamedWithinThreeSecondsAndTheOthersShrinkAndGoOn(int run) throws Exception {
        int victim = new Random().nextInt(N);
        try (BootstrapRoot root = BootstrapRoot.start(config());
             RankProcesses job = new RankProcesses(root, N, Map.of(), false, ChurnRank.class, "shrink")) {
            start(job);
            long stopped = job.signal(victim, "STOP");
            for (int r = 0; r < N; r++) {
                // resumed while the others still run, it must learn it was declared lost (not that they exited)
                assertThat(r == victim || job.awaitLine(r, l -> l.startsWith("failed: "), 10) != null).as(job.output(r)).isTrue();
            }
            job.signal(victim, "CONT");
            survivorsNameAndShrink(job, victim, stopped, Duration.ofSeconds(3), "stopped");
            if (!job.awaitExit(victim, 30)) {
                fail("the resumed rank " + victim + " still runs:\n" + job.output(victim) + job.threadDump(victim));
            }
            RankProcesses.Line failed = job.firstLine(victim, l -> l.startsWith("failed: "));
            assertThat(failed).as(job.output(victim)).isNotNull();
            assertThat(failed.text()).contains("this rank was declared lost by the others");
            assertThat(job.firstLine(victim, l -> l.startsWith("shrunk: "))).as(job.output(victim)).isNull();
        }
    }

    @ParameterizedTest(name = "run {0}")
    @MethodSource("runs")
    @Timeout(180)
    void aKilledRankIsNamedWithinTwoSecondsAndTheOthersShrinkAndGoOn(int run) throws Exception {
        int victim = new Random().nextInt(N);
        try (BootstrapRoot root = BootstrapRoot.start(config());
             RankProcesses job = new RankProcesses(root, N, Map.of(), false, ChurnRank.class, "shrink")) {
            start(job);
            long killed = job.signal(victim, "KILL");
            survivorsNameAndShrink(job, victim, killed, Duration.ofSeconds(2), "killed");
            assertThat(job.shmFiles()).isEmpty();
        }
    }

    private static Config config() {
        return Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(90));
    }

    private static void start(RankProcesses job) throws InterruptedException {
        if (!job.awaitAll("looping", 120)) {
            StringBuilder b = new StringBuilder();
            for (int r = 0; r < job.size(); r++) {
                b.append("--- rank ").append(r).append('\n').append(job.output(r));
            }
            fail("the job did not start:\n" + b);
        }
    }

    private static void survivorsNameAndShrink(RankProcesses job, int victim, long at, Duration within, String what)
            throws InterruptedException {
        String named = "rank " + victim + " (pid " + job.pid(victim) + " ";
        int newRank = 0;
        for (int r = 0; r < N; r++) {
            if (r == victim) {
                continue;
            }
            if (!job.awaitExit(r, 60)) {
                fail("rank " + r + " still runs 60 s after rank " + victim + " was " + what + ":\n" + job.output(r) + job.threadDump(r));
            }
            RankProcesses.Line failed = job.firstLine(r, l -> l.startsWith("failed: "));
            assertThat(failed).as("rank %d's failure:\n%s", r, job.output(r)).isNotNull();
            assertThat(failed.text()).as("rank %d's failure", r).contains(named);
            Duration took = Duration.ofNanos(failed.nanos() - at);
            System.out.printf("LostRankShrinkTest: rank %d of %d %s; rank %d failed %d ms after: %s%n", victim, N, what, r,
                    took.toMillis(), failed.text());
            assertThat(took).as("rank %d's failure: %s", r, failed.text()).isLessThan(within);
            assertThat(job.exitValue(r)).as(job.output(r)).isZero();
            assertThat(job.firstLine(r, ("shrunk: rank " + newRank + " of " + (N - 1))::equals)).as(job.output(r)).isNotNull();
            newRank++;
        }
    }
}
