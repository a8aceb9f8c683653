// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_LOCAL_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_REMOTE_READ;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_REMOTE_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_LINK_LAYER_ETHERNET;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_LINK_LAYER_INFINIBAND;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_PORT_ACTIVE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_INIT;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_RESET;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_RTR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QPS_RTS;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_ACCESS_FLAGS;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_PKEY_INDEX;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_PORT;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_RNR_RETRY;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_SQ_PSN;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_STATE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_TIMEOUT;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_SEND_INLINE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_SEND_SIGNALED;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_LOC_ACCESS_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_LOC_PROT_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_RDMA_READ;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_RDMA_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_RECV;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_RECV_RDMA_WITH_IMM;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_REM_ACCESS_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_RETRY_EXC_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_RNR_RETRY_EXC_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_SEND;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_SUCCESS;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_WITH_IMM;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_WR_FLUSH_ERR;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WR_RDMA_READ;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WR_RDMA_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WR_RDMA_WRITE_WITH_IMM;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WR_SEND;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WR_SEND_WITH_IMM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.ChildJvm;
import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_device_attr;
import io.jccl.bindings.ibverbs.ibv_port_attr;
import io.jccl.bindings.ibverbs.ibv_qp_attr;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jccl's verbs path on the fake libibverbs (test resource fake_ibverbs.cpp), built by g++ against
 * the installed verbs.h and loaded through {@code jccl.ibverbs.lib} ({@link FakeVerbs}): the same bindings and inline
 * verbs as on a NIC. Devices, the QP state machine, RDMA WRITE (with immediate), READ, SEND/RECV and
 * inline data between two QPs of one process and of two processes, the errors a NIC reports (local
 * protection, remote access, RNR and transport retries exceeded, flushes), and every object released.
 * libibverbs is loaded once per JVM, so this class runs in its own (core's pom: surefire execution
 * fake-verbs, which sets JCCL_FAKE_IB_DEVICES=fake_ib0:1,fake_roce0:1:eth and JCCL_FAKE_IB_RETRY_CAP_MS=5000).
 */
@SuppressWarnings("restricted")
class FakeVerbsTest {
    private static Path library;

    @BeforeAll
    static void fakeVerbs() throws Exception {
        library = FakeVerbs.load();
    }

    @AfterEach
    void everythingIsReleased() {
        assertThat(FakeIbCounters.allLive()).isEqualTo("qp=0 mr=0 cq=0 pd=0 context=0 channel=0");
    }

