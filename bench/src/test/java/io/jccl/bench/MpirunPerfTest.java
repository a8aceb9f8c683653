// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mpirun -np 2 jccl perf allreduce}: Open MPI starts the processes, each finds its rank in
 * Open MPI's variables and the ranks meet through the id file rank 0 writes (docs/bootstrap.md).
 * Needs Open MPI's {@code mpirun} (Debian's openmpi-bin, which .ci/run installs); without it the
 * test is skipped with a reason, and fails where JCCL_REQUIRE_NATIVE_TESTS=true (CI).
 */
@Timeout(180)
class MpirunPerfTest {
    private static String mpirun() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, "mpirun");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
            throw new AssertionError("mpirun is not on PATH, and JCCL_REQUIRE_NATIVE_TESTS=true: .ci/run installs openmpi-bin");
        }
        Assumptions.abort("mpirun (Open MPI) is not installed; .ci/run installs openmpi-bin");
        return null;
    }

    @Test
    void perfUnderMpirunRunsOneRankPerProcessWithTheDataChecked() throws Exception {
        String mpirun = mpirun();
        String java = ProcessHandle.current().info().command().orElseThrow();
        String path = String.join(File.pathSeparator, List.of(System.getProperty("java.class.path", ""),
                System.getProperty("jdk.module.path", "")).stream().filter(x -> !x.isEmpty()).toList());
        List<String> cmd = new ArrayList<>(List.of(mpirun, "--oversubscribe", "-np", "2", "-x", "JCCL_SOCKET_IFNAME=lo",
                java, "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "-cp", path, Main.class.getName(),
                "perf", "allreduce", "-b", "8", "-e", "1M", "-f", "32", "-n", "2", "-w", "1", "-c", "2", "--min-time", "0",
                "--jit_warmup", "20"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("JCCL_") || k.startsWith("OMPI_COMM") || k.startsWith("SLURM_"));
        // Containers run tests as root, which mpirun refuses unless told.
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("# jccl perf allreduce: 2 rank(s) as 2 processes of 1 thread(s)")
                .contains("# Out of bounds values : 0 OK");
        List<String[]> rows = new PerfEndToEndTest.Run(0, out, "").rows();
        assertThat(rows).as(out).hasSize(4);
        for (String[] row : rows) {
            assertThat(row[PerfTable.WRONG]).as(String.join(" ", row)).isEqualTo("0");
            assertThat(row[PerfTable.IN_PLACE_WRONG]).as(String.join(" ", row)).isEqualTo("0");
        }
    }
}
