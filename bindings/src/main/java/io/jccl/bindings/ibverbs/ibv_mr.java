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
 * struct ibv_mr
 * }
 */
public final class ibv_mr {
    private ibv_mr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("context"),
        C_POINTER.withName("pd"),
        C_POINTER.withName("addr"),
        C_LONG.withName("length"),
        C_INT.withName("handle"),
        C_INT.withName("lkey"),
        C_INT.withName("rkey"),
        MemoryLayout.paddingLayout(4)).withName("ibv_mr");

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

    private static final long context$OFFSET = $LAYOUT.byteOffset(groupElement("context"));

    /** Offset of {@code context} in bytes. */
    public static long context$offset() {
        return context$OFFSET;
    }

    private static final AddressLayout context$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("context"));

    public static MemorySegment context(MemorySegment struct) {
        return struct.get(context$LAYOUT, context$OFFSET);
    }

    public static void context(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(context$LAYOUT, context$OFFSET, fieldValue);
    }

    private static final long pd$OFFSET = $LAYOUT.byteOffset(groupElement("pd"));

    /** Offset of {@code pd} in bytes. */
    public static long pd$offset() {
        return pd$OFFSET;
    }

    private static final AddressLayout pd$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("pd"));

    public static MemorySegment pd(MemorySegment struct) {
        return struct.get(pd$LAYOUT, pd$OFFSET);
    }

    public static void pd(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(pd$LAYOUT, pd$OFFSET, fieldValue);
    }

    private static final long addr$OFFSET = $LAYOUT.byteOffset(groupElement("addr"));

    /** Offset of {@code addr} in bytes. */
    public static long addr$offset() {
        return addr$OFFSET;
    }

    private static final AddressLayout addr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("addr"));

    public static MemorySegment addr(MemorySegment struct) {
        return struct.get(addr$LAYOUT, addr$OFFSET);
    }

    public static void addr(MemorySegment struct, MemorySegment fieldValue) {
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

    private static final long handle$OFFSET = $LAYOUT.byteOffset(groupElement("handle"));

    /** Offset of {@code handle} in bytes. */
    public static long handle$offset() {
        return handle$OFFSET;
    }

    private static final OfInt handle$LAYOUT = (OfInt) $LAYOUT.select(groupElement("handle"));

    public static int handle(MemorySegment struct) {
        return struct.get(handle$LAYOUT, handle$OFFSET);
    }

    public static void handle(MemorySegment struct, int fieldValue) {
        struct.set(handle$LAYOUT, handle$OFFSET, fieldValue);
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

    private static final long rkey$OFFSET = $LAYOUT.byteOffset(groupElement("rkey"));

    /** Offset of {@code rkey} in bytes. */
    public static long rkey$offset() {
        return rkey$OFFSET;
    }

    private static final OfInt rkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("rkey"));

    public static int rkey(MemorySegment struct) {
        return struct.get(rkey$LAYOUT, rkey$OFFSET);
    }

    public static void rkey(MemorySegment struct, int fieldValue) {
        struct.set(rkey$LAYOUT, rkey$OFFSET, fieldValue);
    }
}
