// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.net.ib.Verbs;
import org.junit.jupiter.api.Assumptions;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The libibverbs the IB net's tests run on: the one {@code -Djccl.ibverbs.lib} names, or, in the
 * fake-verbs JVM (core's pom: surefire execution fake-verbs), the fake one (fake_ibverbs.cpp, next
 * to {@link Verbs}) that {@link io.jccl.net.ib.FakeVerbs} builds once per JVM; elsewhere the test
 * skips saying why (libibverbs is loaded once per JVM, and the other tests' JVM may hold the real
 * one).
 */
public final class IbFake {
    private IbFake() {
    }

    private static Path library;

    /** The library's path, loaded in this JVM, for this JVM and the ranks' processes it starts. */
    public static synchronized Path library() throws Exception {
        if (library != null) {
            return library;
        }
        boolean fakeJvm = Boolean.getBoolean("jccl.test.fake.verbs.jvm");
        String given = System.getProperty("jccl.ibverbs.lib");
        if (fakeJvm) {
            // FakeVerbsTest's build, whichever test class comes first: one library per JVM, whose
            // counters both FakeIbCounters and live() read.
            given = io.jccl.net.ib.FakeVerbs.load().toString();
        } else if (given == null) {
            skip("the IB net's tests run in the fake-verbs JVM (surefire execution fake-verbs) or with -Djccl.ibverbs.lib");
        }
        if (!Verbs.available() || Verbs.deviceNames().isEmpty()) {
            skip("the libibverbs " + given + " has no device");
        }
        library = Path.of(given);
        return library;
    }

    /**
     * The fake's live verbs objects, "qp=0 mr=0 cq=0 pd=0 context=0" when all were released
     * (its hook jccl_fake_ib_live, in the library this JVM loaded); null on a real libibverbs.
     */
    public static String live() {
        if (IbVerbs.LIBRARY.find("jccl_fake_ib_live").isEmpty()) {
            return null;
        }
        MethodHandle h = IbVerbs.LIBRARY.downcall("jccl_fake_ib_live", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        StringBuilder sb = new StringBuilder();
        for (String kind : new String[] {"qp", "mr", "cq", "pd", "context"}) {
            try (Arena a = Arena.ofConfined()) {
                sb.append(sb.isEmpty() ? "" : " ").append(kind).append('=').append((int) h.invokeExact(a.allocateFrom(kind)));
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        }
        return sb.toString();
    }

    private static void skip(String why) {
        if (Boolean.getBoolean("jccl.test.fake.verbs.jvm") && "true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
            org.junit.jupiter.api.Assertions.fail(why);
        }
        System.err.println("[jccl] SKIPPED: " + why);
        Assumptions.abort(why);
    }
}
