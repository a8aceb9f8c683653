package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two processes that make different calls with the same bytes (float32 and int32 all-reduces):
 * both fail within a second, each naming both calls and both ranks (the messages' stamps), over
 * /dev/shm and over sockets (the stamp rides in the socket frames). And three processes whose
 * roots leave every rank waiting for another (no message shows it): the heartbeats carry each
 * rank's call, so every rank fails within a second naming both calls. CallMismatchTest has threads
 * and each kind of mismatch.
 */
class ProcessCallMismatchTest {
    @org.junit.jupiter.params.ParameterizedTest(name = "JCCL_SHM_DISABLE={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"0", "1"})
    @Timeout(120)
    void processesMakingDifferentCallsBothFailWithinASecondNamingBoth(String shmDisable) throws Exception {
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
        try (BootstrapRoot root = BootstrapRoot.start(config);
             RankProcesses job = new RankProcesses(root, 2, Map.of("JCCL_TIMEOUT", "30", "JCCL_SHM_DISABLE", shmDisable), false, MismatchRank.class)) {
            for (int r = 0; r < 2; r++) {
                assertThat(job.awaitExit(r, 60)).isTrue();
                String out = job.output(r);
                assertThat(job.exitValue(r)).as(out).isEqualTo(3);
                assertThat(out).containsPattern("failed after \\d{1,3} ms: ")
                        // A message's stamp, or the heartbeat of a rank that waited long, names the other call.
                        .containsPattern("rank 0 is at allreduce #0 \\(1024 float32, sum\\) but rank 1 (sent a message of|is at) allreduce #0 "
                                + "\\(1024 int32, sum\\)|rank 1 is at allreduce #0 \\(1024 int32, sum\\) but rank 0 (sent a message of|is at) "
                                + "allreduce #0 \\(1024 float32, sum\\)");
            }
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "JCCL_SHM_DISABLE={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"0", "1"})
    @Timeout(120)
    void rootsThatLeaveEveryRankWaitingFailWithinASecondNamingBoth(String shmDisable) throws Exception {
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
        try (BootstrapRoot root = BootstrapRoot.start(config);
             RankProcesses job = new RankProcesses(root, 3, Map.of("JCCL_TIMEOUT", "30", "JCCL_SHM_DISABLE", shmDisable,
                     "JCCL_ALGO", "ring"), false, MismatchRank.class, "root")) {
            for (int r = 0; r < 3; r++) {
                assertThat(job.awaitExit(r, 60)).isTrue();
                String out = job.output(r);
                System.out.println("ProcessCallMismatchTest root, JCCL_SHM_DISABLE=" + shmDisable + ", rank " + r + ": " + out.strip());
                assertThat(job.exitValue(r)).as(out).isEqualTo(3);
                assertThat(out).containsPattern("failed after \\d{1,3} ms: ")
                        .containsPattern("rank 0 is at broadcast #0 \\(1024 float32, root 1\\) but rank [12] is at broadcast #0 "
                                + "\\(1024 float32, root 0\\)|rank [12] is at broadcast #0 \\(1024 float32, root 0\\) but rank 0 is at "
                                + "broadcast #0 \\(1024 float32, root 1\\)");
            }
        }
    }
}
