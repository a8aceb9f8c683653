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
 * struct ibv_cq
 * }
 */
public final class ibv_cq {
    private ibv_cq() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("context"),
        C_POINTER.withName("channel"),
        C_POINTER.withName("cq_context"),
        C_INT.withName("handle"),
        C_INT.withName("cqe"),
        MemoryLayout.sequenceLayout(5, C_LONG).withName("mutex") /* pthread_mutex_t */,
        MemoryLayout.sequenceLayout(6, C_LONG).withName("cond") /* pthread_cond_t */,
        C_INT.withName("comp_events_completed"),
        C_INT.withName("async_events_completed")).withName("ibv_cq");

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

    private static final long channel$OFFSET = $LAYOUT.byteOffset(groupElement("channel"));

    /** Offset of {@code channel} in bytes. */
    public static long channel$offset() {
        return channel$OFFSET;
    }

    private static final AddressLayout channel$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("channel"));

    public static MemorySegment channel(MemorySegment struct) {
        return struct.get(channel$LAYOUT, channel$OFFSET);
    }

    public static void channel(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(channel$LAYOUT, channel$OFFSET, fieldValue);
    }

    private static final long cq_context$OFFSET = $LAYOUT.byteOffset(groupElement("cq_context"));

    /** Offset of {@code cq_context} in bytes. */
    public static long cq_context$offset() {
        return cq_context$OFFSET;
    }

    private static final AddressLayout cq_context$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("cq_context"));

    public static MemorySegment cq_context(MemorySegment struct) {
        return struct.get(cq_context$LAYOUT, cq_context$OFFSET);
    }

    public static void cq_context(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(cq_context$LAYOUT, cq_context$OFFSET, fieldValue);
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

    private static final long cqe$OFFSET = $LAYOUT.byteOffset(groupElement("cqe"));

    /** Offset of {@code cqe} in bytes. */
    public static long cqe$offset() {
        return cqe$OFFSET;
    }

    private static final OfInt cqe$LAYOUT = (OfInt) $LAYOUT.select(groupElement("cqe"));

    public static int cqe(MemorySegment struct) {
        return struct.get(cqe$LAYOUT, cqe$OFFSET);
    }

    public static void cqe(MemorySegment struct, int fieldValue) {
        struct.set(cqe$LAYOUT, cqe$OFFSET, fieldValue);
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

    private static final long comp_events_completed$OFFSET = $LAYOUT.byteOffset(groupElement("comp_events_completed"));

    /** Offset of {@code comp_events_completed} in bytes. */
    public static long comp_events_completed$offset() {
        return comp_events_completed$OFFSET;
    }

    private static final OfInt comp_events_completed$LAYOUT = (OfInt) $LAYOUT.select(groupElement("comp_events_completed"));

    public static int comp_events_completed(MemorySegment struct) {
        return struct.get(comp_events_completed$LAYOUT, comp_events_completed$OFFSET);
    }

    public static void comp_events_completed(MemorySegment struct, int fieldValue) {
        struct.set(comp_events_completed$LAYOUT, comp_events_completed$OFFSET, fieldValue);
    }

    private static final long async_events_completed$OFFSET = $LAYOUT.byteOffset(groupElement("async_events_completed"));

    /** Offset of {@code async_events_completed} in bytes. */
    public static long async_events_completed$offset() {
        return async_events_completed$OFFSET;
    }

    private static final OfInt async_events_completed$LAYOUT = (OfInt) $LAYOUT.select(groupElement("async_events_completed"));

    public static int async_events_completed(MemorySegment struct) {
        return struct.get(async_events_completed$LAYOUT, async_events_completed$OFFSET);
    }

    public static void async_events_completed(MemorySegment struct, int fieldValue) {
        struct.set(async_events_completed$LAYOUT, async_events_completed$OFFSET, fieldValue);
    }
}
