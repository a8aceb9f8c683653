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
import java.lang.invoke.MethodHandle;

/**
 * {@snippet lang=c :
 * struct ibv_context_ops: the provider's operation table that verbs.h's static inline functions call through
 * }
 */
public final class ibv_context_ops {
    private ibv_context_ops() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_POINTER.withName("_compat_query_device"),
        C_POINTER.withName("_compat_query_port"),
        C_POINTER.withName("_compat_alloc_pd"),
        C_POINTER.withName("_compat_dealloc_pd"),
        C_POINTER.withName("_compat_reg_mr"),
        C_POINTER.withName("_compat_rereg_mr"),
        C_POINTER.withName("_compat_dereg_mr"),
        C_POINTER.withName("alloc_mw"),
        C_POINTER.withName("bind_mw"),
        C_POINTER.withName("dealloc_mw"),
        C_POINTER.withName("_compat_create_cq"),
        C_POINTER.withName("poll_cq"),
        C_POINTER.withName("req_notify_cq"),
        C_POINTER.withName("_compat_cq_event"),
        C_POINTER.withName("_compat_resize_cq"),
        C_POINTER.withName("_compat_destroy_cq"),
        C_POINTER.withName("_compat_create_srq"),
        C_POINTER.withName("_compat_modify_srq"),
        C_POINTER.withName("_compat_query_srq"),
        C_POINTER.withName("_compat_destroy_srq"),
        C_POINTER.withName("post_srq_recv"),
        C_POINTER.withName("_compat_create_qp"),
        C_POINTER.withName("_compat_query_qp"),
        C_POINTER.withName("_compat_modify_qp"),
        C_POINTER.withName("_compat_destroy_qp"),
        C_POINTER.withName("post_send"),
        C_POINTER.withName("post_recv"),
        C_POINTER.withName("_compat_create_ah"),
        C_POINTER.withName("_compat_destroy_ah"),
        C_POINTER.withName("_compat_attach_mcast"),
        C_POINTER.withName("_compat_detach_mcast"),
        C_POINTER.withName("_compat_async_event")).withName("ibv_context_ops");

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

    private static final long _compat_query_device$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_query_device"));

    /** Offset of {@code _compat_query_device} in bytes. */
    public static long _compat_query_device$offset() {
        return _compat_query_device$OFFSET;
    }

    private static final AddressLayout _compat_query_device$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_query_device"));

    public static MemorySegment _compat_query_device(MemorySegment struct) {
        return struct.get(_compat_query_device$LAYOUT, _compat_query_device$OFFSET);
    }

    public static void _compat_query_device(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_query_device$LAYOUT, _compat_query_device$OFFSET, fieldValue);
    }

    private static final long _compat_query_port$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_query_port"));

    /** Offset of {@code _compat_query_port} in bytes. */
    public static long _compat_query_port$offset() {
        return _compat_query_port$OFFSET;
    }

    private static final AddressLayout _compat_query_port$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_query_port"));

    public static MemorySegment _compat_query_port(MemorySegment struct) {
        return struct.get(_compat_query_port$LAYOUT, _compat_query_port$OFFSET);
    }

    public static void _compat_query_port(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_query_port$LAYOUT, _compat_query_port$OFFSET, fieldValue);
    }

    private static final long _compat_alloc_pd$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_alloc_pd"));

    /** Offset of {@code _compat_alloc_pd} in bytes. */
    public static long _compat_alloc_pd$offset() {
        return _compat_alloc_pd$OFFSET;
    }

    private static final AddressLayout _compat_alloc_pd$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_alloc_pd"));

    public static MemorySegment _compat_alloc_pd(MemorySegment struct) {
        return struct.get(_compat_alloc_pd$LAYOUT, _compat_alloc_pd$OFFSET);
    }

    public static void _compat_alloc_pd(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_alloc_pd$LAYOUT, _compat_alloc_pd$OFFSET, fieldValue);
    }

    private static final long _compat_dealloc_pd$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_dealloc_pd"));

    /** Offset of {@code _compat_dealloc_pd} in bytes. */
    public static long _compat_dealloc_pd$offset() {
        return _compat_dealloc_pd$OFFSET;
    }

    private static final AddressLayout _compat_dealloc_pd$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_dealloc_pd"));

    public static MemorySegment _compat_dealloc_pd(MemorySegment struct) {
        return struct.get(_compat_dealloc_pd$LAYOUT, _compat_dealloc_pd$OFFSET);
    }

    public static void _compat_dealloc_pd(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_dealloc_pd$LAYOUT, _compat_dealloc_pd$OFFSET, fieldValue);
    }

    private static final long _compat_reg_mr$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_reg_mr"));

    /** Offset of {@code _compat_reg_mr} in bytes. */
    public static long _compat_reg_mr$offset() {
        return _compat_reg_mr$OFFSET;
    }

    private static final AddressLayout _compat_reg_mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_reg_mr"));

    public static MemorySegment _compat_reg_mr(MemorySegment struct) {
        return struct.get(_compat_reg_mr$LAYOUT, _compat_reg_mr$OFFSET);
    }

    public static void _compat_reg_mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_reg_mr$LAYOUT, _compat_reg_mr$OFFSET, fieldValue);
    }

    private static final long _compat_rereg_mr$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_rereg_mr"));

    /** Offset of {@code _compat_rereg_mr} in bytes. */
    public static long _compat_rereg_mr$offset() {
        return _compat_rereg_mr$OFFSET;
    }

    private static final AddressLayout _compat_rereg_mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_rereg_mr"));

    public static MemorySegment _compat_rereg_mr(MemorySegment struct) {
        return struct.get(_compat_rereg_mr$LAYOUT, _compat_rereg_mr$OFFSET);
    }

    public static void _compat_rereg_mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_rereg_mr$LAYOUT, _compat_rereg_mr$OFFSET, fieldValue);
    }

    private static final long _compat_dereg_mr$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_dereg_mr"));

    /** Offset of {@code _compat_dereg_mr} in bytes. */
    public static long _compat_dereg_mr$offset() {
        return _compat_dereg_mr$OFFSET;
    }

    private static final AddressLayout _compat_dereg_mr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_dereg_mr"));

    public static MemorySegment _compat_dereg_mr(MemorySegment struct) {
        return struct.get(_compat_dereg_mr$LAYOUT, _compat_dereg_mr$OFFSET);
    }

    public static void _compat_dereg_mr(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_dereg_mr$LAYOUT, _compat_dereg_mr$OFFSET, fieldValue);
    }

    private static final long alloc_mw$OFFSET = $LAYOUT.byteOffset(groupElement("alloc_mw"));

    /** Offset of {@code alloc_mw} in bytes. */
    public static long alloc_mw$offset() {
        return alloc_mw$OFFSET;
    }

    private static final AddressLayout alloc_mw$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("alloc_mw"));

    public static MemorySegment alloc_mw(MemorySegment struct) {
        return struct.get(alloc_mw$LAYOUT, alloc_mw$OFFSET);
    }

    public static void alloc_mw(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(alloc_mw$LAYOUT, alloc_mw$OFFSET, fieldValue);
    }

    private static final long bind_mw$OFFSET = $LAYOUT.byteOffset(groupElement("bind_mw"));

    /** Offset of {@code bind_mw} in bytes. */
    public static long bind_mw$offset() {
        return bind_mw$OFFSET;
    }

    private static final AddressLayout bind_mw$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("bind_mw"));

    public static MemorySegment bind_mw(MemorySegment struct) {
        return struct.get(bind_mw$LAYOUT, bind_mw$OFFSET);
    }

    public static void bind_mw(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(bind_mw$LAYOUT, bind_mw$OFFSET, fieldValue);
    }

    private static final long dealloc_mw$OFFSET = $LAYOUT.byteOffset(groupElement("dealloc_mw"));

    /** Offset of {@code dealloc_mw} in bytes. */
    public static long dealloc_mw$offset() {
        return dealloc_mw$OFFSET;
    }

    private static final AddressLayout dealloc_mw$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("dealloc_mw"));

    public static MemorySegment dealloc_mw(MemorySegment struct) {
        return struct.get(dealloc_mw$LAYOUT, dealloc_mw$OFFSET);
    }

    public static void dealloc_mw(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(dealloc_mw$LAYOUT, dealloc_mw$OFFSET, fieldValue);
    }

    private static final long _compat_create_cq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_create_cq"));

    /** Offset of {@code _compat_create_cq} in bytes. */
    public static long _compat_create_cq$offset() {
        return _compat_create_cq$OFFSET;
    }

    private static final AddressLayout _compat_create_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_create_cq"));

    public static MemorySegment _compat_create_cq(MemorySegment struct) {
        return struct.get(_compat_create_cq$LAYOUT, _compat_create_cq$OFFSET);
    }

    public static void _compat_create_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_create_cq$LAYOUT, _compat_create_cq$OFFSET, fieldValue);
    }

    private static final long poll_cq$OFFSET = $LAYOUT.byteOffset(groupElement("poll_cq"));

    /** Offset of {@code poll_cq} in bytes. */
    public static long poll_cq$offset() {
        return poll_cq$OFFSET;
    }

    private static final AddressLayout poll_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("poll_cq"));

    public static MemorySegment poll_cq(MemorySegment struct) {
        return struct.get(poll_cq$LAYOUT, poll_cq$OFFSET);
    }

    public static void poll_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(poll_cq$LAYOUT, poll_cq$OFFSET, fieldValue);
    }

    private static final long req_notify_cq$OFFSET = $LAYOUT.byteOffset(groupElement("req_notify_cq"));

    /** Offset of {@code req_notify_cq} in bytes. */
    public static long req_notify_cq$offset() {
        return req_notify_cq$OFFSET;
    }

    private static final AddressLayout req_notify_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("req_notify_cq"));

    public static MemorySegment req_notify_cq(MemorySegment struct) {
        return struct.get(req_notify_cq$LAYOUT, req_notify_cq$OFFSET);
    }

    public static void req_notify_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(req_notify_cq$LAYOUT, req_notify_cq$OFFSET, fieldValue);
    }

    private static final long _compat_cq_event$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_cq_event"));

    /** Offset of {@code _compat_cq_event} in bytes. */
    public static long _compat_cq_event$offset() {
        return _compat_cq_event$OFFSET;
    }

    private static final AddressLayout _compat_cq_event$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_cq_event"));

    public static MemorySegment _compat_cq_event(MemorySegment struct) {
        return struct.get(_compat_cq_event$LAYOUT, _compat_cq_event$OFFSET);
    }

    public static void _compat_cq_event(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_cq_event$LAYOUT, _compat_cq_event$OFFSET, fieldValue);
    }

    private static final long _compat_resize_cq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_resize_cq"));

    /** Offset of {@code _compat_resize_cq} in bytes. */
    public static long _compat_resize_cq$offset() {
        return _compat_resize_cq$OFFSET;
    }

    private static final AddressLayout _compat_resize_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_resize_cq"));

    public static MemorySegment _compat_resize_cq(MemorySegment struct) {
        return struct.get(_compat_resize_cq$LAYOUT, _compat_resize_cq$OFFSET);
    }

    public static void _compat_resize_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_resize_cq$LAYOUT, _compat_resize_cq$OFFSET, fieldValue);
    }

    private static final long _compat_destroy_cq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_destroy_cq"));

    /** Offset of {@code _compat_destroy_cq} in bytes. */
    public static long _compat_destroy_cq$offset() {
        return _compat_destroy_cq$OFFSET;
    }

    private static final AddressLayout _compat_destroy_cq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_destroy_cq"));

    public static MemorySegment _compat_destroy_cq(MemorySegment struct) {
        return struct.get(_compat_destroy_cq$LAYOUT, _compat_destroy_cq$OFFSET);
    }

    public static void _compat_destroy_cq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_destroy_cq$LAYOUT, _compat_destroy_cq$OFFSET, fieldValue);
    }

    private static final long _compat_create_srq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_create_srq"));

    /** Offset of {@code _compat_create_srq} in bytes. */
    public static long _compat_create_srq$offset() {
        return _compat_create_srq$OFFSET;
    }

    private static final AddressLayout _compat_create_srq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_create_srq"));

    public static MemorySegment _compat_create_srq(MemorySegment struct) {
        return struct.get(_compat_create_srq$LAYOUT, _compat_create_srq$OFFSET);
    }

    public static void _compat_create_srq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_create_srq$LAYOUT, _compat_create_srq$OFFSET, fieldValue);
    }

    private static final long _compat_modify_srq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_modify_srq"));

    /** Offset of {@code _compat_modify_srq} in bytes. */
    public static long _compat_modify_srq$offset() {
        return _compat_modify_srq$OFFSET;
    }

    private static final AddressLayout _compat_modify_srq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_modify_srq"));

    public static MemorySegment _compat_modify_srq(MemorySegment struct) {
        return struct.get(_compat_modify_srq$LAYOUT, _compat_modify_srq$OFFSET);
    }

    public static void _compat_modify_srq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_modify_srq$LAYOUT, _compat_modify_srq$OFFSET, fieldValue);
    }

    private static final long _compat_query_srq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_query_srq"));

    /** Offset of {@code _compat_query_srq} in bytes. */
    public static long _compat_query_srq$offset() {
        return _compat_query_srq$OFFSET;
    }

    private static final AddressLayout _compat_query_srq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_query_srq"));

    public static MemorySegment _compat_query_srq(MemorySegment struct) {
        return struct.get(_compat_query_srq$LAYOUT, _compat_query_srq$OFFSET);
    }

    public static void _compat_query_srq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_query_srq$LAYOUT, _compat_query_srq$OFFSET, fieldValue);
    }

    private static final long _compat_destroy_srq$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_destroy_srq"));

    /** Offset of {@code _compat_destroy_srq} in bytes. */
    public static long _compat_destroy_srq$offset() {
        return _compat_destroy_srq$OFFSET;
    }

    private static final AddressLayout _compat_destroy_srq$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_destroy_srq"));

    public static MemorySegment _compat_destroy_srq(MemorySegment struct) {
        return struct.get(_compat_destroy_srq$LAYOUT, _compat_destroy_srq$OFFSET);
    }

    public static void _compat_destroy_srq(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_destroy_srq$LAYOUT, _compat_destroy_srq$OFFSET, fieldValue);
    }

    private static final long post_srq_recv$OFFSET = $LAYOUT.byteOffset(groupElement("post_srq_recv"));

    /** Offset of {@code post_srq_recv} in bytes. */
    public static long post_srq_recv$offset() {
        return post_srq_recv$OFFSET;
    }

    private static final AddressLayout post_srq_recv$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("post_srq_recv"));

    public static MemorySegment post_srq_recv(MemorySegment struct) {
        return struct.get(post_srq_recv$LAYOUT, post_srq_recv$OFFSET);
    }

    public static void post_srq_recv(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(post_srq_recv$LAYOUT, post_srq_recv$OFFSET, fieldValue);
    }

    private static final long _compat_create_qp$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_create_qp"));

    /** Offset of {@code _compat_create_qp} in bytes. */
    public static long _compat_create_qp$offset() {
        return _compat_create_qp$OFFSET;
    }

    private static final AddressLayout _compat_create_qp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_create_qp"));

    public static MemorySegment _compat_create_qp(MemorySegment struct) {
        return struct.get(_compat_create_qp$LAYOUT, _compat_create_qp$OFFSET);
    }

    public static void _compat_create_qp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_create_qp$LAYOUT, _compat_create_qp$OFFSET, fieldValue);
    }

    private static final long _compat_query_qp$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_query_qp"));

    /** Offset of {@code _compat_query_qp} in bytes. */
    public static long _compat_query_qp$offset() {
        return _compat_query_qp$OFFSET;
    }

    private static final AddressLayout _compat_query_qp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_query_qp"));

    public static MemorySegment _compat_query_qp(MemorySegment struct) {
        return struct.get(_compat_query_qp$LAYOUT, _compat_query_qp$OFFSET);
    }

    public static void _compat_query_qp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_query_qp$LAYOUT, _compat_query_qp$OFFSET, fieldValue);
    }

    private static final long _compat_modify_qp$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_modify_qp"));

    /** Offset of {@code _compat_modify_qp} in bytes. */
    public static long _compat_modify_qp$offset() {
        return _compat_modify_qp$OFFSET;
    }

    private static final AddressLayout _compat_modify_qp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_modify_qp"));

    public static MemorySegment _compat_modify_qp(MemorySegment struct) {
        return struct.get(_compat_modify_qp$LAYOUT, _compat_modify_qp$OFFSET);
    }

    public static void _compat_modify_qp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_modify_qp$LAYOUT, _compat_modify_qp$OFFSET, fieldValue);
    }

    private static final long _compat_destroy_qp$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_destroy_qp"));

    /** Offset of {@code _compat_destroy_qp} in bytes. */
    public static long _compat_destroy_qp$offset() {
        return _compat_destroy_qp$OFFSET;
    }

    private static final AddressLayout _compat_destroy_qp$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_destroy_qp"));

    public static MemorySegment _compat_destroy_qp(MemorySegment struct) {
        return struct.get(_compat_destroy_qp$LAYOUT, _compat_destroy_qp$OFFSET);
    }

    public static void _compat_destroy_qp(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_destroy_qp$LAYOUT, _compat_destroy_qp$OFFSET, fieldValue);
    }

    private static final long post_send$OFFSET = $LAYOUT.byteOffset(groupElement("post_send"));

    /** Offset of {@code post_send} in bytes. */
    public static long post_send$offset() {
        return post_send$OFFSET;
    }

    private static final AddressLayout post_send$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("post_send"));

    public static MemorySegment post_send(MemorySegment struct) {
        return struct.get(post_send$LAYOUT, post_send$OFFSET);
    }

    public static void post_send(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(post_send$LAYOUT, post_send$OFFSET, fieldValue);
    }

    private static final long post_recv$OFFSET = $LAYOUT.byteOffset(groupElement("post_recv"));

    /** Offset of {@code post_recv} in bytes. */
    public static long post_recv$offset() {
        return post_recv$OFFSET;
    }

    private static final AddressLayout post_recv$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("post_recv"));

    public static MemorySegment post_recv(MemorySegment struct) {
        return struct.get(post_recv$LAYOUT, post_recv$OFFSET);
    }

    public static void post_recv(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(post_recv$LAYOUT, post_recv$OFFSET, fieldValue);
    }

    private static final long _compat_create_ah$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_create_ah"));

    /** Offset of {@code _compat_create_ah} in bytes. */
    public static long _compat_create_ah$offset() {
        return _compat_create_ah$OFFSET;
    }

    private static final AddressLayout _compat_create_ah$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_create_ah"));

    public static MemorySegment _compat_create_ah(MemorySegment struct) {
        return struct.get(_compat_create_ah$LAYOUT, _compat_create_ah$OFFSET);
    }

    public static void _compat_create_ah(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_create_ah$LAYOUT, _compat_create_ah$OFFSET, fieldValue);
    }

    private static final long _compat_destroy_ah$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_destroy_ah"));

    /** Offset of {@code _compat_destroy_ah} in bytes. */
    public static long _compat_destroy_ah$offset() {
        return _compat_destroy_ah$OFFSET;
    }

    private static final AddressLayout _compat_destroy_ah$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_destroy_ah"));

    public static MemorySegment _compat_destroy_ah(MemorySegment struct) {
        return struct.get(_compat_destroy_ah$LAYOUT, _compat_destroy_ah$OFFSET);
    }

    public static void _compat_destroy_ah(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_destroy_ah$LAYOUT, _compat_destroy_ah$OFFSET, fieldValue);
    }

    private static final long _compat_attach_mcast$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_attach_mcast"));

    /** Offset of {@code _compat_attach_mcast} in bytes. */
    public static long _compat_attach_mcast$offset() {
        return _compat_attach_mcast$OFFSET;
    }

    private static final AddressLayout _compat_attach_mcast$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_attach_mcast"));

    public static MemorySegment _compat_attach_mcast(MemorySegment struct) {
        return struct.get(_compat_attach_mcast$LAYOUT, _compat_attach_mcast$OFFSET);
    }

    public static void _compat_attach_mcast(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_attach_mcast$LAYOUT, _compat_attach_mcast$OFFSET, fieldValue);
    }

    private static final long _compat_detach_mcast$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_detach_mcast"));

    /** Offset of {@code _compat_detach_mcast} in bytes. */
    public static long _compat_detach_mcast$offset() {
        return _compat_detach_mcast$OFFSET;
    }

    private static final AddressLayout _compat_detach_mcast$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_detach_mcast"));

    public static MemorySegment _compat_detach_mcast(MemorySegment struct) {
        return struct.get(_compat_detach_mcast$LAYOUT, _compat_detach_mcast$OFFSET);
    }

    public static void _compat_detach_mcast(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_detach_mcast$LAYOUT, _compat_detach_mcast$OFFSET, fieldValue);
    }

    private static final long _compat_async_event$OFFSET = $LAYOUT.byteOffset(groupElement("_compat_async_event"));

    /** Offset of {@code _compat_async_event} in bytes. */
    public static long _compat_async_event$offset() {
        return _compat_async_event$OFFSET;
    }

    private static final AddressLayout _compat_async_event$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("_compat_async_event"));

    public static MemorySegment _compat_async_event(MemorySegment struct) {
        return struct.get(_compat_async_event$LAYOUT, _compat_async_event$OFFSET);
    }

    public static void _compat_async_event(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(_compat_async_event$LAYOUT, _compat_async_event$OFFSET, fieldValue);
    }

    /**
     * {@snippet lang=c :
     * int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
     * }
     */
    public static final class poll_cq {
        private poll_cq() {}

        private static final FunctionDescriptor $DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);

        private static final MethodHandle $HANDLE = Linker.nativeLinker().downcallHandle($DESC);

        public static FunctionDescriptor descriptor() {
            return $DESC;
        }

        /** Calls the function at {@code funcPtr}, a value of this member. */
        public static int invoke(MemorySegment funcPtr, MemorySegment cq, int num_entries, MemorySegment wc) {
            try {
                return (int) $HANDLE.invokeExact(funcPtr, cq, num_entries, wc);
            } catch (Throwable t) {
                throw NativeLibrary.unchecked(t);
            }
        }
    }

    /**
     * {@snippet lang=c :
     * int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only)
     * }
     */
    public static final class req_notify_cq {
        private req_notify_cq() {}

        private static final FunctionDescriptor $DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

        private static final MethodHandle $HANDLE = Linker.nativeLinker().downcallHandle($DESC);

        public static FunctionDescriptor descriptor() {
            return $DESC;
        }

        /** Calls the function at {@code funcPtr}, a value of this member. */
        public static int invoke(MemorySegment funcPtr, MemorySegment cq, int solicited_only) {
            try {
                return (int) $HANDLE.invokeExact(funcPtr, cq, solicited_only);
            } catch (Throwable t) {
                throw NativeLibrary.unchecked(t);
            }
        }
    }

    /**
     * {@snippet lang=c :
     * int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
     * }
     */
    public static final class post_send {
        private post_send() {}

        private static final FunctionDescriptor $DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);

        private static final MethodHandle $HANDLE = Linker.nativeLinker().downcallHandle($DESC);

        public static FunctionDescriptor descriptor() {
            return $DESC;
        }

        /** Calls the function at {@code funcPtr}, a value of this member. */
        public static int invoke(MemorySegment funcPtr, MemorySegment qp, MemorySegment wr, MemorySegment bad_wr) {
            try {
                return (int) $HANDLE.invokeExact(funcPtr, qp, wr, bad_wr);
            } catch (Throwable t) {
                throw NativeLibrary.unchecked(t);
            }
        }
    }

    /**
     * {@snippet lang=c :
     * int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
     * }
     */
    public static final class post_recv {
        private post_recv() {}

        private static final FunctionDescriptor $DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);

        private static final MethodHandle $HANDLE = Linker.nativeLinker().downcallHandle($DESC);

        public static FunctionDescriptor descriptor() {
            return $DESC;
        }

        /** Calls the function at {@code funcPtr}, a value of this member. */
        public static int invoke(MemorySegment funcPtr, MemorySegment qp, MemorySegment wr, MemorySegment bad_wr) {
            try {
                return (int) $HANDLE.invokeExact(funcPtr, qp, wr, bad_wr);
            } catch (Throwable t) {
                throw NativeLibrary.unchecked(t);
            }
        }
    }
}
