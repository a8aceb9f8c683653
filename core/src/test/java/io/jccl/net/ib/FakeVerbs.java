// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.engine.cuda.EmulationBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Assertions;

/**
 * The fake libibverbs (test resource fake_ibverbs.cpp) for the tests of a JVM: built once by g++
 * against the installed verbs.h, then made this JVM's libibverbs through {@code jccl.ibverbs.lib}
 * (child JVMs take the same path). libibverbs is loaded once per JVM, so the tests that use it run
 * in the surefire execution fake-verbs (core's pom), which sets {@code jccl.test.fake.verbs.jvm}
 * and the devices (JCCL_FAKE_IB_DEVICES); elsewhere they skip.
 */
public final class FakeVerbs {
    private static Path library;

    private FakeVerbs() {
    }

    /** The fake's path, built and loaded at the first call; aborts the caller's tests where it cannot be. */
    public static synchronized Path load() throws Exception {
        if (library != null) {
            return library;
        }
        if (!Boolean.getBoolean("jccl.test.fake.verbs.jvm")) {
            // -Dtest put the caller in the JVM of the other tests, which may have loaded the real
            // libibverbs; the fake-verbs execution runs it in its own.
            String why = "the fake libibverbs is for the JVM of the surefire execution fake-verbs";
            System.err.println("[jccl] SKIPPED here: " + why);
            Assumptions.abort(why);
        }
        if (!Files.exists(Path.of("/usr/include/infiniband/verbs.h"))) {
            String why = "verbs.h was not found (Debian package libibverbs-dev, which .ci/run installs): the fake libibverbs needs it";
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                Assertions.fail(why);
            }
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        Path dir = Files.createTempDirectory("jccl-fake-ibverbs");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
        Path built = EmulationBuild.compileLibrary(dir, FakeVerbs.class, "fake_ibverbs.cpp", "libfakeibverbs.so",
                "the fake libibverbs");
        System.setProperty("jccl.ibverbs.lib", built.toString());
        assertThat(Verbs.available()).as("the fake must be the libibverbs this JVM loads").isTrue();
        library = built;
        return library;
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
