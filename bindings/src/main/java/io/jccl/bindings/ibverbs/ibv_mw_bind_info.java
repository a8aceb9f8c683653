// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c :
 * struct ibv_mw_bind_info
 * }
 */
public final class ibv_mw_bind_info {
    private ibv_mw_bind_info() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("mr"),
        C_LONG.withName("addr"),
        C_LONG.withName("length"),
        C_INT.withName("mw_access_flags"),
        MemoryLayout.paddingLayout(4)).withName("ibv_mw_bind_info");

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

    private static final long mr$OFFSET = $LAYOUT.byteOffset(groupElement("mr"));

    /** Offset of {@code mr} in bytes. */
    public static long mr$offset() {
        return mr$OFFSET;
    }

    private static final AddressLayout mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("mr"));

    public static MemorySegment mr(MemorySegment struct) {
        return struct.get(mr$LAYOUT, mr$OFFSET);
    }

    public static void mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(mr$LAYOUT, mr$OFFSET, fieldValue);
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

    private static final OfLong length$LAYOUT = (OfLong) $LAYOUT.select(groupElement("length"));

    public static long length(MemorySegment struct) {
        return struct.get(length$LAYOUT, length$OFFSET);
    }

    public static void length(MemorySegment struct, long fieldValue) {
        struct.set(length$LAYOUT, length$OFFSET, fieldValue);
    }

    private static final long mw_access_flags$OFFSET = $LAYOUT.byteOffset(groupElement("mw_access_flags"));

    /** Offset of {@code mw_access_flags} in bytes. */
    public static long mw_access_flags$offset() {
        return mw_access_flags$OFFSET;
    }

    private static final OfInt mw_access_flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("mw_access_flags"));

    public static int mw_access_flags(MemorySegment struct) {
        return struct.get(mw_access_flags$LAYOUT, mw_access_flags$OFFSET);
    }

    public static void mw_access_flags(MemorySegment struct, int fieldValue) {
        struct.set(mw_access_flags$LAYOUT, mw_access_flags$OFFSET, fieldValue);
    }
}