    @Test
    void devicesPortsAndGidsAreTheConfiguredOnes() {
        assertThat(Verbs.deviceNames()).containsExactly("fake_ib0", "fake_roce0");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ib = Verbs.open("fake_ib0");
            MemorySegment roce = Verbs.open("fake_roce0");
            try {
                MemorySegment dev = Verbs.queryDevice(ib, arena);
                assertThat(ibv_device_attr.phys_port_cnt(dev)).isEqualTo((byte) 1);
                assertThat(ibv_device_attr.max_qp_wr(dev)).isEqualTo(1024);
                assertThat(ibv_device_attr.max_sge(dev)).isEqualTo(4);
                assertThat(ibv_device_attr.max_cqe(dev)).isEqualTo(4096);
                assertThat(ibv_device_attr.max_qp_rd_atom(dev)).isEqualTo(16);
                assertThat(ibv_device_attr.max_mr_size(dev)).isEqualTo(1L << 40);

                MemorySegment port = Verbs.queryPort(ib, 1, arena); // through the extended context's query_port
                assertThat(ibv_port_attr.state(port)).isEqualTo(IBV_PORT_ACTIVE);
                assertThat(ibv_port_attr.link_layer(port)).isEqualTo((byte) IBV_LINK_LAYER_INFINIBAND);
                assertThat(ibv_port_attr.lid(port)).isEqualTo((short) 17);
                assertThat(HexFormat.of().formatHex(Verbs.queryGid(ib, 1, 0, arena).toArray(ValueLayout.JAVA_BYTE)))
                        .isEqualTo("fe800000000000000002fa4e00000101");

                // the exported compat symbol, for callers whose context is not an extended one
                MemorySegment compat = ibv_port_attr.allocate(arena);
                assertThat(IbVerbs.ibv_query_port(ib, (byte) 1, compat)).isZero();
                assertThat(ibv_port_attr.state(compat)).isEqualTo(IBV_PORT_ACTIVE);
                assertThat(ibv_port_attr.lid(compat)).isEqualTo((short) 17);
                assertThat(ibv_port_attr.link_layer(compat)).isEqualTo((byte) IBV_LINK_LAYER_INFINIBAND);

                MemorySegment eth = Verbs.queryPort(roce, 1, arena);
                assertThat(ibv_port_attr.link_layer(eth)).isEqualTo((byte) IBV_LINK_LAYER_ETHERNET);
                assertThat(ibv_port_attr.lid(eth)).isZero();
                assertThat(HexFormat.of().formatHex(Verbs.queryGid(roce, 1, 0, arena).toArray(ValueLayout.JAVA_BYTE)))
                        .startsWith("fe80");
                assertThat(HexFormat.of().formatHex(Verbs.queryGid(roce, 1, 3, arena).toArray(ValueLayout.JAVA_BYTE)))
                        .isEqualTo("00000000000000000000ffff7f000001");
                assertThatThrownBy(() -> Verbs.queryPort(roce, 2, arena)).hasMessageContaining("errno 22");
                assertThat(IbVerbs.ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR).reinterpret(64).getString(0))
                        .isEqualTo("transport retry counter exceeded");
            } finally {
                Verbs.close(ib);
                Verbs.close(roce);
            }
        }
    }

    @Test
    void theQpStateMachineRefusesWrongTransitionsAndMasks() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0")) {
            RcEndpoint.Region r = a.register(64, RcEndpoint.ALL_ACCESS);
            assertThat(a.state()).isEqualTo(IBV_QPS_RESET);
            assertThatThrownBy(() -> a.postRecv(1, RcEndpoint.sge(r, 0, 64))).hasMessageContaining("errno 22");
            // RESET → RTR skips INIT
            assertThatThrownBy(() -> a.modify(x -> a.fillRtr(x, a.address()), RcEndpoint.RTR_MASK))
                    .hasMessage("system_error: ibv_modify_qp failed: errno 22 (Invalid argument)");
            // INIT without the access flags, or with an attribute INIT does not take
            assertThatThrownBy(() -> a.modify(x -> {
                ibv_qp_attr.qp_state(x, IBV_QPS_INIT);
                ibv_qp_attr.port_num(x, (byte) 1);
            }, IBV_QP_STATE | IBV_QP_PORT | IBV_QP_PKEY_INDEX)).hasMessageContaining("errno 22");
            assertThatThrownBy(() -> a.modify(x -> {
                ibv_qp_attr.qp_state(x, IBV_QPS_INIT);
                ibv_qp_attr.port_num(x, (byte) 1);
            }, IBV_QP_STATE | IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS | IBV_QP_TIMEOUT))
                    .hasMessageContaining("errno 22");
            // a port the device does not have
            assertThatThrownBy(() -> a.modify(x -> {
                ibv_qp_attr.qp_state(x, IBV_QPS_INIT);
                ibv_qp_attr.port_num(x, (byte) 2);
            }, IBV_QP_STATE | IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS)).hasMessageContaining("errno 22");
            assertThat(a.state()).isEqualTo(IBV_QPS_RESET);

            a.toInit();
            assertThat(a.state()).isEqualTo(IBV_QPS_INIT);
            a.postRecv(1, RcEndpoint.sge(r, 0, 64)); // receives may be posted from INIT on
            assertThatThrownBy(() -> a.post(2, IBV_WR_SEND, IBV_SEND_SIGNALED, 0, 0, 0, RcEndpoint.sge(r, 0, 8)))
                    .hasMessageContaining("ibv_post_send failed: errno 22");
            // INIT → RTS skips RTR; RTR without its minimum RNR timer
            assertThatThrownBy(() -> a.modify(x -> a.fillRts(x, 7), RcEndpoint.RTS_MASK)).hasMessageContaining("errno 22");
            assertThatThrownBy(() -> a.modify(x -> a.fillRtr(x, a.address()),
                    RcEndpoint.RTR_MASK & ~io.jccl.bindings.ibverbs.IbVerbs.IBV_QP_MIN_RNR_TIMER)).hasMessageContaining("errno 22");
            a.modify(x -> a.fillRtr(x, a.address()), RcEndpoint.RTR_MASK);
            assertThat(a.state()).isEqualTo(IBV_QPS_RTR);
            assertThatThrownBy(() -> a.post(2, IBV_WR_SEND, IBV_SEND_SIGNALED, 0, 0, 0, RcEndpoint.sge(r, 0, 8)))
                    .hasMessageContaining("errno 22");
            // RTS without the RNR retries
            assertThatThrownBy(() -> a.modify(x -> a.fillRts(x, 7), RcEndpoint.RTS_MASK & ~IBV_QP_RNR_RETRY))
                    .hasMessageContaining("errno 22");
            a.modify(x -> a.fillRts(x, 7), RcEndpoint.RTS_MASK);
            assertThat(a.state()).isEqualTo(IBV_QPS_RTS);
            // RTS → RTS changes what it may; not the PSN
            a.modify(x -> ibv_qp_attr.qp_state(x, IBV_QPS_RTS), IBV_QP_STATE);
            assertThatThrownBy(() -> a.modify(x -> ibv_qp_attr.qp_state(x, IBV_QPS_RTS), IBV_QP_STATE | IBV_QP_SQ_PSN))
                    .hasMessageContaining("errno 22");

            // any → ERR: the posted receive flushes; → RESET, and INIT again
            a.modify(x -> ibv_qp_attr.qp_state(x, IBV_QPS_ERR), IBV_QP_STATE);
            assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
            RcEndpoint.Completion flushed = a.pollOne();
            assertThat(flushed.wrId()).isEqualTo(1);
            assertThat(flushed.status()).isEqualTo(IBV_WC_WR_FLUSH_ERR);
            a.modify(x -> ibv_qp_attr.qp_state(x, IBV_QPS_RESET), IBV_QP_STATE);
            a.toInit();
            assertThat(a.state()).isEqualTo(IBV_QPS_INIT);
            assertThat(a.poll(1, 20)).isEmpty();
        }
    }

    private static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    private static byte[] bytes(RcEndpoint.Region r, long offset, int n) {
        return r.memory().asSlice(offset, n).toArray(ValueLayout.JAVA_BYTE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fake_ib0", "fake_roce0"})
    void writesReadsAndSendsBetweenTwoQpsOfOneProcess(String device) {
        try (RcEndpoint a = new RcEndpoint(device); RcEndpoint b = new RcEndpoint(device)) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region src = a.register(8192, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region dst = b.register(8192, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region rbuf = b.register(512, IBV_ACCESS_LOCAL_WRITE);
            src.memory().copyFrom(MemorySegment.ofArray(pattern(8192, 7)));
            long before = FakeIbCounters.rdmaBytes();

            // RDMA WRITE from two SGEs, unsignaled, then a signaled one: one completion only, in order
            a.post(1, IBV_WR_RDMA_WRITE, 0, dst.address() + 100, dst.rkey(), 0,
                    RcEndpoint.sge(src, 0, 1000), RcEndpoint.sge(src, 4000, 500));
            a.post(2, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address() + 6000, dst.rkey(), 0, RcEndpoint.sge(src, 2000, 64));
            RcEndpoint.Completion w = a.pollOne();
            assertThat(w.wrId()).isEqualTo(2);
            assertThat(w.status()).isEqualTo(IBV_WC_SUCCESS);
            assertThat(w.opcode()).isEqualTo(IBV_WC_RDMA_WRITE);
            assertThat(w.qpNum()).isEqualTo(a.qpNum());
            assertThat(bytes(dst, 100, 1000)).isEqualTo(bytes(src, 0, 1000));
            assertThat(bytes(dst, 1100, 500)).isEqualTo(bytes(src, 4000, 500));
            assertThat(bytes(dst, 6000, 64)).isEqualTo(bytes(src, 2000, 64));
            assertThat(bytes(dst, 0, 100)).containsOnly(0);
            assertThat(bytes(dst, 1600, 100)).containsOnly(0);
            assertThat(FakeIbCounters.rdmaBytes() - before).isEqualTo(1564);
            FakeIbCounters.reset();
            assertThat(FakeIbCounters.rdmaBytes()).isZero();

            // WRITE_WITH_IMM consumes a posted receive (no buffer needed); SEND_WITH_IMM scatters
            // over two SGEs; an inline SEND, which waits (RNR) for its receive, carries the bytes
            // of the post, not those of the buffer when it is sent
            b.postRecv(10);
            b.postRecv(11, RcEndpoint.sge(rbuf, 0, 10), RcEndpoint.sge(rbuf, 100, 200));
            a.post(3, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_SEND_SIGNALED, dst.address() + 7000, dst.rkey(), 0xcafe0001,
                    RcEndpoint.sge(src, 7000, 300));
            a.post(4, IBV_WR_SEND_WITH_IMM, IBV_SEND_SIGNALED, 0, 0, 0x01020304, RcEndpoint.sge(src, 3000, 50));
            src.memory().asSlice(5000, 40).fill((byte) 0x5a);
            a.post(5, IBV_WR_SEND, IBV_SEND_SIGNALED | IBV_SEND_INLINE, 0, 0, 0, RcEndpoint.sge(src, 5000, 40));
            List<RcEndpoint.Completion> sent = new java.util.ArrayList<>(a.poll(3, 50));
            assertThat(sent).extracting(RcEndpoint.Completion::wrId).containsExactly(3L, 4L); // 5 waits
            src.memory().asSlice(5000, 40).fill((byte) 0x11);
            b.postRecv(12, RcEndpoint.sge(rbuf, 400, 64));
            sent.addAll(a.poll(1, 10_000));
            assertThat(sent).extracting(RcEndpoint.Completion::wrId).containsExactly(3L, 4L, 5L);
            assertThat(sent).extracting(RcEndpoint.Completion::status).containsOnly(IBV_WC_SUCCESS);
            assertThat(sent).extracting(RcEndpoint.Completion::opcode).containsExactly(IBV_WC_RDMA_WRITE, IBV_WC_SEND, IBV_WC_SEND);
            List<RcEndpoint.Completion> got = b.poll(3, 10_000);
            assertThat(got).extracting(RcEndpoint.Completion::wrId).containsExactly(10L, 11L, 12L);
            assertThat(got).extracting(RcEndpoint.Completion::status).containsOnly(IBV_WC_SUCCESS);
            assertThat(got).extracting(RcEndpoint.Completion::opcode)
                    .containsExactly(IBV_WC_RECV_RDMA_WITH_IMM, IBV_WC_RECV, IBV_WC_RECV);
            assertThat(got).extracting(RcEndpoint.Completion::byteLen).containsExactly(300, 50, 40);
            assertThat(got.get(0).imm()).isEqualTo(0xcafe0001);
            assertThat(got.get(0).flags() & IBV_WC_WITH_IMM).isEqualTo(IBV_WC_WITH_IMM);
            assertThat(got.get(1).imm()).isEqualTo(0x01020304);
            assertThat(got.get(2).flags() & IBV_WC_WITH_IMM).isZero();
            assertThat(got).extracting(RcEndpoint.Completion::srcQp).containsOnly(a.qpNum());
            assertThat(got).extracting(RcEndpoint.Completion::qpNum).containsOnly(b.qpNum());
            assertThat(bytes(dst, 7000, 300)).isEqualTo(bytes(src, 7000, 300));
            assertThat(bytes(rbuf, 0, 10)).isEqualTo(bytes(src, 3000, 10));
            assertThat(bytes(rbuf, 100, 40)).isEqualTo(bytes(src, 3010, 40));
            assertThat(bytes(rbuf, 140, 10)).containsOnly(0);
            assertThat(bytes(rbuf, 400, 40)).containsOnly(0x5a);

            // RDMA READ back into the source region
            a.post(6, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED, dst.address() + 100, dst.rkey(), 0, RcEndpoint.sge(src, 6000, 128));
            RcEndpoint.Completion r = a.pollOne();
            assertThat(r.status()).isEqualTo(IBV_WC_SUCCESS);
            assertThat(r.opcode()).isEqualTo(IBV_WC_RDMA_READ);
            assertThat(r.byteLen()).isEqualTo(128);
            assertThat(bytes(src, 6000, 128)).isEqualTo(bytes(src, 0, 128));
        }
    }

    @Test
    void anLkeyOutsideItsRegionIsALocalProtectionError() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region src = a.register(4096, IBV_ACCESS_LOCAL_WRITE);
            RcEndpoint.Region dst = b.register(4096, RcEndpoint.ALL_ACCESS);
            a.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 4000, 200));
            RcEndpoint.Completion c = a.pollOne();
            assertThat(c.status()).isEqualTo(IBV_WC_LOC_PROT_ERR);
            assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
            assertThat(bytes(dst, 0, 4096)).containsOnly(0);
        }
    }

    @Test
    void aWrongRkeyIsARemoteAccessErrorAndWhatFollowsFlushes() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region src = a.register(4096, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region dst = b.register(4096, RcEndpoint.ALL_ACCESS);
            src.memory().fill((byte) 1);
            assertThat(dst.rkey()).isNotEqualTo(dst.lkey());
            a.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey() ^ 0x100, 0, RcEndpoint.sge(src, 0, 64));
            a.post(2, IBV_WR_RDMA_WRITE, 0, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 0, 64));
            List<RcEndpoint.Completion> c = a.poll(2, 10_000);
            assertThat(c).extracting(RcEndpoint.Completion::status).containsExactly(IBV_WC_REM_ACCESS_ERR, IBV_WC_WR_FLUSH_ERR);
            assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
            assertThat(bytes(dst, 0, 4096)).containsOnly(0);

            // past the region's end, and into a region not open to remote writes
            try (RcEndpoint a2 = new RcEndpoint("fake_ib0"); RcEndpoint b2 = new RcEndpoint("fake_ib0")) {
                a2.connect(b2.address());
                b2.connect(a2.address());
                RcEndpoint.Region s2 = a2.register(4096, RcEndpoint.ALL_ACCESS);
                RcEndpoint.Region d2 = b2.register(4096, RcEndpoint.ALL_ACCESS);
                a2.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, d2.address() + 4090, d2.rkey(), 0, RcEndpoint.sge(s2, 0, 8));
                assertThat(a2.pollOne().status()).isEqualTo(IBV_WC_REM_ACCESS_ERR);
            }
            try (RcEndpoint a3 = new RcEndpoint("fake_ib0"); RcEndpoint b3 = new RcEndpoint("fake_ib0")) {
                a3.connect(b3.address());
                b3.connect(a3.address());
                RcEndpoint.Region s3 = a3.register(4096, RcEndpoint.ALL_ACCESS);
                RcEndpoint.Region d3 = b3.register(4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
                a3.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, d3.address(), d3.rkey(), 0, RcEndpoint.sge(s3, 0, 8));
                assertThat(a3.pollOne().status()).isEqualTo(IBV_WC_REM_ACCESS_ERR);
            }
            // remote write without local write is refused at registration, as the spec says
            assertThatThrownBy(() -> a.register(64, IBV_ACCESS_REMOTE_WRITE)).hasMessageContaining("errno 22");
        }
    }

    /** What a writer without the right key meets: nothing written, REM_ACCESS_ERR, both QPs in ERR. */
    private static void refused(RcEndpoint a, RcEndpoint b, RcEndpoint.Region target, int rkey) {
        RcEndpoint.Region src = a.register(4096, RcEndpoint.ALL_ACCESS);
        src.memory().fill((byte) 1);
        b.postRecv(1);
        b.postRecv(2);
        a.post(1, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_SEND_SIGNALED, target.address(), rkey, 7, RcEndpoint.sge(src, 0, 64));
        assertThat(a.pollOne().status()).isEqualTo(IBV_WC_REM_ACCESS_ERR);
        assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
        // the responder's receive taken by the write completes in error, the other flushes, its QP is in ERR
        assertThat(b.poll(2, 10_000)).extracting(RcEndpoint.Completion::status).containsExactly(IBV_WC_LOC_ACCESS_ERR,
                IBV_WC_WR_FLUSH_ERR);
        assertThat(b.state()).isEqualTo(IBV_QPS_ERR);
        assertThat(bytes(target, 0, 4096)).containsOnly(0);
    }

    @Test
    void onlyAKeyOfTheTargetQpsPdStillRegisteredLetsAWriteIn() {
        // the rkey of an MR of another PD (same process, same device, its address right)
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0");
                RcEndpoint c = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region other = c.register(4096, RcEndpoint.ALL_ACCESS);
            refused(a, b, other, other.rkey());
        }
        // the rkey of an MR deregistered (its memory still there)
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region gone = b.register(4096, RcEndpoint.ALL_ACCESS);
            b.deregister(gone);
            refused(a, b, gone, gone.rkey());
        }
        // the right rkey, on a QP that no longer grants remote writes
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            b.modify(attr -> {
                ibv_qp_attr.qp_state(attr, IBV_QPS_RTS);
                ibv_qp_attr.qp_access_flags(attr, IBV_ACCESS_REMOTE_READ);
            }, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS);
            RcEndpoint.Region dst = b.register(4096, RcEndpoint.ALL_ACCESS);
            refused(a, b, dst, dst.rkey());
        }
        // a stranger's QP with the right rkey: the target QP is connected to another, so nothing answers it
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0");
                RcEndpoint stranger = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            stranger.connect(b.address());
            RcEndpoint.Region dst = b.register(4096, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region src = stranger.register(64, RcEndpoint.ALL_ACCESS);
            src.memory().fill((byte) 1);
            stranger.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 0, 64));
            assertThat(stranger.pollOne().status()).isEqualTo(IBV_WC_RETRY_EXC_ERR);
            assertThat(bytes(dst, 0, 4096)).containsOnly(0);
            assertThat(b.state()).isEqualTo(IBV_QPS_RTS);
        }
    }

    @Test
    void aSendLongerThanItsReceiveFailsBothEnds() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region src = a.register(256, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region rbuf = b.register(256, IBV_ACCESS_LOCAL_WRITE);
            b.postRecv(1, RcEndpoint.sge(rbuf, 0, 100));
            b.postRecv(2, RcEndpoint.sge(rbuf, 100, 100));
            a.post(1, IBV_WR_SEND, IBV_SEND_SIGNALED, 0, 0, 0, RcEndpoint.sge(src, 0, 101));
            assertThat(a.pollOne().status()).isEqualTo(io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_REM_INV_REQ_ERR);
            List<RcEndpoint.Completion> got = b.poll(2, 10_000);
            assertThat(got).extracting(RcEndpoint.Completion::status)
                    .containsExactly(io.jccl.bindings.ibverbs.IbVerbs.IBV_WC_LOC_LEN_ERR, IBV_WC_WR_FLUSH_ERR);
            assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
            assertThat(b.state()).isEqualTo(IBV_QPS_ERR);
        }
    }

    @Test
    void aFullSendQueueAnswersEnomemUntilItsCompletionsArePolled() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region src = a.register(64, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region dst = b.register(64, RcEndpoint.ALL_ACCESS);
            for (int i = 0; i < 64; i++) { // max_send_wr
                a.post(i, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 0, 8));
            }
            assertThatThrownBy(() -> a.post(64, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 0,
                    RcEndpoint.sge(src, 0, 8))).hasMessage("system_error: ibv_post_send failed: errno 12 (Cannot allocate memory)");
            assertThat(a.poll(1, 10_000)).extracting(RcEndpoint.Completion::wrId).containsExactly(0L);
            a.post(64, IBV_WR_RDMA_WRITE, 0, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 0, 8));
            // unsignaled and done: it holds no slot
            a.post(65, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 0, 8));
            List<RcEndpoint.Completion> rest = a.poll(100, 200);
            assertThat(rest).hasSize(64);
            assertThat(rest.get(63).wrId()).isEqualTo(65);
        }
    }

    @Test
    void aSendWithoutAPostedReceiveExhaustsItsRnrRetries() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            a.connect(b.address(), 3); // 3 RNR retries of b's 0.64 ms
            b.connect(a.address());
            RcEndpoint.Region src = a.register(64, RcEndpoint.ALL_ACCESS);
            long start = System.nanoTime();
            a.post(1, IBV_WR_SEND, IBV_SEND_SIGNALED, 0, 0, 0, RcEndpoint.sge(src, 0, 16));
            RcEndpoint.Completion c = a.pollOne();
            assertThat(c.status()).isEqualTo(IBV_WC_RNR_RETRY_EXC_ERR);
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(1_900_000L);
            assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
        }
    }

    /** A peer JVM on the fake verbs; the lines it prints. */
    private record Peer(Process process, BufferedReader out, PrintWriter in) implements AutoCloseable {
        static Peer start(String device) throws Exception {
            return start(device, false);
        }

        /** In a network namespace of its own ({@code unshare --net}, which keeps the pid) if asked. */
        static Peer start(String device, boolean ownNetwork) throws Exception {
            List<String> cmd = new java.util.ArrayList<>();
            if (ownNetwork) {
                cmd.addAll(List.of("unshare", "--net"));
            }
            cmd.addAll(ChildJvm.command("-Djccl.ibverbs.lib=" + library, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
            cmd.add(FakeVerbsPeer.class.getName());
            cmd.add(device);
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            return new Peer(p, new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)),
                    new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8));
        }

        /** The next line, which must start with {@code word}; its fields after the word. */
        String[] expect(String word) throws Exception {
            String line = out.readLine();
            assertThat(line).as("the peer's next line").startsWith(word + " ");
            return line.substring(word.length() + 1).split(" ");
        }

        @Override
        public void close() {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean canUnshareNetwork() {
        try {
            Process p = new ProcessBuilder("unshare", "--net", "true").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @ParameterizedTest(name = "{0}, peer in its own network namespace: {1}")
    @org.junit.jupiter.params.provider.CsvSource({"fake_ib0,false", "fake_roce0,false", "fake_roce0,true"})
    @Timeout(60)
    void twoProcessesWriteAndSendAndTheLeaverCleansUp(String device, boolean ownNetwork) throws Exception {
        if (ownNetwork && !canUnshareNetwork()) {
            String why = "unshare --net is refused here (needs root): the peer in another network namespace is not run";
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        try (Peer peer = Peer.start(device, ownNetwork); RcEndpoint a = new RcEndpoint(device)) {
            String[] p = peer.expect("PEER");
            Path net = Path.of("/proc/self/ns/net");
            Path peerNet = Path.of("/proc/" + peer.process().pid() + "/ns/net");
            assertThat(java.nio.file.Files.readSymbolicLink(peerNet).equals(java.nio.file.Files.readSymbolicLink(net)))
                    .as("the peer shares this JVM's network namespace").isEqualTo(!ownNetwork);
            long remote = Long.parseLong(p[3]);
            int rkey = Integer.parseUnsignedInt(p[4]);
            RcEndpoint.Region src = a.register(4096, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region back = a.register(4096, RcEndpoint.ALL_ACCESS);
            src.memory().copyFrom(MemorySegment.ofArray(pattern(4096, 3)));
            peer.in().println("CONNECT " + a.address() + " " + back.address() + " " + Integer.toUnsignedString(back.rkey()));
            a.connect(p[0] + " " + p[1] + " " + p[2]);
            assertThat(peer.out().readLine()).isEqualTo("READY");

            a.post(1, IBV_WR_RDMA_WRITE, 0, remote, rkey, 0, RcEndpoint.sge(src, 0, 1024));
            a.post(2, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_SEND_SIGNALED, remote + 2048, rkey, 0x00abcdef,
                    RcEndpoint.sge(src, 1024, 64), RcEndpoint.sge(src, 3000, 36));
            a.post(3, IBV_WR_SEND, IBV_SEND_SIGNALED | IBV_SEND_INLINE, 0, 0, 0, RcEndpoint.sge(src, 100, 60));
            a.post(4, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED, remote, rkey, 0, RcEndpoint.sge(src, 2048, 16));
            List<RcEndpoint.Completion> sent = a.poll(3, 10_000);
            assertThat(sent).extracting(RcEndpoint.Completion::status).containsOnly(IBV_WC_SUCCESS);
            assertThat(sent).extracting(RcEndpoint.Completion::wrId).containsExactly(2L, 3L, 4L);
            assertThat(bytes(src, 2048, 16)).isEqualTo(bytes(src, 0, 16));

            peer.in().println("RECV");
            String[] imm = peer.expect("COMPLETION");
            String[] send = peer.expect("COMPLETION");
            String qpn = Integer.toString(a.qpNum());
            assertThat(imm).containsExactly("1", "" + IBV_WC_SUCCESS, "" + IBV_WC_RECV_RDMA_WITH_IMM, "100",
                    Integer.toUnsignedString(0x00abcdef), qpn, "" + IBV_WC_WITH_IMM);
            assertThat(send).containsExactly("2", "" + IBV_WC_SUCCESS, "" + IBV_WC_RECV, "60", "0", qpn, "0");
            byte[] memory = HexFormat.of().parseHex(peer.expect("MEMORY")[0]);
            byte[] expected = new byte[4096];
            System.arraycopy(pattern(4096, 3), 0, expected, 0, 1024);
            System.arraycopy(bytes(src, 1024, 64), 0, expected, 2048, 64);
            System.arraycopy(bytes(src, 3000, 36), 0, expected, 2112, 36);
            assertThat(memory).isEqualTo(expected);
            byte[] buffer = HexFormat.of().parseHex(peer.expect("BUFFER")[0]);
            assertThat(java.util.Arrays.copyOfRange(buffer, 0, 60)).isEqualTo(bytes(src, 100, 60));
            assertThat(java.util.Arrays.copyOfRange(buffer, 60, 256)).containsOnly(0);

            // the other way: the peer writes its first 256 bytes into ours
            peer.in().println("WRITE");
            assertThat(peer.expect("WROTE")).containsExactly("7", "" + IBV_WC_SUCCESS, "256");
            assertThat(bytes(back, 0, 256)).isEqualTo(java.util.Arrays.copyOfRange(expected, 0, 256));

            peer.in().println("EXIT");
            assertThat(peer.expect("LIVE")).containsExactly("qp=0", "mr=0", "cq=0", "pd=0", "context=0", "channel=0");
            assertThat(peer.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(peer.process().exitValue()).isZero();
            assertThat(ChildJvm.shmFilesOfPids(List.of(peer.process().pid()))).isEmpty();

            // its QP is gone: the next write is retried, then fails
            a.post(5, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, remote, rkey, 0, RcEndpoint.sge(src, 0, 8));
            assertThat(a.pollOne().status()).isEqualTo(IBV_WC_RETRY_EXC_ERR);
        }
    }

    @Test
    @Timeout(60)
    void aKilledPeerIsARetryExceededErrorWithinItsTimeout() throws Exception {
        try (Peer peer = Peer.start("fake_ib0"); RcEndpoint a = new RcEndpoint("fake_ib0")) {
            String[] p = peer.expect("PEER");
            long remote = Long.parseLong(p[3]);
            int rkey = Integer.parseUnsignedInt(p[4]);
            RcEndpoint.Region src = a.register(4096, RcEndpoint.ALL_ACCESS);
            peer.in().println("CONNECT " + a.address() + " " + src.address() + " " + Integer.toUnsignedString(src.rkey()));
            a.connect(p[0] + " " + p[1] + " " + p[2]);
            assertThat(peer.out().readLine()).isEqualTo("READY");
            a.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, remote, rkey, 0, RcEndpoint.sge(src, 0, 64));
            assertThat(a.pollOne().status()).isEqualTo(IBV_WC_SUCCESS);

            peer.process().destroyForcibly();
            assertThat(peer.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            long start = System.nanoTime();
            a.post(2, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, remote, rkey, 0, RcEndpoint.sge(src, 0, 64));
            a.post(3, IBV_WR_SEND, 0, 0, 0, 0, RcEndpoint.sge(src, 0, 64));
            List<RcEndpoint.Completion> c = a.poll(2, 10_000);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(c).extracting(RcEndpoint.Completion::status).containsExactly(IBV_WC_RETRY_EXC_ERR, IBV_WC_WR_FLUSH_ERR);
            // timeout 14 (67 ms) × (7 + 1) tries: about half a second, not the cap (5 s in fake-verbs)
            assertThat(millis).isBetween(500L, 3000L);
            assertThat(a.state()).isEqualTo(IBV_QPS_ERR);
            // the killed process's file was found stale and removed
            assertThat(ChildJvm.shmFilesOfPids(List.of(peer.process().pid()))).isEmpty();
        }
    }

    @Test
    void aQpOfAnotherAddressIsNotReached() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0")) {
            String[] addr = b.address().split(" ");
            a.connect(addr[0] + " 99 " + addr[2]); // b's QP number, another LID
            b.connect(a.address());
            RcEndpoint.Region src = a.register(64, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region dst = b.register(64, RcEndpoint.ALL_ACCESS);
            a.post(1, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 0, RcEndpoint.sge(src, 0, 8));
            assertThat(a.pollOne().status()).isEqualTo(IBV_WC_RETRY_EXC_ERR);
        }
    }

    @Test
    void anArmedCqWithAChannelGivesOneEvent() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0"); RcEndpoint b = new RcEndpoint("fake_ib0", true);
                Arena arena = Arena.ofConfined()) {
            a.connect(b.address());
            b.connect(a.address());
            RcEndpoint.Region src = a.register(64, RcEndpoint.ALL_ACCESS);
            RcEndpoint.Region dst = b.register(64, RcEndpoint.ALL_ACCESS);
            b.postRecv(1);
            Verbs.check("ibv_req_notify_cq", () -> io.jccl.bindings.ibverbs.IbVerbsInline.ibv_req_notify_cq(b.cq, 0));
            a.post(1, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_SEND_SIGNALED, dst.address(), dst.rkey(), 5, RcEndpoint.sge(src, 0, 8));
            assertThat(a.pollOne().status()).isEqualTo(IBV_WC_SUCCESS);
            MemorySegment cqOut = arena.allocate(ValueLayout.ADDRESS);
            MemorySegment contextOut = arena.allocate(ValueLayout.ADDRESS);
            Verbs.check("ibv_get_cq_event", () -> IbVerbs.ibv_get_cq_event(io.jccl.bindings.Errno.allocate(arena), b.channel,
                    cqOut, contextOut));
            assertThat(cqOut.get(ValueLayout.ADDRESS, 0)).isEqualTo(b.cq);
            IbVerbs.ibv_ack_cq_events(b.cq, 1);
            assertThat(b.pollOne().opcode()).isEqualTo(IBV_WC_RECV_RDMA_WITH_IMM);
            assertThat(FakeIbCounters.live("channel")).isEqualTo(1);
            assertThatThrownBy(() -> Verbs.check("ibv_destroy_comp_channel", () -> IbVerbs.ibv_destroy_comp_channel(b.channel)))
                    .hasMessageContaining("errno 16");
        }
    }

    @Test
    void aCqOrPdInUseIsNotReleased() {
        try (RcEndpoint a = new RcEndpoint("fake_ib0")) {
            assertThatThrownBy(() -> Verbs.destroyCq(a.cq)).hasMessageContaining("errno 16");
            assertThatThrownBy(() -> Verbs.deallocPd(a.pd)).hasMessageContaining("errno 16");
        }
    }
}
