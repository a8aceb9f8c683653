// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.IbVerbsInline;
import io.jccl.bindings.ibverbs.ibv_recv_wr;
import io.jccl.bindings.ibverbs.ibv_send_wr;
import io.jccl.bindings.ibverbs.ibv_sge;
import io.jccl.bindings.ibverbs.ibv_wc;
import io.jccl.net.ib.Verbs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * What both ends of an IB connection have: a completion queue, {@code q} RC queue pairs (message
 * {@code m} travels on queue pair {@code m mod q}), the ring of requests, the side socket the
 * handshake went over (kept: a closing sender says so on it), and the work request, scatter entry
 * and completion array every post and poll reuses, so the data path allocates nothing. Each
 * method is synchronized: a proxy thread posts and tests, while a closing rank or the net's close
 * may destroy the queues from another thread.
 *
 * <p>A peer whose process dies leaves queue pairs that nothing answers, and a comm waiting for a
 * message or a clear-to-send slot posts nothing that could fail: so a comm with a request waiting
 * also looks at the side socket (every {@link #SIDE_LOOK_NANOS}, without blocking), which the
 * peer's kernel closes when the process dies. What it reads there is the subclass's to judge
 * ({@link #sideSaid}). The first failure sticks: every later post or poll throws it again.
 */
abstract sealed class IbComm implements NetComm permits IbSendComm, IbRecvComm {
    /** Completions read per poll. */
    static final int WC_BATCH = 16;
    /** The byte a closing sender writes on the side socket. */
    static final byte END = 0x45;
    /** What {@link #readSide} found: nothing yet, the END byte, the socket closed (or broken). */
    static final int SIDE_QUIET = 0;
    static final int SIDE_END = 1;
    static final int SIDE_CLOSED = -1;
    /** How often a comm with a request waiting looks at its side socket. */
    static final long SIDE_LOOK_NANOS = 10_000_000L;

    final long tag;
    final String name;
    final IbDevice dev;
    final IbOptions options;
    final Arena arena = Arena.ofShared();
    final MemorySegment cq;
    final IbQps.Qp[] qps;
    final IbRequest[] ring;
    final SocketChannel side;
    final int psn;
    private final MemorySegment wcs;
    private final long wcSize = ibv_wc.layout().byteSize();
    private final MemorySegment sendWr;
    private final MemorySegment rdma;
    private final MemorySegment sge;
    private final MemorySegment recvWr;
    private final MemorySegment bad;
    /** Messages posted so far: the next one's number. */
    long posted;
    boolean closed;
    /** The first failure, thrown again by every later post or poll. */
    private IOException failure;
    private long sideLooked = System.nanoTime();

    /** Makes the queues; on failure frees what it made (the caller closes {@code side}). */
    IbComm(long tag, String name, IbDevice dev, IbOptions options, int requests, SocketChannel side, int recvsPerQp) {
        this.tag = tag;
        this.name = name;
        this.dev = dev;
        this.options = options;
        this.side = side;
        this.psn = java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 24);
        int q = options.qps();
        this.qps = new IbQps.Qp[q];
        this.wcs = ibv_wc.allocateArray(WC_BATCH, arena);
        this.sendWr = ibv_send_wr.allocate(arena);
        this.rdma = ibv_send_wr.wr.rdma(ibv_send_wr.wr(sendWr));
        this.sge = ibv_sge.allocate(arena);
        this.recvWr = ibv_recv_wr.allocate(arena);
        this.bad = arena.allocate(ADDRESS);
        MemorySegment made = null;
        try {
            made = Verbs.createCq(dev.context, (q + 2) * requests + WC_BATCH);
            for (int i = 0; i < q; i++) {
                qps[i] = IbQps.create(dev, made, 2 * requests + 1, Math.max(1, recvsPerQp));
            }
        } catch (RuntimeException e) {
            destroy(made);
            arena.close();
            throw e;
        }
        this.cq = made;
        this.ring = new IbRequest[requests];
        for (int i = 0; i < requests; i++) {
            ring[i] = new IbRequest(this, i);
        }
    }

    @Override
    public final long tag() {
        return tag;
    }

    /** What this end tells the other: its port's address, MTU, queue pairs, and (a sender's) CTS FIFO. */
    IbConnInfo info(long fifo, int rkey, int slots) {
        int[] qpns = new int[qps.length];
        for (int i = 0; i < qps.length; i++) {
            qpns[i] = qps[i].number();
        }
        return new IbConnInfo(dev.lid, dev.gid, dev.mtu, psn, qpns, fifo, rkey, slots);
    }

    /** Moves every queue pair to RTS toward the peer's; a peer with another count of queue pairs is an IOException. */
    final void connect(IbConnInfo remote) throws IOException {
        if (remote.qpns().length != qps.length) {
            throw new IOException(name + ": the peer has " + remote.qpns().length + " queue pairs per connection, this rank "
                    + qps.length + " (JCCL_IB_QPS_PER_CONNECTION must agree)");
        }
        for (int i = 0; i < qps.length; i++) {
            IbQps.toRtr(dev, options, qps[i].qp(), remote, remote.qpns()[i]);
            IbQps.toRts(options, qps[i].qp(), psn);
        }
    }

    /** Posts an RDMA write (with immediate data when {@code withImm}) of {@code length} bytes; signaled, wr_id {@code id}. */
    final void write(IbQps.Qp qp, long id, long local, long length, int lkey, boolean inline, long remote, int rkey,
            boolean withImm, int imm) throws IOException {
        sge.set(JAVA_LONG, ibv_sge.addr$offset(), local);
        sge.set(JAVA_INT, ibv_sge.length$offset(), (int) length);
        sge.set(JAVA_INT, ibv_sge.lkey$offset(), lkey);
        ibv_send_wr.wr_id(sendWr, id);
        ibv_send_wr.next(sendWr, MemorySegment.NULL);
        ibv_send_wr.sg_list(sendWr, sge);
        ibv_send_wr.num_sge(sendWr, length == 0 ? 0 : 1);
        ibv_send_wr.opcode(sendWr, withImm ? IbVerbs.IBV_WR_RDMA_WRITE_WITH_IMM : IbVerbs.IBV_WR_RDMA_WRITE);
        ibv_send_wr.send_flags(sendWr, IbVerbs.IBV_SEND_SIGNALED | (inline ? IbVerbs.IBV_SEND_INLINE : 0));
        ibv_send_wr.imm_data(sendWr, imm);
        ibv_send_wr.wr.rdma.remote_addr(rdma, remote);
        ibv_send_wr.wr.rdma.rkey(rdma, rkey);
        int rc = IbVerbsInline.ibv_post_send(qp.qp(), sendWr, bad);
        if (rc != 0) {
            throw new IOException(name + ": " + Verbs.failure("ibv_post_send", rc).getMessage());
        }
    }

    /** Posts an empty receive on {@code qp}: what an incoming write with immediate data consumes. */
    final void postRecv(IbQps.Qp qp, long id) throws IOException {
        ibv_recv_wr.wr_id(recvWr, id);
        ibv_recv_wr.next(recvWr, MemorySegment.NULL);
        ibv_recv_wr.sg_list(recvWr, MemorySegment.NULL);
        ibv_recv_wr.num_sge(recvWr, 0);
        int rc = IbVerbsInline.ibv_post_recv(qp.qp(), recvWr, bad);
        if (rc != 0) {
            throw new IOException(name + ": " + Verbs.failure("ibv_post_recv", rc).getMessage());
        }
    }

    /** Throws the comm's failure, if it failed. */
    final void failIfFailed() throws IOException {
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Reads the completions there are now into {@link #completed}; true when there were any. When
     * there were none and a request waits, looks at the side socket now and then ({@link #sideSaid}).
     */
    final boolean poll() throws IOException {
        if (closed) {
            return false;
        }
        failIfFailed();
        try {
            boolean any = pollCq();
            if (!any && waiting()) {
                long now = System.nanoTime();
                if (now - sideLooked >= SIDE_LOOK_NANOS) {
                    sideLooked = now;
                    int said = readSide();
                    if (said != SIDE_QUIET) {
                        sideSaid(said, now);
                    }
                }
            }
            return any;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /** Whether a request was posted and is not done. */
    private boolean waiting() {
        for (IbRequest r : ring) {
            if (r.busy && !r.done) {
                return true;
            }
        }
        return false;
    }

    /** What the peer wrote on the side socket since the handshake, read without blocking: SIDE_QUIET, SIDE_END or SIDE_CLOSED. */
    final int readSide() {
        try {
            side.configureBlocking(false);
            ByteBuffer b = ByteBuffer.allocate(1);
            int n = side.read(b);
            return n < 0 ? SIDE_CLOSED : n == 0 ? SIDE_QUIET : b.get(0) == END ? SIDE_END : SIDE_QUIET;
        } catch (IOException | RuntimeException e) {
            return SIDE_CLOSED; // reset by the peer's kernel, or closed here
        }
    }

    /** The side socket said END or closed ({@code what}) while a request waits, at {@code now}; may fail the comm. */
    abstract void sideSaid(int what, long now) throws IOException;

    private boolean pollCq() throws IOException {
        boolean any = false;
        int n;
        do {
            n = IbVerbsInline.ibv_poll_cq(cq, WC_BATCH, wcs);
            if (n < 0) {
                throw new IOException(name + ": ibv_poll_cq failed: " + n);
            }
            for (int i = 0; i < n; i++) {
                long at = i * wcSize;
                int status = wcs.get(JAVA_INT, at + ibv_wc.status$offset());
                long id = wcs.get(JAVA_LONG, at + ibv_wc.wr_id$offset());
                if (status != IbVerbs.IBV_WC_SUCCESS) {
                    failed(id, status, wcs.get(JAVA_INT, at + ibv_wc.vendor_err$offset()));
                    continue;
                }
                completed(id, wcs.get(JAVA_INT, at + ibv_wc.opcode$offset()), wcs.get(JAVA_INT, at + ibv_wc.qp_num$offset()),
                        wcs.get(JAVA_INT, at + ibv_wc.byte_len$offset()) & 0xFFFF_FFFFL, wcs.get(JAVA_INT, at + ibv_wc.imm_data$offset()));
            }
            any |= n > 0;
        } while (n == WC_BATCH);
        return any;
    }

    /** A completion with status success: work request {@code id}, its opcode, queue pair, bytes and immediate data. */
    abstract void completed(long id, int opcode, int qpNumber, long bytes, int imm) throws IOException;

    /** A completion with an error status: by default the connection failed. */
    void failed(long id, int status, int vendor) throws IOException {
        throw new IOException(name + ": a work completion failed: " + IbQps.status(status) + " (vendor error 0x"
                + Integer.toHexString(vendor) + ", request " + id + ")");
    }

    /** Which of this comm's queue pairs has number {@code qpNumber}, or -1. */
    final int qpIndex(int qpNumber) {
        for (int i = 0; i < qps.length; i++) {
            if (qps[i].number() == qpNumber) {
                return i;
            }
        }
        return -1;
    }

    /** Moves the comm on without blocking; true when {@code r} is done (it is then free again). */
    final synchronized boolean test(IbRequest r) throws IOException {
        if (!r.busy) {
            throw new IllegalStateException("a request of " + name + " tested after it was done");
        }
        progress();
        if (!r.done) {
            return false;
        }
        r.busy = false;
        return true;
    }

    /** Polls and posts what can be posted now. */
    abstract void progress() throws IOException;

    /** Writes the END byte on the side socket (best effort: the peer may be gone). */
    final void sayEnd() {
        try {
            side.configureBlocking(true);
            side.write(ByteBuffer.wrap(new byte[] {END}));
        } catch (IOException | RuntimeException e) {
            // nothing to tell a peer that is gone
        }
    }

    /** Destroys the queues and frees the comm's memory; later calls find it closed. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        destroy(cq);
        freeMemory();
        SocketNet.closeQuietly(side);
        arena.close();
    }

    /** Deregisters and frees what the subclass holds (its FIFO, bounce buffers). */
    abstract void freeMemory();

    private void destroy(MemorySegment cqOrNull) {
        for (IbQps.Qp qp : qps) {
            if (qp != null) {
                try {
                    Verbs.destroyQp(qp.qp());
                } catch (RuntimeException e) {
                    // closing anyway
                }
            }
        }
        if (cqOrNull != null) {
            try {
                Verbs.destroyCq(cqOrNull);
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
    }

    @Override
    public final String toString() {
        return name;
    }
}
