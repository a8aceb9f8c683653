// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import io.jccl.bindings.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.invoke.MethodHandle;

/**
 * {@snippet lang=c :
 * struct verbs_context: the extended context that ends with, and is found from, struct ibv_context
 * }
 */
public final class verbs_context {
    private verbs_context() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("query_port"),
        C_POINTER.withName("advise_mr"),
        C_POINTER.withName("alloc_null_mr"),
        C_POINTER.withName("read_counters"),
        C_POINTER.withName("attach_counters_point_flow"),
        C_POINTER.withName("create_counters"),
        C_POINTER.withName("destroy_counters"),
        C_POINTER.withName("reg_dm_mr"),
        C_POINTER.withName("alloc_dm"),
        C_POINTER.withName("free_dm"),
        C_POINTER.withName("modify_flow_action_esp"),
        C_POINTER.withName("destroy_flow_action"),
        C_POINTER.withName("create_flow_action_esp"),
        C_POINTER.withName("modify_qp_rate_limit"),
        C_POINTER.withName("alloc_parent_domain"),
        C_POINTER.withName("dealloc_td"),
        C_POINTER.withName("alloc_td"),
        C_POINTER.withName("modify_cq"),
        C_POINTER.withName("post_srq_ops"),
        C_POINTER.withName("destroy_rwq_ind_table"),
        C_POINTER.withName("create_rwq_ind_table"),
        C_POINTER.withName("destroy_wq"),
        C_POINTER.withName("modify_wq"),
        C_POINTER.withName("create_wq"),
        C_POINTER.withName("query_rt_values"),
        C_POINTER.withName("create_cq_ex"),
        C_POINTER.withName("priv"),
        C_POINTER.withName("query_device_ex"),
        C_POINTER.withName("ibv_destroy_flow"),
        C_POINTER.withName("ABI_placeholder2"),
        C_POINTER.withName("ibv_create_flow"),
        C_POINTER.withName("ABI_placeholder1"),
        C_POINTER.withName("open_qp"),
        C_POINTER.withName("create_qp_ex"),
        C_POINTER.withName("get_srq_num"),
        C_POINTER.withName("create_srq_ex"),
        C_POINTER.withName("open_xrcd"),
        C_POINTER.withName("close_xrcd"),
        C_LONG.withName("_ABI_placeholder3"),
        C_LONG.withName("sz"),
        ibv_context.layout().withName("context")).withName("verbs_context");

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

    private static final long query_port$OFFSET = $LAYOUT.byteOffset(groupElement("query_port"));

    /** Offset of {@code query_port} in bytes. */
    public static long query_port$offset() {
        return query_port$OFFSET;
    }

    private static final AddressLayout query_port$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("query_port"));

    public static MemorySegment query_port(MemorySegment struct) {
        return struct.get(query_port$LAYOUT, query_port$OFFSET);
    }

    public static void query_port(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(query_port$LAYOUT, query_port$OFFSET, fieldValue);
    }

    private static final long advise_mr$OFFSET = $LAYOUT.byteOffset(groupElement("advise_mr"));

    /** Offset of {@code advise_mr} in bytes. */
    public static long advise_mr$offset() {
        return advise_mr$OFFSET;
    }

    private static final AddressLayout advise_mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("advise_mr"));

    public static MemorySegment advise_mr(MemorySegment struct) {
        return struct.get(advise_mr$LAYOUT, advise_mr$OFFSET);
    }

    public static void advise_mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(advise_mr$LAYOUT, advise_mr$OFFSET, fieldValue);
    }

    private static final long alloc_null_mr$OFFSET = $LAYOUT.byteOffset(groupElement("alloc_null_mr"));

    /** Offset of {@code alloc_null_mr} in bytes. */
    public static long alloc_null_mr$offset() {
        return alloc_null_mr$OFFSET;
    }

    private static final AddressLayout alloc_null_mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("alloc_null_mr"));

    public static MemorySegment alloc_null_mr(MemorySegment struct) {
        return struct.get(alloc_null_mr$LAYOUT, alloc_null_mr$OFFSET);
    }

    public static void alloc_null_mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(alloc_null_mr$LAYOUT, alloc_null_mr$OFFSET, fieldValue);
    }

    private static final long read_counters$OFFSET = $LAYOUT.byteOffset(groupElement("read_counters"));

    /** Offset of {@code read_counters} in bytes. */
    public static long read_counters$offset() {
        return read_counters$OFFSET;
    }

    private static final AddressLayout read_counters$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("read_counters"));

    public static MemorySegment read_counters(MemorySegment struct) {
        return struct.get(read_counters$LAYOUT, read_counters$OFFSET);
    }

    public static void read_counters(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(read_counters$LAYOUT, read_counters$OFFSET, fieldValue);
    }

    private static final long attach_counters_point_flow$OFFSET = $LAYOUT.byteOffset(groupElement("attach_counters_point_flow"));

    /** Offset of {@code attach_counters_point_flow} in bytes. */
    public static long attach_counters_point_flow$offset() {
        return attach_counters_point_flow$OFFSET;
    }

    private static final AddressLayout attach_counters_point_flow$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("attach_counters_point_flow"));

    public static MemorySegment attach_counters_point_flow(MemorySegment struct) {
        return struct.get(attach_counters_point_flow$LAYOUT, attach_counters_point_flow$OFFSET);
    }

    public static void attach_counters_point_flow(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(attach_counters_point_flow$LAYOUT, attach_counters_point_flow$OFFSET, fieldValue);
    }

    private static final long create_counters$OFFSET = $LAYOUT.byteOffset(groupElement("create_counters"));

    /** Offset of {@code create_counters} in bytes. */
    public static long create_counters$offset() {
        return create_counters$OFFSET;
    }

    private static final AddressLayout create_counters$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_counters"));

    public static MemorySegment create_counters(MemorySegment struct) {
        return struct.get(create_counters$LAYOUT, create_counters$OFFSET);
    }

    public static void create_counters(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_counters$LAYOUT, create_counters$OFFSET, fieldValue);
    }

    private static final long destroy_counters$OFFSET = $LAYOUT.byteOffset(groupElement("destroy_counters"));

    /** Offset of {@code destroy_counters} in bytes. */
    public static long destroy_counters$offset() {
        return destroy_counters$OFFSET;
    }

    private static final AddressLayout destroy_counters$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("destroy_counters"));

    public static MemorySegment destroy_counters(MemorySegment struct) {
        return struct.get(destroy_counters$LAYOUT, destroy_counters$OFFSET);
    }

    public static void destroy_counters(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(destroy_counters$LAYOUT, destroy_counters$OFFSET, fieldValue);
    }

    private static final long reg_dm_mr$OFFSET = $LAYOUT.byteOffset(groupElement("reg_dm_mr"));

    /** Offset of {@code reg_dm_mr} in bytes. */
    public static long reg_dm_mr$offset() {
        return reg_dm_mr$OFFSET;
    }

    private static final AddressLayout reg_dm_mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("reg_dm_mr"));

    public static MemorySegment reg_dm_mr(MemorySegment struct) {
        return struct.get(reg_dm_mr$LAYOUT, reg_dm_mr$OFFSET);
    }

    public static void reg_dm_mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(reg_dm_mr$LAYOUT, reg_dm_mr$OFFSET, fieldValue);
    }

    private static final long alloc_dm$OFFSET = $LAYOUT.byteOffset(groupElement("alloc_dm"));

    /** Offset of {@code alloc_dm} in bytes. */
    public static long alloc_dm$offset() {
        return alloc_dm$OFFSET;
    }

    private static final AddressLayout alloc_dm$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("alloc_dm"));

    public static MemorySegment alloc_dm(MemorySegment struct) {
        return struct.get(alloc_dm$LAYOUT, alloc_dm$OFFSET);
    }

    public static void alloc_dm(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(alloc_dm$LAYOUT, alloc_dm$OFFSET, fieldValue);
    }

    private static final long free_dm$OFFSET = $LAYOUT.byteOffset(groupElement("free_dm"));

    /** Offset of {@code free_dm} in bytes. */
    public static long free_dm$offset() {
        return free_dm$OFFSET;
    }

    private static final AddressLayout free_dm$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("free_dm"));

    public static MemorySegment free_dm(MemorySegment struct) {
        return struct.get(free_dm$LAYOUT, free_dm$OFFSET);
    }

    public static void free_dm(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(free_dm$LAYOUT, free_dm$OFFSET, fieldValue);
    }

    private static final long modify_flow_action_esp$OFFSET = $LAYOUT.byteOffset(groupElement("modify_flow_action_esp"));

    /** Offset of {@code modify_flow_action_esp} in bytes. */
    public static long modify_flow_action_esp$offset() {
        return modify_flow_action_esp$OFFSET;
    }

    private static final AddressLayout modify_flow_action_esp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("modify_flow_action_esp"));

    public static MemorySegment modify_flow_action_esp(MemorySegment struct) {
        return struct.get(modify_flow_action_esp$LAYOUT, modify_flow_action_esp$OFFSET);
    }

    public static void modify_flow_action_esp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(modify_flow_action_esp$LAYOUT, modify_flow_action_esp$OFFSET, fieldValue);
    }

    private static final long destroy_flow_action$OFFSET = $LAYOUT.byteOffset(groupElement("destroy_flow_action"));

    /** Offset of {@code destroy_flow_action} in bytes. */
    public static long destroy_flow_action$offset() {
        return destroy_flow_action$OFFSET;
    }

    private static final AddressLayout destroy_flow_action$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("destroy_flow_action"));

    public static MemorySegment destroy_flow_action(MemorySegment struct) {
        return struct.get(destroy_flow_action$LAYOUT, destroy_flow_action$OFFSET);
    }

    public static void destroy_flow_action(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(destroy_flow_action$LAYOUT, destroy_flow_action$OFFSET, fieldValue);
    }

    private static final long create_flow_action_esp$OFFSET = $LAYOUT.byteOffset(groupElement("create_flow_action_esp"));

    /** Offset of {@code create_flow_action_esp} in bytes. */
    public static long create_flow_action_esp$offset() {
        return create_flow_action_esp$OFFSET;
    }

    private static final AddressLayout create_flow_action_esp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_flow_action_esp"));

    public static MemorySegment create_flow_action_esp(MemorySegment struct) {
        return struct.get(create_flow_action_esp$LAYOUT, create_flow_action_esp$OFFSET);
    }

    public static void create_flow_action_esp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_flow_action_esp$LAYOUT, create_flow_action_esp$OFFSET, fieldValue);
    }

    private static final long modify_qp_rate_limit$OFFSET = $LAYOUT.byteOffset(groupElement("modify_qp_rate_limit"));

    /** Offset of {@code modify_qp_rate_limit} in bytes. */
    public static long modify_qp_rate_limit$offset() {
        return modify_qp_rate_limit$OFFSET;
    }

    private static final AddressLayout modify_qp_rate_limit$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("modify_qp_rate_limit"));

    public static MemorySegment modify_qp_rate_limit(MemorySegment struct) {
        return struct.get(modify_qp_rate_limit$LAYOUT, modify_qp_rate_limit$OFFSET);
    }

    public static void modify_qp_rate_limit(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(modify_qp_rate_limit$LAYOUT, modify_qp_rate_limit$OFFSET, fieldValue);
    }

    private static final long alloc_parent_domain$OFFSET = $LAYOUT.byteOffset(groupElement("alloc_parent_domain"));

    /** Offset of {@code alloc_parent_domain} in bytes. */
    public static long alloc_parent_domain$offset() {
        return alloc_parent_domain$OFFSET;
    }

    private static final AddressLayout alloc_parent_domain$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("alloc_parent_domain"));

    public static MemorySegment alloc_parent_domain(MemorySegment struct) {
        return struct.get(alloc_parent_domain$LAYOUT, alloc_parent_domain$OFFSET);
    }

    public static void alloc_parent_domain(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(alloc_parent_domain$LAYOUT, alloc_parent_domain$OFFSET, fieldValue);
    }

    private static final long dealloc_td$OFFSET = $LAYOUT.byteOffset(groupElement("dealloc_td"));

    /** Offset of {@code dealloc_td} in bytes. */
    public static long dealloc_td$offset() {
        return dealloc_td$OFFSET;
    }

    private static final AddressLayout dealloc_td$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("dealloc_td"));

    public static MemorySegment dealloc_td(MemorySegment struct) {
        return struct.get(dealloc_td$LAYOUT, dealloc_td$OFFSET);
    }

    public static void dealloc_td(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(dealloc_td$LAYOUT, dealloc_td$OFFSET, fieldValue);
    }

    private static final long alloc_td$OFFSET = $LAYOUT.byteOffset(groupElement("alloc_td"));

    /** Offset of {@code alloc_td} in bytes. */
    public static long alloc_td$offset() {
        return alloc_td$OFFSET;
    }

    private static final AddressLayout alloc_td$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("alloc_td"));

    public static MemorySegment alloc_td(MemorySegment struct) {
        return struct.get(alloc_td$LAYOUT, alloc_td$OFFSET);
    }

    public static void alloc_td(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(alloc_td$LAYOUT, alloc_td$OFFSET, fieldValue);
    }

    private static final long modify_cq$OFFSET = $LAYOUT.byteOffset(groupElement("modify_cq"));

    /** Offset of {@code modify_cq} in bytes. */
    public static long modify_cq$offset() {
        return modify_cq$OFFSET;
    }

    private static final AddressLayout modify_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("modify_cq"));

    public static MemorySegment modify_cq(MemorySegment struct) {
        return struct.get(modify_cq$LAYOUT, modify_cq$OFFSET);
    }

    public static void modify_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(modify_cq$LAYOUT, modify_cq$OFFSET, fieldValue);
    }

    private static final long post_srq_ops$OFFSET = $LAYOUT.byteOffset(groupElement("post_srq_ops"));

    /** Offset of {@code post_srq_ops} in bytes. */
    public static long post_srq_ops$offset() {
        return post_srq_ops$OFFSET;
    }

    private static final AddressLayout post_srq_ops$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("post_srq_ops"));

    public static MemorySegment post_srq_ops(MemorySegment struct) {
        return struct.get(post_srq_ops$LAYOUT, post_srq_ops$OFFSET);
    }

    public static void post_srq_ops(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(post_srq_ops$LAYOUT, post_srq_ops$OFFSET, fieldValue);
    }

    private static final long destroy_rwq_ind_table$OFFSET = $LAYOUT.byteOffset(groupElement("destroy_rwq_ind_table"));

    /** Offset of {@code destroy_rwq_ind_table} in bytes. */
    public static long destroy_rwq_ind_table$offset() {
        return destroy_rwq_ind_table$OFFSET;
    }

    private static final AddressLayout destroy_rwq_ind_table$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("destroy_rwq_ind_table"));

    public static MemorySegment destroy_rwq_ind_table(MemorySegment struct) {
        return struct.get(destroy_rwq_ind_table$LAYOUT, destroy_rwq_ind_table$OFFSET);
    }

    public static void destroy_rwq_ind_table(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(destroy_rwq_ind_table$LAYOUT, destroy_rwq_ind_table$OFFSET, fieldValue);
    }

    private static final long create_rwq_ind_table$OFFSET = $LAYOUT.byteOffset(groupElement("create_rwq_ind_table"));

    /** Offset of {@code create_rwq_ind_table} in bytes. */
    public static long create_rwq_ind_table$offset() {
        return create_rwq_ind_table$OFFSET;
    }

    private static final AddressLayout create_rwq_ind_table$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_rwq_ind_table"));

    public static MemorySegment create_rwq_ind_table(MemorySegment struct) {
        return struct.get(create_rwq_ind_table$LAYOUT, create_rwq_ind_table$OFFSET);
    }

    public static void create_rwq_ind_table(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_rwq_ind_table$LAYOUT, create_rwq_ind_table$OFFSET, fieldValue);
    }

    private static final long destroy_wq$OFFSET = $LAYOUT.byteOffset(groupElement("destroy_wq"));

    /** Offset of {@code destroy_wq} in bytes. */
    public static long destroy_wq$offset() {
        return destroy_wq$OFFSET;
    }

    private static final AddressLayout destroy_wq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("destroy_wq"));

    public static MemorySegment destroy_wq(MemorySegment struct) {
        return struct.get(destroy_wq$LAYOUT, destroy_wq$OFFSET);
    }

    public static void destroy_wq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(destroy_wq$LAYOUT, destroy_wq$OFFSET, fieldValue);
    }

    private static final long modify_wq$OFFSET = $LAYOUT.byteOffset(groupElement("modify_wq"));

    /** Offset of {@code modify_wq} in bytes. */
    public static long modify_wq$offset() {
        return modify_wq$OFFSET;
    }

    private static final AddressLayout modify_wq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("modify_wq"));

    public static MemorySegment modify_wq(MemorySegment struct) {
        return struct.get(modify_wq$LAYOUT, modify_wq$OFFSET);
    }

    public static void modify_wq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(modify_wq$LAYOUT, modify_wq$OFFSET, fieldValue);
    }

    private static final long create_wq$OFFSET = $LAYOUT.byteOffset(groupElement("create_wq"));

    /** Offset of {@code create_wq} in bytes. */
    public static long create_wq$offset() {
        return create_wq$OFFSET;
    }

    private static final AddressLayout create_wq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_wq"));

    public static MemorySegment create_wq(MemorySegment struct) {
        return struct.get(create_wq$LAYOUT, create_wq$OFFSET);
    }

    public static void create_wq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_wq$LAYOUT, create_wq$OFFSET, fieldValue);
    }

    private static final long query_rt_values$OFFSET = $LAYOUT.byteOffset(groupElement("query_rt_values"));

    /** Offset of {@code query_rt_values} in bytes. */
    public static long query_rt_values$offset() {
        return query_rt_values$OFFSET;
    }

    private static final AddressLayout query_rt_values$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("query_rt_values"));

    public static MemorySegment query_rt_values(MemorySegment struct) {
        return struct.get(query_rt_values$LAYOUT, query_rt_values$OFFSET);
    }

    public static void query_rt_values(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(query_rt_values$LAYOUT, query_rt_values$OFFSET, fieldValue);
    }

    private static final long create_cq_ex$OFFSET = $LAYOUT.byteOffset(groupElement("create_cq_ex"));

    /** Offset of {@code create_cq_ex} in bytes. */
    public static long create_cq_ex$offset() {
        return create_cq_ex$OFFSET;
    }

    private static final AddressLayout create_cq_ex$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_cq_ex"));

    public static MemorySegment create_cq_ex(MemorySegment struct) {
        return struct.get(create_cq_ex$LAYOUT, create_cq_ex$OFFSET);
    }

    public static void create_cq_ex(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_cq_ex$LAYOUT, create_cq_ex$OFFSET, fieldValue);
    }

    private static final long priv$OFFSET = $LAYOUT.byteOffset(groupElement("priv"));

    /** Offset of {@code priv} in bytes. */
    public static long priv$offset() {
        return priv$OFFSET;
    }

    private static final AddressLayout priv$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("priv"));

    public static MemorySegment priv(MemorySegment struct) {
        return struct.get(priv$LAYOUT, priv$OFFSET);
    }

    public static void priv(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(priv$LAYOUT, priv$OFFSET, fieldValue);
    }

    private static final long query_device_ex$OFFSET = $LAYOUT.byteOffset(groupElement("query_device_ex"));

    /** Offset of {@code query_device_ex} in bytes. */
    public static long query_device_ex$offset() {
        return query_device_ex$OFFSET;
    }

    private static final AddressLayout query_device_ex$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("query_device_ex"));

    public static MemorySegment query_device_ex(MemorySegment struct) {
        return struct.get(query_device_ex$LAYOUT, query_device_ex$OFFSET);
    }

    public static void query_device_ex(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(query_device_ex$LAYOUT, query_device_ex$OFFSET, fieldValue);
    }

    private static final long ibv_destroy_flow$OFFSET = $LAYOUT.byteOffset(groupElement("ibv_destroy_flow"));

    /** Offset of {@code ibv_destroy_flow} in bytes. */
    public static long ibv_destroy_flow$offset() {
        return ibv_destroy_flow$OFFSET;
    }

    private static final AddressLayout ibv_destroy_flow$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("ibv_destroy_flow"));

    public static MemorySegment ibv_destroy_flow(MemorySegment struct) {
        return struct.get(ibv_destroy_flow$LAYOUT, ibv_destroy_flow$OFFSET);
    }

    public static void ibv_destroy_flow(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ibv_destroy_flow$LAYOUT, ibv_destroy_flow$OFFSET, fieldValue);
    }

    private static final long ABI_placeholder2$OFFSET = $LAYOUT.byteOffset(groupElement("ABI_placeholder2"));

    /** Offset of {@code ABI_placeholder2} in bytes. */
    public static long ABI_placeholder2$offset() {
        return ABI_placeholder2$OFFSET;
    }

    private static final AddressLayout ABI_placeholder2$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("ABI_placeholder2"));

    public static MemorySegment ABI_placeholder2(MemorySegment struct) {
        return struct.get(ABI_placeholder2$LAYOUT, ABI_placeholder2$OFFSET);
    }

    public static void ABI_placeholder2(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ABI_placeholder2$LAYOUT, ABI_placeholder2$OFFSET, fieldValue);
    }

    private static final long ibv_create_flow$OFFSET = $LAYOUT.byteOffset(groupElement("ibv_create_flow"));

    /** Offset of {@code ibv_create_flow} in bytes. */
    public static long ibv_create_flow$offset() {
        return ibv_create_flow$OFFSET;
    }

    private static final AddressLayout ibv_create_flow$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("ibv_create_flow"));

    public static MemorySegment ibv_create_flow(MemorySegment struct) {
        return struct.get(ibv_create_flow$LAYOUT, ibv_create_flow$OFFSET);
    }

    public static void ibv_create_flow(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ibv_create_flow$LAYOUT, ibv_create_flow$OFFSET, fieldValue);
    }

    private static final long ABI_placeholder1$OFFSET = $LAYOUT.byteOffset(groupElement("ABI_placeholder1"));

    /** Offset of {@code ABI_placeholder1} in bytes. */
    public static long ABI_placeholder1$offset() {
        return ABI_placeholder1$OFFSET;
    }

    private static final AddressLayout ABI_placeholder1$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("ABI_placeholder1"));

    public static MemorySegment ABI_placeholder1(MemorySegment struct) {
        return struct.get(ABI_placeholder1$LAYOUT, ABI_placeholder1$OFFSET);
    }

    public static void ABI_placeholder1(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(ABI_placeholder1$LAYOUT, ABI_placeholder1$OFFSET, fieldValue);
    }

    private static final long open_qp$OFFSET = $LAYOUT.byteOffset(groupElement("open_qp"));

    /** Offset of {@code open_qp} in bytes. */
    public static long open_qp$offset() {
        return open_qp$OFFSET;
    }

    private static final AddressLayout open_qp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("open_qp"));

    public static MemorySegment open_qp(MemorySegment struct) {
        return struct.get(open_qp$LAYOUT, open_qp$OFFSET);
    }

    public static void open_qp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(open_qp$LAYOUT, open_qp$OFFSET, fieldValue);
    }

    private static final long create_qp_ex$OFFSET = $LAYOUT.byteOffset(groupElement("create_qp_ex"));

    /** Offset of {@code create_qp_ex} in bytes. */
    public static long create_qp_ex$offset() {
        return create_qp_ex$OFFSET;
    }

    private static final AddressLayout create_qp_ex$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_qp_ex"));

    public static MemorySegment create_qp_ex(MemorySegment struct) {
        return struct.get(create_qp_ex$LAYOUT, create_qp_ex$OFFSET);
    }

    public static void create_qp_ex(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_qp_ex$LAYOUT, create_qp_ex$OFFSET, fieldValue);
    }

    private static final long get_srq_num$OFFSET = $LAYOUT.byteOffset(groupElement("get_srq_num"));

    /** Offset of {@code get_srq_num} in bytes. */
    public static long get_srq_num$offset() {
        return get_srq_num$OFFSET;
    }

    private static final AddressLayout get_srq_num$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("get_srq_num"));

    public static MemorySegment get_srq_num(MemorySegment struct) {
        return struct.get(get_srq_num$LAYOUT, get_srq_num$OFFSET);
    }

    public static void get_srq_num(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(get_srq_num$LAYOUT, get_srq_num$OFFSET, fieldValue);
    }

    private static final long create_srq_ex$OFFSET = $LAYOUT.byteOffset(groupElement("create_srq_ex"));

    /** Offset of {@code create_srq_ex} in bytes. */
    public static long create_srq_ex$offset() {
        return create_srq_ex$OFFSET;
    }

    private static final AddressLayout create_srq_ex$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("create_srq_ex"));

    public static MemorySegment create_srq_ex(MemorySegment struct) {
        return struct.get(create_srq_ex$LAYOUT, create_srq_ex$OFFSET);
    }

    public static void create_srq_ex(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(create_srq_ex$LAYOUT, create_srq_ex$OFFSET, fieldValue);
    }

    private static final long open_xrcd$OFFSET = $LAYOUT.byteOffset(groupElement("open_xrcd"));

    /** Offset of {@code open_xrcd} in bytes. */
    public static long open_xrcd$offset() {
        return open_xrcd$OFFSET;
    }

    private static final AddressLayout open_xrcd$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("open_xrcd"));

    public static MemorySegment open_xrcd(MemorySegment struct) {
        return struct.get(open_xrcd$LAYOUT, open_xrcd$OFFSET);
    }

    public static void open_xrcd(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(open_xrcd$LAYOUT, open_xrcd$OFFSET, fieldValue);
    }

    private static final long close_xrcd$OFFSET = $LAYOUT.byteOffset(groupElement("close_xrcd"));

    /** Offset of {@code close_xrcd} in bytes. */
    public static long close_xrcd$offset() {
        return close_xrcd$OFFSET;
    }

    private static final AddressLayout close_xrcd$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("close_xrcd"));

    public static MemorySegment close_xrcd(MemorySegment struct) {
        return struct.get(close_xrcd$LAYOUT, close_xrcd$OFFSET);
    }

    public static void close_xrcd(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(close_xrcd$LAYOUT, close_xrcd$OFFSET, fieldValue);
    }

    private static final long _ABI_placeholder3$OFFSET = $LAYOUT.byteOffset(groupElement("_ABI_placeholder3"));

    /** Offset of {@code _ABI_placeholder3} in bytes. */
    public static long _ABI_placeholder3$offset() {
        return _ABI_placeholder3$OFFSET;
    }

    private static final OfLong _ABI_placeholder3$LAYOUT = (OfLong) $LAYOUT.select(groupElement("_ABI_placeholder3"));

    public static long _ABI_placeholder3(MemorySegment struct) {
        return struct.get(_ABI_placeholder3$LAYOUT, _ABI_placeholder3$OFFSET);
    }

    public static void _ABI_placeholder3(MemorySegment struct, long fieldValue) {
        struct.set(_ABI_placeholder3$LAYOUT, _ABI_placeholder3$OFFSET, fieldValue);
    }

    private static final long sz$OFFSET = $LAYOUT.byteOffset(groupElement("sz"));

    /** Offset of {@code sz} in bytes. */
    public static long sz$offset() {
        return sz$OFFSET;
    }

    private static final OfLong sz$LAYOUT = (OfLong) $LAYOUT.select(groupElement("sz"));

    public static long sz(MemorySegment struct) {
        return struct.get(sz$LAYOUT, sz$OFFSET);
    }

    public static void sz(MemorySegment struct, long fieldValue) {
        struct.set(sz$LAYOUT, sz$OFFSET, fieldValue);
    }

    private static final long context$OFFSET = $LAYOUT.byteOffset(groupElement("context"));

    /** Offset of {@code context} in bytes. */
    public static long context$offset() {
        return context$OFFSET;
    }

    private static final MemoryLayout context$LAYOUT = $LAYOUT.select(groupElement("context"));

    /** The {@code context} member as a slice of {@code struct}. */
    public static MemorySegment context(MemorySegment struct) {
        return struct.asSlice(context$OFFSET, context$LAYOUT.byteSize());
    }

    public static void context(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, context$OFFSET, context$LAYOUT.byteSize());
    }

    /**
     * {@snippet lang=c :
     * int (*query_port)(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr, size_t port_attr_len)
     * }
     */
    public static final class query_port {
        private query_port() {}

        private static final FunctionDescriptor $DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_CHAR, C_POINTER, C_LONG);

        private static final MethodHandle $HANDLE = Linker.nativeLinker().downcallHandle($DESC);

        public static FunctionDescriptor descriptor() {
            return $DESC;
        }

        /** Calls the function at {@code funcPtr}, a value of this member. */
        public static int invoke(MemorySegment funcPtr, MemorySegment context, byte port_num, MemorySegment port_attr, long port_attr_len) {
            try {
                return (int) $HANDLE.invokeExact(funcPtr, context, port_num, port_attr, port_attr_len);
            } catch (Throwable t) {
                throw NativeLibrary.unchecked(t);
            }
        }
    }
}
