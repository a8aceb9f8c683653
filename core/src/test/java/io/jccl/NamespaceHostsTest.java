package io.jccl;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two "hosts" on this machine: network namespaces joined by a veth pair (10.77.x.1 and 10.77.x.2),
 * one rank in each. Their host identities differ (the namespace is part of it), so they talk
 * through the socket transport over the veth link, and meet torchrun-style (rank 0 hosts the
 * root at MASTER_ADDR). Needs root and iproute2 ({@code ip netns}); without them the test is
 * skipped with a reason, and fails where JCCL_REQUIRE_NATIVE_TESTS=true (CI).
 */
@Timeout(120)
class NamespaceHostsTest {
    private static final String NS = "jccl" + ProcessHandle.current().pid();
    private static final int SUBNET = (int) (ProcessHandle.current().pid() % 200) + 10;

    private static int sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(20, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @BeforeAll
    static void namespaces() throws Exception {
        boolean ok;
        try {
            ok = sh("ip", "netns", "add", NS + "a") == 0;
        } catch (java.io.IOException e) {
            ok = false;
        }
        if (!ok) {
            String why = "cannot create network namespaces (needs root and iproute2's ip)";
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                throw new AssertionError(why);
            }
            Assumptions.abort(why);
        }
        String[][] setup = {
            {"ip", "netns", "add", NS + "b"},
            {"ip", "link", "add", NS + "x", "type", "veth", "peer", "name", NS + "y"},
            {"ip", "link", "set", NS + "x", "netns", NS + "a"},
            {"ip", "link", "set", NS + "y", "netns", NS + "b"},
            {"ip", "-n", NS + "a", "addr", "add", "10.77." + SUBNET + ".1/24", "dev", NS + "x"},
            {"ip", "-n", NS + "b", "addr", "add", "10.77." + SUBNET + ".2/24", "dev", NS + "y"},
            {"ip", "-n", NS + "a", "link", "set", NS + "x", "up"},
            {"ip", "-n", NS + "b", "link", "set", NS + "y", "up"},
            {"ip", "-n", NS + "a", "link", "set", "lo", "up"},
            {"ip", "-n", NS + "b", "link", "set", "lo", "up"},
        };
        for (String[] c : setup) {
            assertThat(sh(c)).as(String.join(" ", c)).isZero();
        }
    }

    @AfterAll
    static void remove() throws Exception {
        sh("ip", "netns", "del", NS + "a");
        sh("ip", "netns", "del", NS + "b");
    }

    @Test
    void ranksInTwoNamespacesRunTheCollectivesOverTheVethLink() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String cp = String.join(File.pathSeparator, Path.of("target", "classes").toAbsolutePath().toString(),
                Path.of("target", "test-classes").toAbsolutePath().toString());
        List<Process> procs = new ArrayList<>();
        try {
            for (int r = 0; r < 2; r++) {
                ProcessBuilder pb = new ProcessBuilder("ip", "netns", "exec", NS + (r == 0 ? "a" : "b"), java,
                        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", cp, ProcessRank.class.getName(), "checkenv");
                pb.environment().keySet().removeIf(k -> k.startsWith("JCCL_") || k.startsWith("OMPI_") || k.startsWith("SLURM_")
                        || k.equals("RANK") || k.equals("WORLD_SIZE") || k.startsWith("MASTER_"));
                pb.environment().put("RANK", "" + r);
                pb.environment().put("WORLD_SIZE", "2");
                pb.environment().put("MASTER_ADDR", "10.77." + SUBNET + ".1");
                pb.environment().put("MASTER_PORT", "29500");
                pb.environment().put("JCCL_COMM_SECRET", "a secret of the namespace test");
                pb.environment().put("JCCL_SOCKET_IFNAME", NS);
                pb.environment().put("JCCL_BOOTSTRAP_TIMEOUT", "60");
                pb.environment().put("JCCL_TIMEOUT", "60");
                pb.redirectErrorStream(true);
                procs.add(pb.start());
            }
            for (Process p : procs) {
                assertThat(p.waitFor(100, TimeUnit.SECONDS)).as("rank finished").isTrue();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.exitValue()).as(out).isZero();
                assertThat(out).contains("ok env");
            }
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }
}
