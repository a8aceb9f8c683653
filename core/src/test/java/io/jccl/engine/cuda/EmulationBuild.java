// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.kernels.Kernels;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Builds the kernels' source with g++ against the host emulation of CUDA (test resources
 * {@code jccl_emulation.h}, {@code emu_block.*}), linked with one more source of the caller's: the
 * standalone emulator of {@link KernelEmulationTest} or the fake libcuda of
 * {@link FakeDriverEngineTest}; or a fake library alone (the fake NVML, the fake libibverbs of
 * io.jccl.net.ib.FakeVerbs). Without g++ the caller's tests skip with the reason, or fail under
 * {@code JCCL_REQUIRE_NATIVE_TESTS=true}.
 */
public final class EmulationBuild {
    private EmulationBuild() {
    }

    /**
     * Compiles into {@code dir}: the kernels, the emulation and {@code source} (a resource next to
     * this class), with {@code linkOptions} (e.g. {@code -shared -fPIC}), to {@code output}.
     */
    static Path compile(Path dir, String source, String output, String what, String... linkOptions) throws Exception {
        Path cxx = cxx(what);
        for (String f : List.of("jccl_kernels.cu", "jccl_work.h")) {
            Files.write(dir.resolve(f), Kernels.resource(f));
        }
        for (String f : List.of("jccl_emulation.h", "emu_block.h", "emu_block.cpp", "fake_topology.h", source)) {
            try (InputStream in = EmulationBuild.class.getResourceAsStream(f)) {
                Files.write(dir.resolve(f), in.readAllBytes());
            }
        }
        List<String> cmd = new ArrayList<>(List.of(cxx.toString(), "-std=c++17", "-O1", "-ffp-contract=off",
                "-DJCCL_HOST_EMULATION", "-pthread"));
        cmd.addAll(List.of(linkOptions));
        cmd.addAll(List.of("-x", "c++", "jccl_kernels.cu", "-x", "none", "emu_block.cpp", source, "-o", output, "-ldl"));
        return run(cmd, dir, output);
    }

    /**
     * Compiles {@code source} (a resource next to this class, with the fake_topology.h it may
     * include) alone into the shared library {@code output} in {@code dir}: a fake library that
     * needs no kernels, such as fake_nvml.cpp.
     */
    static Path compileLibrary(Path dir, String source, String output, String what) throws Exception {
        Path cxx = cxx(what);
        for (String f : List.of("fake_topology.h", source)) {
            try (InputStream in = EmulationBuild.class.getResourceAsStream(f)) {
                Files.write(dir.resolve(f), in.readAllBytes());
            }
        }
        return run(List.of(cxx.toString(), "-std=c++17", "-O1", "-shared", "-fPIC", source, "-o", output), dir, output);
    }

    /**
     * Compiles {@code source}, a resource next to {@code anchor}, alone into the shared library
     * {@code output} in {@code dir}, with warnings as errors (-Wall -Wextra) and {@code options}
     * (libraries to link, e.g.); the fakes of other packages use it.
     */
    public static Path compileLibrary(Path dir, Class<?> anchor, String source, String output, String what,
                                      String... options) throws Exception {
        Path cxx = cxx(what);
        try (InputStream in = anchor.getResourceAsStream(source)) {
            if (in == null) {
                fail("no resource " + source + " next to " + anchor.getName());
            }
            Files.write(dir.resolve(source), in.readAllBytes());
        }
        List<String> cmd = new ArrayList<>(List.of(cxx.toString(), "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror",
                "-shared", "-fPIC", source, "-o", output));
        cmd.addAll(List.of(options));
        return run(cmd, dir, output);
    }

    private static Path run(List<String> cmd, Path dir, String output) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0).as(out).isTrue();
        return dir.resolve(output);
    }

    /** g++ from PATH; without it the caller's tests skip with the reason, or fail under JCCL_REQUIRE_NATIVE_TESTS. */
    private static Path cxx(String what) {
        Path cxx = null;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, "g++");
            if (Files.isExecutable(p)) {
                cxx = p;
                break;
            }
        }
        if (cxx == null) {
            String why = "g++ was not found: " + what + " needs it";
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                fail(why);
            }
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        return cxx;
    }
}
