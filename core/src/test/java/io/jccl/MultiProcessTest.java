// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ranks in separate JVMs of this host, talking through FIFOs in /dev/shm: every protocol and the
 * main collectives checked, rank 0's configuration used by all, no file left behind, and a rank
 * killed with SIGKILL named by the survivor within seconds, again leaving no file.
 */
@Timeout(120)
class MultiProcessTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));

    private static ProcessBuilder child(int rank, int n, BootstrapRoot root, String... args) {
        return childOnHost(rank, n, root, null, args);
    }

    /** A rank's process; {@code hostId} non-null: the rank claims that host (ranks of other hosts talk over sockets). */
    private static ProcessBuilder childOnHost(int rank, int n, BootstrapRoot root, String hostId, String... args) {
        ProcessBuilder pb = ChildJvm.rank(root.id(), rank, n, List.of(), ProcessRank.class.getName(), args);
        if (hostId != null) {
            pb.environment().put("JCCL_HOSTID", hostId);
        }
        return pb;
    }

    private static List<Path> filesOf(List<Process> procs) throws IOException {
        return ChildJvm.shmFilesOf(procs);
    }

    @Test
    void aMessageWaitsForItsReceiverAfterTheSenderClosedAndExited() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            Process sender = child(0, 2, root, "late").start();
            Process receiver = child(1, 2, root, "late").start();
            assertThat(sender.waitFor(60, TimeUnit.SECONDS)).as("sender finished").isTrue();
            String sent = new String(sender.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(sender.exitValue()).as(sent).isZero();
            assertThat(receiver.isAlive()).as("the receiver still sleeps when the sender is gone").isTrue();
            assertThat(receiver.waitFor(60, TimeUnit.SECONDS)).as("receiver finished").isTrue();
            String out = new String(receiver.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(receiver.exitValue()).as(out).isZero();
            assertThat(out).contains("ok late");
            assertThat(filesOf(List.of(sender, receiver))).isEmpty();
        }
    }

    @Test
    void noProcessLeavesTheBarrierBeforeTheLateOneArrives() throws Exception {
        int n = 3;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<Process> procs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                procs.add(child(r, n, root, "barrier").start());
            }
            long[] arrived = new long[n];
            long[] left = new long[n];
            for (int r = 0; r < n; r++) {
                Process p = procs.get(r);
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rank %d finished", r).isTrue();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.exitValue()).as(out).isZero();
                assertThat(out).contains("names [rank-0, rank-1, rank-2]");
                arrived[r] = Long.parseLong(out.replaceAll("(?s).*arrived (\\d+).*", "$1"));
                left[r] = Long.parseLong(out.replaceAll("(?s).*left (\\d+).*", "$1"));
            }
            for (int r = 0; r < n; r++) {
                assertThat(left[r]).as("rank %d left after rank 1 arrived", r).isGreaterThanOrEqualTo(arrived[1]);
            }
        }
    }

    @Test
    void ranksInTwoProcessesRunEveryProtocolThroughSharedMemoryAndLeaveNoFile() throws Exception {
        int n = 2;
        // A file a killed job left (its processes are gone): the next init on this host removes it.
        Process dead = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-version")
                .redirectErrorStream(true).start();
        dead.getInputStream().readAllBytes();
        assertThat(dead.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Path stale = Path.of("/dev/shm", "jccl-00000000000000ff-ll-c0-0-1-" + dead.pid() + "-" + dead.pid());
        Files.write(stale, new byte[4096]);
        // One whose sender died but whose receiver (this process) lives: it may still hold messages for it.
        Path waiting = Path.of("/dev/shm", "jccl-00000000000000fe-ll-c0-0-1-" + dead.pid() + "-" + ProcessHandle.current().pid());
        Files.write(waiting, new byte[4096]);

        List<BootstrapRoot> roots = new ArrayList<>();
        List<Process> procs = new ArrayList<>();
        try {
            for (int p = 0; p < 3; p++) {
                roots.add(BootstrapRoot.start(LOOPBACK));
            }
            for (int r = 0; r < n; r++) {
                ProcessBuilder pb = child(r, n, roots.getFirst(), "check", roots.get(0).id().encode(),
                        roots.get(1).id().encode(), roots.get(2).id().encode());
                pb.environment().put("JCCL_DEBUG", "INFO");
                procs.add(pb.start());
            }
            for (Process p : procs) {
                assertThat(p.waitFor(100, TimeUnit.SECONDS)).as("child finished").isTrue();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.exitValue()).as(out).isZero();
                assertThat(out).contains("ok LL\n", "ok LL128\n", "ok Simple\n");
                // The 300 000-element Simple messages went by single copy (the data check above covers them).
                assertThat(out).containsPattern("large Simple messages from rank [01] on channel 0 come by single copy");
            }
            assertThat(filesOf(procs)).isEmpty();
            assertThat(stale).doesNotExist();
            assertThat(waiting).exists();
        } finally {
            procs.forEach(Process::destroyForcibly);
            roots.forEach(BootstrapRoot::close);
            Files.deleteIfExists(stale);
            Files.deleteIfExists(waiting);
        }
    }

    @Test
    void ranksOnTwoHostsMixSharedMemoryAndSocketsInEveryProtocol() throws Exception {
        // Ranks 0 and 1 share host A (shared memory), rank 2 is on host B (sockets through loopback).
        String[] hosts = {"A", "A", "B"};
        int n = hosts.length;
        List<BootstrapRoot> roots = new ArrayList<>();
        List<Process> procs = new ArrayList<>();
        try {
            for (int p = 0; p < 3; p++) {
                roots.add(BootstrapRoot.start(LOOPBACK));
            }
            for (int r = 0; r < n; r++) {
                procs.add(childOnHost(r, n, roots.getFirst(), hosts[r], "check", roots.get(0).id().encode(), roots.get(1).id().encode(),
                        roots.get(2).id().encode()).start());
            }
            for (Process p : procs) {
                assertThat(p.waitFor(100, TimeUnit.SECONDS)).as("child finished").isTrue();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.exitValue()).as(out).isZero();
                assertThat(out).contains("ok LL\n", "ok LL128\n", "ok Simple\n");
            }
            assertThat(filesOf(procs)).isEmpty();
        } finally {
            procs.forEach(Process::destroyForcibly);
            roots.forEach(BootstrapRoot::close);
        }
    }

    @Test
    void aKilledRankOnAnotherHostIsNamedThroughItsClosedConnection() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<Process> procs = new ArrayList<>();
            try {
                for (int r = 0; r < 2; r++) {
                    procs.add(childOnHost(r, 2, root, "host" + r, "loop").start());
                }
                Process survivor = procs.getFirst();
                Process killed = procs.get(1);
                String sb = ChildJvm.readUntil(survivor, "looping", 60);
                assertThat(sb).contains("looping");
                Thread.sleep(200);
                killed.destroyForcibly();
                assertThat(survivor.waitFor(20, TimeUnit.SECONDS)).as("the survivor gave up").isTrue();
                String out = sb + new String(survivor.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(survivor.exitValue()).as(out).isEqualTo(3);
                // the socket transport's words, or the keep-alive's (whichever sees the closed connection first)
                assertThat(out).containsPattern("lost (its connection with )?rank 1 \\(pid " + killed.pid());
            } finally {
                procs.forEach(Process::destroyForcibly);
            }
        }
    }

    @Test
    void anAbortInOneProcessFailsTheOthersNamingTheRankThatAborted() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<Process> procs = new ArrayList<>();
            try {
                for (int r = 0; r < 2; r++) {
                    procs.add(child(r, 2, root, "abort").start());
                }
                long t0 = System.nanoTime();
                Process waiter = procs.getFirst();
                assertThat(waiter.waitFor(60, TimeUnit.SECONDS)).as("rank 0 gave up").isTrue();
                String out = new String(waiter.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(waiter.exitValue()).as(out).isEqualTo(3);
                assertThat(out).contains("rank 1 aborted the communicator");
                // Rank 1 is still alive: the abort, not its death, ended rank 0's wait.
                assertThat(procs.get(1).isAlive()).isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10 + 5));
            } finally {
                procs.forEach(Process::destroyForcibly);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aKilledRankIsNamedByTheOtherWithinSecondsAndNoFileIsLeft(int victim) throws Exception {
        int n = 2;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<Process> procs = new ArrayList<>();
            try {
                List<CompletableFuture<String>> outputs = new ArrayList<>();
                List<CompletableFuture<Void>> looping = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    Process p = child(r, n, root, "loop").start();
                    procs.add(p);
                    CompletableFuture<Void> started = new CompletableFuture<>();
                    looping.add(started);
                    CompletableFuture<String> output = new CompletableFuture<>();
                    outputs.add(output);
                    Thread.ofPlatform().daemon().start(() -> {
                        StringBuilder sb = new StringBuilder();
                        try (BufferedReader rd = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                            for (String line; (line = rd.readLine()) != null; ) {
                                sb.append(line).append('\n');
                                if (line.equals("looping")) {
                                    started.complete(null);
                                }
                            }
                        } catch (IOException e) {
                            sb.append(e);
                        }
                        started.complete(null);
                        output.complete(sb.toString());
                    });
                }
                CompletableFuture.allOf(looping.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                Thread.sleep(200);
                Process killed = procs.get(victim);
                Process survivor = procs.get(1 - victim);
                long t0 = System.nanoTime();
                killed.destroyForcibly();
                assertThat(killed.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(survivor.waitFor(20, TimeUnit.SECONDS)).as("the survivor gave up").isTrue();
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                String out = outputs.get(1 - victim).get(10, TimeUnit.SECONDS);
                assertThat(survivor.exitValue()).as(out).isEqualTo(3);
                assertThat(out).contains("looping").contains("lost rank " + victim + " (pid " + killed.pid());
                assertThat(took).isLessThan(Duration.ofSeconds(10));
                assertThat(filesOf(procs)).isEmpty();
            } finally {
                procs.forEach(Process::destroyForcibly);
            }
        }
    }
}
