// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer that never makes the matching call: the rank waiting for it times out (JCCL_TIMEOUT=3)
 * with an error that says what it saw of the peer: a live process of this host that sent
 * nothing, or, over sockets, a network connection that was never made.
 */
class SilentPeerTest {
    @ParameterizedTest(name = "JCCL_SHM_DISABLE={0}")
    @CsvSource({
        "0, 'rank 1 (pid PID on HOST) is alive but sent nothing: it did not make the matching call, or it is stopped'",
        "1, 'the network connection from rank 1 (pid PID on HOST) was never made'"
    })
    @Timeout(120)
    void theTimeoutSaysWhatItSawOfThePeer(String shmDisable, String expected) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("JCCL_TIMEOUT", "3", "JCCL_SHM_DISABLE", shmDisable));
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
        try (BootstrapRoot root = BootstrapRoot.start(config);
             RankProcesses job = new RankProcesses(root, 2, env, false, SilentRank.class)) {
            assertThat(job.awaitExit(0, 60)).as("rank 0 gave up").isTrue();
            String out = job.output(0);
            assertThat(job.exitValue(0)).as(out).isEqualTo(3);
            String[] around = expected.replace("PID", Long.toString(job.pid(1))).split("HOST");
            assertThat(out).contains("timeout").contains("no progress for 3 s")
                    .containsPattern(java.util.regex.Pattern.quote(around[0]) + "\\S+" + java.util.regex.Pattern.quote(around[1]));
        }
    }
}
