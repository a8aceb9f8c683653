// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three processes that make different calls ({@link MismatchRank}), over /dev/shm and over sockets
 * ({@code JCCL_SHM_DISABLE=1}), for each kind: another collective, count, type (the same bytes),
 * operation, or roots that leave every rank waiting for another (no message shows it; the
 * heartbeats carry each rank's call). Every rank fails within a second of its call, naming both
 * calls. CallMismatchTest has threads; NamespaceMismatchTest (bench) hosts of their own.
 */
class ProcessCallMismatchTest {
    @ParameterizedTest(name = "{0}, JCCL_SHM_DISABLE={1}")
    @CsvSource({"collective, 0", "count, 0", "type, 0", "op, 0", "root, 0", "collective, 1", "count, 1", "type, 1", "op, 1",
        "root, 1"})
    @Timeout(120)
    void everyRankFailsWithinASecondNamingBothCalls(String kind, String shmDisable) throws Exception {
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
        try (BootstrapRoot root = BootstrapRoot.start(config);
             RankProcesses job = new RankProcesses(root, 3, Map.of("JCCL_TIMEOUT", "30", "JCCL_SHM_DISABLE", shmDisable,
                     "JCCL_ALGO", "ring"), false, MismatchRank.class, kind)) {
            for (int r = 0; r < 3; r++) {
                assertThat(job.awaitExit(r, 60)).isTrue();
                String out = job.output(r);
                String failed = out.lines().filter(l -> l.startsWith("failed")).findFirst().orElse(out);
                System.out.println("ProcessCallMismatchTest " + kind + ", JCCL_SHM_DISABLE=" + shmDisable + ", rank " + r + ": " + failed);
                assertThat(job.exitValue(r)).as(out).isEqualTo(3);
                Matcher m = Pattern.compile("failed after (\\d+) ms: ").matcher(out);
                assertThat(m.find()).as(out).isTrue();
                assertThat(Long.parseLong(m.group(1))).as(out).isLessThan(1000);
                // A message's stamp, or the calls the ranks compared, name the other call.
                assertThat(out).containsPattern("rank \\d is at \\S+ #1 \\([^)]*\\) but rank \\d (is at|sent a message of) (\\S+ #1 \\(|another call)")
                        .contains("every rank must make the same collectives in the same order");
            }
        }
    }
}
