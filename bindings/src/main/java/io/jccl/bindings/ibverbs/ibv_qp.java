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
 * struct ibv_qp
 * }
 */
public final class ibv_qp {
    private ibv_qp() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("context"),
        C_POINTER.withName("qp_context"),
        C_POINTER.withName("pd"),
        C_POINTER.withName("send_cq"),
        C_POINTER.withName("recv_cq"),
        C_POINTER.withName("srq"),
        C_INT.withName("handle"),
        C_INT.withName("qp_num"),
        C_INT.withName("state"),
        C_INT.withName("qp_type"),
        MemoryLayout.sequenceLayout(5, C_LONG).withName("mutex") /* pthread_mutex_t */,
        MemoryLayout.sequenceLayout(6, C_LONG).withName("cond") /* pthread_cond_t */,
        C_INT.withName("events_completed"),
        MemoryLayout.paddingLayout(4)).withName("ibv_qp");

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

    private static final long qp_num$OFFSET = $LAYOUT.byteOffset(groupElement("qp_num"));

    /** Offset of {@code qp_num} in bytes. */
    public static long qp_num$offset() {
        return qp_num$OFFSET;
    }

    private static final OfInt qp_num$LAYOUT = (OfInt) $LAYOUT.select(groupElement("qp_num"));

    public static int qp_num(MemorySegment struct) {
        return struct.get(qp_num$LAYOUT, qp_num$OFFSET);
    }

    public static void qp_num(MemorySegment struct, int fieldValue) {
        struct.set(qp_num$LAYOUT, qp_num$OFFSET, fieldValue);
    }

    private static final long state$OFFSET = $LAYOUT.byteOffset(groupElement("state"));

    /** Offset of {@code state} in bytes. */
    public static long state$offset() {
        return state$OFFSET;
    }

    private static final OfInt state$LAYOUT = (OfInt) $LAYOUT.select(groupElement("state"));

    public static int state(MemorySegment struct) {
        return struct.get(state$LAYOUT, state$OFFSET);
    }

    public static void state(MemorySegment struct, int fieldValue) {
        struct.set(state$LAYOUT, state$OFFSET, fieldValue);
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

    private static final long mutex$OFFSET = $LAYOUT.byteOffset(groupElement("mutex"));

    /** Offset of {@code mutex} in bytes. */
    public static long mutex$offset() {
        return mutex$OFFSET;
    }

    private static final MemoryLayout mutex$LAYOUT = $LAYOUT.select(groupElement("mutex"));

    /** The {@code mutex} member as a slice of {@code struct}. */
    public static MemorySegment mutex(MemorySegment struct) {
        return struct.asSlice(mutex$OFFSET, mutex$LAYOUT.byteSize());
    }

    private static final long cond$OFFSET = $LAYOUT.byteOffset(groupElement("cond"));

    /** Offset of {@code cond} in bytes. */
    public static long cond$offset() {
        return cond$OFFSET;
    }

    private static final MemoryLayout cond$LAYOUT = $LAYOUT.select(groupElement("cond"));

    /** The {@code cond} member as a slice of {@code struct}. */
    public static MemorySegment cond(MemorySegment struct) {
        return struct.asSlice(cond$OFFSET, cond$LAYOUT.byteSize());
    }

    private static final long events_completed$OFFSET = $LAYOUT.byteOffset(groupElement("events_completed"));

    /** Offset of {@code events_completed} in bytes. */
    public static long events_completed$offset() {
        return events_completed$OFFSET;
    }

    private static final OfInt events_completed$LAYOUT = (OfInt) $LAYOUT.select(groupElement("events_completed"));

    public static int events_completed(MemorySegment struct) {
        return struct.get(events_completed$LAYOUT, events_completed$OFFSET);
    }

    public static void events_completed(MemorySegment struct, int fieldValue) {
        struct.set(events_completed$LAYOUT, events_completed$OFFSET, fieldValue);
    }
}
