// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.bootstrap.CommId;
import io.jccl.bootstrap.Launch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transport of each connection, NCCL's order: same process → p2p, same host → shm, else net;
 * JCCL_P2P_DISABLE and JCCL_SHM_DISABLE (rank 0's) hand a connection to the next one, and the
 * disabled one is really not used: threads with both disabled run every collective over loopback
 * sockets (several per connection), threads with p2p disabled through /dev/shm files, processes
 * of one host with shm disabled over sockets. JCCL_DEBUG=INFO names each peer's transport.
 */
@Timeout(120)
class TransportChoiceTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(30))
            .withTimeout(Duration.ofSeconds(30));

    /** Inits n thread ranks with {@code config}, runs the collectives on each, returns what JCCL_DEBUG=INFO printed at init. */
    private static String runThreads(int n, Config config, Runnable whileOpen) throws Exception {
        Path file = Files.createTempFile("jccl-transports", ".log");
        List<Communicator> comms;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            Config info = config.withDebug(Config.Debug.INFO).withDebugFile(file.toString());
            comms = CommunicatorInitTest.ranks(n, r -> Communicator.init(id, n, r, info));
        }
        String log = Files.readString(file);
        Files.delete(file);
        try {
            CommunicatorInitTest.ranks(n, r -> {
                ProcessRank.collectives(comms.get(r));
                return r;
            });
            whileOpen.run();
        } finally {
            comms.forEach(Communicator::close);
        }
        return log;
    }

    private static long lines(String log, String part) {
        return log.lines().filter(l -> l.contains(part)).count();
    }

    /** Waits (at most 5 s) until the socket transport's threads of closed communicators are gone. */
    private static void assertNoNetThreadsLeft() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("jccl-net-"))
                && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(s -> s.startsWith("jccl-net-")))
                .as("socket transport threads left").isEmpty();
    }

    /** This process's /dev/shm files (both pids this one's: connections between its own ranks). */
    private static List<Path> ownShmFiles() throws IOException {
        long pid = ProcessHandle.current().pid();
        try (Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("jccl-")
                    && p.getFileName().toString().endsWith("-" + pid + "-" + pid)).toList();
        }
    }

    @Test
    void threadsWithP2pAndShmDisabledRunTheCollectivesOverLoopbackSockets() throws Exception {
        assertNoNetThreadsLeft();
        List<Path> before = ownShmFiles();
        long[] netThreads = new long[1];
        String log = runThreads(3, LOOPBACK.withP2pDisable(true).withShmDisable(true).withSockets(2, 2),
                () -> netThreads[0] = ProcessRank.netThreads());
        // One line per rank and peer, each naming sockets: 2 threads per direction and 4 sockets per connection.
        assertThat(lines(log, "via NET/Socket (2 proxy thread(s) per direction, 4 socket(s) per connection)")).as(log).isEqualTo(6);
        assertThat(lines(log, " via ")).as(log).isEqualTo(6);
        // And one per rank on its float reductions: the test JVMs resolve jdk.incubator.vector.
        assertThat(lines(log, "-bit SIMD lanes (jdk.incubator.vector)")).as(log).isEqualTo(3);
        assertThat(netThreads[0]).as("one process: one domain, two sending proxy threads").isEqualTo(2);
        assertThat(ownShmFiles()).isEqualTo(before);
        assertNoNetThreadsLeft();
    }

    @Test
    void withSubsysNetTheLogHoldsOnlyTheNetsLines() throws Exception {
        Path file = Files.createTempFile("jccl-net", ".log");
        Config net = LOOPBACK.withP2pDisable(true).withShmDisable(true).withDebug(Config.Debug.INFO).withDebugSubsys("NET")
                .withDebugFile(file.toString());
        List<Communicator> comms;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            comms = CommunicatorInitTest.ranks(2, r -> Communicator.init(id, 2, r, net));
        }
        try {
            CommunicatorInitTest.ranks(2, r -> {
                ProcessRank.collectives(comms.get(r));
                return r;
            });
        } finally {
            comms.forEach(Communicator::close);
        }
        List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.contains(" jccl VERSION ")).toList();
        Files.delete(file);
        assertThat(lines).as("INFO lines of NET only").isNotEmpty().allMatch(l -> l.matches(".* \\[[01]\\] jccl INFO NET .*"));
        assertThat(lines).filteredOn(l -> l.contains("using NET/Socket (1 device)")).as("one net per process").hasSize(1);
        assertThat(lines).filteredOn(l -> l.matches(".*channel \\d\\d/\\w+ : rank 0 .* -> rank 1 .* \\[send\\] via NET/Socket/0"))
                .isNotEmpty();
        assertThat(lines).filteredOn(l -> l.matches(".*channel \\d\\d/\\w+ : rank 1 .* -> rank 0 .* \\[receive\\] via NET/Socket/0"))
                .isNotEmpty();
    }

    @Test
    void threadsWithP2pDisabledTalkThroughSharedMemory() throws Exception {
        assertNoNetThreadsLeft();
        List<Path> before = ownShmFiles();
        List<Path> during = new ArrayList<>();
        long[] netThreads = new long[1];
        String log = runThreads(2, LOOPBACK.withP2pDisable(true), () -> {
            try {
                during.addAll(ownShmFiles());
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            netThreads[0] = ProcessRank.netThreads();
        });
        assertThat(lines(log, "via SHM//dev/shm")).as(log).isEqualTo(2);
        // Both ends are this process, so each file is mapped once and stays until the communicator closes.
        assertThat(during).as("FIFO files in /dev/shm between two threads").hasSizeGreaterThan(before.size());
        assertThat(netThreads[0]).isZero();
        assertThat(ownShmFiles()).as("removed at close").isEqualTo(before);
    }

    @Test
    void threadsOfOneProcessUseInProcessFifosByDefault() throws Exception {
        String log = runThreads(2, LOOPBACK, () -> assertThat(ProcessRank.netThreads()).isZero());
        assertThat(lines(log, "via P2P/in-process")).as(log).isEqualTo(2);
    }

    @Test
    void processesOfOneHostWithShmDisabledTalkOverSockets() throws Exception {
        List<Process> procs = new ArrayList<>();
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            for (int r = 0; r < 2; r++) {
                List<String> cmd = ChildJvm.command("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
                cmd.addAll(List.of(ProcessRank.class.getName(), "checkenv"));
                ProcessBuilder pb = new ProcessBuilder(cmd);
                pb.environment().keySet().removeIf(k -> k.startsWith("JCCL_") || k.startsWith("OMPI_") || k.startsWith("SLURM_")
                        || k.equals("RANK") || k.equals("WORLD_SIZE") || k.startsWith("MASTER_"));
                pb.environment().putAll(Launch.childEnvironment(root.id(), r, 2, r, 2));
                pb.environment().putAll(Map.of("JCCL_SOCKET_IFNAME", "lo", "JCCL_TIMEOUT", "60", "JCCL_DEBUG", "INFO",
                        // Rank 0's setting counts: rank 1 says nothing, and must follow.
                        "JCCL_SHM_DISABLE", r == 0 ? "1" : "0"));
                pb.redirectErrorStream(true);
                procs.add(pb.start());
            }
            for (Process p : procs) {
                assertThat(p.waitFor(100, TimeUnit.SECONDS)).as("rank finished").isTrue();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.exitValue()).as(out).isZero();
                assertThat(out).contains("ok env", "net threads 1", "via NET/Socket").doesNotContain("via SHM");
            }
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void socketSettingsFollowNcclsBounds() {
        Config c = Config.fromVariables(Map.of("JCCL_SOCKET_NTHREADS", "4", "JCCL_NSOCKS_PERTHREAD", "16"));
        assertThat(c.socketThreads()).isEqualTo(4);
        assertThat(c.socksPerThread()).isEqualTo(16);
        c = Config.fromVariables(Map.of("JCCL_SOCKET_NTHREADS", "32"));
        assertThat(c.socketThreads()).as("at most 16 threads").isEqualTo(16);
        c = Config.fromVariables(Map.of("JCCL_SOCKET_NTHREADS", "8", "JCCL_NSOCKS_PERTHREAD", "16"));
        assertThat(c.socksPerThread()).as("at most 64 sockets: 64 / 8 per thread").isEqualTo(8);
        assertThat(Config.defaults().socketThreads()).isEqualTo(1);
        assertThat(Config.defaults().socksPerThread()).isEqualTo(1);
        assertThat(Config.fromVariables(Map.of("JCCL_P2P_DISABLE", "1", "JCCL_SHM_DISABLE", "0")).p2pDisable()).isTrue();
        assertThat(Config.fromVariables(Map.of("JCCL_SHM_DISABLE", "1")).shmDisable()).isTrue();
        assertThat(Config.fromVariables(Map.of()).shmDisable()).isFalse();
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_SOCKET_NTHREADS", "0")))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_SOCKET_NTHREADS");
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_NSOCKS_PERTHREAD", "two")))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_NSOCKS_PERTHREAD");
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_SHM_DISABLE", "yes")))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_SHM_DISABLE");
    }
}
