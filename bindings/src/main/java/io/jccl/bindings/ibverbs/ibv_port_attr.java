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
import java.lang.foreign.ValueLayout.OfShort;

/**
 * {@snippet lang=c :
 * struct ibv_port_attr
 * }
 */
public final class ibv_port_attr {
    private ibv_port_attr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_INT.withName("state"),
        C_INT.withName("max_mtu"),
        C_INT.withName("active_mtu"),
        C_INT.withName("gid_tbl_len"),
        C_INT.withName("port_cap_flags"),
        C_INT.withName("max_msg_sz"),
        C_INT.withName("bad_pkey_cntr"),
        C_INT.withName("qkey_viol_cntr"),
        C_SHORT.withName("pkey_tbl_len"),
        C_SHORT.withName("lid"),
        C_SHORT.withName("sm_lid"),
        C_CHAR.withName("lmc"),
        C_CHAR.withName("max_vl_num"),
        C_CHAR.withName("sm_sl"),
        C_CHAR.withName("subnet_timeout"),
        C_CHAR.withName("init_type_reply"),
        C_CHAR.withName("active_width"),
        C_CHAR.withName("active_speed"),
        C_CHAR.withName("phys_state"),
        C_CHAR.withName("link_layer"),
        C_CHAR.withName("flags"),
        C_SHORT.withName("port_cap_flags2"),
        MemoryLayout.paddingLayout(2)).withName("ibv_port_attr");

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

    private static final long max_mtu$OFFSET = $LAYOUT.byteOffset(groupElement("max_mtu"));

    /** Offset of {@code max_mtu} in bytes. */
    public static long max_mtu$offset() {
        return max_mtu$OFFSET;
    }

    private static final OfInt max_mtu$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_mtu"));

    public static int max_mtu(MemorySegment struct) {
        return struct.get(max_mtu$LAYOUT, max_mtu$OFFSET);
    }

    public static void max_mtu(MemorySegment struct, int fieldValue) {
        struct.set(max_mtu$LAYOUT, max_mtu$OFFSET, fieldValue);
    }

    private static final long active_mtu$OFFSET = $LAYOUT.byteOffset(groupElement("active_mtu"));

    /** Offset of {@code active_mtu} in bytes. */
    public static long active_mtu$offset() {
        return active_mtu$OFFSET;
    }

    private static final OfInt active_mtu$LAYOUT = (OfInt) $LAYOUT.select(groupElement("active_mtu"));

    public static int active_mtu(MemorySegment struct) {
        return struct.get(active_mtu$LAYOUT, active_mtu$OFFSET);
    }

    public static void active_mtu(MemorySegment struct, int fieldValue) {
        struct.set(active_mtu$LAYOUT, active_mtu$OFFSET, fieldValue);
    }

    private static final long gid_tbl_len$OFFSET = $LAYOUT.byteOffset(groupElement("gid_tbl_len"));

    /** Offset of {@code gid_tbl_len} in bytes. */
    public static long gid_tbl_len$offset() {
        return gid_tbl_len$OFFSET;
    }

    private static final OfInt gid_tbl_len$LAYOUT = (OfInt) $LAYOUT.select(groupElement("gid_tbl_len"));

    public static int gid_tbl_len(MemorySegment struct) {
        return struct.get(gid_tbl_len$LAYOUT, gid_tbl_len$OFFSET);
    }

    public static void gid_tbl_len(MemorySegment struct, int fieldValue) {
        struct.set(gid_tbl_len$LAYOUT, gid_tbl_len$OFFSET, fieldValue);
    }

    private static final long port_cap_flags$OFFSET = $LAYOUT.byteOffset(groupElement("port_cap_flags"));

    /** Offset of {@code port_cap_flags} in bytes. */
    public static long port_cap_flags$offset() {
        return port_cap_flags$OFFSET;
    }

    private static final OfInt port_cap_flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("port_cap_flags"));

    public static int port_cap_flags(MemorySegment struct) {
        return struct.get(port_cap_flags$LAYOUT, port_cap_flags$OFFSET);
    }

    public static void port_cap_flags(MemorySegment struct, int fieldValue) {
        struct.set(port_cap_flags$LAYOUT, port_cap_flags$OFFSET, fieldValue);
    }

    private static final long max_msg_sz$OFFSET = $LAYOUT.byteOffset(groupElement("max_msg_sz"));

    /** Offset of {@code max_msg_sz} in bytes. */
    public static long max_msg_sz$offset() {
        return max_msg_sz$OFFSET;
    }

    private static final OfInt max_msg_sz$LAYOUT = (OfInt) $LAYOUT.select(groupElement("max_msg_sz"));

    public static int max_msg_sz(MemorySegment struct) {
        return struct.get(max_msg_sz$LAYOUT, max_msg_sz$OFFSET);
    }

    public static void max_msg_sz(MemorySegment struct, int fieldValue) {
        struct.set(max_msg_sz$LAYOUT, max_msg_sz$OFFSET, fieldValue);
    }

    private static final long bad_pkey_cntr$OFFSET = $LAYOUT.byteOffset(groupElement("bad_pkey_cntr"));

    /** Offset of {@code bad_pkey_cntr} in bytes. */
    public static long bad_pkey_cntr$offset() {
        return bad_pkey_cntr$OFFSET;
    }

    private static final OfInt bad_pkey_cntr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("bad_pkey_cntr"));

    public static int bad_pkey_cntr(MemorySegment struct) {
        return struct.get(bad_pkey_cntr$LAYOUT, bad_pkey_cntr$OFFSET);
    }

    public static void bad_pkey_cntr(MemorySegment struct, int fieldValue) {
        struct.set(bad_pkey_cntr$LAYOUT, bad_pkey_cntr$OFFSET, fieldValue);
    }

    private static final long qkey_viol_cntr$OFFSET = $LAYOUT.byteOffset(groupElement("qkey_viol_cntr"));

    /** Offset of {@code qkey_viol_cntr} in bytes. */
    public static long qkey_viol_cntr$offset() {
        return qkey_viol_cntr$OFFSET;
    }

    private static final OfInt qkey_viol_cntr$LAYOUT = (OfInt) $LAYOUT.select(groupElement("qkey_viol_cntr"));

    public static int qkey_viol_cntr(MemorySegment struct) {
        return struct.get(qkey_viol_cntr$LAYOUT, qkey_viol_cntr$OFFSET);
    }

    public static void qkey_viol_cntr(MemorySegment struct, int fieldValue) {
        struct.set(qkey_viol_cntr$LAYOUT, qkey_viol_cntr$OFFSET, fieldValue);
    }

    private static final long pkey_tbl_len$OFFSET = $LAYOUT.byteOffset(groupElement("pkey_tbl_len"));

    /** Offset of {@code pkey_tbl_len} in bytes. */
    public static long pkey_tbl_len$offset() {
        return pkey_tbl_len$OFFSET;
    }

    private static final OfShort pkey_tbl_len$LAYOUT = (OfShort) $LAYOUT.select(groupElement("pkey_tbl_len"));

    public static short pkey_tbl_len(MemorySegment struct) {
        return struct.get(pkey_tbl_len$LAYOUT, pkey_tbl_len$OFFSET);
    }

    public static void pkey_tbl_len(MemorySegment struct, short fieldValue) {
        struct.set(pkey_tbl_len$LAYOUT, pkey_tbl_len$OFFSET, fieldValue);
    }

    private static final long lid$OFFSET = $LAYOUT.byteOffset(groupElement("lid"));

    /** Offset of {@code lid} in bytes. */
    public static long lid$offset() {
        return lid$OFFSET;
    }

    private static final OfShort lid$LAYOUT = (OfShort) $LAYOUT.select(groupElement("lid"));

    public static short lid(MemorySegment struct) {
        return struct.get(lid$LAYOUT, lid$OFFSET);
    }

    public static void lid(MemorySegment struct, short fieldValue) {
        struct.set(lid$LAYOUT, lid$OFFSET, fieldValue);
    }

    private static final long sm_lid$OFFSET = $LAYOUT.byteOffset(groupElement("sm_lid"));

    /** Offset of {@code sm_lid} in bytes. */
    public static long sm_lid$offset() {
        return sm_lid$OFFSET;
    }

    private static final OfShort sm_lid$LAYOUT = (OfShort) $LAYOUT.select(groupElement("sm_lid"));

    public static short sm_lid(MemorySegment struct) {
        return struct.get(sm_lid$LAYOUT, sm_lid$OFFSET);
    }

    public static void sm_lid(MemorySegment struct, short fieldValue) {
        struct.set(sm_lid$LAYOUT, sm_lid$OFFSET, fieldValue);
    }

    private static final long lmc$OFFSET = $LAYOUT.byteOffset(groupElement("lmc"));

    /** Offset of {@code lmc} in bytes. */
    public static long lmc$offset() {
        return lmc$OFFSET;
    }

    private static final OfByte lmc$LAYOUT = (OfByte) $LAYOUT.select(groupElement("lmc"));

    public static byte lmc(MemorySegment struct) {
        return struct.get(lmc$LAYOUT, lmc$OFFSET);
    }

    public static void lmc(MemorySegment struct, byte fieldValue) {
        struct.set(lmc$LAYOUT, lmc$OFFSET, fieldValue);
    }

    private static final long max_vl_num$OFFSET = $LAYOUT.byteOffset(groupElement("max_vl_num"));

    /** Offset of {@code max_vl_num} in bytes. */
    public static long max_vl_num$offset() {
        return max_vl_num$OFFSET;
    }

    private static final OfByte max_vl_num$LAYOUT = (OfByte) $LAYOUT.select(groupElement("max_vl_num"));

    public static byte max_vl_num(MemorySegment struct) {
        return struct.get(max_vl_num$LAYOUT, max_vl_num$OFFSET);
    }

    public static void max_vl_num(MemorySegment struct, byte fieldValue) {
        struct.set(max_vl_num$LAYOUT, max_vl_num$OFFSET, fieldValue);
    }

    private static final long sm_sl$OFFSET = $LAYOUT.byteOffset(groupElement("sm_sl"));

    /** Offset of {@code sm_sl} in bytes. */
    public static long sm_sl$offset() {
        return sm_sl$OFFSET;
    }

    private static final OfByte sm_sl$LAYOUT = (OfByte) $LAYOUT.select(groupElement("sm_sl"));

    public static byte sm_sl(MemorySegment struct) {
        return struct.get(sm_sl$LAYOUT, sm_sl$OFFSET);
    }

    public static void sm_sl(MemorySegment struct, byte fieldValue) {
        struct.set(sm_sl$LAYOUT, sm_sl$OFFSET, fieldValue);
    }

    private static final long subnet_timeout$OFFSET = $LAYOUT.byteOffset(groupElement("subnet_timeout"));

    /** Offset of {@code subnet_timeout} in bytes. */
    public static long subnet_timeout$offset() {
        return subnet_timeout$OFFSET;
    }

    private static final OfByte subnet_timeout$LAYOUT = (OfByte) $LAYOUT.select(groupElement("subnet_timeout"));

    public static byte subnet_timeout(MemorySegment struct) {
        return struct.get(subnet_timeout$LAYOUT, subnet_timeout$OFFSET);
    }

    public static void subnet_timeout(MemorySegment struct, byte fieldValue) {
        struct.set(subnet_timeout$LAYOUT, subnet_timeout$OFFSET, fieldValue);
    }

    private static final long init_type_reply$OFFSET = $LAYOUT.byteOffset(groupElement("init_type_reply"));

    /** Offset of {@code init_type_reply} in bytes. */
    public static long init_type_reply$offset() {
        return init_type_reply$OFFSET;
    }

    private static final OfByte init_type_reply$LAYOUT = (OfByte) $LAYOUT.select(groupElement("init_type_reply"));

    public static byte init_type_reply(MemorySegment struct) {
        return struct.get(init_type_reply$LAYOUT, init_type_reply$OFFSET);
    }

    public static void init_type_reply(MemorySegment struct, byte fieldValue) {
        struct.set(init_type_reply$LAYOUT, init_type_reply$OFFSET, fieldValue);
    }

    private static final long active_width$OFFSET = $LAYOUT.byteOffset(groupElement("active_width"));

    /** Offset of {@code active_width} in bytes. */
    public static long active_width$offset() {
        return active_width$OFFSET;
    }

    private static final OfByte active_width$LAYOUT = (OfByte) $LAYOUT.select(groupElement("active_width"));

    public static byte active_width(MemorySegment struct) {
        return struct.get(active_width$LAYOUT, active_width$OFFSET);
    }

    public static void active_width(MemorySegment struct, byte fieldValue) {
        struct.set(active_width$LAYOUT, active_width$OFFSET, fieldValue);
    }

    private static final long active_speed$OFFSET = $LAYOUT.byteOffset(groupElement("active_speed"));

    /** Offset of {@code active_speed} in bytes. */
    public static long active_speed$offset() {
        return active_speed$OFFSET;
    }

    private static final OfByte active_speed$LAYOUT = (OfByte) $LAYOUT.select(groupElement("active_speed"));

    public static byte active_speed(MemorySegment struct) {
        return struct.get(active_speed$LAYOUT, active_speed$OFFSET);
    }

    public static void active_speed(MemorySegment struct, byte fieldValue) {
        struct.set(active_speed$LAYOUT, active_speed$OFFSET, fieldValue);
    }

    private static final long phys_state$OFFSET = $LAYOUT.byteOffset(groupElement("phys_state"));

    /** Offset of {@code phys_state} in bytes. */
    public static long phys_state$offset() {
        return phys_state$OFFSET;
    }

    private static final OfByte phys_state$LAYOUT = (OfByte) $LAYOUT.select(groupElement("phys_state"));

    public static byte phys_state(MemorySegment struct) {
        return struct.get(phys_state$LAYOUT, phys_state$OFFSET);
    }

    public static void phys_state(MemorySegment struct, byte fieldValue) {
        struct.set(phys_state$LAYOUT, phys_state$OFFSET, fieldValue);
    }

    private static final long link_layer$OFFSET = $LAYOUT.byteOffset(groupElement("link_layer"));

    /** Offset of {@code link_layer} in bytes. */
    public static long link_layer$offset() {
        return link_layer$OFFSET;
    }

    private static final OfByte link_layer$LAYOUT = (OfByte) $LAYOUT.select(groupElement("link_layer"));

    public static byte link_layer(MemorySegment struct) {
        return struct.get(link_layer$LAYOUT, link_layer$OFFSET);
    }

    public static void link_layer(MemorySegment struct, byte fieldValue) {
        struct.set(link_layer$LAYOUT, link_layer$OFFSET, fieldValue);
    }

    private static final long flags$OFFSET = $LAYOUT.byteOffset(groupElement("flags"));

    /** Offset of {@code flags} in bytes. */
    public static long flags$offset() {
        return flags$OFFSET;
    }

    private static final OfByte flags$LAYOUT = (OfByte) $LAYOUT.select(groupElement("flags"));

    public static byte flags(MemorySegment struct) {
        return struct.get(flags$LAYOUT, flags$OFFSET);
    }

    public static void flags(MemorySegment struct, byte fieldValue) {
        struct.set(flags$LAYOUT, flags$OFFSET, fieldValue);
    }

    private static final long port_cap_flags2$OFFSET = $LAYOUT.byteOffset(groupElement("port_cap_flags2"));

    /** Offset of {@code port_cap_flags2} in bytes. */
    public static long port_cap_flags2$offset() {
        return port_cap_flags2$OFFSET;
    }

    private static final OfShort port_cap_flags2$LAYOUT = (OfShort) $LAYOUT.select(groupElement("port_cap_flags2"));

    public static short port_cap_flags2(MemorySegment struct) {
        return struct.get(port_cap_flags2$LAYOUT, port_cap_flags2$OFFSET);
    }

    public static void port_cap_flags2(MemorySegment struct, short fieldValue) {
        struct.set(port_cap_flags2$LAYOUT, port_cap_flags2$OFFSET, fieldValue);
    }
}
