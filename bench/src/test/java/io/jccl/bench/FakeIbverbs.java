// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Assumptions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fake libibverbs of core's tests (fake_ibverbs.cpp, whose path bench's pom passes as
 * {@code jccl.test.fake.ibverbs.source}), built here with g++ for the ranks' processes: this JVM
 * never loads it. Without g++ or verbs.h the test skips saying why, or fails where
 * JCCL_REQUIRE_NATIVE_TESTS=true (CI).
 */
final class FakeIbverbs {
    private FakeIbverbs() {
    }

    private static Path library;

    /** The library, built once per JVM. */
    static synchronized Path library() throws Exception {
        if (library != null) {
            return library;
        }
        String source = System.getProperty("jccl.test.fake.ibverbs.source");
        if (source == null || !Files.exists(Path.of(source))) {
            skip("the fake libibverbs's source is not at " + source + " (property jccl.test.fake.ibverbs.source)");
        }
        if (!Files.exists(Path.of("/usr/include/infiniband/verbs.h"))) {
            skip("verbs.h was not found (Debian package libibverbs-dev): the fake libibverbs needs it");
        }
        Path dir = Files.createTempDirectory("jccl-bench-ib-fake");
        Path lib = dir.resolve("libfakeibverbs.so");
        Process p = new ProcessBuilder(List.of("g++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                source, "-o", lib.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new AssertionError("g++ failed to build the fake libibverbs: " + out);
        }
        lib.toFile().deleteOnExit();
        dir.toFile().deleteOnExit();
        library = lib;
        return lib;
    }

    /**
     * What a rank needs to run the IB net on the fake: {@code JCCL_NET=IB}, the library, its
     * {@code devices} (the fake's JCCL_FAKE_IB_DEVICES grammar) and {@code qps} queue pairs per connection.
     */
    static Map<String, String> environment(String devices, int qps) throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("JCCL_NET", "IB");
        env.put("JCCL_IBVERBS_LIB", library().toString());
        env.put("JCCL_FAKE_IB_DEVICES", devices);
        env.put("JCCL_IB_QPS_PER_CONNECTION", Integer.toString(qps));
        return env;
    }

    private static void skip(String why) {
        if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
            throw new AssertionError(why);
        }
        Assumptions.abort(why);
    }
}
