// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_mr;
import io.jccl.net.ib.Verbs;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SocketChannel;

/**
 * The receiving end of an IB connection. {@link #post} takes the next request and RDMA-writes its
 * buffer (address, size, rkey) into the sender's CTS FIFO ({@link IbCts}) from a registered
 * staging copy; the sender's write with immediate data then lands in the buffer and consumes one
 * of the empty receives each queue pair keeps posted, whose completion says the bytes and the
 * stamp. Message {@code m} comes on queue pair {@code m mod q}, so the {@code k}-th completion of
 * queue pair {@code i} is message {@code i + k q}.
 *
 * <p>A completion error after the sender said END on the side socket is its close, not a loss:
 * the comm goes quiet and what it had posted is never filled. A side socket that closes without
 * END while a receive waits is a sender gone (its process died, or its net was closed without
 * ending the connection): the comm fails naming the connection, as the socket net's receiver does
 * when its socket closes without an END frame.
 */
final class IbRecvComm extends IbComm implements RecvComm {
    /** A CTS write's wr_id carries this bit; an empty receive's is its queue pair's index. */
    private static final long CTS = 1L << 62;

    private final long remoteFifo;
    private final int remoteRkey;
    private final int slots;
    private final MemorySegment cts;
    private final MemorySegment ctsMr;
    private final int ctsLkey;
    /** Per queue pair: messages that arrived on it. */
    private final long[] arrived;
    private boolean ended;

    @SuppressWarnings("restricted") // the ibv_mr that verbs returned, read at its size
    IbRecvComm(long tag, String name, IbDevice dev, IbOptions options, int requests, SocketChannel side, IbConnInfo sender)
            throws IOException {
        super(tag, name, dev, options, requests, side, requests);
        if (sender.slots() != requests) {
            close();
            throw new IOException(name + ": the sender's CTS FIFO has " + sender.slots() + " slots, this receiver " + requests
                    + " requests");
        }
        this.remoteFifo = sender.fifo();
        this.remoteRkey = sender.rkey();
        this.slots = requests;
        this.arrived = new long[qps.length];
        this.cts = arena.allocate((long) IbCts.SLOT * requests, IbCts.SLOT);
        try {
            this.ctsMr = Verbs.registerMemory(dev.pd, cts, IbDevice.ACCESS);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        try {
            for (int i = 0; i < qps.length; i++) {
                for (int k = 0; k < requests; k++) {
                    postRecv(qps[i], i);
                }
            }
            connect(sender);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        this.ctsLkey = ibv_mr.lkey(ctsMr.reinterpret(ibv_mr.layout().byteSize()));
    }

    IbConnInfo info() {
        return info(0, 0, 0);
    }

    /** A buffer for the next message: up to {@code max} bytes at {@code data} + {@code offset}; null while its request is in flight. */
    synchronized IbRequest post(MemorySegment data, long offset, long max, MemoryHandle memory) throws IOException {
        if (closed) {
            throw new IOException(name + " is closed");
        }
        failIfFailed();
        if (!(memory instanceof IbMemory m)) {
            throw new IllegalArgumentException("the IB net receives into memory registered with it, not " + memory + " (" + name + ")");
        }
        if (max < 0) {
            throw new IllegalArgumentException("a receive of at most " + max + " bytes on " + name);
        }
        IbRequest r = ring[(int) (posted % ring.length)];
        if (r.busy) {
            return null;
        }
        r.seq = posted;
        r.address = m.address(data, offset, max);
        r.max = max;
        r.size = -1;
        r.stamp = 0;
        r.busy = true;
        r.done = false;
        if (!ended) {
            IbCts.fill(cts, slots, posted, r.address, Math.min(max, Integer.MAX_VALUE), m.entry.rkey());
            long at = IbCts.offset(posted, slots);
            IbQps.Qp qp = qps[0];
            write(qp, CTS | posted, cts.address() + at, IbCts.WRITTEN, ctsLkey, IbCts.WRITTEN <= qp.inline(), remoteFifo + at,
                    remoteRkey, false, 0);
        }
        posted++;
        return r;
    }

    @Override
    void progress() throws IOException {
        poll();
    }

    /**
     * Polls for arrivals (a {@link IbPoller}'s look); true when a completion came, or when the comm
     * failed: the failure then comes from the comm's next {@code test}, where the proxy knows
     * which connection it is (thrown from the poller, it would name no peer).
     */
    synchronized boolean look() {
        try {
            return poll();
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    void completed(long id, int opcode, int qpNumber, long bytes, int imm) throws IOException {
        if ((id & CTS) != 0) {
            return; // a CTS write arrived in the sender's FIFO
        }
        int i = qpIndex(qpNumber);
        if (opcode != IbVerbs.IBV_WC_RECV_RDMA_WITH_IMM || i < 0) {
            throw new IOException(name + ": a completion of opcode " + opcode + " on queue pair " + qpNumber + " is no message");
        }
        long m = i + arrived[i]++ * qps.length;
        IbRequest r = ring[(int) (m % ring.length)];
        if (!r.busy || r.seq != m || r.done) {
            throw new IOException(name + ": message " + m + " arrived, which no receive was posted for");
        }
        if (bytes > r.max) {
            throw new IOException(name + ": message " + m + " of " + bytes + " bytes, beyond the " + r.max + " bytes posted");
        }
        r.size = bytes;
        r.stamp = imm & 0x3F_FFFF;
        r.done = true;
        postRecv(qps[i], i);
    }

    @Override
    void failed(long id, int status, int vendor) throws IOException {
        if (ended || senderEnded()) {
            ended = true;
            return;
        }
        super.failed(id, status, vendor);
    }

    /** Whether the sender wrote END on the side socket (looked at when a completion failed). */
    private boolean senderEnded() {
        return readSide() == SIDE_END;
    }

    @Override
    void sideSaid(int what, long now) throws IOException {
        if (what == SIDE_END) {
            ended = true;
        } else if (!ended) {
            throw new IOException(name + ": the sender closed the connection without ending it (its side socket closed with "
                    + "no END): its process died, or its net was closed");
        }
    }

    @Override
    void freeMemory() {
        if (ctsMr != null) {
            try {
                Verbs.deregister(ctsMr);
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
    }
}
