// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;

/**
 * {@snippet lang=c :
 * struct ibv_qp_cap
 * }
 */
public final class ibv_qp_cap {
    private ibv_qp_cap() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_INT.withName("max_send_wr"),
        C_INT.withName("max_recv_wr"),
        C_INT.withName("max_send_sge"),
        C_INT.withName("max_recv_sge"),
        C_INT.withName("max_inline_data")).withName("ibv_qp_cap");

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

    private static final long max_send_wr$OFFSET = $LAYOUT.byteOffset(groupElement("max_send_wr"));

    /** Offset of {@code max_send_wr} in bytes. */
    public static long max_send_wr$offset() {
        return max_send_wr$OFFSET;
    }

    private static final OfInt max_send_wr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_send_wr"));

    public static int max_send_wr(MemorySegment struct) {
        return struct.get(max_send_wr$LAYOUT, max_send_wr$OFFSET);
    }

    public static void max_send_wr(MemorySegment struct, int fieldValue) {
        struct.set(max_send_wr$LAYOUT, max_send_wr$OFFSET, fieldValue);
    }

    private static final long max_recv_wr$OFFSET = $LAYOUT.byteOffset(groupElement("max_recv_wr"));

    /** Offset of {@code max_recv_wr} in bytes. */
    public static long max_recv_wr$offset() {
        return max_recv_wr$OFFSET;
    }

    private static final OfInt max_recv_wr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_recv_wr"));

    public static int max_recv_wr(MemorySegment struct) {
        return struct.get(max_recv_wr$LAYOUT, max_recv_wr$OFFSET);
    }

    public static void max_recv_wr(MemorySegment struct, int fieldValue) {
        struct.set(max_recv_wr$LAYOUT, max_recv_wr$OFFSET, fieldValue);
    }

    private static final long max_send_sge$OFFSET = $LAYOUT.byteOffset(groupElement("max_send_sge"));

    /** Offset of {@code max_send_sge} in bytes. */
    public static long max_send_sge$offset() {
        return max_send_sge$OFFSET;
    }

    private static final OfInt max_send_sge$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_send_sge"));

    public static int max_send_sge(MemorySegment struct) {
        return struct.get(max_send_sge$LAYOUT, max_send_sge$OFFSET);
    }

    public static void max_send_sge(MemorySegment struct, int fieldValue) {
        struct.set(max_send_sge$LAYOUT, max_send_sge$OFFSET, fieldValue);
    }

    private static final long max_recv_sge$OFFSET = $LAYOUT.byteOffset(groupElement("max_recv_sge"));

    /** Offset of {@code max_recv_sge} in bytes. */
    public static long max_recv_sge$offset() {
        return max_recv_sge$OFFSET;
    }

    private static final OfInt max_recv_sge$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_recv_sge"));

    public static int max_recv_sge(MemorySegment struct) {
        return struct.get(max_recv_sge$LAYOUT, max_recv_sge$OFFSET);
    }

    public static void max_recv_sge(MemorySegment struct, int fieldValue) {
        struct.set(max_recv_sge$LAYOUT, max_recv_sge$OFFSET, fieldValue);
    }

    private static final long max_inline_data$OFFSET = $LAYOUT.byteOffset(groupElement("max_inline_data"));

    /** Offset of {@code max_inline_data} in bytes. */
    public static long max_inline_data$offset() {
        return max_inline_data$OFFSET;
    }

    private static final OfInt max_inline_data$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_inline_data"));

    public static int max_inline_data(MemorySegment struct) {
        return struct.get(max_inline_data$LAYOUT, max_inline_data$OFFSET);
    }

    public static void max_inline_data(MemorySegment struct, int fieldValue) {
        struct.set(max_inline_data$LAYOUT, max_inline_data$OFFSET, fieldValue);
    }
}
