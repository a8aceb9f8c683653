// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfByte;
import java.lang.foreign.ValueLayout.OfLong;

/**
 * {@snippet lang=c :
 * union ibv_gid { uint8_t raw[16]; struct { __be64 subnet_prefix; __be64 interface_id; } global; }
 * }
 */
public final class ibv_gid {
    private ibv_gid() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.unionLayout(
        MemoryLayout.sequenceLayout(16, C_CHAR).withName("raw"),
        MemoryLayout.structLayout(
            C_LONG.withName("subnet_prefix"),
            C_LONG.withName("interface_id")).withName("global")).withName("ibv_gid");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate($LAYOUT);
    }

    public static MemorySegment allocateArray(long count, SegmentAllocator allocator) {
        return allocator.allocate(MemoryLayout.sequenceLayout(count, $LAYOUT));
    }

    /** Element {@code index} of an array of this union. */
    public static MemorySegment asSlice(MemorySegment array, long index) {
        return array.asSlice($LAYOUT.byteSize() * index, $LAYOUT.byteSize());
    }

    /** A pointer to this union, as returned by the library, widened to the union's size. */
    public static MemorySegment reinterpret(MemorySegment address) {
        return address.reinterpret($LAYOUT.byteSize());
    }

    private static final long raw$OFFSET = $LAYOUT.byteOffset(groupElement("raw"));

    /** Offset of {@code raw} in bytes. */
    public static long raw$offset() {
        return raw$OFFSET;
    }

    private static final MemoryLayout raw$LAYOUT = $LAYOUT.select(groupElement("raw"));

    /** The {@code raw} member as a slice of {@code struct}. */
    public static MemorySegment raw(MemorySegment struct) {
        return struct.asSlice(raw$OFFSET, raw$LAYOUT.byteSize());
    }

    public static void raw(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, raw$OFFSET, raw$LAYOUT.byteSize());
    }

    private static final long global$OFFSET = $LAYOUT.byteOffset(groupElement("global"));

    /** Offset of {@code global} in bytes. */
    public static long global$offset() {
        return global$OFFSET;
    }

    private static final MemoryLayout global$LAYOUT = $LAYOUT.select(groupElement("global"));

    /** The {@code global} member as a slice of {@code struct}. */
    public static MemorySegment global(MemorySegment struct) {
        return struct.asSlice(global$OFFSET, global$LAYOUT.byteSize());
    }

    /** The unnamed struct type of member {@code global}. */
    public static final class global {
        private global() {}

        private static final GroupLayout $LAYOUT = (GroupLayout) ibv_gid.$LAYOUT.select(groupElement("global"));

        public static GroupLayout layout() {
            return $LAYOUT;
        }

        private static final long subnet_prefix$OFFSET = $LAYOUT.byteOffset(groupElement("subnet_prefix"));

        /** Offset of {@code subnet_prefix} in bytes. */
        public static long subnet_prefix$offset() {
            return subnet_prefix$OFFSET;
        }

        private static final OfLong subnet_prefix$LAYOUT = (OfLong) $LAYOUT.select(groupElement("subnet_prefix"));

        public static long subnet_prefix(MemorySegment struct) {
            return struct.get(subnet_prefix$LAYOUT, subnet_prefix$OFFSET);
        }

        public static void subnet_prefix(MemorySegment struct, long fieldValue) {
            struct.set(subnet_prefix$LAYOUT, subnet_prefix$OFFSET, fieldValue);
        }

        private static final long interface_id$OFFSET = $LAYOUT.byteOffset(groupElement("interface_id"));

        /** Offset of {@code interface_id} in bytes. */
        public static long interface_id$offset() {
            return interface_id$OFFSET;
        }

        private static final OfLong interface_id$LAYOUT = (OfLong) $LAYOUT.select(groupElement("interface_id"));

        public static long interface_id(MemorySegment struct) {
            return struct.get(interface_id$LAYOUT, interface_id$OFFSET);
        }

        public static void interface_id(MemorySegment struct, long fieldValue) {
            struct.set(interface_id$LAYOUT, interface_id$OFFSET, fieldValue);
        }
    }
}
