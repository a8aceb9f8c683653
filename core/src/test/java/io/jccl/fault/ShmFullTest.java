// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.ChildJvm;
import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job of two processes whose host's /dev/shm is nearly full (a 1 MiB tmpfs mounted over it in a
 * mount namespace of their own, so the host's is untouched): the first all-reduce fails on every
 * rank, the rank that made the FIFO file with a SYSTEM_ERROR naming /dev/shm, the file, its size
 * and JCCL_SHM_DISABLE, instead of a bus error in some later access. Needs root and unshare(1);
 * skipped, saying so, without them.
 */
class ShmFullTest {
    @Test
    @Timeout(180)
    void aFullDevShmIsASystemErrorNamingItsWayOut(@TempDir Path dir) throws Exception {
        Config config = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
        try (BootstrapRoot root = BootstrapRoot.start(config)) {
            StringBuilder script = new StringBuilder("mount -t tmpfs -o size=1m jccl-test-shm /dev/shm || exit 97\n");
            for (int r = 0; r < 2; r++) {
                ProcessBuilder pb = ChildJvm.rank(root.id(), r, 2, List.of(), ChurnRank.class.getName());
                pb.environment().put("JCCL_PROTO", "Simple");
                List<String> words = new ArrayList<>(List.of("env", "-i"));
                for (Map.Entry<String, String> e : pb.environment().entrySet()) {
                    words.add(e.getKey() + "=" + e.getValue());
                }
                words.addAll(pb.command());
                for (String w : words) {
                    script.append('\'').append(w.replace("'", "'\\''")).append("' ");
                }
                script.append("> '").append(dir.resolve("rank" + r)).append("' 2>&1 &\n");
            }
            script.append("wait\n");
            Process p = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "bash", "-c", script.toString())
                    .redirectErrorStream(true).start();
            String said;
            try {
                assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("both ranks ended").isTrue();
                said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                p.destroyForcibly();
            }
            Assumptions.assumeTrue(p.exitValue() != 97 && !said.contains("unshare:"),
                    "no mount namespace with a tmpfs of its own here (root and unshare(1) are needed): " + said);
            String r0 = Files.readString(dir.resolve("rank0"));
            String r1 = Files.readString(dir.resolve("rank1"));
            String both = r0 + "\n" + r1;
            assertThat(r0).as(both).contains("failed: ");
            assertThat(r1).as(both).contains("failed: ");
            assertThat(both).as("the rank that made the file says why")
                    .containsPattern("system_error: /dev/shm is full: the shared-memory FIFO /dev/shm/jccl-\\S+ needs \\d+ bytes")
                    .contains("JCCL_SHM_DISABLE=1")
                    .doesNotContain("unsafe memory access");
        }
    }
}
