// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import java.lang.foreign.MemorySegment;

/**
 * The functions {@code verbs.h} defines {@code static inline}, so that libibverbs exports no symbol
 * for them: each loads the provider's function pointer from the operation table its object's
 * context carries and calls it, exactly as the header's body does. The tables' layouts
 * ({@link ibv_context_ops}, {@link verbs_context}) are proved against the header like every other
 * struct.
 *
 * {@snippet :
 * MemorySegment wc = ibv_wc.allocateArray(16, arena);
 * int n = IbVerbsInline.ibv_poll_cq(cq, 16, wc);      // < 0: error; else completions in wc
 * }
 */
public final class IbVerbsInline {
    private IbVerbsInline() {}

    /** {@code __VERBS_ABI_IS_EXTENDED}: {@code (void *) UINTPTR_MAX} in {@code ibv_context.abi_compat}. */
    private static final long VERBS_ABI_IS_EXTENDED = -1L;

    /**
     * {@snippet lang=c :
     * static inline int ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
     * // return qp->context->ops.post_send(qp, wr, bad_wr);
     * }
     */
    public static int ibv_post_send(MemorySegment qp, MemorySegment wr, MemorySegment bad_wr) {
        MemorySegment ops = ops(ibv_qp.context(ibv_qp.reinterpret(qp)));
        return ibv_context_ops.post_send.invoke(ibv_context_ops.post_send(ops), qp, wr, bad_wr);
    }

    /**
     * {@snippet lang=c :
     * static inline int ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
     * // return qp->context->ops.post_recv(qp, wr, bad_wr);
     * }
     */
    public static int ibv_post_recv(MemorySegment qp, MemorySegment wr, MemorySegment bad_wr) {
        MemorySegment ops = ops(ibv_qp.context(ibv_qp.reinterpret(qp)));
        return ibv_context_ops.post_recv.invoke(ibv_context_ops.post_recv(ops), qp, wr, bad_wr);
    }

    /**
     * {@snippet lang=c :
     * static inline int ibv_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
     * // return cq->context->ops.poll_cq(cq, num_entries, wc);
     * }
     */
    public static int ibv_poll_cq(MemorySegment cq, int num_entries, MemorySegment wc) {
        MemorySegment ops = ops(ibv_cq.context(ibv_cq.reinterpret(cq)));
        return ibv_context_ops.poll_cq.invoke(ibv_context_ops.poll_cq(ops), cq, num_entries, wc);
    }

    /**
     * {@snippet lang=c :
     * static inline int ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
     * // return cq->context->ops.req_notify_cq(cq, solicited_only);
     * }
     */
    public static int ibv_req_notify_cq(MemorySegment cq, int solicited_only) {
        MemorySegment ops = ops(ibv_cq.context(ibv_cq.reinterpret(cq)));
        return ibv_context_ops.req_notify_cq.invoke(ibv_context_ops.req_notify_cq(ops), cq, solicited_only);
    }

    /**
     * {@code ibv_query_port} as the header's macro defines it ({@code ___ibv_query_port}): through
     * the extended context's {@code query_port}, passing the size of this {@code ibv_port_attr};
     * where the context is not extended, zero the attributes and call the exported compat symbol.
     */
    public static int ibv_query_port(MemorySegment context, byte port_num, MemorySegment port_attr) {
        long size = ibv_port_attr.layout().byteSize();
        MemorySegment vctx = extendedContext(context, verbs_context.query_port$offset());
        if (vctx != null) {
            MemorySegment op = verbs_context.query_port(vctx);
            if (!op.equals(MemorySegment.NULL)) {
                return verbs_context.query_port.invoke(op, context, port_num, port_attr, size);
            }
        }
        ibv_port_attr.reinterpret(port_attr).fill((byte) 0);
        return IbVerbs.ibv_query_port(context, port_num, port_attr);
    }

    /**
     * {@code ibv_reg_mr} as the header's macro defines it ({@code __ibv_reg_mr}) for an access
     * value known at the call: the plain symbol unless an optional-range flag (relaxed ordering) is
     * asked for, then {@code ibv_reg_mr_iova2} with the address as I/O virtual address.
     */
    public static MemorySegment ibv_reg_mr(MemorySegment callState, MemorySegment pd, MemorySegment addr,
            long length, int access) {
        if ((access & IbVerbs.IBV_ACCESS_OPTIONAL_RANGE) == 0) {
            return IbVerbs.ibv_reg_mr(callState, pd, addr, length, access);
        }
        return IbVerbs.ibv_reg_mr_iova2(callState, pd, addr, length, addr.address(), access);
    }

    private static MemorySegment ops(MemorySegment context) {
        return ibv_context.ops(ibv_context.reinterpret(context));
    }

    /**
     * {@code verbs_get_ctx} and the size check of {@code verbs_get_ctx_op}: the {@code verbs_context}
     * that ends with {@code context}, if the context is an extended one large enough to hold the
     * operation at {@code opOffset}; else null.
     */
    private static MemorySegment extendedContext(MemorySegment context, long opOffset) {
        if (ibv_context.abi_compat(ibv_context.reinterpret(context)).address() != VERBS_ABI_IS_EXTENDED) {
            return null;
        }
        MemorySegment vctx = verbs_context.reinterpret(
                MemorySegment.ofAddress(context.address() - verbs_context.context$offset()));
        long needed = verbs_context.layout().byteSize() - opOffset;
        return Long.compareUnsigned(verbs_context.sz(vctx), needed) < 0 ? null : vctx;
    }
}
