// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * The errno a native call left behind, captured by the linker right after the call (reading it
 * later through libc would see whatever the JVM did in between).
 *
 * {@snippet :
 * MemorySegment state = Errno.allocate(arena);
 * MemorySegment context = IbVerbs.ibv_open_device(state, device);
 * if (context.equals(MemorySegment.NULL)) {
 *     int errno = Errno.get(state);
 * }
 * }
 */
public final class Errno {
    private Errno() {}

    /** The linker option that binds a function with errno capture; its handle takes the segment first. */
    public static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

    private static final StructLayout LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = LAYOUT.varHandle(PathElement.groupElement("errno"));

    /** A capture segment for calls bound with {@link #CAPTURE}. */
    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate(LAYOUT);
    }

    /** The errno captured in {@code state} by the last call that used it. */
    public static int get(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
