// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.jccl.bootstrap.RankThreads.LOOPBACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bootstrapping from launcher environments, end to end: threads with per-rank maps, and real processes. */
class LaunchTest {
    @AfterEach
    void noThreadsLeft() {
        RankThreads.assertNoBootstrapThreads();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.ofLiteral("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private static List<String> gatherAll(List<Bootstrap> bs) {
        return RankThreads.values(RankThreads.run(bs.size(), Duration.ofSeconds(30), r -> {
            byte[][] all = bs.get(r).allGather(("r" + r).getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (byte[] x : all) {
                sb.append(new String(x, StandardCharsets.UTF_8));
            }
            return sb.toString();
        }));
    }

    @Test
    void torchrunStyleRanksWithASharedSecretAndRankZeroHostingTheRoot() throws Exception {
        int rootPort = freePort();
        int n = 3;
        List<Bootstrap> bs = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(60), r -> Launch.bootstrap(Map.of(
                "RANK", "" + r, "WORLD_SIZE", "" + n, "LOCAL_RANK", "" + r, "LOCAL_WORLD_SIZE", "" + n,
                "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "" + (rootPort - 1),
                "JCCL_COMM_SECRET", "a shared secret of the job"), LOOPBACK, Set.of())));
        try {
            assertThat(gatherAll(bs)).containsOnly("r0r1r2");
            assertThat(bs).extracting(Bootstrap::rank).containsExactly(0, 1, 2);
            // the root is rank 0's, listening at MASTER_PORT + 1 as long as rank 0's bootstrap
            new java.net.Socket("127.0.0.1", rootPort).close();
        } finally {
            RankThreads.closeAll(bs);
        }
        assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", rootPort).close()).isInstanceOf(java.net.ConnectException.class);
    }

