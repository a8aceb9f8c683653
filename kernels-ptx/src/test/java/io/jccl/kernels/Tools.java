// SPDX-License-Identifier: Apache-2.0
package io.jccl.kernels;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The CUDA toolkit and compiler these tests run: found on the PATH or under CUDA_HOME and
 * /usr/local/cuda. Where one is missing a test skips with the reason printed, or fails where
 * {@code JCCL_REQUIRE_NATIVE_TESTS=true} says the set-up provides it (.ci/run does).
 */
final class Tools {
    private Tools() {
    }

    static boolean required() {
        return "true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))
                || Boolean.getBoolean("jccl.require.native.tests");
    }

    static void require(boolean present, String missing) {
        if (present) {
            return;
        }
        if (required()) {
            fail(missing + " (JCCL_REQUIRE_NATIVE_TESTS=true: the set-up should have provided it)");
        }
        System.err.println("[jccl] SKIPPED: " + missing);
        Assumptions.abort(missing);
    }

    /** A CUDA tool: on the PATH, else in $CUDA_HOME/bin or /usr/local/cuda/bin. */
    static Optional<Path> cuda(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        String home = System.getenv("CUDA_HOME");
        if (home != null) {
            dirs.add(home + "/bin");
        }
        dirs.add("/usr/local/cuda/bin");
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }

    static Optional<Path> cxx() {
        String cxx = System.getenv("CXX");
        return cuda(cxx != null && !cxx.isBlank() ? cxx : "g++");
    }

    record Result(int exit, String output) {
    }

    /** Runs a command (bounded: 5 minutes), output and errors together. */
    static Result run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("timed out: " + command);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The committed PTX, as the module holds it. */
    static String ptx() {
        return new String(Kernels.resource(Kernels.PTX_RESOURCE), StandardCharsets.US_ASCII);
    }
}
