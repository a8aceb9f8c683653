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
 * struct ibv_device_attr
 * }
 */
public final class ibv_device_attr {
    private ibv_device_attr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(64, C_CHAR).withName("fw_ver"),
        C_LONG.withName("node_guid"),
        C_LONG.withName("sys_image_guid"),
        C_LONG.withName("max_mr_size"),
        C_LONG.withName("page_size_cap"),
        C_INT.withName("vendor_id"),
        C_INT.withName("vendor_part_id"),
        C_INT.withName("hw_ver"),
        C_INT.withName("max_qp"),
        C_INT.withName("max_qp_wr"),
        C_INT.withName("device_cap_flags"),
        C_INT.withName("max_sge"),
        C_INT.withName("max_sge_rd"),
        C_INT.withName("max_cq"),
        C_INT.withName("max_cqe"),
        C_INT.withName("max_mr"),
        C_INT.withName("max_pd"),
        C_INT.withName("max_qp_rd_atom"),
        C_INT.withName("max_ee_rd_atom"),
        C_INT.withName("max_res_rd_atom"),
        C_INT.withName("max_qp_init_rd_atom"),
        C_INT.withName("max_ee_init_rd_atom"),
        C_INT.withName("atomic_cap"),
        C_INT.withName("max_ee"),
        C_INT.withName("max_rdd"),
        C_INT.withName("max_mw"),
        C_INT.withName("max_raw_ipv6_qp"),
        C_INT.withName("max_raw_ethy_qp"),
        C_INT.withName("max_mcast_grp"),
        C_INT.withName("max_mcast_qp_attach"),
        C_INT.withName("max_total_mcast_qp_attach"),
        C_INT.withName("max_ah"),
        C_INT.withName("max_fmr"),
        C_INT.withName("max_map_per_fmr"),
        C_INT.withName("max_srq"),
        C_INT.withName("max_srq_wr"),
        C_INT.withName("max_srq_sge"),
        C_SHORT.withName("max_pkeys"),
        C_CHAR.withName("local_ca_ack_delay"),
        C_CHAR.withName("phys_port_cnt"),
        MemoryLayout.paddingLayout(4)).withName("ibv_device_attr");

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

    private static final long fw_ver$OFFSET = $LAYOUT.byteOffset(groupElement("fw_ver"));

    /** Offset of {@code fw_ver} in bytes. */
    public static long fw_ver$offset() {
        return fw_ver$OFFSET;
    }

    private static final MemoryLayout fw_ver$LAYOUT = $LAYOUT.select(groupElement("fw_ver"));

    /** The {@code fw_ver} member as a slice of {@code struct}. */
    public static MemorySegment fw_ver(MemorySegment struct) {
        return struct.asSlice(fw_ver$OFFSET, fw_ver$LAYOUT.byteSize());
    }

    public static void fw_ver(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, fw_ver$OFFSET, fw_ver$LAYOUT.byteSize());
    }

    private static final long node_guid$OFFSET = $LAYOUT.byteOffset(groupElement("node_guid"));

    /** Offset of {@code node_guid} in bytes. */
    public static long node_guid$offset() {
        return node_guid$OFFSET;
    }

    private static final OfLong node_guid$LAYOUT = (OfLong) $LAYOUT.select(groupElement("node_guid"));

    public static long node_guid(MemorySegment struct) {
        return struct.get(node_guid$LAYOUT, node_guid$OFFSET);
    }

    public static void node_guid(MemorySegment struct, long fieldValue) {
        struct.set(node_guid$LAYOUT, node_guid$OFFSET, fieldValue);
    }

    private static final long sys_image_guid$OFFSET = $LAYOUT.byteOffset(groupElement("sys_image_guid"));

    /** Offset of {@code sys_image_guid} in bytes. */
    public static long sys_image_guid$offset() {
        return sys_image_guid$OFFSET;
    }

    private static final OfLong sys_image_guid$LAYOUT = (OfLong) $LAYOUT.select(groupElement("sys_image_guid"));

    public static long sys_image_guid(MemorySegment struct) {
        return struct.get(sys_image_guid$LAYOUT, sys_image_guid$OFFSET);
    }

    public static void sys_image_guid(MemorySegment struct, long fieldValue) {
        struct.set(sys_image_guid$LAYOUT, sys_image_guid$OFFSET, fieldValue);
    }

    private static final long max_mr_size$OFFSET = $LAYOUT.byteOffset(groupElement("max_mr_size"));

    /** Offset of {@code max_mr_size} in bytes. */
    public static long max_mr_size$offset() {
        return max_mr_size$OFFSET;
    }

    private static final OfLong max_mr_size$LAYOUT = (OfLong) $LAYOUT.select(groupElement("max_mr_size"));

    public static long max_mr_size(MemorySegment struct) {
        return struct.get(max_mr_size$LAYOUT, max_mr_size$OFFSET);
    }

    public static void max_mr_size(MemorySegment struct, long fieldValue) {
        struct.set(max_mr_size$LAYOUT, max_mr_size$OFFSET, fieldValue);
    }

    private static final long page_size_cap$OFFSET = $LAYOUT.byteOffset(groupElement("page_size_cap"));

    /** Offset of {@code page_size_cap} in bytes. */
    public static long page_size_cap$offset() {
        return page_size_cap$OFFSET;
    }

    private static final OfLong page_size_cap$LAYOUT = (OfLong) $LAYOUT.select(groupElement("page_size_cap"));

    public static long page_size_cap(MemorySegment struct) {
        return struct.get(page_size_cap$LAYOUT, page_size_cap$OFFSET);
    }

    public static void page_size_cap(MemorySegment struct, long fieldValue) {
        struct.set(page_size_cap$LAYOUT, page_size_cap$OFFSET, fieldValue);
    }

    private static final long vendor_id$OFFSET = $LAYOUT.byteOffset(groupElement("vendor_id"));

    /** Offset of {@code vendor_id} in bytes. */
    public static long vendor_id$offset() {
        return vendor_id$OFFSET;
    }

    private static final OfInt vendor_id$LAYOUT = (OfInt) $LAYOUT.select(groupElement("vendor_id"));

    public static int vendor_id(MemorySegment struct) {
        return struct.get(vendor_id$LAYOUT, vendor_id$OFFSET);
    }

    public static void vendor_id(MemorySegment struct, int fieldValue) {
        struct.set(vendor_id$LAYOUT, vendor_id$OFFSET, fieldValue);
    }

    private static final long vendor_part_id$OFFSET = $LAYOUT.byteOffset(groupElement("vendor_part_id"));

    /** Offset of {@code vendor_part_id} in bytes. */
    public static long vendor_part_id$offset() {
        return vendor_part_id$OFFSET;
    }

    private static final OfInt vendor_part_id$LAYOUT = (OfInt) $LAYOUT.select(groupElement("vendor_part_id"));

    public static int vendor_part_id(MemorySegment struct) {
        return struct.get(vendor_part_id$LAYOUT, vendor_part_id$OFFSET);
    }

    public static void vendor_part_id(MemorySegment struct, int fieldValue) {
        struct.set(vendor_part_id$LAYOUT, vendor_part_id$OFFSET, fieldValue);
    }

    private static final long hw_ver$OFFSET = $LAYOUT.byteOffset(groupElement("hw_ver"));

    /** Offset of {@code hw_ver} in bytes. */
    public static long hw_ver$offset() {
        return hw_ver$OFFSET;
    }

    private static final OfInt hw_ver$LAYOUT = (OfInt) $LAYOUT.select(groupElement("hw_ver"));

    public static int hw_ver(MemorySegment struct) {
        return struct.get(hw_ver$LAYOUT, hw_ver$OFFSET);
    }

    public static void hw_ver(MemorySegment struct, int fieldValue) {
        struct.set(hw_ver$LAYOUT, hw_ver$OFFSET, fieldValue);
    }

    private static final long max_qp$OFFSET = $LAYOUT.byteOffset(groupElement("max_qp"));

    /** Offset of {@code max_qp} in bytes. */
    public static long max_qp$offset() {
        return max_qp$OFFSET;
    }

    private static final OfInt max_qp$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_qp"));

    public static int max_qp(MemorySegment struct) {
        return struct.get(max_qp$LAYOUT, max_qp$OFFSET);
    }

    public static void max_qp(MemorySegment struct, int fieldValue) {
        struct.set(max_qp$LAYOUT, max_qp$OFFSET, fieldValue);
    }

    private static final long max_qp_wr$OFFSET = $LAYOUT.byteOffset(groupElement("max_qp_wr"));

    /** Offset of {@code max_qp_wr} in bytes. */
    public static long max_qp_wr$offset() {
        return max_qp_wr$OFFSET;
    }

    private static final OfInt max_qp_wr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_qp_wr"));

    public static int max_qp_wr(MemorySegment struct) {
        return struct.get(max_qp_wr$LAYOUT, max_qp_wr$OFFSET);
    }

    public static void max_qp_wr(MemorySegment struct, int fieldValue) {
        struct.set(max_qp_wr$LAYOUT, max_qp_wr$OFFSET, fieldValue);
    }

    private static final long device_cap_flags$OFFSET = $LAYOUT.byteOffset(groupElement("device_cap_flags"));

    /** Offset of {@code device_cap_flags} in bytes. */
    public static long device_cap_flags$offset() {
        return device_cap_flags$OFFSET;
    }

    private static final OfInt device_cap_flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("device_cap_flags"));

    public static int device_cap_flags(MemorySegment struct) {
        return struct.get(device_cap_flags$LAYOUT, device_cap_flags$OFFSET);
    }

    public static void device_cap_flags(MemorySegment struct, int fieldValue) {
        struct.set(device_cap_flags$LAYOUT, device_cap_flags$OFFSET, fieldValue);
    }

    private static final long max_sge$OFFSET = $LAYOUT.byteOffset(groupElement("max_sge"));

    /** Offset of {@code max_sge} in bytes. */
    public static long max_sge$offset() {
        return max_sge$OFFSET;
    }

    private static final OfInt max_sge$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_sge"));

    public static int max_sge(MemorySegment struct) {
        return struct.get(max_sge$LAYOUT, max_sge$OFFSET);
    }

    public static void max_sge(MemorySegment struct, int fieldValue) {
        struct.set(max_sge$LAYOUT, max_sge$OFFSET, fieldValue);
    }

    private static final long max_sge_rd$OFFSET = $LAYOUT.byteOffset(groupElement("max_sge_rd"));

    /** Offset of {@code max_sge_rd} in bytes. */
    public static long max_sge_rd$offset() {
        return max_sge_rd$OFFSET;
    }

    private static final OfInt max_sge_rd$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_sge_rd"));

    public static int max_sge_rd(MemorySegment struct) {
        return struct.get(max_sge_rd$LAYOUT, max_sge_rd$OFFSET);
    }

    public static void max_sge_rd(MemorySegment struct, int fieldValue) {
        struct.set(max_sge_rd$LAYOUT, max_sge_rd$OFFSET, fieldValue);
    }

    private static final long max_cq$OFFSET = $LAYOUT.byteOffset(groupElement("max_cq"));

    /** Offset of {@code max_cq} in bytes. */
    public static long max_cq$offset() {
        return max_cq$OFFSET;
    }

    private static final OfInt max_cq$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_cq"));

    public static int max_cq(MemorySegment struct) {
        return struct.get(max_cq$LAYOUT, max_cq$OFFSET);
    }

    public static void max_cq(MemorySegment struct, int fieldValue) {
        struct.set(max_cq$LAYOUT, max_cq$OFFSET, fieldValue);
    }

    private static final long max_cqe$OFFSET = $LAYOUT.byteOffset(groupElement("max_cqe"));

    /** Offset of {@code max_cqe} in bytes. */
    public static long max_cqe$offset() {
        return max_cqe$OFFSET;
    }

    private static final OfInt max_cqe$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_cqe"));

    public static int max_cqe(MemorySegment struct) {
        return struct.get(max_cqe$LAYOUT, max_cqe$OFFSET);
    }

    public static void max_cqe(MemorySegment struct, int fieldValue) {
        struct.set(max_cqe$LAYOUT, max_cqe$OFFSET, fieldValue);
    }

    private static final long max_mr$OFFSET = $LAYOUT.byteOffset(groupElement("max_mr"));

    /** Offset of {@code max_mr} in bytes. */
    public static long max_mr$offset() {
        return max_mr$OFFSET;
    }

    private static final OfInt max_mr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_mr"));

    public static int max_mr(MemorySegment struct) {
        return struct.get(max_mr$LAYOUT, max_mr$OFFSET);
    }

    public static void max_mr(MemorySegment struct, int fieldValue) {
        struct.set(max_mr$LAYOUT, max_mr$OFFSET, fieldValue);
    }

    private static final long max_pd$OFFSET = $LAYOUT.byteOffset(groupElement("max_pd"));

    /** Offset of {@code max_pd} in bytes. */
    public static long max_pd$offset() {
        return max_pd$OFFSET;
    }

    private static final OfInt max_pd$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_pd"));

    public static int max_pd(MemorySegment struct) {
        return struct.get(max_pd$LAYOUT, max_pd$OFFSET);
    }

    public static void max_pd(MemorySegment struct, int fieldValue) {
        struct.set(max_pd$LAYOUT, max_pd$OFFSET, fieldValue);
    }

    private static final long max_qp_rd_atom$OFFSET = $LAYOUT.byteOffset(groupElement("max_qp_rd_atom"));

    /** Offset of {@code max_qp_rd_atom} in bytes. */
    public static long max_qp_rd_atom$offset() {
        return max_qp_rd_atom$OFFSET;
    }

    private static final OfInt max_qp_rd_atom$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_qp_rd_atom"));

    public static int max_qp_rd_atom(MemorySegment struct) {
        return struct.get(max_qp_rd_atom$LAYOUT, max_qp_rd_atom$OFFSET);
    }

    public static void max_qp_rd_atom(MemorySegment struct, int fieldValue) {
        struct.set(max_qp_rd_atom$LAYOUT, max_qp_rd_atom$OFFSET, fieldValue);
    }

    private static final long max_ee_rd_atom$OFFSET = $LAYOUT.byteOffset(groupElement("max_ee_rd_atom"));

    /** Offset of {@code max_ee_rd_atom} in bytes. */
    public static long max_ee_rd_atom$offset() {
        return max_ee_rd_atom$OFFSET;
    }

    private static final OfInt max_ee_rd_atom$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_ee_rd_atom"));

    public static int max_ee_rd_atom(MemorySegment struct) {
        return struct.get(max_ee_rd_atom$LAYOUT, max_ee_rd_atom$OFFSET);
    }

    public static void max_ee_rd_atom(MemorySegment struct, int fieldValue) {
        struct.set(max_ee_rd_atom$LAYOUT, max_ee_rd_atom$OFFSET, fieldValue);
    }

    private static final long max_res_rd_atom$OFFSET = $LAYOUT.byteOffset(groupElement("max_res_rd_atom"));

    /** Offset of {@code max_res_rd_atom} in bytes. */
    public static long max_res_rd_atom$offset() {
        return max_res_rd_atom$OFFSET;
    }

    private static final OfInt max_res_rd_atom$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_res_rd_atom"));

    public static int max_res_rd_atom(MemorySegment struct) {
        return struct.get(max_res_rd_atom$LAYOUT, max_res_rd_atom$OFFSET);
    }

    public static void max_res_rd_atom(MemorySegment struct, int fieldValue) {
        struct.set(max_res_rd_atom$LAYOUT, max_res_rd_atom$OFFSET, fieldValue);
    }

    private static final long max_qp_init_rd_atom$OFFSET = $LAYOUT.byteOffset(groupElement("max_qp_init_rd_atom"));

    /** Offset of {@code max_qp_init_rd_atom} in bytes. */
    public static long max_qp_init_rd_atom$offset() {
        return max_qp_init_rd_atom$OFFSET;
    }

    private static final OfInt max_qp_init_rd_atom$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_qp_init_rd_atom"));

    public static int max_qp_init_rd_atom(MemorySegment struct) {
        return struct.get(max_qp_init_rd_atom$LAYOUT, max_qp_init_rd_atom$OFFSET);
    }

    public static void max_qp_init_rd_atom(MemorySegment struct, int fieldValue) {
        struct.set(max_qp_init_rd_atom$LAYOUT, max_qp_init_rd_atom$OFFSET, fieldValue);
    }

    private static final long max_ee_init_rd_atom$OFFSET = $LAYOUT.byteOffset(groupElement("max_ee_init_rd_atom"));

    /** Offset of {@code max_ee_init_rd_atom} in bytes. */
    public static long max_ee_init_rd_atom$offset() {
        return max_ee_init_rd_atom$OFFSET;
    }

    private static final OfInt max_ee_init_rd_atom$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_ee_init_rd_atom"));

    public static int max_ee_init_rd_atom(MemorySegment struct) {
        return struct.get(max_ee_init_rd_atom$LAYOUT, max_ee_init_rd_atom$OFFSET);
    }

    public static void max_ee_init_rd_atom(MemorySegment struct, int fieldValue) {
        struct.set(max_ee_init_rd_atom$LAYOUT, max_ee_init_rd_atom$OFFSET, fieldValue);
    }

    private static final long atomic_cap$OFFSET = $LAYOUT.byteOffset(groupElement("atomic_cap"));

    /** Offset of {@code atomic_cap} in bytes. */
    public static long atomic_cap$offset() {
        return atomic_cap$OFFSET;
    }

    private static final OfInt atomic_cap$LAYOUT = (OfInt) $LAYOUT.select(groupElement("atomic_cap"));

    public static int atomic_cap(MemorySegment struct) {
        return struct.get(atomic_cap$LAYOUT, atomic_cap$OFFSET);
    }

    public static void atomic_cap(MemorySegment struct, int fieldValue) {
        struct.set(atomic_cap$LAYOUT, atomic_cap$OFFSET, fieldValue);
    }

    private static final long max_ee$OFFSET = $LAYOUT.byteOffset(groupElement("max_ee"));

    /** Offset of {@code max_ee} in bytes. */
    public static long max_ee$offset() {
        return max_ee$OFFSET;
    }

    private static final OfInt max_ee$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_ee"));

    public static int max_ee(MemorySegment struct) {
        return struct.get(max_ee$LAYOUT, max_ee$OFFSET);
    }

    public static void max_ee(MemorySegment struct, int fieldValue) {
        struct.set(max_ee$LAYOUT, max_ee$OFFSET, fieldValue);
    }

    private static final long max_rdd$OFFSET = $LAYOUT.byteOffset(groupElement("max_rdd"));

    /** Offset of {@code max_rdd} in bytes. */
    public static long max_rdd$offset() {
        return max_rdd$OFFSET;
    }

    private static final OfInt max_rdd$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_rdd"));

    public static int max_rdd(MemorySegment struct) {
        return struct.get(max_rdd$LAYOUT, max_rdd$OFFSET);
    }

    public static void max_rdd(MemorySegment struct, int fieldValue) {
        struct.set(max_rdd$LAYOUT, max_rdd$OFFSET, fieldValue);
    }

    private static final long max_mw$OFFSET = $LAYOUT.byteOffset(groupElement("max_mw"));

    /** Offset of {@code max_mw} in bytes. */
    public static long max_mw$offset() {
        return max_mw$OFFSET;
    }

    private static final OfInt max_mw$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_mw"));

    public static int max_mw(MemorySegment struct) {
        return struct.get(max_mw$LAYOUT, max_mw$OFFSET);
    }

    public static void max_mw(MemorySegment struct, int fieldValue) {
        struct.set(max_mw$LAYOUT, max_mw$OFFSET, fieldValue);
    }

    private static final long max_raw_ipv6_qp$OFFSET = $LAYOUT.byteOffset(groupElement("max_raw_ipv6_qp"));

    /** Offset of {@code max_raw_ipv6_qp} in bytes. */
    public static long max_raw_ipv6_qp$offset() {
        return max_raw_ipv6_qp$OFFSET;
    }

    private static final OfInt max_raw_ipv6_qp$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_raw_ipv6_qp"));

    public static int max_raw_ipv6_qp(MemorySegment struct) {
        return struct.get(max_raw_ipv6_qp$LAYOUT, max_raw_ipv6_qp$OFFSET);
    }

    public static void max_raw_ipv6_qp(MemorySegment struct, int fieldValue) {
        struct.set(max_raw_ipv6_qp$LAYOUT, max_raw_ipv6_qp$OFFSET, fieldValue);
    }

    private static final long max_raw_ethy_qp$OFFSET = $LAYOUT.byteOffset(groupElement("max_raw_ethy_qp"));

    /** Offset of {@code max_raw_ethy_qp} in bytes. */
    public static long max_raw_ethy_qp$offset() {
        return max_raw_ethy_qp$OFFSET;
    }

    private static final OfInt max_raw_ethy_qp$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_raw_ethy_qp"));

    public static int max_raw_ethy_qp(MemorySegment struct) {
        return struct.get(max_raw_ethy_qp$LAYOUT, max_raw_ethy_qp$OFFSET);
    }

    public static void max_raw_ethy_qp(MemorySegment struct, int fieldValue) {
        struct.set(max_raw_ethy_qp$LAYOUT, max_raw_ethy_qp$OFFSET, fieldValue);
    }

    private static final long max_mcast_grp$OFFSET = $LAYOUT.byteOffset(groupElement("max_mcast_grp"));

    /** Offset of {@code max_mcast_grp} in bytes. */
    public static long max_mcast_grp$offset() {
        return max_mcast_grp$OFFSET;
    }

    private static final OfInt max_mcast_grp$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_mcast_grp"));

    public static int max_mcast_grp(MemorySegment struct) {
        return struct.get(max_mcast_grp$LAYOUT, max_mcast_grp$OFFSET);
    }

    public static void max_mcast_grp(MemorySegment struct, int fieldValue) {
        struct.set(max_mcast_grp$LAYOUT, max_mcast_grp$OFFSET, fieldValue);
    }

    private static final long max_mcast_qp_attach$OFFSET = $LAYOUT.byteOffset(groupElement("max_mcast_qp_attach"));

    /** Offset of {@code max_mcast_qp_attach} in bytes. */
    public static long max_mcast_qp_attach$offset() {
        return max_mcast_qp_attach$OFFSET;
    }

    private static final OfInt max_mcast_qp_attach$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_mcast_qp_attach"));

    public static int max_mcast_qp_attach(MemorySegment struct) {
        return struct.get(max_mcast_qp_attach$LAYOUT, max_mcast_qp_attach$OFFSET);
    }

    public static void max_mcast_qp_attach(MemorySegment struct, int fieldValue) {
        struct.set(max_mcast_qp_attach$LAYOUT, max_mcast_qp_attach$OFFSET, fieldValue);
    }

    private static final long max_total_mcast_qp_attach$OFFSET = $LAYOUT.byteOffset(groupElement("max_total_mcast_qp_attach"));

    /** Offset of {@code max_total_mcast_qp_attach} in bytes. */
    public static long max_total_mcast_qp_attach$offset() {
        return max_total_mcast_qp_attach$OFFSET;
    }

    private static final OfInt max_total_mcast_qp_attach$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_total_mcast_qp_attach"));

    public static int max_total_mcast_qp_attach(MemorySegment struct) {
        return struct.get(max_total_mcast_qp_attach$LAYOUT, max_total_mcast_qp_attach$OFFSET);
    }

    public static void max_total_mcast_qp_attach(MemorySegment struct, int fieldValue) {
        struct.set(max_total_mcast_qp_attach$LAYOUT, max_total_mcast_qp_attach$OFFSET, fieldValue);
    }

    private static final long max_ah$OFFSET = $LAYOUT.byteOffset(groupElement("max_ah"));

    /** Offset of {@code max_ah} in bytes. */
    public static long max_ah$offset() {
        return max_ah$OFFSET;
    }

    private static final OfInt max_ah$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_ah"));

    public static int max_ah(MemorySegment struct) {
        return struct.get(max_ah$LAYOUT, max_ah$OFFSET);
    }

    public static void max_ah(MemorySegment struct, int fieldValue) {
        struct.set(max_ah$LAYOUT, max_ah$OFFSET, fieldValue);
    }

    private static final long max_fmr$OFFSET = $LAYOUT.byteOffset(groupElement("max_fmr"));

    /** Offset of {@code max_fmr} in bytes. */
    public static long max_fmr$offset() {
        return max_fmr$OFFSET;
    }

    private static final OfInt max_fmr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_fmr"));

    public static int max_fmr(MemorySegment struct) {
        return struct.get(max_fmr$LAYOUT, max_fmr$OFFSET);
    }

    public static void max_fmr(MemorySegment struct, int fieldValue) {
        struct.set(max_fmr$LAYOUT, max_fmr$OFFSET, fieldValue);
    }

    private static final long max_map_per_fmr$OFFSET = $LAYOUT.byteOffset(groupElement("max_map_per_fmr"));

    /** Offset of {@code max_map_per_fmr} in bytes. */
    public static long max_map_per_fmr$offset() {
        return max_map_per_fmr$OFFSET;
    }

    private static final OfInt max_map_per_fmr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_map_per_fmr"));

    public static int max_map_per_fmr(MemorySegment struct) {
        return struct.get(max_map_per_fmr$LAYOUT, max_map_per_fmr$OFFSET);
    }

    public static void max_map_per_fmr(MemorySegment struct, int fieldValue) {
        struct.set(max_map_per_fmr$LAYOUT, max_map_per_fmr$OFFSET, fieldValue);
    }

    private static final long max_srq$OFFSET = $LAYOUT.byteOffset(groupElement("max_srq"));

    /** Offset of {@code max_srq} in bytes. */
    public static long max_srq$offset() {
        return max_srq$OFFSET;
    }

    private static final OfInt max_srq$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_srq"));

    public static int max_srq(MemorySegment struct) {
        return struct.get(max_srq$LAYOUT, max_srq$OFFSET);
    }

    public static void max_srq(MemorySegment struct, int fieldValue) {
        struct.set(max_srq$LAYOUT, max_srq$OFFSET, fieldValue);
    }

    private static final long max_srq_wr$OFFSET = $LAYOUT.byteOffset(groupElement("max_srq_wr"));

    /** Offset of {@code max_srq_wr} in bytes. */
    public static long max_srq_wr$offset() {
        return max_srq_wr$OFFSET;
    }

    private static final OfInt max_srq_wr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_srq_wr"));

    public static int max_srq_wr(MemorySegment struct) {
        return struct.get(max_srq_wr$LAYOUT, max_srq_wr$OFFSET);
    }

    public static void max_srq_wr(MemorySegment struct, int fieldValue) {
        struct.set(max_srq_wr$LAYOUT, max_srq_wr$OFFSET, fieldValue);
    }

    private static final long max_srq_sge$OFFSET = $LAYOUT.byteOffset(groupElement("max_srq_sge"));

    /** Offset of {@code max_srq_sge} in bytes. */
    public static long max_srq_sge$offset() {
        return max_srq_sge$OFFSET;
    }

    private static final OfInt max_srq_sge$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_srq_sge"));

    public static int max_srq_sge(MemorySegment struct) {
        return struct.get(max_srq_sge$LAYOUT, max_srq_sge$OFFSET);
    }

    public static void max_srq_sge(MemorySegment struct, int fieldValue) {
        struct.set(max_srq_sge$LAYOUT, max_srq_sge$OFFSET, fieldValue);
    }

    private static final long max_pkeys$OFFSET = $LAYOUT.byteOffset(groupElement("max_pkeys"));

    /** Offset of {@code max_pkeys} in bytes. */
    public static long max_pkeys$offset() {
        return max_pkeys$OFFSET;
    }

    private static final OfShort max_pkeys$LAYOUT = (OfShort) $LAYOUT.select(groupElement("max_pkeys"));

    public static short max_pkeys(MemorySegment struct) {
        return struct.get(max_pkeys$LAYOUT, max_pkeys$OFFSET);
    }

    public static void max_pkeys(MemorySegment struct, short fieldValue) {
        struct.set(max_pkeys$LAYOUT, max_pkeys$OFFSET, fieldValue);
    }

    private static final long local_ca_ack_delay$OFFSET = $LAYOUT.byteOffset(groupElement("local_ca_ack_delay"));

    /** Offset of {@code local_ca_ack_delay} in bytes. */
    public static long local_ca_ack_delay$offset() {
        return local_ca_ack_delay$OFFSET;
    }

    private static final OfByte local_ca_ack_delay$LAYOUT = (OfByte) $LAYOUT.select(groupElement("local_ca_ack_delay"));

    public static byte local_ca_ack_delay(MemorySegment struct) {
        return struct.get(local_ca_ack_delay$LAYOUT, local_ca_ack_delay$OFFSET);
    }

    public static void local_ca_ack_delay(MemorySegment struct, byte fieldValue) {
        struct.set(local_ca_ack_delay$LAYOUT, local_ca_ack_delay$OFFSET, fieldValue);
    }

    private static final long phys_port_cnt$OFFSET = $LAYOUT.byteOffset(groupElement("phys_port_cnt"));

    /** Offset of {@code phys_port_cnt} in bytes. */
    public static long phys_port_cnt$offset() {
        return phys_port_cnt$OFFSET;
    }

    private static final OfByte phys_port_cnt$LAYOUT = (OfByte) $LAYOUT.select(groupElement("phys_port_cnt"));

    public static byte phys_port_cnt(MemorySegment struct) {
        return struct.get(phys_port_cnt$LAYOUT, phys_port_cnt$OFFSET);
    }

    public static void phys_port_cnt(MemorySegment struct, byte fieldValue) {
        struct.set(phys_port_cnt$LAYOUT, phys_port_cnt$OFFSET, fieldValue);
    }
}
