// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.ChildJvm;
import io.jccl.bootstrap.BootstrapRoot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The failure injection harness: the ranks of one job as processes of this host (one rank each,
 * launched as jccl's launcher would), what each printed with the time it printed it, and the
 * faults a job meets: a rank killed ({@code kill -9}), stopped ({@code SIGSTOP}) and resumed.
 * Closing it kills whatever still runs.
 */
final class RankProcesses implements AutoCloseable {
    /** One line a rank printed and when ({@link System#nanoTime()} of this JVM). */
    record Line(long nanos, String text) {
    }

    /** What this JVM started per rank: the rank's JVM, or the launcher that started it. */
    private final List<Process> procs = new ArrayList<>();
    /** The pid of each rank's JVM. */
    private final List<Long> pids = new ArrayList<>();
    private final List<List<Line>> lines = new ArrayList<>();
    private final boolean unreaped;

    /**
     * Starts {@code n} ranks of {@code mainClass args} meeting at {@code root}, each with {@code env}
     * added. {@code unreaped}: each rank's JVM is the child of a launcher that never reaps it, so
     * a killed rank stays a zombie (as under a launcher that polls its children seldom, or whose
     * own death leaves the reaping to init).
     */
    RankProcesses(BootstrapRoot root, int n, Map<String, String> env, boolean unreaped, Class<?> mainClass, String... args)
            throws IOException {
        this(root, n, r -> env, List.of(), unreaped, mainClass, args);
    }

    /** As above, rank {@code r} with {@code env.apply(r)} added and {@code jvmOptions} given to every rank's JVM. */
    RankProcesses(BootstrapRoot root, int n, java.util.function.IntFunction<Map<String, String>> env, List<String> jvmOptions,
            boolean unreaped, Class<?> mainClass, String... args) throws IOException {
        this.unreaped = unreaped;
        for (int r = 0; r < n; r++) {
            ProcessBuilder pb = ChildJvm.rank(root.id(), r, n, jvmOptions, mainClass.getName(), args);
            pb.environment().putAll(env.apply(r));
            if (unreaped) {
                List<String> cmd = new ArrayList<>(List.of("bash", "-c", "\"$@\" & echo \"pid $!\"; exec sleep 600", "launcher"));
                cmd.addAll(pb.command());
                pb.command(cmd);
            }
            Process p = pb.start();
            procs.add(p);
            List<Line> out = java.util.Collections.synchronizedList(new ArrayList<>());
            lines.add(out);
            java.util.concurrent.CompletableFuture<Long> pid = new java.util.concurrent.CompletableFuture<>();
            if (!unreaped) {
                pid.complete(p.pid());
            }
            Thread.ofPlatform().daemon().name("rank" + r + "-output").start(() -> {
                try (BufferedReader rd = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = rd.readLine()) != null; ) {
                        if (!pid.isDone() && line.startsWith("pid ")) {
                            pid.complete(Long.parseLong(line.substring(4).trim()));
                            continue;
                        }
                        out.add(new Line(System.nanoTime(), line));
                    }
                } catch (IOException e) {
                    out.add(new Line(System.nanoTime(), "(output lost: " + e + ")"));
                }
                pid.complete(-1L);
            });
            try {
                pids.add(pid.get(30, TimeUnit.SECONDS));
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IOException("rank " + r + "'s launcher did not say its pid", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
    }

    int size() {
        return procs.size();
    }

    /** The pid of {@code rank}'s JVM. */
    long pid(int rank) {
        return pids.get(rank);
    }

    /** Whether {@code rank}'s JVM still runs (a zombie does not). */
    boolean alive(int rank) {
        return io.jccl.transport.ShmFiles.alive(pid(rank));
    }

    /** {@code rank}'s exit status, or -1 where its launcher keeps it (unreaped). */
    int exitValue(int rank) {
        return unreaped ? -1 : procs.get(rank).exitValue();
    }

    /** Waits until every rank printed a line equal to {@code marker}; false if one ended or {@code seconds} passed first. */
    boolean awaitAll(String marker, int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (int r = 0; r < procs.size(); r++) {
            while (firstLine(r, marker::equals) == null) {
                if (!alive(r) || System.nanoTime() > until) {
                    Thread.sleep(100); // its last lines
                    return firstLine(r, marker::equals) != null;
                }
                Thread.sleep(10);
            }
        }
        return true;
    }

    /** The first line of {@code rank} that {@code match} accepts, waiting for it at most {@code seconds}; null if none came. */
    Line awaitLine(int rank, java.util.function.Predicate<String> match, int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Line l;
        while ((l = firstLine(rank, match)) == null && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        return l;
    }

    /** The first line of {@code rank} that {@code match} accepts, or null. */
    Line firstLine(int rank, java.util.function.Predicate<String> match) {
        synchronized (lines.get(rank)) {
            for (Line l : lines.get(rank)) {
                if (match.test(l.text())) {
                    return l;
                }
            }
        }
        return null;
    }

    /** Everything {@code rank} printed so far. */
    String output(int rank) {
        StringBuilder b = new StringBuilder();
        synchronized (lines.get(rank)) {
            for (Line l : lines.get(rank)) {
                b.append(l.text()).append('\n');
            }
        }
        return b.toString();
    }

    /** Sends {@code signal} (KILL, STOP, CONT) to {@code rank}'s process; returns when it was sent. */
    long signal(int rank, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid(rank))).redirectErrorStream(true).start();
        String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid(rank) + ": " + said);
        }
        return System.nanoTime();
    }

    /** Waits for {@code rank} to end; false if it still runs after {@code seconds}. */
    boolean awaitExit(int rank, int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (alive(rank)) {
            if (System.nanoTime() > until) {
                return false;
            }
            Thread.sleep(10);
        }
        if (!unreaped) {
            procs.get(rank).waitFor();
        }
        Thread.sleep(100); // the reader's last lines
        return true;
    }

    /** The thread dump of a rank that hangs (jstack of this JVM's JDK), for the failure message. */
    String threadDump(int rank) {
        Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
        try {
            Process p = new ProcessBuilder(jstack.toString(), Long.toString(pid(rank))).redirectErrorStream(true).start();
            String dump = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(20, TimeUnit.SECONDS);
            return dump;
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /** jccl's files under /dev/shm that name one of these processes. */
    List<Path> shmFiles() throws IOException {
        return ChildJvm.shmFilesOfPids(pids);
    }

    @Override
    public void close() {
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        procs.forEach(Process::destroyForcibly);
    }
}
