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
 * struct ibv_recv_wr
 * }
 */
public final class ibv_recv_wr {
    private ibv_recv_wr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_LONG.withName("wr_id"),
        C_POINTER.withName("next"),
        C_POINTER.withName("sg_list"),
        C_INT.withName("num_sge"),
        MemoryLayout.paddingLayout(4)).withName("ibv_recv_wr");

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

    private static final long wr_id$OFFSET = $LAYOUT.byteOffset(groupElement("wr_id"));

    /** Offset of {@code wr_id} in bytes. */
    public static long wr_id$offset() {
        return wr_id$OFFSET;
    }

    private static final OfLong wr_id$LAYOUT = (OfLong) $LAYOUT.select(groupElement("wr_id"));

    public static long wr_id(MemorySegment struct) {
        return struct.get(wr_id$LAYOUT, wr_id$OFFSET);
    }

    public static void wr_id(MemorySegment struct, long fieldValue) {
        struct.set(wr_id$LAYOUT, wr_id$OFFSET, fieldValue);
    }

    private static final long next$OFFSET = $LAYOUT.byteOffset(groupElement("next"));

    /** Offset of {@code next} in bytes. */
    public static long next$offset() {
        return next$OFFSET;
    }

    private static final AddressLayout next$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("next"));

    public static MemorySegment next(MemorySegment struct) {
        return struct.get(next$LAYOUT, next$OFFSET);
    }

    public static void next(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(next$LAYOUT, next$OFFSET, fieldValue);
    }

    private static final long sg_list$OFFSET = $LAYOUT.byteOffset(groupElement("sg_list"));

    /** Offset of {@code sg_list} in bytes. */
    public static long sg_list$offset() {
        return sg_list$OFFSET;
    }

    private static final AddressLayout sg_list$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("sg_list"));

    public static MemorySegment sg_list(MemorySegment struct) {
        return struct.get(sg_list$LAYOUT, sg_list$OFFSET);
    }

    public static void sg_list(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(sg_list$LAYOUT, sg_list$OFFSET, fieldValue);
    }

    private static final long num_sge$OFFSET = $LAYOUT.byteOffset(groupElement("num_sge"));

    /** Offset of {@code num_sge} in bytes. */
    public static long num_sge$offset() {
        return num_sge$OFFSET;
    }

    private static final OfInt num_sge$LAYOUT = (OfInt) $LAYOUT.select(groupElement("num_sge"));

    public static int num_sge(MemorySegment struct) {
        return struct.get(num_sge$LAYOUT, num_sge$OFFSET);
    }

    public static void num_sge(MemorySegment struct, int fieldValue) {
        struct.set(num_sge$LAYOUT, num_sge$OFFSET, fieldValue);
    }
}
