// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The static inline functions dispatch through the right slot of the right table with the caller's
 * arguments. There is no RDMA device here, so the context, its operation table and the extended
 * context around it are built in memory with Java functions (upcalls) in the slots, each recording
 * its name and arguments; the layouts they are built with are proved against verbs.h by the header
 * probe.
 */
class IbVerbsInlineTest {
    private static final List<String> calls = new ArrayList<>();

    private Arena arena;
    private MemorySegment vctx;
    private MemorySegment context;

    static int pollCq(MemorySegment cq, int n, MemorySegment wc) {
        calls.add("poll_cq " + cq.address() + " " + n + " " + wc.address());
        return n - 1;
    }

    static int reqNotifyCq(MemorySegment cq, int solicitedOnly) {
        calls.add("req_notify_cq " + cq.address() + " " + solicitedOnly);
        return 0;
    }

    static int postSend(MemorySegment qp, MemorySegment wr, MemorySegment bad) {
        calls.add("post_send " + qp.address() + " " + wr.address() + " " + bad.address());
        return 12;
    }

    static int postRecv(MemorySegment qp, MemorySegment wr, MemorySegment bad) {
        calls.add("post_recv " + qp.address() + " " + wr.address() + " " + bad.address());
        return 0;
    }

    static int queryPort(MemorySegment ctx, byte port, MemorySegment attr, long size) {
        calls.add("query_port " + ctx.address() + " " + port + " " + size);
        ibv_port_attr.state(ibv_port_attr.reinterpret(attr), IbVerbs.IBV_PORT_ACTIVE);
        return 0;
    }

    private MemorySegment upcall(String method, FunctionDescriptor descriptor) throws ReflectiveOperationException {
        MethodHandle target = MethodHandles.lookup().findStatic(IbVerbsInlineTest.class, method,
                descriptor.toMethodType());
        return Linker.nativeLinker().upcallStub(target, descriptor, arena);
    }

    @BeforeEach
    void fakeDevice() throws ReflectiveOperationException {
        calls.clear();
        arena = Arena.ofConfined();
        vctx = verbs_context.allocate(arena);
        verbs_context.sz(vctx, verbs_context.layout().byteSize());
        verbs_context.query_port(vctx, upcall("queryPort", verbs_context.query_port.descriptor()));
        context = verbs_context.context(vctx);
        ibv_context.abi_compat(context, MemorySegment.ofAddress(-1L));   // __VERBS_ABI_IS_EXTENDED
        MemorySegment ops = ibv_context.ops(context);
        ibv_context_ops.poll_cq(ops, upcall("pollCq", ibv_context_ops.poll_cq.descriptor()));
        ibv_context_ops.req_notify_cq(ops, upcall("reqNotifyCq", ibv_context_ops.req_notify_cq.descriptor()));
        ibv_context_ops.post_send(ops, upcall("postSend", ibv_context_ops.post_send.descriptor()));
        ibv_context_ops.post_recv(ops, upcall("postRecv", ibv_context_ops.post_recv.descriptor()));
    }

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void completionQueueCallsGoThroughTheContextsOps() {
        MemorySegment cq = ibv_cq.allocate(arena);
        ibv_cq.context(cq, context);
        MemorySegment wc = ibv_wc.allocateArray(8, arena);
        MemorySegment bare = MemorySegment.ofAddress(cq.address());   // as a C pointer arrives: no size

        assertThat(IbVerbsInline.ibv_poll_cq(bare, 8, wc)).isEqualTo(7);
        assertThat(IbVerbsInline.ibv_req_notify_cq(bare, 1)).isZero();
        assertThat(calls).containsExactly(
                "poll_cq " + cq.address() + " 8 " + wc.address(),
                "req_notify_cq " + cq.address() + " 1");
    }

    @Test
    void postsGoThroughTheQueuePairsContext() {
        MemorySegment qp = ibv_qp.allocate(arena);
        ibv_qp.context(qp, context);
        MemorySegment send = ibv_send_wr.allocate(arena);
        MemorySegment recv = ibv_recv_wr.allocate(arena);
        MemorySegment bad = arena.allocate(8);

        assertThat(IbVerbsInline.ibv_post_send(qp, send, bad)).isEqualTo(12);
        assertThat(IbVerbsInline.ibv_post_recv(qp, recv, bad)).isZero();
        assertThat(calls).containsExactly(
                "post_send " + qp.address() + " " + send.address() + " " + bad.address(),
                "post_recv " + qp.address() + " " + recv.address() + " " + bad.address());
    }

    @Test
    void queryPortUsesTheExtendedContextAndPassesTheAttributeSize() {
        MemorySegment attr = ibv_port_attr.allocate(arena);
        assertThat(IbVerbsInline.ibv_query_port(MemorySegment.ofAddress(context.address()), (byte) 1, attr)).isZero();
        assertThat(calls).containsExactly("query_port " + context.address() + " 1 " + ibv_port_attr.layout().byteSize());
        assertThat(ibv_port_attr.state(attr)).isEqualTo(IbVerbs.IBV_PORT_ACTIVE);
    }

    @Test
    void theExtendedContextIsFoundBeforeTheContext() {
        // verbs_get_ctx: container_of(ctx, struct verbs_context, context), and the context is its last member
        assertThat(verbs_context.context$offset() + ibv_context.layout().byteSize())
                .isEqualTo(verbs_context.layout().byteSize());
        assertThat(context.address() - vctx.address()).isEqualTo(verbs_context.context$offset());
    }
}
