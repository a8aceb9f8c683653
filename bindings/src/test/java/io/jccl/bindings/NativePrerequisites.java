// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * What the native tests need from the machine (a C++ compiler, the CUDA and verbs headers, CUDA's
 * stub libcuda) and what they do without it: skip with the reason printed, or fail where
 * {@code JCCL_REQUIRE_NATIVE_TESTS=true} says the set-up installed everything (CI's .ci/run does).
 */
public final class NativePrerequisites {
    private NativePrerequisites() {}

    /** Where .ci/run puts the libcuda stub it takes from Debian's nvidia-cuda-dev package. */
    public static final String CI_STUB = "/var/cache/jccl/cuda-stub/libcuda.so";

    public static boolean required() {
        return "true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))
                || Boolean.getBoolean("jccl.require.native.tests");
    }

    /** Skips (or, where required, fails) the calling test unless {@code present}. */
    public static void require(boolean present, String missing) {
        if (present) {
            return;
        }
        if (required()) {
            fail(missing + " (JCCL_REQUIRE_NATIVE_TESTS=true: the set-up should have installed it)");
        }
        System.err.println("[jccl] SKIPPED: " + missing);
        Assumptions.abort(missing);
    }

    /** The C++ compiler: {@code $CXX}, else {@code g++} on the path. */
    public static Optional<Path> cxx() {
        String cxx = System.getenv("CXX");
        if (cxx != null && !cxx.isBlank()) {
            return Optional.of(Path.of(cxx)).filter(Files::isExecutable).or(() -> onPath(cxx));
        }
        return onPath("g++");
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The directory holding cuda.h: -Djccl.cuda.include, $CUDA_HOME/include, /usr/local/cuda/include. */
    public static Optional<Path> cudaInclude() {
        List<String> candidates = new ArrayList<>();
        candidates.add(System.getProperty("jccl.cuda.include"));
        String home = System.getenv("CUDA_HOME");
        if (home != null) {
            candidates.add(home + "/include");
        }
        candidates.add("/usr/local/cuda/include");
        return candidates.stream().filter(c -> c != null && !c.isBlank()).map(Path::of)
                .filter(d -> Files.isRegularFile(d.resolve("cuda.h"))).findFirst();
    }

    /** The system include directory holding infiniband/verbs.h (libibverbs-dev). */
    public static Optional<Path> verbsInclude() {
        Path usr = Path.of("/usr/include");
        return Files.isRegularFile(usr.resolve("infiniband/verbs.h")) ? Optional.of(usr) : Optional.empty();
    }

    /** The directory holding nvml.h: /usr/include (libnvidia-ml-dev), else the CUDA toolkit's include directory. */
    public static Optional<Path> nvmlInclude() {
        Path usr = Path.of("/usr/include");
        if (Files.isRegularFile(usr.resolve("nvml.h"))) {
            return Optional.of(usr);
        }
        return cudaInclude().filter(d -> Files.isRegularFile(d.resolve("nvml.h")));
    }

    /**
     * CUDA's stub libcuda.so: {@code JCCL_TEST_CUDA_STUB} (which, when set, must exist), else .ci/run's
     * copy, else where the CUDA toolkit and Debian's nvidia-cuda-dev install it.
     */
    public static Optional<Path> cudaStub() {
        String named = System.getenv("JCCL_TEST_CUDA_STUB");
        if (named != null && !named.isBlank()) {
            Path p = Path.of(named);
            if (!Files.isRegularFile(p)) {
                fail("JCCL_TEST_CUDA_STUB names " + p + ", which does not exist");
            }
            return Optional.of(p);
        }
        List<String> candidates = new ArrayList<>(List.of(CI_STUB,
                "/usr/lib/x86_64-linux-gnu/stubs/libcuda.so",
                "/usr/local/cuda/lib64/stubs/libcuda.so",
                "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"));
        String home = System.getenv("CUDA_HOME");
        if (home != null) {
            candidates.add(0, home + "/lib64/stubs/libcuda.so");
        }
        return candidates.stream().map(Path::of).filter(Files::isRegularFile).findFirst();
    }

    public static final String STUB_MISSING = "CUDA's stub libcuda.so was not found (set JCCL_TEST_CUDA_STUB, or run"
            + " .ci/run, which extracts it from Debian's non-free package nvidia-cuda-dev into " + CI_STUB + ")";
}
