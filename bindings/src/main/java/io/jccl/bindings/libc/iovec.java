// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.libc;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c :
 * struct iovec { void *iov_base; size_t iov_len; }
 * }
 */
public final class iovec {
    private iovec() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("iov_base"),
        C_LONG.withName("iov_len")).withName("iovec");

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

    private static final long iov_base$OFFSET = $LAYOUT.byteOffset(groupElement("iov_base"));

    /** Offset of {@code iov_base} in bytes. */
    public static long iov_base$offset() {
        return iov_base$OFFSET;
    }

    private static final AddressLayout iov_base$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("iov_base"));

    public static MemorySegment iov_base(MemorySegment struct) {
        return struct.get(iov_base$LAYOUT, iov_base$OFFSET);
    }

    public static void iov_base(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(iov_base$LAYOUT, iov_base$OFFSET, fieldValue);
    }

    private static final long iov_len$OFFSET = $LAYOUT.byteOffset(groupElement("iov_len"));

    /** Offset of {@code iov_len} in bytes. */
    public static long iov_len$offset() {
        return iov_len$OFFSET;
    }

    private static final OfLong iov_len$LAYOUT = (OfLong) $LAYOUT.select(groupElement("iov_len"));

    public static long iov_len(MemorySegment struct) {
        return struct.get(iov_len$LAYOUT, iov_len$OFFSET);
    }

    public static void iov_len(MemorySegment struct, long fieldValue) {
        struct.set(iov_len$LAYOUT, iov_len$OFFSET, fieldValue);
    }
}
