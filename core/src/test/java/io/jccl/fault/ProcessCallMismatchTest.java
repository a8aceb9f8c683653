package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two processes that make different calls with the same bytes (float32 and int32 all-reduces):
 * both fail within a second, each naming both calls and both ranks (the messages' stamps; over
 * /dev/shm here, CallMismatchTest has threads and each kind of mismatch).
 */
class ProcessCallMismatchTest {
    @org.junit.jupiter.api.Test
    @Timeout(120)
    void processesMakingDifferentCallsBothFailWithinASecondNamingBoth() throws Exception {
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
        try (BootstrapRoot root = BootstrapRoot.start(config);
             RankProcesses job = new RankProcesses(root, 2, Map.of("JCCL_TIMEOUT", "30"), false, MismatchRank.class)) {
            for (int r = 0; r < 2; r++) {
                assertThat(job.awaitExit(r, 60)).isTrue();
                String out = job.output(r);
                assertThat(job.exitValue(r)).as(out).isEqualTo(3);
                assertThat(out).containsPattern("failed after \\d{1,3} ms: ")
                        .containsPattern("rank 0 is at allreduce #0 \\(1024 float32, sum\\) but rank 1 sent a message of allreduce #0 "
                                + "\\(1024 int32, sum\\)|rank 1 is at allreduce #0 \\(1024 int32, sum\\) but rank 0 sent a message of "
                                + "allreduce #0 \\(1024 float32, sum\\)");
            }
        }
    }
}
