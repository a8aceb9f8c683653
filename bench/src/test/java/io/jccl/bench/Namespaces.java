// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** What the tests that build a {@link Fabric} share: building one or skipping with a reason, and starting Java children. */
final class Namespaces {
    private Namespaces() {
    }

    /**
     * A fabric, or the test is skipped with the reason (no root, no iproute2); where
     * JCCL_REQUIRE_NATIVE_TESTS=true (CI: .ci/run installs iproute2) it fails instead.
     */
    static Fabric build(int servers, int ranks, double intraMbit, double interMbit) {
        return build(servers, ranks, intraMbit, interMbit, Fabric.DEFAULT_BURST_KIB);
    }

    /** The same with each shaped class's burst {@code burstKib} KiB. */
    static Fabric build(int servers, int ranks, double intraMbit, double interMbit, int burstKib) {
        return build(servers, ranks, intraMbit, interMbit, burstKib, Placement.CONTIGUOUS, Fabric.Nic.RAIL);
    }

    /** The same with the ranks placed by {@code placement} and the inter-server rate applied per {@code nic}. */
    static Fabric build(int servers, int ranks, double intraMbit, double interMbit, int burstKib, Placement placement, Fabric.Nic nic) {
        try {
            return Fabric.build(servers, ranks, intraMbit, interMbit, burstKib, placement, nic);
        } catch (IOException e) {
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                throw new AssertionError(e.getMessage(), e);
            }
            Assumptions.abort(e.getMessage());
            throw new AssertionError("unreachable");
        }
    }

    /** The command that runs {@code mainClass} of this test JVM's class and module paths in a small JVM. */
    static List<String> java(Class<?> mainClass, String... args) {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String path = String.join(File.pathSeparator, List.of(System.getProperty("java.class.path", ""),
                System.getProperty("jdk.module.path", "")).stream().filter(x -> !x.isEmpty()).toList());
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
                "--enable-native-access=ALL-UNNAMED", "-cp", path, mainClass.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Waits for every rank's process (at most {@code seconds} each, then killed) and reads its
     * output: whether each ended with status 0 and an output that {@code good} accepts, and
     * everything they printed, rank by rank.
     */
    static Outcome awaitRanks(List<Process> procs, long seconds, java.util.function.Predicate<String> good) throws Exception {
        StringBuilder all = new StringBuilder();
        boolean ok = true;
        for (int g = 0; g < procs.size(); g++) {
            Process p = procs.get(g);
            boolean ended = p.waitFor(seconds, java.util.concurrent.TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            all.append("rank ").append(g).append(ended ? ", status " + p.exitValue() : ", did not end").append(": ").append(out);
            ok &= ended && p.exitValue() == 0 && good.test(out);
        }
        return new Outcome(ok, all.toString());
    }

    /** What {@link #awaitRanks} found. */
    record Outcome(boolean ok, String output) {
    }

    /** Whether any of this fabric's namespaces is still listed. */
    static boolean anyLeft(Fabric f) throws Exception {
        Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        for (int g = 0; g < f.size(); g++) {
            if (out.contains(f.namespace(g))) {
                return true;
            }
        }
        return false;
    }
}
