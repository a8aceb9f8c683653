// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The test hooks of the fake libibverbs (fake_ibverbs.cpp) this JVM loaded through
 * {@code jccl.ibverbs.lib}: its live objects and the bytes it moved as requester.
 */
@SuppressWarnings("restricted")
final class FakeIbCounters {
    private static final MethodHandle LIVE;
    private static final MethodHandle BYTES;
    private static final MethodHandle RESET;

    static {
        SymbolLookup lib = SymbolLookup.libraryLookup(Path.of(System.getProperty("jccl.ibverbs.lib")), Arena.global());
        Linker linker = Linker.nativeLinker();
        LIVE = linker.downcallHandle(lib.find("jccl_fake_ib_live").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        BYTES = linker.downcallHandle(lib.find("jccl_fake_ib_rdma_bytes").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG));
        RESET = linker.downcallHandle(lib.find("jccl_fake_ib_reset").orElseThrow(), FunctionDescriptor.ofVoid());
    }

    private FakeIbCounters() {
    }

    /** Live objects of a kind: "context", "pd", "mr", "cq", "qp", "channel". */
    static int live(String kind) {
        try (Arena a = Arena.ofConfined()) {
            return (int) LIVE.invokeExact(a.allocateFrom(kind));
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** "qp=0 mr=0 cq=0 pd=0 context=0" when everything was released. */
    static String allLive() {
        StringBuilder sb = new StringBuilder();
        for (String k : new String[] {"qp", "mr", "cq", "pd", "context", "channel"}) {
            sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(live(k));
        }
        return sb.toString();
    }

    /** Sets the byte count back to zero. */
    static void reset() {
        try {
            RESET.invokeExact();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static long rdmaBytes() {
        try {
            return (long) BYTES.invokeExact();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
