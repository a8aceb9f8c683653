// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c :
 * struct ibv_sge
 * }
 */
public final class ibv_sge {
    private ibv_sge() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_LONG.withName("addr"),
        C_INT.withName("length"),
        C_INT.withName("lkey")).withName("ibv_sge");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate($LAYOUT);
    }

    public static MemorySegment allocateArray(long count, SegmentAllocator allocator) {
        return allocator.allocate(MemoryLayout.sequenceLayout(count, $LAYOUT));
    }

    /** Element {@code index} of an array of this struct. */
    public static MemorySegment asSlice(MemorySegment array, long index) {
        return array.asSlice($LAYOUT.byteSize() * index, $LAYOUT.byteSize());
    }

    /** A pointer to this struct, as returned by the library, widened to the struct's size. */
    public static MemorySegment reinterpret(MemorySegment address) {
        return address.reinterpret($LAYOUT.byteSize());
    }

    private static final long addr$OFFSET = $LAYOUT.byteOffset(groupElement("addr"));

    /** Offset of {@code addr} in bytes. */
    public static long addr$offset() {
        return addr$OFFSET;
    }

    private static final OfLong addr$LAYOUT = (OfLong) $LAYOUT.select(groupElement("addr"));

    public static long addr(MemorySegment struct) {
        return struct.get(addr$LAYOUT, addr$OFFSET);
    }

    public static void addr(MemorySegment struct, long fieldValue) {
        struct.set(addr$LAYOUT, addr$OFFSET, fieldValue);
    }

    private static final long length$OFFSET = $LAYOUT.byteOffset(groupElement("length"));

    /** Offset of {@code length} in bytes. */
    public static long length$offset() {
        return length$OFFSET;
    }

    private static final OfInt length$LAYOUT = (OfInt) $LAYOUT.select(groupElement("length"));

    public static int length(MemorySegment struct) {
        return struct.get(length$LAYOUT, length$OFFSET);
    }

    public static void length(MemorySegment struct, int fieldValue) {
        struct.set(length$LAYOUT, length$OFFSET, fieldValue);
    }

    private static final long lkey$OFFSET = $LAYOUT.byteOffset(groupElement("lkey"));

    /** Offset of {@code lkey} in bytes. */
    public static long lkey$offset() {
        return lkey$OFFSET;
    }

    private static final OfInt lkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("lkey"));

    public static int lkey(MemorySegment struct) {
        return struct.get(lkey$LAYOUT, lkey$OFFSET);
    }

    public static void lkey(MemorySegment struct, int fieldValue) {
        struct.set(lkey$LAYOUT, lkey$OFFSET, fieldValue);
    }
}
