// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.JcclException;
import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_ah_attr;
import io.jccl.bindings.ibverbs.ibv_global_route;
import io.jccl.bindings.ibverbs.ibv_qp;
import io.jccl.bindings.ibverbs.ibv_qp_attr;
import io.jccl.bindings.ibverbs.ibv_qp_cap;
import io.jccl.bindings.ibverbs.ibv_qp_init_attr;
import io.jccl.net.ib.Verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The IB net's reliable-connected queue pairs: made on a comm's completion queue, then moved
 * RESET → INIT → RTR (toward the peer's queue pair, by LID on InfiniBand, by GID with the
 * traffic class on RoCE) → RTS, with the timeout and retries of the settings.
 */
final class IbQps {
    private IbQps() {
    }

    /** Inline bytes asked of a queue pair: a CTS slot's write, and tiny messages. */
    static final int INLINE = 64;
    /** Receiver-not-ready retries: 7 means forever, and the CTS FIFO means it never happens anyway. */
    private static final int RNR_RETRY = 7;
    /** The receiver-not-ready NAK timer, 12: 0.64 ms. */
    private static final int MIN_RNR_TIMER = 12;

    /** A queue pair and the inline bytes its device granted. */
    record Qp(MemorySegment qp, int number, int inline) {
    }

    /** A queue pair on {@code cq} for {@code sends} sends and {@code recvs} receives in flight, in INIT on {@code dev}'s port. */
    @SuppressWarnings("restricted") // the ibv_qp that verbs returned, read at its size
    static Qp create(IbDevice dev, MemorySegment cq, int sends, int recvs) {
        MemorySegment qp;
        int inline;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment init = ibv_qp_init_attr.allocate(a);
            ibv_qp_init_attr.send_cq(init, cq);
            ibv_qp_init_attr.recv_cq(init, cq);
            ibv_qp_init_attr.qp_type(init, IbVerbs.IBV_QPT_RC);
            ibv_qp_init_attr.sq_sig_all(init, 0);
            MemorySegment cap = ibv_qp_init_attr.cap(init);
            ibv_qp_cap.max_send_wr(cap, sends);
            ibv_qp_cap.max_recv_wr(cap, recvs);
            ibv_qp_cap.max_send_sge(cap, 1);
            ibv_qp_cap.max_recv_sge(cap, 1);
            ibv_qp_cap.max_inline_data(cap, INLINE);
            MemorySegment made;
            try {
                made = Verbs.createQp(dev.pd, init);
            } catch (JcclException e) {
                // A device without inline sends refuses the request: ask for none.
                ibv_qp_cap.max_inline_data(cap, 0);
                made = Verbs.createQp(dev.pd, init);
            }
            qp = made;
            inline = ibv_qp_cap.max_inline_data(cap);
        }
        try {
            toInit(dev, qp);
        } catch (RuntimeException e) {
            Verbs.destroyQp(qp);
            throw e;
        }
        return new Qp(qp, ibv_qp.qp_num(qp.reinterpret(ibv_qp.layout().byteSize())), inline);
    }

    private static void toInit(IbDevice dev, MemorySegment qp) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(a);
            ibv_qp_attr.qp_state(attr, IbVerbs.IBV_QPS_INIT);
            ibv_qp_attr.pkey_index(attr, (short) 0);
            ibv_qp_attr.port_num(attr, (byte) dev.port);
            ibv_qp_attr.qp_access_flags(attr, IbDevice.ACCESS);
            Verbs.modifyQp(qp, attr, IbVerbs.IBV_QP_STATE | IbVerbs.IBV_QP_PKEY_INDEX | IbVerbs.IBV_QP_PORT | IbVerbs.IBV_QP_ACCESS_FLAGS);
        }
    }

    /** INIT → RTR toward the peer's queue pair {@code remoteQpn} ({@code remote} says how to reach its port). */
    static void toRtr(IbDevice dev, IbOptions o, MemorySegment qp, IbConnInfo remote, int remoteQpn) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(a);
            ibv_qp_attr.qp_state(attr, IbVerbs.IBV_QPS_RTR);
            ibv_qp_attr.path_mtu(attr, Math.min(dev.mtu, remote.mtu()));
            ibv_qp_attr.dest_qp_num(attr, remoteQpn);
            ibv_qp_attr.rq_psn(attr, remote.psn());
            ibv_qp_attr.max_dest_rd_atomic(attr, (byte) 1);
            ibv_qp_attr.min_rnr_timer(attr, (byte) MIN_RNR_TIMER);
            MemorySegment ah = ibv_qp_attr.ah_attr(attr);
            if (dev.ethernet) {
                ibv_ah_attr.is_global(ah, (byte) 1);
                MemorySegment grh = ibv_ah_attr.grh(ah);
                MemorySegment.copy(MemorySegment.ofArray(remote.gid()), 0, ibv_global_route.dgid(grh), 0, 16);
                ibv_global_route.flow_label(grh, 0);
                ibv_global_route.sgid_index(grh, (byte) dev.gidIndex);
                ibv_global_route.hop_limit(grh, (byte) 255);
                ibv_global_route.traffic_class(grh, (byte) o.trafficClass());
            } else {
                ibv_ah_attr.is_global(ah, (byte) 0);
                ibv_ah_attr.dlid(ah, (short) remote.lid());
            }
            ibv_ah_attr.sl(ah, (byte) o.serviceLevel());
            ibv_ah_attr.src_path_bits(ah, (byte) 0);
            ibv_ah_attr.port_num(ah, (byte) dev.port);
            Verbs.modifyQp(qp, attr, IbVerbs.IBV_QP_STATE | IbVerbs.IBV_QP_AV | IbVerbs.IBV_QP_PATH_MTU | IbVerbs.IBV_QP_DEST_QPN
                    | IbVerbs.IBV_QP_RQ_PSN | IbVerbs.IBV_QP_MAX_DEST_RD_ATOMIC | IbVerbs.IBV_QP_MIN_RNR_TIMER);
        }
    }

    /** RTR → RTS, its first packet numbered {@code psn}. */
    static void toRts(IbOptions o, MemorySegment qp, int psn) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(a);
            ibv_qp_attr.qp_state(attr, IbVerbs.IBV_QPS_RTS);
            ibv_qp_attr.timeout(attr, (byte) o.timeout());
            ibv_qp_attr.retry_cnt(attr, (byte) o.retryCount());
            ibv_qp_attr.rnr_retry(attr, (byte) RNR_RETRY);
            ibv_qp_attr.sq_psn(attr, psn);
            ibv_qp_attr.max_rd_atomic(attr, (byte) 1);
            Verbs.modifyQp(qp, attr, IbVerbs.IBV_QP_STATE | IbVerbs.IBV_QP_TIMEOUT | IbVerbs.IBV_QP_RETRY_CNT
                    | IbVerbs.IBV_QP_RNR_RETRY | IbVerbs.IBV_QP_SQ_PSN | IbVerbs.IBV_QP_MAX_QP_RD_ATOMIC);
        }
    }

    /** A work completion's status as verbs names it (ibv_wc_status_str's words), for errors. */
    static String status(int status) {
        return switch (status) {
            case IbVerbs.IBV_WC_LOC_LEN_ERR -> "local length error";
            case IbVerbs.IBV_WC_LOC_QP_OP_ERR -> "local QP operation error";
            case IbVerbs.IBV_WC_LOC_PROT_ERR -> "local protection error";
            case IbVerbs.IBV_WC_WR_FLUSH_ERR -> "work request flushed error";
            case IbVerbs.IBV_WC_LOC_ACCESS_ERR -> "local access error";
            case IbVerbs.IBV_WC_REM_INV_REQ_ERR -> "remote invalid request error";
            case IbVerbs.IBV_WC_REM_ACCESS_ERR -> "remote access error";
            case IbVerbs.IBV_WC_REM_OP_ERR -> "remote operation error";
            case IbVerbs.IBV_WC_RETRY_EXC_ERR -> "transport retry counter exceeded";
            case IbVerbs.IBV_WC_RNR_RETRY_EXC_ERR -> "RNR retry counter exceeded";
            case IbVerbs.IBV_WC_FATAL_ERR -> "fatal error";
            case IbVerbs.IBV_WC_GENERAL_ERR -> "general error";
            default -> "status " + status;
        };
    }
}
