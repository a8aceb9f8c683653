// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.ChildJvm;
import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CUDA ranks in processes of their own ({@link CudaProcessRank}), as the GPU tests and the fake
 * driver's tests run them: every rank's output checked, and no file of theirs left in /dev/shm.
 */
final class CudaProcesses {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));

    private CudaProcesses() {
    }

    /**
     * Runs {@code n} ranks, one per process, each through every protocol; {@code cudaLib} the
     * driver they load (null: the real one); {@code env} more variables for all. Returns each
     * rank's output.
     */
    static List<String> check(int n, String cudaLib, Map<String, String> env) throws Exception {
        List<String> outputs = run(cudaLib, java.util.Collections.nCopies(n, env), 150, 0);
        outputs.forEach(out -> assertThat(out).contains("ok LL\n", "ok LL128\n", "ok Simple\n"));
        return outputs;
    }

    /** JCCL_P2P_DISABLE and JCCL_SHM_DISABLE: ranks of one host left only the socket transport. */
    static final Map<String, String> SOCKETS_ONLY = Map.of("JCCL_P2P_DISABLE", "1", "JCCL_SHM_DISABLE", "1");

    /**
     * Runs {@code env.size()} ranks as {@link #check} does, rank r with {@code env.get(r)} added,
     * where some connections go through the socket proxy or through host memory between two GPUs:
     * LL and Simple run, and LL128 alone is refused at init (its lines do not cross PCIe whole).
     */
    static List<String> checkWithoutLl128(String cudaLib, List<Map<String, String>> env) throws Exception {
        List<String> outputs = run(cudaLib, env, 150, 0);
        outputs.forEach(out -> assertThat(out).contains("ok LL\n", "ok Simple\n", "refused LL128: "));
        return outputs;
    }

    /**
     * Runs {@code processes} processes of {@code gpus} ranks each, threads on GPUs 0 to gpus-1
     * meeting through the bootstrap (process p holds ranks p*gpus on), as {@link #checkWithoutLl128}
     * checks them: every rank's LL and Simple communicators right, its LL128 alone refused (the
     * ranks span GPUs). Returns each process's output.
     */
    static List<String> checkOnGpus(String cudaLib, int processes, int gpus, Map<String, String> env) throws Exception {
        Map<String, String> each = new java.util.HashMap<>(env);
        each.put("JCCL_TEST_GPUS", Integer.toString(gpus));
        List<String> outputs = run(cudaLib, java.util.Collections.nCopies(processes, each), 150, 0);
        for (int p = 0; p < processes; p++) {
            for (int r = p * gpus; r < (p + 1) * gpus; r++) {
                assertThat(outputs.get(p)).contains("rank " + r + " ok LL\n", "rank " + r + " ok Simple\n",
                        "rank " + r + " refused LL128: ");
            }
        }
        return outputs;
    }

    /**
     * Runs {@code env.size()} ranks as {@link #check} does, rank r with {@code env.get(r)} added,
     * where every one must fail (exit status 2) within {@code seconds}; returns their outputs.
     */
    static List<String> failing(String cudaLib, List<Map<String, String>> env, int seconds) throws Exception {
        return run(cudaLib, env, seconds, 2);
    }

    /** {@link CudaProcessRank}'s check in {@code env.size()} processes, each to end with {@code status} within {@code seconds}. */
    private static List<String> run(String cudaLib, List<Map<String, String>> env, int seconds, int status) throws Exception {
        int n = env.size();
        List<BootstrapRoot> roots = new ArrayList<>();
        List<Process> procs = new ArrayList<>();
        try {
            for (int p = 0; p < 3; p++) {
                roots.add(BootstrapRoot.start(LOOPBACK));
            }
            List<String> ids = new ArrayList<>(List.of("check"));
            roots.forEach(root -> ids.add(root.id().encode()));
            for (int r = 0; r < n; r++) {
                procs.add(rank(r, n, roots.getFirst(), cudaLib, env.get(r), ids.toArray(String[]::new)).start());
            }
            boolean[] hung = awaitAll(procs, seconds, status);
            List<String> outputs = new ArrayList<>();
            StringBuilder all = new StringBuilder();
            for (int r = 0; r < n; r++) {
                outputs.add(new String(procs.get(r).getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                all.append("--- rank ").append(r).append(hung[r] ? " (hung; its threads follow)" : "").append(":\n")
                        .append(outputs.get(r));
            }
            for (int r = 0; r < n; r++) {
                assertThat(hung[r]).as("rank " + r + " ended within " + seconds + " s\n" + all).isFalse();
                assertThat(procs.get(r).exitValue()).as("rank " + r + "'s exit status\n" + all).isEqualTo(status);
            }
            assertThat(ChildJvm.shmFilesOf(procs)).isEmpty();
            return outputs;
        } finally {
            procs.forEach(Process::destroyForcibly);
            roots.forEach(BootstrapRoot::close);
        }
    }

    /**
     * Waits up to {@code seconds} for every process to end; once one has ended with another status
     * than {@code status}, gives the others 10 s more. Those still running then print their
     * threads (SIGQUIT) into their output, for the failure's message, and are killed: which are.
     */
    private static boolean[] awaitAll(List<Process> procs, int seconds, int status) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() - until < 0 && procs.stream().anyMatch(Process::isAlive)) {
            if (procs.stream().anyMatch(p -> !p.isAlive() && p.exitValue() != status)) {
                until = Math.min(until, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
            }
            Thread.sleep(100);
        }
        boolean[] hung = new boolean[procs.size()];
        for (int r = 0; r < procs.size(); r++) {
            Process p = procs.get(r);
            hung[r] = p.isAlive();
            if (hung[r]) {
                new ProcessBuilder("kill", "-QUIT", Long.toString(p.pid())).start().waitFor(5, TimeUnit.SECONDS);
                p.waitFor(2, TimeUnit.SECONDS);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        return hung;
    }

    /**
     * Two ranks looping over all-reduces, rank 1's process killed with SIGKILL once rank 0 runs:
     * returns rank 0's output, once it gave up (within 20 s, exit status 3); its files are gone.
     */
    static String killOne(String cudaLib, Map<String, String> env) throws Exception {
        return twoRanks(cudaLib, "loop", env, procs -> {
            Process survivor = procs.getFirst();
            Process killed = procs.get(1);
            String sb = ChildJvm.readUntil(survivor, "looping", 90);
            assertThat(sb).contains("looping");
            killed.destroyForcibly();
            assertThat(survivor.waitFor(20, TimeUnit.SECONDS)).as("the survivor gave up").isTrue();
            String out = sb + new String(survivor.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(survivor.exitValue()).as(out).isEqualTo(3);
            assertThat(ChildJvm.shmFilesOf(procs)).isEmpty();
            return out;
        });
    }

    /**
     * Two ranks: rank 1 aborts after one all-reduce and stays alive; rank 0, looping, must give up
     * (exit status 3) while rank 1 still lives. Returns rank 0's output; no file is left once both ended.
     */
    static String abortOne(String cudaLib) throws Exception {
        return twoRanks(cudaLib, "abort", Map.of(), procs -> {
            Process waiter = procs.getFirst();
            Process aborter = procs.get(1);
            assertThat(ChildJvm.readUntil(aborter, "aborted", 90)).contains("aborted");
            assertThat(waiter.waitFor(8, TimeUnit.SECONDS)).as("rank 0 gave up").isTrue();
            assertThat(aborter.isAlive()).as("the aborting process still lives: its abort, not its death, was seen").isTrue();
            String out = new String(waiter.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(waiter.exitValue()).as(out).isEqualTo(3);
            aborter.getOutputStream().close(); // its cue to exit
            assertThat(aborter.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(ChildJvm.shmFilesOf(procs)).isEmpty();
            return out;
        });
    }

    /**
     * Two ranks: rank 0 sends to rank 1, closes and exits while rank 1 still sleeps; rank 1 then
     * receives (within 60 s) exactly what was sent. Returns rank 1's output; no file is left.
     */
    static String lateReceive(String cudaLib, Map<String, String> env) throws Exception {
        return twoRanks(cudaLib, "late", env, procs -> {
            Process sender = procs.getFirst();
            Process receiver = procs.get(1);
            assertThat(sender.waitFor(60, TimeUnit.SECONDS)).as("the sender finished").isTrue();
            String sent = new String(sender.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(sender.exitValue()).as(sent).isZero();
            assertThat(receiver.isAlive()).as("the receiver still sleeps when the sender is gone").isTrue();
            boolean done = receiver.waitFor(60, TimeUnit.SECONDS);
            if (!done) {
                receiver.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String out = new String(receiver.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(done).as("the receiver finished: " + out).isTrue();
            assertThat(receiver.exitValue()).as(out).isZero();
            assertThat(ChildJvm.shmFilesOf(procs)).isEmpty();
            return out;
        });
    }

    /** What a scenario does with its two started rank processes; returns what the test checks. */
    private interface Scenario {
        String run(List<Process> procs) throws Exception;
    }

    /** Starts ranks 0 and 1 running {@link CudaProcessRank} {@code mode} (with {@code env}) at a fresh root, runs {@code s}; no process outlives it. */
    private static String twoRanks(String cudaLib, String mode, Map<String, String> env, Scenario s) throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<Process> procs = new ArrayList<>();
            try {
                for (int r = 0; r < 2; r++) {
                    procs.add(rank(r, 2, root, cudaLib, env, mode).start());
                }
                return s.run(procs);
            } finally {
                procs.forEach(Process::destroyForcibly);
            }
        }
    }

    /** Rank {@code r}'s process: {@link CudaProcessRank} with {@code args}, meeting at {@code root}. */
    private static ProcessBuilder rank(int r, int n, BootstrapRoot root, String cudaLib, Map<String, String> env,
                                       String... args) {
        ProcessBuilder pb = ChildJvm.rank(root.id(), r, n, cudaLib == null ? List.of() : List.of("-Djccl.cuda.lib=" + cudaLib),
                CudaProcessRank.class.getName(), args);
        if (cudaLib != null) {
            // The fake driver runs each CUDA thread of a block as a host thread: the channels the
            // GPU's tuner would size to its 16 multiprocessors (4 per rank for 3 ranks, 768 spinning
            // threads in 3 JVMs) starve each other on 2 cores past the 60 s timeout now and then.
            pb.environment().put("JCCL_MAX_NCHANNELS", "1");
        }
        pb.environment().putAll(env);
        return pb;
    }
}
