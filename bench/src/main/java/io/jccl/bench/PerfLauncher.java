// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.bootstrap.CommId;
import io.jccl.bootstrap.Launch;
import io.jccl.bootstrap.LaunchEnvironment;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code jccl perf} over several processes. {@code --procs P} makes this process a launcher: it hosts
 * the bootstrap root, starts P copies of itself (the same runtime image or class path) with the
 * same arguments but {@code --procs}, each told its process index through jccl's launcher variables
 * ({@link Launch#childEnvironment}), copies their output, and returns once all have ended. A
 * process that finds a launcher's variables (jccl's, Open MPI's, torchrun's, Slurm's) runs
 * {@code -t} ranks of the job: ranks {@code index·t} to {@code index·t + t - 1} of {@code size·t}.
 */
final class PerfLauncher {
    /** How long the others may take to end once one process failed (they notice a lost rank in seconds). */
    private static final long GRACE_SECONDS = 30;

    private PerfLauncher() {
    }

    /** The launcher this process runs under, or null. */
    static LaunchEnvironment launched(Map<String, String> env) {
        boolean any = env.containsKey("JCCL_RANK") || env.containsKey("OMPI_COMM_WORLD_RANK") || env.containsKey("SLURM_PROCID")
                || (env.containsKey("RANK") && env.containsKey("WORLD_SIZE"));
        if (!any) {
            return null;
        }
        LaunchEnvironment le = LaunchEnvironment.from(env);
        return le.size() > 1 ? le : null;
    }

    /** This process's ranks of a job its launcher started (every process calls it, as every rank inits). */
    static Communicator[] initLocal(PerfOptions o, Config config) {
        Map<String, String> env = System.getenv();
        LaunchEnvironment le = LaunchEnvironment.from(env);
        int t = o.threads();
        if (t == 1) {
            return new Communicator[] {Communicator.fromEnvironment(config)};
        }
        String id = env.get("JCCL_COMM_ID");
        if (id == null || env.get("JCCL_RANK") == null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, le.rank(), "-t " + t + " under " + le.launcher()
                    + ": several ranks per process need jccl's own launcher (jccl perf --procs)");
        }
        CommId commId = CommId.parse(id);
        Communicator[] comms = new Communicator[t];
        Throwable[] failure = new Throwable[1];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < t; i++) {
            int local = i;
            threads.add(Thread.ofPlatform().name("jccl-perf-init-" + i).start(() -> {
                try {
                    comms[local] = Communicator.init(commId, le.size() * t, le.rank() * t + local, config);
                } catch (Throwable e) {
                    synchronized (failure) {
                        if (failure[0] == null) {
                            failure[0] = e;
                        }
                    }
                }
            }));
        }
        for (Thread th : threads) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JcclException(ErrorCode.INTERNAL_ERROR, le.rank(), "interrupted during init");
            }
        }
        if (failure[0] != null) {
            for (Communicator c : comms) {
                if (c != null) {
                    c.close();
                }
            }
            if (failure[0] instanceof RuntimeException e) {
                throw e;
            }
            throw new JcclException(ErrorCode.INTERNAL_ERROR, le.rank(), "init failed: " + failure[0], failure[0]);
        }
        return comms;
    }

    /**
     * Starts {@code o.processes()} copies of this program running {@code args} without {@code --procs},
     * copies their standard output and error to {@code out} and {@code err}; returns the first
     * non-zero exit status, or 0.
     */
    static int launch(PerfOptions o, List<String> args, PrintStream out, PrintStream err) {
        Config config = Config.fromEnvironment();
        List<String> childArgs = new ArrayList<>(List.of("perf"));
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--procs")) {
                i++;
            } else if (!a.startsWith("--procs=")) {
                childArgs.add(a);
            }
        }
        childArgs.addAll(List.of("-t", Integer.toString(o.threads())));
        List<String> command = selfCommand();
        command.addAll(childArgs);
        int n = o.processes();
        List<Process> procs = new ArrayList<>();
        List<Thread> pumps = new ArrayList<>();
        try (BootstrapRoot root = BootstrapRoot.start(config)) {
            for (int p = 0; p < n; p++) {
                ProcessBuilder pb = new ProcessBuilder(command);
                pb.environment().keySet().removeIf(k -> k.startsWith("OMPI_") || k.startsWith("PMIX_") || k.startsWith("SLURM_")
                        || k.equals("RANK") || k.equals("WORLD_SIZE") || k.equals("LOCAL_RANK") || k.startsWith("MASTER_"));
                pb.environment().putAll(Launch.childEnvironment(root.id(), p, n, p, n));
                Process proc = pb.start();
                procs.add(proc);
                pumps.add(pump(proc.getInputStream(), out));
                pumps.add(pump(proc.getErrorStream(), err));
            }
            int status = waitAll(procs, "jccl perf", Long.MAX_VALUE, err);
            for (Thread t : pumps) {
                t.join(5_000);
            }
            return status;
        } catch (IOException e) {
            err.println("jccl perf: cannot start a process: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }

    /**
     * Waits for every process; once one fails the others get {@link #GRACE_SECONDS} to end (they
     * notice a lost rank), and all get at most {@code limitNanos}; then they are killed. Returns the
     * first non-zero exit status (1 when they had to be killed), or 0.
     */
    static int waitAll(List<Process> procs, String what, long limitNanos, PrintStream err) throws InterruptedException {
        int status = 0;
        long start = System.nanoTime();
        long deadline = Long.MAX_VALUE;
        List<Process> running = new ArrayList<>(procs);
        while (!running.isEmpty()) {
            for (Process proc : List.copyOf(running)) {
                if (proc.waitFor(20, TimeUnit.MILLISECONDS)) {
                    running.remove(proc);
                    if (proc.exitValue() != 0 && status == 0) {
                        status = proc.exitValue();
                        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                err.println(what + ": " + running.size() + " process(es) still running " + GRACE_SECONDS
                        + " s after one failed; stopping them");
                running.forEach(Process::destroyForcibly);
                deadline = Long.MAX_VALUE;
            }
            if (!running.isEmpty() && System.nanoTime() - start > limitNanos) {
                err.println(what + ": " + running.size() + " process(es) still running after " + limitNanos / 1_000_000_000L
                        + " s; stopping them");
                running.forEach(Process::destroyForcibly);
                status = status == 0 ? 1 : status;
                limitNanos = Long.MAX_VALUE;
            }
        }
        return status;
    }

    /**
     * The command that starts this program again: this JVM's binary, its options up to its main
     * module or class (the runtime image's launcher passes {@code -m io.jccl.bench/...}), or else
     * this JVM's class and module paths on a class path.
     */
    static List<String> selfCommand() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        String binary = info.command().orElseThrow(() -> new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK,
                "cannot tell which java binary runs this process"));
        List<String> cmd = new ArrayList<>();
        cmd.add(binary);
        String[] jvmArgs = info.arguments().orElse(new String[0]);
        for (int i = 0; i < jvmArgs.length; i++) {
            String a = jvmArgs[i];
            if ((a.equals("-m") || a.equals("--module")) && i + 1 < jvmArgs.length && jvmArgs[i + 1].startsWith("io.jccl.bench")) {
                cmd.addAll(List.of(jvmArgs).subList(0, i + 2));
                return cmd;
            }
            if (a.equals(Main.class.getName())) {
                cmd.addAll(List.of(jvmArgs).subList(0, i + 1));
                return cmd;
            }
        }
        // Started some other way (a test runner): this JVM's paths as a class path.
        String cp = System.getProperty("java.class.path", "");
        String mp = System.getProperty("jdk.module.path", "");
        String path = String.join(java.io.File.pathSeparator, List.of(cp, mp).stream().filter(x -> !x.isEmpty()).toList());
        cmd.addAll(List.of("-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "-cp", path, Main.class.getName()));
        return cmd;
    }

    static Thread pump(InputStream in, PrintStream to) {
        return Thread.ofPlatform().daemon().start(() -> {
            byte[] buf = new byte[8192];
            try (in) {
                for (int k; (k = in.read(buf)) > 0; ) {
                    synchronized (to) {
                        to.write(buf, 0, k);
                        to.flush();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }
}
