// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfByte;
import java.lang.foreign.ValueLayout.OfShort;

/**
 * {@snippet lang=c :
 * struct ibv_ah_attr
 * }
 */
public final class ibv_ah_attr {
    private ibv_ah_attr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        ibv_global_route.layout().withName("grh"),
        C_SHORT.withName("dlid"),
        C_CHAR.withName("sl"),
        C_CHAR.withName("src_path_bits"),
        C_CHAR.withName("static_rate"),
        C_CHAR.withName("is_global"),
        C_CHAR.withName("port_num"),
        MemoryLayout.paddingLayout(1)).withName("ibv_ah_attr");

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

    private static final long grh$OFFSET = $LAYOUT.byteOffset(groupElement("grh"));

    /** Offset of {@code grh} in bytes. */
    public static long grh$offset() {
        return grh$OFFSET;
    }

    private static final MemoryLayout grh$LAYOUT = $LAYOUT.select(groupElement("grh"));

    /** The {@code grh} member as a slice of {@code struct}. */
    public static MemorySegment grh(MemorySegment struct) {
        return struct.asSlice(grh$OFFSET, grh$LAYOUT.byteSize());
    }

    public static void grh(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, grh$OFFSET, grh$LAYOUT.byteSize());
    }

    private static final long dlid$OFFSET = $LAYOUT.byteOffset(groupElement("dlid"));

    /** Offset of {@code dlid} in bytes. */
    public static long dlid$offset() {
        return dlid$OFFSET;
    }

    private static final OfShort dlid$LAYOUT = (OfShort) $LAYOUT.select(groupElement("dlid"));

    public static short dlid(MemorySegment struct) {
        return struct.get(dlid$LAYOUT, dlid$OFFSET);
    }

    public static void dlid(MemorySegment struct, short fieldValue) {
        struct.set(dlid$LAYOUT, dlid$OFFSET, fieldValue);
    }

    private static final long sl$OFFSET = $LAYOUT.byteOffset(groupElement("sl"));

    /** Offset of {@code sl} in bytes. */
    public static long sl$offset() {
        return sl$OFFSET;
    }

    private static final OfByte sl$LAYOUT = (OfByte) $LAYOUT.select(groupElement("sl"));

    public static byte sl(MemorySegment struct) {
        return struct.get(sl$LAYOUT, sl$OFFSET);
    }

    public static void sl(MemorySegment struct, byte fieldValue) {
        struct.set(sl$LAYOUT, sl$OFFSET, fieldValue);
    }

    private static final long src_path_bits$OFFSET = $LAYOUT.byteOffset(groupElement("src_path_bits"));

    /** Offset of {@code src_path_bits} in bytes. */
    public static long src_path_bits$offset() {
        return src_path_bits$OFFSET;
    }

    private static final OfByte src_path_bits$LAYOUT = (OfByte) $LAYOUT.select(groupElement("src_path_bits"));

    public static byte src_path_bits(MemorySegment struct) {
        return struct.get(src_path_bits$LAYOUT, src_path_bits$OFFSET);
    }

    public static void src_path_bits(MemorySegment struct, byte fieldValue) {
        struct.set(src_path_bits$LAYOUT, src_path_bits$OFFSET, fieldValue);
    }

    private static final long static_rate$OFFSET = $LAYOUT.byteOffset(groupElement("static_rate"));

    /** Offset of {@code static_rate} in bytes. */
    public static long static_rate$offset() {
        return static_rate$OFFSET;
    }

    private static final OfByte static_rate$LAYOUT = (OfByte) $LAYOUT.select(groupElement("static_rate"));

    public static byte static_rate(MemorySegment struct) {
        return struct.get(static_rate$LAYOUT, static_rate$OFFSET);
    }

    public static void static_rate(MemorySegment struct, byte fieldValue) {
        struct.set(static_rate$LAYOUT, static_rate$OFFSET, fieldValue);
    }

    private static final long is_global$OFFSET = $LAYOUT.byteOffset(groupElement("is_global"));

    /** Offset of {@code is_global} in bytes. */
    public static long is_global$offset() {
        return is_global$OFFSET;
    }

    private static final OfByte is_global$LAYOUT = (OfByte) $LAYOUT.select(groupElement("is_global"));

    public static byte is_global(MemorySegment struct) {
        return struct.get(is_global$LAYOUT, is_global$OFFSET);
    }

    public static void is_global(MemorySegment struct, byte fieldValue) {
        struct.set(is_global$LAYOUT, is_global$OFFSET, fieldValue);
    }

    private static final long port_num$OFFSET = $LAYOUT.byteOffset(groupElement("port_num"));

    /** Offset of {@code port_num} in bytes. */
    public static long port_num$offset() {
        return port_num$OFFSET;
    }

    private static final OfByte port_num$LAYOUT = (OfByte) $LAYOUT.select(groupElement("port_num"));

    public static byte port_num(MemorySegment struct) {
        return struct.get(port_num$LAYOUT, port_num$OFFSET);
    }

    public static void port_num(MemorySegment struct, byte fieldValue) {
        struct.set(port_num$LAYOUT, port_num$OFFSET, fieldValue);
    }
}
