// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.cuda;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfByte;

/**
 * {@snippet lang=c :
 * typedef struct CUuuid_st { char bytes[16]; } CUuuid
 * }
 */
public final class CUuuid_st {
    private CUuuid_st() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(16, C_CHAR).withName("bytes")).withName("CUuuid_st");

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

    private static final long bytes$OFFSET = $LAYOUT.byteOffset(groupElement("bytes"));

    /** Offset of {@code bytes} in bytes. */
    public static long bytes$offset() {
        return bytes$OFFSET;
    }

    private static final MemoryLayout bytes$LAYOUT = $LAYOUT.select(groupElement("bytes"));

    /** The {@code bytes} member as a slice of {@code struct}. */
    public static MemorySegment bytes(MemorySegment struct) {
        return struct.asSlice(bytes$OFFSET, bytes$LAYOUT.byteSize());
    }

    public static void bytes(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, bytes$OFFSET, bytes$LAYOUT.byteSize());
    }
}
