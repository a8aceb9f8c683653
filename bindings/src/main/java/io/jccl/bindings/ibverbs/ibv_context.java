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
 * struct ibv_context
 * }
 */
public final class ibv_context {
    private ibv_context() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("device"),
        ibv_context_ops.layout().withName("ops"),
        C_INT.withName("cmd_fd"),
        C_INT.withName("async_fd"),
        C_INT.withName("num_comp_vectors"),
        MemoryLayout.paddingLayout(4),
        MemoryLayout.sequenceLayout(5, C_LONG).withName("mutex") /* pthread_mutex_t */,
        C_POINTER.withName("abi_compat")).withName("ibv_context");

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

    private static final long device$OFFSET = $LAYOUT.byteOffset(groupElement("device"));

    /** Offset of {@code device} in bytes. */
    public static long device$offset() {
        return device$OFFSET;
    }

    private static final AddressLayout device$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("device"));

    public static MemorySegment device(MemorySegment struct) {
        return struct.get(device$LAYOUT, device$OFFSET);
    }

    public static void device(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(device$LAYOUT, device$OFFSET, fieldValue);
    }

    private static final long ops$OFFSET = $LAYOUT.byteOffset(groupElement("ops"));

    /** Offset of {@code ops} in bytes. */
    public static long ops$offset() {
        return ops$OFFSET;
    }

    private static final MemoryLayout ops$LAYOUT = $LAYOUT.select(groupElement("ops"));

    /** The {@code ops} member as a slice of {@code struct}. */
    public static MemorySegment ops(MemorySegment struct) {
        return struct.asSlice(ops$OFFSET, ops$LAYOUT.byteSize());
    }

    public static void ops(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, ops$OFFSET, ops$LAYOUT.byteSize());
    }

    private static final long cmd_fd$OFFSET = $LAYOUT.byteOffset(groupElement("cmd_fd"));

    /** Offset of {@code cmd_fd} in bytes. */
    public static long cmd_fd$offset() {
        return cmd_fd$OFFSET;
    }

    private static final OfInt cmd_fd$LAYOUT = (OfInt) $LAYOUT.select(groupElement("cmd_fd"));

    public static int cmd_fd(MemorySegment struct) {
        return struct.get(cmd_fd$LAYOUT, cmd_fd$OFFSET);
    }

    public static void cmd_fd(MemorySegment struct, int fieldValue) {
        struct.set(cmd_fd$LAYOUT, cmd_fd$OFFSET, fieldValue);
    }

    private static final long async_fd$OFFSET = $LAYOUT.byteOffset(groupElement("async_fd"));

    /** Offset of {@code async_fd} in bytes. */
    public static long async_fd$offset() {
        return async_fd$OFFSET;
    }

    private static final OfInt async_fd$LAYOUT = (OfInt) $LAYOUT.select(groupElement("async_fd"));

    public static int async_fd(MemorySegment struct) {
        return struct.get(async_fd$LAYOUT, async_fd$OFFSET);
    }

    public static void async_fd(MemorySegment struct, int fieldValue) {
        struct.set(async_fd$LAYOUT, async_fd$OFFSET, fieldValue);
    }

    private static final long num_comp_vectors$OFFSET = $LAYOUT.byteOffset(groupElement("num_comp_vectors"));

    /** Offset of {@code num_comp_vectors} in bytes. */
    public static long num_comp_vectors$offset() {
        return num_comp_vectors$OFFSET;
    }

    private static final OfInt num_comp_vectors$LAYOUT = (OfInt) $LAYOUT.select(groupElement("num_comp_vectors"));

    public static int num_comp_vectors(MemorySegment struct) {
        return struct.get(num_comp_vectors$LAYOUT, num_comp_vectors$OFFSET);
    }

    public static void num_comp_vectors(MemorySegment struct, int fieldValue) {
        struct.set(num_comp_vectors$LAYOUT, num_comp_vectors$OFFSET, fieldValue);
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

    private static final long abi_compat$OFFSET = $LAYOUT.byteOffset(groupElement("abi_compat"));

    /** Offset of {@code abi_compat} in bytes. */
    public static long abi_compat$offset() {
        return abi_compat$OFFSET;
    }

    private static final AddressLayout abi_compat$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("abi_compat"));

    public static MemorySegment abi_compat(MemorySegment struct) {
        return struct.get(abi_compat$LAYOUT, abi_compat$OFFSET);
    }

    public static void abi_compat(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(abi_compat$LAYOUT, abi_compat$OFFSET, fieldValue);
    }
}
