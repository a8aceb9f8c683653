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

/**
 * {@snippet lang=c :
 * struct ibv_qp_init_attr
 * }
 */
public final class ibv_qp_init_attr {
    private ibv_qp_init_attr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("qp_context"),
        C_POINTER.withName("send_cq"),
        C_POINTER.withName("recv_cq"),
        C_POINTER.withName("srq"),
        ibv_qp_cap.layout().withName("cap"),
        C_INT.withName("qp_type"),
        C_INT.withName("sq_sig_all"),
        MemoryLayout.paddingLayout(4)).withName("ibv_qp_init_attr");

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

    private static final long qp_context$OFFSET = $LAYOUT.byteOffset(groupElement("qp_context"));

    /** Offset of {@code qp_context} in bytes. */
    public static long qp_context$offset() {
        return qp_context$OFFSET;
    }

    private static final AddressLayout qp_context$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("qp_context"));

    public static MemorySegment qp_context(MemorySegment struct) {
        return struct.get(qp_context$LAYOUT, qp_context$OFFSET);
    }

    public static void qp_context(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(qp_context$LAYOUT, qp_context$OFFSET, fieldValue);
    }

    private static final long send_cq$OFFSET = $LAYOUT.byteOffset(groupElement("send_cq"));

    /** Offset of {@code send_cq} in bytes. */
    public static long send_cq$offset() {
        return send_cq$OFFSET;
    }

    private static final AddressLayout send_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("send_cq"));

    public static MemorySegment send_cq(MemorySegment struct) {
        return struct.get(send_cq$LAYOUT, send_cq$OFFSET);
    }

    public static void send_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(send_cq$LAYOUT, send_cq$OFFSET, fieldValue);
    }

    private static final long recv_cq$OFFSET = $LAYOUT.byteOffset(groupElement("recv_cq"));

    /** Offset of {@code recv_cq} in bytes. */
    public static long recv_cq$offset() {
        return recv_cq$OFFSET;
    }

    private static final AddressLayout recv_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("recv_cq"));

    public static MemorySegment recv_cq(MemorySegment struct) {
        return struct.get(recv_cq$LAYOUT, recv_cq$OFFSET);
    }

    public static void recv_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(recv_cq$LAYOUT, recv_cq$OFFSET, fieldValue);
    }

    private static final long srq$OFFSET = $LAYOUT.byteOffset(groupElement("srq"));

    /** Offset of {@code srq} in bytes. */
    public static long srq$offset() {
        return srq$OFFSET;
    }

    private static final AddressLayout srq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("srq"));

    public static MemorySegment srq(MemorySegment struct) {
        return struct.get(srq$LAYOUT, srq$OFFSET);
    }

    public static void srq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(srq$LAYOUT, srq$OFFSET, fieldValue);
    }

    private static final long cap$OFFSET = $LAYOUT.byteOffset(groupElement("cap"));

    /** Offset of {@code cap} in bytes. */
    public static long cap$offset() {
        return cap$OFFSET;
    }

    private static final MemoryLayout cap$LAYOUT = $LAYOUT.select(groupElement("cap"));

    /** The {@code cap} member as a slice of {@code struct}. */
    public static MemorySegment cap(MemorySegment struct) {
        return struct.asSlice(cap$OFFSET, cap$LAYOUT.byteSize());
    }

    public static void cap(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, cap$OFFSET, cap$LAYOUT.byteSize());
    }

    private static final long qp_type$OFFSET = $LAYOUT.byteOffset(groupElement("qp_type"));

    /** Offset of {@code qp_type} in bytes. */
    public static long qp_type$offset() {
        return qp_type$OFFSET;
    }

    private static final OfInt qp_type$LAYOUT = (OfInt) $LAYOUT.select(groupElement("qp_type"));

    public static int qp_type(MemorySegment struct) {
        return struct.get(qp_type$LAYOUT, qp_type$OFFSET);
    }

    public static void qp_type(MemorySegment struct, int fieldValue) {
        struct.set(qp_type$LAYOUT, qp_type$OFFSET, fieldValue);
    }

    private static final long sq_sig_all$OFFSET = $LAYOUT.byteOffset(groupElement("sq_sig_all"));

    /** Offset of {@code sq_sig_all} in bytes. */
    public static long sq_sig_all$offset() {
        return sq_sig_all$OFFSET;
    }

    private static final OfInt sq_sig_all$LAYOUT = (OfInt) $LAYOUT.select(groupElement("sq_sig_all"));

    public static int sq_sig_all(MemorySegment struct) {
        return struct.get(sq_sig_all$LAYOUT, sq_sig_all$OFFSET);
    }

    public static void sq_sig_all(MemorySegment struct, int fieldValue) {
        struct.set(sq_sig_all$LAYOUT, sq_sig_all$OFFSET, fieldValue);
    }
}
