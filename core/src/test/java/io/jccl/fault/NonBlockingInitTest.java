// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Non-blocking init of 4 processes ({@link NonBlockingRank}): each init returns IN_PROGRESS at once
 * and becomes READY; with one rank's init failing (an interface that does not exist), every rank
 * learns it from {@code asyncError()} alone, naming that rank and the reason, rank 0 too, which
 * starts its init after the failure (the root lingers to tell it).
 */
class NonBlockingInitTest {
    private static final int N = 4;

    private static Config config() {
        return Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(30));
    }

    @Test
    @Timeout(120)
    void fourProcessesReturnAtOnceAndBecomeReady() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(config());
             RankProcesses job = new RankProcesses(root, N, Map.of(), false, NonBlockingRank.class)) {
            for (int r = 0; r < N; r++) {
                if (!job.awaitExit(r, 90)) {
                    fail("rank " + r + " still runs:\n" + job.output(r));
                }
                assertThat(job.output(r)).as("rank " + r).startsWith("returned IN_PROGRESS\n").contains("ready\n", "ok\n");
                assertThat(job.exitValue(r)).isZero();
            }
        }
    }

    @Test
    @Timeout(120)
    void aFailureDuringInitShowsUpInAsyncErrorOnEveryRank() throws Exception {
        int bad = 2;
        try (BootstrapRoot root = BootstrapRoot.start(config());
             RankProcesses job = new RankProcesses(root, N, Map.of(), false, NonBlockingRank.class, Integer.toString(bad), "0")) {
            for (int r = 0; r < N; r++) {
                if (!job.awaitExit(r, 90)) {
                    fail("rank " + r + " still runs:\n" + job.output(r));
                }
                RankProcesses.Line failed = job.firstLine(r, l -> l.startsWith("failed: "));
                assertThat(failed).as(job.output(r)).isNotNull();
                System.out.println("NonBlockingInitTest: rank " + r + ": " + failed.text());
                assertThat(failed.text()).as("rank " + r).startsWith("failed: FAILED ").contains("nosuchif0");
                if (r != bad) {
                    assertThat(failed.text()).as("rank " + r).contains("rank " + bad);
                }
                assertThat(job.exitValue(r)).isEqualTo(3);
            }
        }
    }
}