    @Test
    void withoutJobIdsAStrangerThatCompletedTheJobIsFoundWhenTheJobsOwnRankComes() throws Exception {
        int rootPort = freePort();
        // A stranger's rank 1 completes job A (of 2) before A's own rank 1 comes.
        List<RankThreads.Outcome<Bootstrap>> first = RankThreads.run(2, Duration.ofSeconds(60), i -> Launch.bootstrap(
                torchrun(rootPort, i), LOOPBACK.withBootstrapTimeout(Duration.ofSeconds(10)), Set.of()));
        Bootstrap a0 = first.get(0).value();
        Bootstrap stranger = first.get(1).value();
        try {
            List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
            a0.onStranger(heard::add);
            List<RankThreads.Outcome<Bootstrap>> late = RankThreads.run(1, Duration.ofSeconds(30), i -> Launch.bootstrap(
                    torchrun(rootPort, 1), LOOPBACK.withBootstrapTimeout(Duration.ofSeconds(10)), Set.of()));
            long pid = ProcessHandle.current().pid();
            assertThat(late.getFirst().error()).as("the job's own rank 1, which came late").isInstanceOf(JcclException.class);
            assertThat(late.getFirst().error().getMessage()).contains("rank 1 joined twice, as pid " + pid + " on ")
                    .contains("after the job had started");
            // The root tells rank 0 on its own thread, which may come after the late rank's refusal.
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (heard.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(heard).singleElement().asString().contains("rank 1 joined twice").contains("one of this job's ranks is a stranger");
        } finally {
            a0.close();
            stranger.close();
        }
    }

    /** Rank {@code rank} of a torchrun job of 2 at {@code rootPort - 1} with one secret, and {@code more} variables. */
    private static Map<String, String> torchrun(int rootPort, int rank, String... more) {
        Map<String, String> env = new HashMap<>(Map.of("RANK", "" + rank, "WORLD_SIZE", "2", "MASTER_ADDR", "127.0.0.1",
                "MASTER_PORT", "" + (rootPort - 1), "JCCL_COMM_SECRET", "one secret that two jobs share"));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    @Test
    void twoJobsOnOneAddressAndSecretAreKeptApartByTheirJobIds() throws Exception {
        int rootPort = freePort();
        // Job B's rank 1 comes to job A's root first; A's own rank 1 a second later.
        List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(3, Duration.ofSeconds(60), i -> i == 2
                ? Launch.bootstrap(torchrun(rootPort, 1, "TORCHELASTIC_RUN_ID", "job-b"),
                        LOOPBACK.withBootstrapTimeout(Duration.ofSeconds(3)), Set.of())
                : Launch.bootstrap(torchrun(rootPort, i, "TORCHELASTIC_RUN_ID", "job-a"), LOOPBACK.withBootstrapTimeout(
                        Duration.ofSeconds(i == 1 ? RankThreads.sleepThen(1000, 30) : 30)), Set.of()));
        List<Bootstrap> a = new ArrayList<>();
        try {
            assertThat(out.get(0).error()).as("job A's rank 0").isNull();
            assertThat(out.get(1).error()).as("job A's rank 1").isNull();
            a.add(out.get(0).value());
            a.add(out.get(1).value());
            assertThat(gatherAll(a)).containsOnly("r0r1");
            assertThat(out.get(2).error()).as("job B's rank 1 is refused").isInstanceOf(JcclException.class);
        } finally {
            RankThreads.closeAll(a);
            if (out.get(2).value() != null) {
                out.get(2).value().close();
            }
        }
    }

    @Test
    void withoutJobIdsTheSecondJoinOfARankFailsEveryoneNamingBoth() throws Exception {
        int rootPort = freePort();
        // A job of 3: a stranger's rank 1 comes first, the job's own rank 1 a second later, its rank 2 after.
        List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(4, Duration.ofSeconds(60), i -> Launch.bootstrap(
                torchrun(rootPort, i == 3 ? 1 : i, "WORLD_SIZE", "3"), LOOPBACK.withBootstrapTimeout(
                        Duration.ofSeconds(i == 1 ? RankThreads.sleepThen(1000, 10) : i == 2 ? RankThreads.sleepThen(2000, 3) : 10)),
                Set.of()));
        out.stream().filter(o -> o.value() != null).forEach(o -> o.value().close());
        long pid = ProcessHandle.current().pid();
        for (int i : new int[] {0, 1, 3}) {
            assertThat(out.get(i).error()).as("no rank runs with a stranger").isInstanceOf(JcclException.class);
            assertThat(out.get(i).error().getMessage()).contains("rank 1 joined twice, as pid " + pid + " on ")
                    .contains("and as pid " + pid + " on ");
        }
        assertThat(out.get(2).error()).as("the rank that comes after the failure").isInstanceOf(JcclException.class);
    }

    @Test
    void mpirunStyleRanksOnOneHostMeetThroughAFileOnlyThisUserCanRead(@TempDir Path dir) throws Exception {
        int n = 3;
        String job = "test-" + System.nanoTime();
        Map<String, String> base = Map.of("OMPI_COMM_WORLD_SIZE", "" + n, "OMPI_COMM_WORLD_LOCAL_SIZE", "" + n,
                "PMIX_NAMESPACE", job, "JCCL_BOOTSTRAP_DIR", dir.toString());
        List<Bootstrap> bs = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(60), r -> {
            if (r == 0) {
                RankThreads.sleep(300); // the others poll for the file before it exists
            }
            Map<String, String> env = new HashMap<>(base);
            env.put("OMPI_COMM_WORLD_RANK", "" + r);
            env.put("OMPI_COMM_WORLD_LOCAL_RANK", "" + r);
            return Launch.bootstrap(env, LOOPBACK, Set.of());
        }));
        try {
            assertThat(gatherAll(bs)).containsOnly("r0r1r2");
            assertThat(FileRendezvous.file(new LaunchEnvironment.SharedDirectory(dir, job))).doesNotExist();
            try (var files = Files.list(dir)) {
                assertThat(files.toList()).isEmpty();
            }
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void theDefaultDirectoryIsPrivate() throws Exception {
        String job = "test-" + System.nanoTime();
        LaunchEnvironment.SharedDirectory sd = new LaunchEnvironment.SharedDirectory(FileRendezvous.defaultDirectory(), job);
        CommId id = CommId.of("127.0.0.1", 5, CommId.newSecret());
        FileRendezvous.publish(sd, id, 0);
        try {
            assertThat(Files.getPosixFilePermissions(sd.directory())).isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            assertThat(Files.getPosixFilePermissions(FileRendezvous.file(sd))).isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            assertThat(FileRendezvous.await(sd, Deadline.after(Duration.ofSeconds(1)), 1)).isEqualTo(id);
        } finally {
            FileRendezvous.remove(sd);
        }
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> FileRendezvous.await(sd, Deadline.after(Duration.ofMillis(300)), 1))
                .isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("waited 0.3 s for rank 0 to publish the bootstrap id");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void ranksInSeparateProcessesBootstrapFromTheEnvironmentAJcclLauncherGives() throws Exception {
        int n = 3;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<Process> procs = new ArrayList<>();
            try {
                for (int r = 0; r < n; r++) {
                    List<String> cmd = io.jccl.ChildJvm.command("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto");
                    cmd.add(BootstrapChild.class.getName());
                    ProcessBuilder pb = new ProcessBuilder(cmd);
                    pb.environment().keySet().removeIf(k -> k.startsWith("JCCL_") || k.startsWith("OMPI_") || k.startsWith("SLURM_")
                            || k.equals("RANK") || k.equals("WORLD_SIZE") || k.startsWith("MASTER_"));
                    pb.environment().putAll(Launch.childEnvironment(root.id(), r, n, r, n));
                    pb.environment().put("JCCL_SOCKET_IFNAME", "lo");
                    pb.environment().put("JCCL_BOOTSTRAP_TIMEOUT", "60");
                    pb.redirectErrorStream(true);
                    procs.add(pb.start());
                }
                List<Map<String, String>> outputs = new ArrayList<>();
                for (Process p : procs) {
                    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("child finished").isTrue();
                    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(p.exitValue()).as(out).isZero();
                    Map<String, String> kv = new HashMap<>();
                    out.lines().filter(l -> l.contains("=")).forEach(l -> kv.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
                    outputs.add(kv);
                }
                String pids = procs.stream().map(p -> "pid" + p.pid()).reduce((a, b) -> a + "," + b).orElseThrow();
                for (int r = 0; r < n; r++) {
                    Map<String, String> kv = outputs.get(r);
                    assertThat(kv).containsEntry("rank", "" + r).containsEntry("size", "" + n).containsEntry("pids", pids)
                            .containsEntry("received", "from " + (r - 1 + n) % n).containsEntry("hosts", "1")
                            .containsEntry("localRank", "" + r).containsEntry("otherProcesses", "" + (n - 1));
                }
                assertThat(root.outcome()).isEqualTo("done");
            } finally {
                procs.forEach(Process::destroyForcibly);
            }
        }
    }
}
