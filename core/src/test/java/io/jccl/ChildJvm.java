// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The start of a command line for a JVM a test starts itself (a rank in another process): this
 * JVM's {@code java}, native access granted, and everything this JVM can load on one class path
 * (Surefire puts the modules under test on the module path and the test libraries on the class
 * path; the child needs both, bindings included).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** {@code java --enable-native-access=ALL-UNNAMED [jvmOptions] -cp PATH}; append the main class and its arguments. */
    public static List<String> command(String... jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(List.of(jvmOptions));
        cmd.add("-cp");
        cmd.add(classPath());
        return cmd;
    }

    /** This JVM's module path and class path as one class path. */
    public static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
            String v = System.getProperty(property);
            if (v != null && !v.isBlank()) {
                entries.addAll(List.of(v.split(File.pathSeparator)));
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * A rank's process: {@code mainClass} with {@code args} in a JVM of {@link #command}, its
     * environment that of rank {@code rank} of {@code n} launched by jccl (one rank per process,
     * meeting at {@code root}) on loopback with 60 s timeouts, without the variables of other
     * launchers this JVM may have; standard error goes with standard output.
     */
    public static ProcessBuilder rank(io.jccl.bootstrap.CommId root, int rank, int n, List<String> jvmOptions,
                                      String mainClass, String... args) {
        List<String> jvm = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"));
        jvm.addAll(jvmOptions);
        List<String> cmd = command(jvm.toArray(String[]::new));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("JCCL_") || k.startsWith("OMPI_") || k.startsWith("SLURM_")
                || k.equals("RANK") || k.equals("WORLD_SIZE") || k.startsWith("MASTER_"));
        pb.environment().putAll(io.jccl.bootstrap.Launch.childEnvironment(root, rank, n, rank, n));
        pb.environment().put("JCCL_SOCKET_IFNAME", "lo");
        pb.environment().put("JCCL_BOOTSTRAP_TIMEOUT", "60");
        pb.environment().put("JCCL_TIMEOUT", "60");
        return pb;
    }

    /** The files of jccl under /dev/shm that name one of these processes. */
    public static List<Path> shmFilesOf(List<Process> procs) throws IOException {
        return shmFilesOfPids(procs.stream().map(Process::pid).toList());
    }

    /** The files of jccl under /dev/shm that name one of these pids. */
    public static List<Path> shmFilesOfPids(List<Long> pids) throws IOException {
        if (!Files.isDirectory(Path.of("/dev/shm"))) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
            return s.filter(p -> {
                String name = p.getFileName().toString();
                return name.startsWith("jccl-") && pids.stream().anyMatch(pid -> name.endsWith("-" + pid) || name.contains("-" + pid + "-"));
            }).toList();
        }
    }

    /** What {@code p} printed until {@code marker} appeared, it ended, or {@code seconds} passed (a read may block past them). */
    public static String readUntil(Process p, String marker, int seconds) throws IOException {
        java.io.InputStream in = p.getInputStream();
        StringBuilder sb = new StringBuilder();
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
        while (!sb.toString().contains(marker) && System.nanoTime() < until) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }
}
