// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_LOCAL_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_REMOTE_READ;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_REMOTE_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_LINK_LAYER_ETHERNET;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_MTU_1024;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_INIT;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_RTR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_RTS;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPT_RC;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_ACCESS_FLAGS;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_AV;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_DEST_QPN;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_MAX_DEST_RD_ATOMIC;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_MAX_QP_RD_ATOMIC;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_MIN_RNR_TIMER;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_PATH_MTU;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_PKEY_INDEX;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_PORT;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_RETRY_CNT;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_RNR_RETRY;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_RQ_PSN;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_SQ_PSN;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_STATE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_TIMEOUT;

import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_ah_attr;
import io.jccl.bindings.ibverbs.ibv_global_route;
import io.jccl.bindings.ibverbs.ibv_mr;
import io.jccl.bindings.ibverbs.ibv_port_attr;
import io.jccl.bindings.ibverbs.ibv_qp;
import io.jccl.bindings.ibverbs.ibv_qp_attr;
import io.jccl.bindings.ibverbs.ibv_qp_cap;
import io.jccl.bindings.ibverbs.ibv_qp_init_attr;
import io.jccl.bindings.ibverbs.ibv_recv_wr;
import io.jccl.bindings.ibverbs.ibv_send_wr;
import io.jccl.bindings.ibverbs.ibv_sge;
import io.jccl.bindings.ibverbs.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One RC endpoint through {@link Verbs} for the fake-verbs tests (and the peer process of
 * {@link FakeVerbsPeer}): a context, PD, CQ and QP, memory it registers, the QP's transitions, posts
 * and a poll that waits. Its address is what peers exchange on real hardware: QP number, LID, GID.
 */
final class RcEndpoint implements AutoCloseable {
    static final int ALL_ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

    /** A completion, copied out of the CQ. */
    record Completion(long wrId, int status, int opcode, int byteLen, int imm, int qpNum, int srcQp, int flags) {
    }

    /** A registered region: the memory, its keys. */
    record Region(MemorySegment mr, MemorySegment memory, int lkey, int rkey) {
        long address() {
            return memory.address();
        }
    }

    final Arena arena = Arena.ofShared();
    final MemorySegment context;
    final MemorySegment pd;
    final MemorySegment cq;
    final MemorySegment qp;
    final MemorySegment channel; // the CQ's completion channel, or NULL
    final boolean roce;
    private final List<Region> regions = new ArrayList<>();

    RcEndpoint(String device) {
        this(device, false);
    }

    RcEndpoint(String device, boolean withChannel) {
        context = Verbs.open(device);
        roce = ibv_port_attr.link_layer(Verbs.queryPort(context, 1, arena)) == IBV_LINK_LAYER_ETHERNET;
        pd = Verbs.allocPd(context);
        channel = withChannel
                ? Verbs.checkNotNull("ibv_create_comp_channel", s -> IbVerbs.ibv_create_comp_channel(s, context))
                : MemorySegment.NULL;
        cq = withChannel
                ? Verbs.checkNotNull("ibv_create_cq", s -> IbVerbs.ibv_create_cq(s, context, 256, MemorySegment.NULL, channel, 0))
                : Verbs.createCq(context, 256);
        MemorySegment init = ibv_qp_init_attr.allocate(arena);
        ibv_qp_init_attr.send_cq(init, cq);
        ibv_qp_init_attr.recv_cq(init, cq);
        ibv_qp_init_attr.qp_type(init, IBV_QPT_RC);
        MemorySegment cap = ibv_qp_init_attr.cap(init);
        ibv_qp_cap.max_send_wr(cap, 64);
        ibv_qp_cap.max_recv_wr(cap, 64);
        ibv_qp_cap.max_send_sge(cap, 4);
        ibv_qp_cap.max_recv_sge(cap, 4);
        ibv_qp_cap.max_inline_data(cap, 64);
        qp = Verbs.createQp(pd, init);
    }

    Region register(long bytes, int access) {
        MemorySegment memory = arena.allocate(bytes, 4096);
        MemorySegment mr = ibv_mr.reinterpret(Verbs.registerMemory(pd, memory, access));
        Region r = new Region(mr, memory, ibv_mr.lkey(mr), ibv_mr.rkey(mr));
        regions.add(r);
        return r;
    }

