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
 * struct ibv_qp_attr
 * }
 */
public final class ibv_qp_attr {
    private ibv_qp_attr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_INT.withName("qp_state"),
        C_INT.withName("cur_qp_state"),
        C_INT.withName("path_mtu"),
        C_INT.withName("path_mig_state"),
        C_INT.withName("qkey"),
        C_INT.withName("rq_psn"),
        C_INT.withName("sq_psn"),
        C_INT.withName("dest_qp_num"),
        C_INT.withName("qp_access_flags"),
        ibv_qp_cap.layout().withName("cap"),
        ibv_ah_attr.layout().withName("ah_attr"),
        ibv_ah_attr.layout().withName("alt_ah_attr"),
        C_SHORT.withName("pkey_index"),
        C_SHORT.withName("alt_pkey_index"),
        C_CHAR.withName("en_sqd_async_notify"),
        C_CHAR.withName("sq_draining"),
        C_CHAR.withName("max_rd_atomic"),
        C_CHAR.withName("max_dest_rd_atomic"),
        C_CHAR.withName("min_rnr_timer"),
        C_CHAR.withName("port_num"),
        C_CHAR.withName("timeout"),
        C_CHAR.withName("retry_cnt"),
        C_CHAR.withName("rnr_retry"),
        C_CHAR.withName("alt_port_num"),
        C_CHAR.withName("alt_timeout"),
        MemoryLayout.paddingLayout(1),
        C_INT.withName("rate_limit"),
        MemoryLayout.paddingLayout(4)).withName("ibv_qp_attr");

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

    private static final long qp_state$OFFSET = $LAYOUT.byteOffset(groupElement("qp_state"));

    /** Offset of {@code qp_state} in bytes. */
    public static long qp_state$offset() {
        return qp_state$OFFSET;
    }

    private static final OfInt qp_state$LAYOUT = (OfInt) $LAYOUT.select(groupElement("qp_state"));

    public static int qp_state(MemorySegment struct) {
        return struct.get(qp_state$LAYOUT, qp_state$OFFSET);
    }

    public static void qp_state(MemorySegment struct, int fieldValue) {
        struct.set(qp_state$LAYOUT, qp_state$OFFSET, fieldValue);
    }

    private static final long cur_qp_state$OFFSET = $LAYOUT.byteOffset(groupElement("cur_qp_state"));

    /** Offset of {@code cur_qp_state} in bytes. */
    public static long cur_qp_state$offset() {
        return cur_qp_state$OFFSET;
    }

    private static final OfInt cur_qp_state$LAYOUT = (OfInt) $LAYOUT.select(groupElement("cur_qp_state"));

    public static int cur_qp_state(MemorySegment struct) {
        return struct.get(cur_qp_state$LAYOUT, cur_qp_state$OFFSET);
    }

    public static void cur_qp_state(MemorySegment struct, int fieldValue) {
        struct.set(cur_qp_state$LAYOUT, cur_qp_state$OFFSET, fieldValue);
    }

    private static final long path_mtu$OFFSET = $LAYOUT.byteOffset(groupElement("path_mtu"));

    /** Offset of {@code path_mtu} in bytes. */
    public static long path_mtu$offset() {
        return path_mtu$OFFSET;
    }

    private static final OfInt path_mtu$LAYOUT = (OfInt) $LAYOUT.select(groupElement("path_mtu"));

    public static int path_mtu(MemorySegment struct) {
        return struct.get(path_mtu$LAYOUT, path_mtu$OFFSET);
    }

    public static void path_mtu(MemorySegment struct, int fieldValue) {
        struct.set(path_mtu$LAYOUT, path_mtu$OFFSET, fieldValue);
    }

    private static final long path_mig_state$OFFSET = $LAYOUT.byteOffset(groupElement("path_mig_state"));

    /** Offset of {@code path_mig_state} in bytes. */
    public static long path_mig_state$offset() {
        return path_mig_state$OFFSET;
    }

    private static final OfInt path_mig_state$LAYOUT = (OfInt) $LAYOUT.select(groupElement("path_mig_state"));

    public static int path_mig_state(MemorySegment struct) {
        return struct.get(path_mig_state$LAYOUT, path_mig_state$OFFSET);
    }

    public static void path_mig_state(MemorySegment struct, int fieldValue) {
        struct.set(path_mig_state$LAYOUT, path_mig_state$OFFSET, fieldValue);
    }

    private static final long qkey$OFFSET = $LAYOUT.byteOffset(groupElement("qkey"));

    /** Offset of {@code qkey} in bytes. */
    public static long qkey$offset() {
        return qkey$OFFSET;
    }

    private static final OfInt qkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("qkey"));

    public static int qkey(MemorySegment struct) {
        return struct.get(qkey$LAYOUT, qkey$OFFSET);
    }

    public static void qkey(MemorySegment struct, int fieldValue) {
        struct.set(qkey$LAYOUT, qkey$OFFSET, fieldValue);
    }

    private static final long rq_psn$OFFSET = $LAYOUT.byteOffset(groupElement("rq_psn"));

    /** Offset of {@code rq_psn} in bytes. */
    public static long rq_psn$offset() {
        return rq_psn$OFFSET;
    }

    private static final OfInt rq_psn$LAYOUT = (OfInt) $LAYOUT.select(groupElement("rq_psn"));

    public static int rq_psn(MemorySegment struct) {
        return struct.get(rq_psn$LAYOUT, rq_psn$OFFSET);
    }

    public static void rq_psn(MemorySegment struct, int fieldValue) {
        struct.set(rq_psn$LAYOUT, rq_psn$OFFSET, fieldValue);
    }

    private static final long sq_psn$OFFSET = $LAYOUT.byteOffset(groupElement("sq_psn"));

    /** Offset of {@code sq_psn} in bytes. */
    public static long sq_psn$offset() {
        return sq_psn$OFFSET;
    }

    private static final OfInt sq_psn$LAYOUT = (OfInt) $LAYOUT.select(groupElement("sq_psn"));

    public static int sq_psn(MemorySegment struct) {
        return struct.get(sq_psn$LAYOUT, sq_psn$OFFSET);
    }

    public static void sq_psn(MemorySegment struct, int fieldValue) {
        struct.set(sq_psn$LAYOUT, sq_psn$OFFSET, fieldValue);
    }

    private static final long dest_qp_num$OFFSET = $LAYOUT.byteOffset(groupElement("dest_qp_num"));

    /** Offset of {@code dest_qp_num} in bytes. */
    public static long dest_qp_num$offset() {
        return dest_qp_num$OFFSET;
    }

    private static final OfInt dest_qp_num$LAYOUT = (OfInt) $LAYOUT.select(groupElement("dest_qp_num"));

    public static int dest_qp_num(MemorySegment struct) {
        return struct.get(dest_qp_num$LAYOUT, dest_qp_num$OFFSET);
    }

    public static void dest_qp_num(MemorySegment struct, int fieldValue) {
        struct.set(dest_qp_num$LAYOUT, dest_qp_num$OFFSET, fieldValue);
    }

    private static final long qp_access_flags$OFFSET = $LAYOUT.byteOffset(groupElement("qp_access_flags"));

    /** Offset of {@code qp_access_flags} in bytes. */
    public static long qp_access_flags$offset() {
        return qp_access_flags$OFFSET;
    }

    private static final OfInt qp_access_flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("qp_access_flags"));

    public static int qp_access_flags(MemorySegment struct) {
        return struct.get(qp_access_flags$LAYOUT, qp_access_flags$OFFSET);
    }

    public static void qp_access_flags(MemorySegment struct, int fieldValue) {
        struct.set(qp_access_flags$LAYOUT, qp_access_flags$OFFSET, fieldValue);
    }

    private static final long cap$OFFSET = $LAYOUT.byteOffset(groupElement("cap"));

    /** Offset of {@code cap} in bytes. */
    public static long cap$offset() {
        return cap$OFFSET;
    }

    private static final MemoryLayout cap$LAYOUT = $LAYOUT.select(groupElement("cap"));

    /** The {@code cap} member as a slice of {@code struct}. */
    public static MemorySegment cap(MemorySegment struct) {
        return struct.asSlice(cap$OFFSET, cap$LAYOUT.byteSize());
    }

    public static void cap(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, cap$OFFSET, cap$LAYOUT.byteSize());
    }

    private static final long ah_attr$OFFSET = $LAYOUT.byteOffset(groupElement("ah_attr"));

    /** Offset of {@code ah_attr} in bytes. */
    public static long ah_attr$offset() {
        return ah_attr$OFFSET;
    }

    private static final MemoryLayout ah_attr$LAYOUT = $LAYOUT.select(groupElement("ah_attr"));

    /** The {@code ah_attr} member as a slice of {@code struct}. */
    public static MemorySegment ah_attr(MemorySegment struct) {
        return struct.asSlice(ah_attr$OFFSET, ah_attr$LAYOUT.byteSize());
    }

    public static void ah_attr(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, ah_attr$OFFSET, ah_attr$LAYOUT.byteSize());
    }

    private static final long alt_ah_attr$OFFSET = $LAYOUT.byteOffset(groupElement("alt_ah_attr"));

    /** Offset of {@code alt_ah_attr} in bytes. */
    public static long alt_ah_attr$offset() {
        return alt_ah_attr$OFFSET;
    }

    private static final MemoryLayout alt_ah_attr$LAYOUT = $LAYOUT.select(groupElement("alt_ah_attr"));

    /** The {@code alt_ah_attr} member as a slice of {@code struct}. */
    public static MemorySegment alt_ah_attr(MemorySegment struct) {
        return struct.asSlice(alt_ah_attr$OFFSET, alt_ah_attr$LAYOUT.byteSize());
    }

    public static void alt_ah_attr(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, alt_ah_attr$OFFSET, alt_ah_attr$LAYOUT.byteSize());
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

    private static final long alt_pkey_index$OFFSET = $LAYOUT.byteOffset(groupElement("alt_pkey_index"));

    /** Offset of {@code alt_pkey_index} in bytes. */
    public static long alt_pkey_index$offset() {
        return alt_pkey_index$OFFSET;
    }

    private static final OfShort alt_pkey_index$LAYOUT = (OfShort) $LAYOUT.select(groupElement("alt_pkey_index"));

    public static short alt_pkey_index(MemorySegment struct) {
        return struct.get(alt_pkey_index$LAYOUT, alt_pkey_index$OFFSET);
    }

    public static void alt_pkey_index(MemorySegment struct, short fieldValue) {
        struct.set(alt_pkey_index$LAYOUT, alt_pkey_index$OFFSET, fieldValue);
    }

    private static final long en_sqd_async_notify$OFFSET = $LAYOUT.byteOffset(groupElement("en_sqd_async_notify"));

    /** Offset of {@code en_sqd_async_notify} in bytes. */
    public static long en_sqd_async_notify$offset() {
        return en_sqd_async_notify$OFFSET;
    }

    private static final OfByte en_sqd_async_notify$LAYOUT = (OfByte) $LAYOUT.select(groupElement("en_sqd_async_notify"));

    public static byte en_sqd_async_notify(MemorySegment struct) {
        return struct.get(en_sqd_async_notify$LAYOUT, en_sqd_async_notify$OFFSET);
    }

    public static void en_sqd_async_notify(MemorySegment struct, byte fieldValue) {
        struct.set(en_sqd_async_notify$LAYOUT, en_sqd_async_notify$OFFSET, fieldValue);
    }

    private static final long sq_draining$OFFSET = $LAYOUT.byteOffset(groupElement("sq_draining"));

    /** Offset of {@code sq_draining} in bytes. */
    public static long sq_draining$offset() {
        return sq_draining$OFFSET;
    }

    private static final OfByte sq_draining$LAYOUT = (OfByte) $LAYOUT.select(groupElement("sq_draining"));

    public static byte sq_draining(MemorySegment struct) {
        return struct.get(sq_draining$LAYOUT, sq_draining$OFFSET);
    }

    public static void sq_draining(MemorySegment struct, byte fieldValue) {
        struct.set(sq_draining$LAYOUT, sq_draining$OFFSET, fieldValue);
    }

    private static final long max_rd_atomic$OFFSET = $LAYOUT.byteOffset(groupElement("max_rd_atomic"));

    /** Offset of {@code max_rd_atomic} in bytes. */
    public static long max_rd_atomic$offset() {
        return max_rd_atomic$OFFSET;
    }

    private static final OfByte max_rd_atomic$LAYOUT = (OfByte) $LAYOUT.select(groupElement("max_rd_atomic"));

    public static byte max_rd_atomic(MemorySegment struct) {
        return struct.get(max_rd_atomic$LAYOUT, max_rd_atomic$OFFSET);
    }

    public static void max_rd_atomic(MemorySegment struct, byte fieldValue) {
        struct.set(max_rd_atomic$LAYOUT, max_rd_atomic$OFFSET, fieldValue);
    }

    private static final long max_dest_rd_atomic$OFFSET = $LAYOUT.byteOffset(groupElement("max_dest_rd_atomic"));

    /** Offset of {@code max_dest_rd_atomic} in bytes. */
    public static long max_dest_rd_atomic$offset() {
        return max_dest_rd_atomic$OFFSET;
    }

    private static final OfByte max_dest_rd_atomic$LAYOUT = (OfByte) $LAYOUT.select(groupElement("max_dest_rd_atomic"));

    public static byte max_dest_rd_atomic(MemorySegment struct) {
        return struct.get(max_dest_rd_atomic$LAYOUT, max_dest_rd_atomic$OFFSET);
    }

    public static void max_dest_rd_atomic(MemorySegment struct, byte fieldValue) {
        struct.set(max_dest_rd_atomic$LAYOUT, max_dest_rd_atomic$OFFSET, fieldValue);
    }

    private static final long min_rnr_timer$OFFSET = $LAYOUT.byteOffset(groupElement("min_rnr_timer"));

    /** Offset of {@code min_rnr_timer} in bytes. */
    public static long min_rnr_timer$offset() {
        return min_rnr_timer$OFFSET;
    }

    private static final OfByte min_rnr_timer$LAYOUT = (OfByte) $LAYOUT.select(groupElement("min_rnr_timer"));

    public static byte min_rnr_timer(MemorySegment struct) {
        return struct.get(min_rnr_timer$LAYOUT, min_rnr_timer$OFFSET);
    }

    public static void min_rnr_timer(MemorySegment struct, byte fieldValue) {
        struct.set(min_rnr_timer$LAYOUT, min_rnr_timer$OFFSET, fieldValue);
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

    private static final long timeout$OFFSET = $LAYOUT.byteOffset(groupElement("timeout"));

    /** Offset of {@code timeout} in bytes. */
    public static long timeout$offset() {
        return timeout$OFFSET;
    }

    private static final OfByte timeout$LAYOUT = (OfByte) $LAYOUT.select(groupElement("timeout"));

    public static byte timeout(MemorySegment struct) {
        return struct.get(timeout$LAYOUT, timeout$OFFSET);
    }

    public static void timeout(MemorySegment struct, byte fieldValue) {
        struct.set(timeout$LAYOUT, timeout$OFFSET, fieldValue);
    }

    private static final long retry_cnt$OFFSET = $LAYOUT.byteOffset(groupElement("retry_cnt"));

    /** Offset of {@code retry_cnt} in bytes. */
    public static long retry_cnt$offset() {
        return retry_cnt$OFFSET;
    }

    private static final OfByte retry_cnt$LAYOUT = (OfByte) $LAYOUT.select(groupElement("retry_cnt"));

    public static byte retry_cnt(MemorySegment struct) {
        return struct.get(retry_cnt$LAYOUT, retry_cnt$OFFSET);
    }

    public static void retry_cnt(MemorySegment struct, byte fieldValue) {
        struct.set(retry_cnt$LAYOUT, retry_cnt$OFFSET, fieldValue);
    }

    private static final long rnr_retry$OFFSET = $LAYOUT.byteOffset(groupElement("rnr_retry"));

    /** Offset of {@code rnr_retry} in bytes. */
    public static long rnr_retry$offset() {
        return rnr_retry$OFFSET;
    }

    private static final OfByte rnr_retry$LAYOUT = (OfByte) $LAYOUT.select(groupElement("rnr_retry"));

    public static byte rnr_retry(MemorySegment struct) {
        return struct.get(rnr_retry$LAYOUT, rnr_retry$OFFSET);
    }

    public static void rnr_retry(MemorySegment struct, byte fieldValue) {
        struct.set(rnr_retry$LAYOUT, rnr_retry$OFFSET, fieldValue);
    }

    private static final long alt_port_num$OFFSET = $LAYOUT.byteOffset(groupElement("alt_port_num"));

    /** Offset of {@code alt_port_num} in bytes. */
    public static long alt_port_num$offset() {
        return alt_port_num$OFFSET;
    }

    private static final OfByte alt_port_num$LAYOUT = (OfByte) $LAYOUT.select(groupElement("alt_port_num"));

    public static byte alt_port_num(MemorySegment struct) {
        return struct.get(alt_port_num$LAYOUT, alt_port_num$OFFSET);
    }

    public static void alt_port_num(MemorySegment struct, byte fieldValue) {
        struct.set(alt_port_num$LAYOUT, alt_port_num$OFFSET, fieldValue);
    }

    private static final long alt_timeout$OFFSET = $LAYOUT.byteOffset(groupElement("alt_timeout"));

    /** Offset of {@code alt_timeout} in bytes. */
    public static long alt_timeout$offset() {
        return alt_timeout$OFFSET;
    }

    private static final OfByte alt_timeout$LAYOUT = (OfByte) $LAYOUT.select(groupElement("alt_timeout"));

    public static byte alt_timeout(MemorySegment struct) {
        return struct.get(alt_timeout$LAYOUT, alt_timeout$OFFSET);
    }

    public static void alt_timeout(MemorySegment struct, byte fieldValue) {
        struct.set(alt_timeout$LAYOUT, alt_timeout$OFFSET, fieldValue);
    }

    private static final long rate_limit$OFFSET = $LAYOUT.byteOffset(groupElement("rate_limit"));

    /** Offset of {@code rate_limit} in bytes. */
    public static long rate_limit$offset() {
        return rate_limit$OFFSET;
    }

    private static final OfInt rate_limit$LAYOUT = (OfInt) $LAYOUT.select(groupElement("rate_limit"));

    public static int rate_limit(MemorySegment struct) {
        return struct.get(rate_limit$LAYOUT, rate_limit$OFFSET);
    }

    public static void rate_limit(MemorySegment struct, int fieldValue) {
        struct.set(rate_limit$LAYOUT, rate_limit$OFFSET, fieldValue);
    }
}
