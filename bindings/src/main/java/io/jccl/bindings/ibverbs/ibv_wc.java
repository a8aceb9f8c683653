// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfByte;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.foreign.ValueLayout.OfShort;

/**
 * {@snippet lang=c :
 * struct ibv_wc
 * }
 */
public final class ibv_wc {
    private ibv_wc() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_LONG.withName("wr_id"),
        C_INT.withName("status"),
        C_INT.withName("opcode"),
        C_INT.withName("vendor_err"),
        C_INT.withName("byte_len"),
        MemoryLayout.unionLayout(
            C_INT.withName("imm_data"),
            C_INT.withName("invalidated_rkey")).withName("$anon$0"),
        C_INT.withName("qp_num"),
        C_INT.withName("src_qp"),
        C_INT.withName("wc_flags"),
        C_SHORT.withName("pkey_index"),
        C_SHORT.withName("slid"),
        C_CHAR.withName("sl"),
        C_CHAR.withName("dlid_path_bits"),
        MemoryLayout.paddingLayout(2)).withName("ibv_wc");

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

    private static final long status$OFFSET = $LAYOUT.byteOffset(groupElement("status"));

    /** Offset of {@code status} in bytes. */
    public static long status$offset() {
        return status$OFFSET;
    }

    private static final OfInt status$LAYOUT = (OfInt) $LAYOUT.select(groupElement("status"));

    public static int status(MemorySegment struct) {
        return struct.get(status$LAYOUT, status$OFFSET);
    }

    public static void status(MemorySegment struct, int fieldValue) {
        struct.set(status$LAYOUT, status$OFFSET, fieldValue);
    }

    private static final long opcode$OFFSET = $LAYOUT.byteOffset(groupElement("opcode"));

    /** Offset of {@code opcode} in bytes. */
    public static long opcode$offset() {
        return opcode$OFFSET;
    }

    private static final OfInt opcode$LAYOUT = (OfInt) $LAYOUT.select(groupElement("opcode"));

    public static int opcode(MemorySegment struct) {
        return struct.get(opcode$LAYOUT, opcode$OFFSET);
    }

    public static void opcode(MemorySegment struct, int fieldValue) {
        struct.set(opcode$LAYOUT, opcode$OFFSET, fieldValue);
    }

    private static final long vendor_err$OFFSET = $LAYOUT.byteOffset(groupElement("vendor_err"));

    /** Offset of {@code vendor_err} in bytes. */
    public static long vendor_err$offset() {
        return vendor_err$OFFSET;
    }

    private static final OfInt vendor_err$LAYOUT = (OfInt) $LAYOUT.select(groupElement("vendor_err"));

    public static int vendor_err(MemorySegment struct) {
        return struct.get(vendor_err$LAYOUT, vendor_err$OFFSET);
    }

    public static void vendor_err(MemorySegment struct, int fieldValue) {
        struct.set(vendor_err$LAYOUT, vendor_err$OFFSET, fieldValue);
    }

    private static final long byte_len$OFFSET = $LAYOUT.byteOffset(groupElement("byte_len"));

    /** Offset of {@code byte_len} in bytes. */
    public static long byte_len$offset() {
        return byte_len$OFFSET;
    }

    private static final OfInt byte_len$LAYOUT = (OfInt) $LAYOUT.select(groupElement("byte_len"));

    public static int byte_len(MemorySegment struct) {
        return struct.get(byte_len$LAYOUT, byte_len$OFFSET);
    }

    public static void byte_len(MemorySegment struct, int fieldValue) {
        struct.set(byte_len$LAYOUT, byte_len$OFFSET, fieldValue);
    }

    private static final long imm_data$OFFSET = $LAYOUT.byteOffset(groupElement("$anon$0"), groupElement("imm_data"));

    /** Offset of {@code imm_data} in bytes. */
    public static long imm_data$offset() {
        return imm_data$OFFSET;
    }

    private static final OfInt imm_data$LAYOUT = (OfInt) $LAYOUT.select(groupElement("$anon$0"), groupElement("imm_data"));

    public static int imm_data(MemorySegment struct) {
        return struct.get(imm_data$LAYOUT, imm_data$OFFSET);
    }

    public static void imm_data(MemorySegment struct, int fieldValue) {
        struct.set(imm_data$LAYOUT, imm_data$OFFSET, fieldValue);
    }

    private static final long invalidated_rkey$OFFSET = $LAYOUT.byteOffset(groupElement("$anon$0"), groupElement("invalidated_rkey"));

    /** Offset of {@code invalidated_rkey} in bytes. */
    public static long invalidated_rkey$offset() {
        return invalidated_rkey$OFFSET;
    }

    private static final OfInt invalidated_rkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("$anon$0"), groupElement("invalidated_rkey"));

    public static int invalidated_rkey(MemorySegment struct) {
        return struct.get(invalidated_rkey$LAYOUT, invalidated_rkey$OFFSET);
    }

    public static void invalidated_rkey(MemorySegment struct, int fieldValue) {
        struct.set(invalidated_rkey$LAYOUT, invalidated_rkey$OFFSET, fieldValue);
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

    private static final long src_qp$OFFSET = $LAYOUT.byteOffset(groupElement("src_qp"));

    /** Offset of {@code src_qp} in bytes. */
    public static long src_qp$offset() {
        return src_qp$OFFSET;
    }

    private static final OfInt src_qp$LAYOUT = (OfInt) $LAYOUT.select(groupElement("src_qp"));

    public static int src_qp(MemorySegment struct) {
        return struct.get(src_qp$LAYOUT, src_qp$OFFSET);
    }

    public static void src_qp(MemorySegment struct, int fieldValue) {
        struct.set(src_qp$LAYOUT, src_qp$OFFSET, fieldValue);
    }

    private static final long wc_flags$OFFSET = $LAYOUT.byteOffset(groupElement("wc_flags"));

    /** Offset of {@code wc_flags} in bytes. */
    public static long wc_flags$offset() {
        return wc_flags$OFFSET;
    }

    private static final OfInt wc_flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("wc_flags"));

    public static int wc_flags(MemorySegment struct) {
        return struct.get(wc_flags$LAYOUT, wc_flags$OFFSET);
    }

    public static void wc_flags(MemorySegment struct, int fieldValue) {
        struct.set(wc_flags$LAYOUT, wc_flags$OFFSET, fieldValue);
    }

    private static final long pkey_index$OFFSET = $LAYOUT.byteOffset(groupElement("pkey_index"));

    /** Offset of {@code pkey_index} in bytes. */
    public static long pkey_index$offset() {
        return pkey_index$OFFSET;
    }

    private static final OfShort pkey_index$LAYOUT = (OfShort) $LAYOUT.select(groupElement("pkey_index"));

    public static short pkey_index(MemorySegment struct) {
        return struct.get(pkey_index$LAYOUT, pkey_index$OFFSET);
    }

    public static void pkey_index(MemorySegment struct, short fieldValue) {
        struct.set(pkey_index$LAYOUT, pkey_index$OFFSET, fieldValue);
    }

    private static final long slid$OFFSET = $LAYOUT.byteOffset(groupElement("slid"));

    /** Offset of {@code slid} in bytes. */
    public static long slid$offset() {
        return slid$OFFSET;
    }

    private static final OfShort slid$LAYOUT = (OfShort) $LAYOUT.select(groupElement("slid"));

    public static short slid(MemorySegment struct) {
        return struct.get(slid$LAYOUT, slid$OFFSET);
    }

    public static void slid(MemorySegment struct, short fieldValue) {
        struct.set(slid$LAYOUT, slid$OFFSET, fieldValue);
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

    private static final long dlid_path_bits$OFFSET = $LAYOUT.byteOffset(groupElement("dlid_path_bits"));

    /** Offset of {@code dlid_path_bits} in bytes. */
    public static long dlid_path_bits$offset() {
        return dlid_path_bits$OFFSET;
    }

    private static final OfByte dlid_path_bits$LAYOUT = (OfByte) $LAYOUT.select(groupElement("dlid_path_bits"));

    public static byte dlid_path_bits(MemorySegment struct) {
        return struct.get(dlid_path_bits$LAYOUT, dlid_path_bits$OFFSET);
    }

    public static void dlid_path_bits(MemorySegment struct, byte fieldValue) {
        struct.set(dlid_path_bits$LAYOUT, dlid_path_bits$OFFSET, fieldValue);
    }
}