    void deregister(Region r) {
        regions.remove(r);
        Verbs.deregister(r.mr());
    }

    int qpNum() {
        return ibv_qp.qp_num(ibv_qp.reinterpret(qp));
    }

    short lid() {
        return ibv_port_attr.lid(Verbs.queryPort(context, 1, arena));
    }

    /** The GID peers address: RoCE v2 over IPv4 (index 3) on Ethernet, the port GID on InfiniBand. */
    byte[] gid() {
        return Verbs.queryGid(context, 1, roce ? 3 : 0, arena).toArray(ValueLayout.JAVA_BYTE);
    }

    /** "qpn lid gid" as a peer reads it. */
    String address() {
        return qpNum() + " " + lid() + " " + HexFormat.of().formatHex(gid());
    }

    int state() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(a);
            Verbs.check("ibv_query_qp", () -> IbVerbs.ibv_query_qp(qp, attr, IBV_QP_STATE, ibv_qp_init_attr.allocate(a)));
            return ibv_qp_attr.qp_state(attr);
        }
    }

    /** Sets {@code mask} with {@code attr} filled by the caller (the state included). */
    void modify(java.util.function.Consumer<MemorySegment> fill, int mask) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(a);
            fill.accept(attr);
            Verbs.modifyQp(qp, attr, mask);
        }
    }

    void toInit() {
        modify(a -> {
            ibv_qp_attr.qp_state(a, IBV_QPS_INIT);
            ibv_qp_attr.port_num(a, (byte) 1);
            ibv_qp_attr.pkey_index(a, (short) 0);
            ibv_qp_attr.qp_access_flags(a, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
        }, IBV_QP_STATE | IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS);
    }

    static final int RTR_MASK = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
            | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    static final int RTS_MASK = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY
            | IBV_QP_MAX_QP_RD_ATOMIC;

    /** INIT → RTR towards the peer at "qpn lid gid"; min_rnr_timer 12 (0.64 ms). */
    void fillRtr(MemorySegment a, String peer) {
        String[] p = peer.split(" ");
        ibv_qp_attr.qp_state(a, IBV_QPS_RTR);
        ibv_qp_attr.path_mtu(a, IBV_MTU_1024);
        ibv_qp_attr.dest_qp_num(a, Integer.parseInt(p[0]));
        ibv_qp_attr.rq_psn(a, 0);
        ibv_qp_attr.max_dest_rd_atomic(a, (byte) 1);
        ibv_qp_attr.min_rnr_timer(a, (byte) 12);
        MemorySegment ah = ibv_qp_attr.ah_attr(a);
        ibv_ah_attr.port_num(ah, (byte) 1);
        ibv_ah_attr.dlid(ah, Short.parseShort(p[1]));
        if (roce) {
            ibv_ah_attr.is_global(ah, (byte) 1);
            MemorySegment grh = ibv_ah_attr.grh(ah);
            ibv_global_route.dgid(grh).copyFrom(MemorySegment.ofArray(HexFormat.of().parseHex(p[2])));
            ibv_global_route.sgid_index(grh, (byte) 3);
            ibv_global_route.hop_limit(grh, (byte) 1);
        }
    }

    /** RTR → RTS: timeout 14 (67 ms) × 7 retries, rnrRetry RNR retries. */
    void fillRts(MemorySegment a, int rnrRetry) {
        ibv_qp_attr.qp_state(a, IBV_QPS_RTS);
        ibv_qp_attr.sq_psn(a, 0);
        ibv_qp_attr.timeout(a, (byte) 14);
        ibv_qp_attr.retry_cnt(a, (byte) 7);
        ibv_qp_attr.rnr_retry(a, (byte) rnrRetry);
        ibv_qp_attr.max_rd_atomic(a, (byte) 1);
    }

    /** RESET → INIT → RTR → RTS towards the peer at "qpn lid gid". */
    void connect(String peer, int rnrRetry) {
        toInit();
        modify(a -> fillRtr(a, peer), RTR_MASK);
        modify(a -> fillRts(a, rnrRetry), RTS_MASK);
    }

    void connect(String peer) {
        connect(peer, 7);
    }

    /** Posts one send-side request over the given (address, length, lkey) triples. */
    void post(long wrId, int opcode, int flags, long remoteAddress, int rkey, int imm, long[]... sges) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment wr = ibv_send_wr.allocate(a);
            MemorySegment list = ibv_sge.allocateArray(Math.max(1, sges.length), a);
            for (int i = 0; i < sges.length; i++) {
                MemorySegment s = ibv_sge.asSlice(list, i);
                ibv_sge.addr(s, sges[i][0]);
                ibv_sge.length(s, (int) sges[i][1]);
                ibv_sge.lkey(s, (int) sges[i][2]);
            }
            ibv_send_wr.wr_id(wr, wrId);
            ibv_send_wr.opcode(wr, opcode);
            ibv_send_wr.send_flags(wr, flags);
            ibv_send_wr.sg_list(wr, list);
            ibv_send_wr.num_sge(wr, sges.length);
            ibv_send_wr.imm_data(wr, imm);
            MemorySegment rdma = ibv_send_wr.wr.rdma(ibv_send_wr.wr(wr));
            ibv_send_wr.wr.rdma.remote_addr(rdma, remoteAddress);
            ibv_send_wr.wr.rdma.rkey(rdma, rkey);
            Verbs.postSend(qp, wr);
        }
    }

    static long[] sge(Region r, long offset, long length) {
        return new long[] {r.address() + offset, length, Integer.toUnsignedLong(r.lkey())};
    }

    void postRecv(long wrId, long[]... sges) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment wr = ibv_recv_wr.allocate(a);
            MemorySegment list = ibv_sge.allocateArray(Math.max(1, sges.length), a);
            for (int i = 0; i < sges.length; i++) {
                MemorySegment s = ibv_sge.asSlice(list, i);
                ibv_sge.addr(s, sges[i][0]);
                ibv_sge.length(s, (int) sges[i][1]);
                ibv_sge.lkey(s, (int) sges[i][2]);
            }
            ibv_recv_wr.wr_id(wr, wrId);
            ibv_recv_wr.sg_list(wr, list);
            ibv_recv_wr.num_sge(wr, sges.length);
            Verbs.postRecv(qp, wr);
        }
    }

    /** Completions polled within {@code millis} (fewer if none came), up to {@code n}. */
    List<Completion> poll(int n, long millis) {
        List<Completion> out = new ArrayList<>();
        long until = System.nanoTime() + millis * 1_000_000;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment wc = ibv_wc.allocateArray(16, a);
            while (out.size() < n && System.nanoTime() < until) {
                int k = Verbs.pollCq(cq, Math.min(16, n - out.size()), wc);
                for (int i = 0; i < k; i++) {
                    MemorySegment w = ibv_wc.asSlice(wc, i);
                    out.add(new Completion(ibv_wc.wr_id(w), ibv_wc.status(w), ibv_wc.opcode(w), ibv_wc.byte_len(w),
                            ibv_wc.imm_data(w), ibv_wc.qp_num(w), ibv_wc.src_qp(w), ibv_wc.wc_flags(w)));
                }
                if (k == 0) {
                    Thread.onSpinWait();
                }
            }
        }
        return out;
    }

    /** Exactly one completion, within 10 s. */
    Completion pollOne() {
        List<Completion> c = poll(1, 10_000);
        if (c.isEmpty()) {
            throw new AssertionError("no completion within 10 s");
        }
        return c.get(0);
    }

    @Override
    public void close() {
        Verbs.destroyQp(qp);
        for (Region r : regions) {
            Verbs.deregister(r.mr());
        }
        regions.clear();
        Verbs.destroyCq(cq);
        if (!channel.equals(MemorySegment.NULL)) {
            Verbs.check("ibv_destroy_comp_channel", () -> IbVerbs.ibv_destroy_comp_channel(channel));
        }
        Verbs.deallocPd(pd);
        Verbs.close(context);
        arena.close();
    }
}
