// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_mr;
import io.jccl.net.ib.Verbs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SocketChannel;

/**
 * The sending end of an IB connection. It owns the CTS FIFO ({@link IbCts}) the receiver writes
 * into; {@link #post} takes the next request, and each {@link #progress} writes, in order, every
 * posted message whose slot the receiver filled, as one RDMA write with immediate data (the
 * stamp) into the buffer the slot names, on queue pair {@code m mod q}. A message at most as long
 * as the queue pair's inline bytes goes inline; one in memory nobody registered is first copied
 * into a registered bounce buffer of its request (grown when too small, else reused).
 *
 * <p>A receiver whose side socket closes while a message of this comm waits (for its slot, or for
 * its write's completion) is gone: after {@link #GONE_GRACE_NANOS} (a completion under way may
 * still come) the comm fails naming the connection. Without this, a sender whose receiver died
 * before filling the slot would wait forever: nothing it posted could fail.
 */
final class IbSendComm extends IbComm implements SendComm {
    private final MemorySegment fifo;
    private final MemorySegment fifoMr;
    /** Messages whose write was posted: the next one to write. */
    private long written;
    private final Arena[] bounceArenas;
    private final MemorySegment[] bounces;
    private final IbMemoryCache.Entry[] bounceMrs;
    /** How long a receiver's closed side socket is given before the waiting messages fail. */
    static final long GONE_GRACE_NANOS = 100_000_000L;
    /** When the receiver's side socket was first found closed, or 0. */
    private long goneSince;

    @SuppressWarnings("restricted") // the ibv_mr that verbs returned, read at its size
    IbSendComm(long tag, String name, IbDevice dev, IbOptions options, int requests, SocketChannel side) {
        super(tag, name, dev, options, requests, side, 1);
        this.fifo = arena.allocate((long) IbCts.SLOT * requests, IbCts.SLOT);
        MemorySegment mr;
        try {
            mr = Verbs.registerMemory(dev.pd, fifo, IbDevice.ACCESS);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.fifoMr = mr;
        this.bounceArenas = new Arena[requests];
        this.bounces = new MemorySegment[requests];
        this.bounceMrs = new IbMemoryCache.Entry[requests];
    }

    @SuppressWarnings("restricted") // the ibv_mr that verbs returned, read at its size
    IbConnInfo info() {
        return info(fifo.address(), ibv_mr.rkey(fifoMr.reinterpret(ibv_mr.layout().byteSize())), ring.length);
    }

    /** The next message: {@code size} bytes at {@code data} + {@code offset}; null while its request is in flight. */
    synchronized IbRequest post(MemorySegment data, long offset, long size, MemoryHandle memory, int stamp) throws IOException {
        if (closed) {
            throw new IOException(name + " is closed");
        }
        failIfFailed();
        if (size < 0 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a message of " + size + " bytes on " + name + " (the IB net sends up to 2 GiB - 1)");
        }
        IbRequest r = ring[(int) (posted % ring.length)];
        if (r.busy) {
            return null;
        }
        IbQps.Qp qp = qps[(int) (posted % qps.length)];
        if (memory instanceof IbMemory m) {
            r.address = m.address(data, offset, size);
            r.lkey = m.entry.lkey();
            r.inline = size <= qp.inline();
        } else if (memory != null) {
            throw new IllegalArgumentException("memory registered with another net: " + memory);
        } else if (size <= qp.inline() && data.isNative()) {
            r.address = data.address() + offset;
            r.lkey = 0;
            r.inline = true;
        } else {
            MemorySegment b = bounce(r.slot, size);
            MemorySegment.copy(data, offset, b, 0, size);
            r.address = b.address();
            r.lkey = bounceMrs[r.slot].lkey();
            r.inline = false;
        }
        r.seq = posted++;
        r.size = size;
        r.stamp = stamp & 0x3F_FFFF;
        r.busy = true;
        r.done = false;
        progress();
        return r;
    }

    /** Request {@code slot}'s bounce buffer, at least {@code size} bytes, registered. */
    private MemorySegment bounce(int slot, long size) {
        if (bounces[slot] == null || bounces[slot].byteSize() < size) {
            if (bounces[slot] != null) {
                dev.memory.release(bounceMrs[slot]);
                bounceArenas[slot].close();
            }
            Arena a = Arena.ofShared();
            MemorySegment b = a.allocate(Math.max(size, 4096), 4096);
            bounceArenas[slot] = a;
            bounces[slot] = b;
            bounceMrs[slot] = dev.memory.acquire(b.address(), b.byteSize());
        }
        return bounces[slot];
    }

    /** Reads completions, then writes every posted message the receiver is ready for, in order. */
    @Override
    void progress() throws IOException {
        poll();
        int n = ring.length;
        while (written < posted && IbCts.ready(fifo, n, written)) {
            IbRequest r = ring[(int) (written % n)];
            long room = IbCts.size(fifo, n, written);
            if (r.size > room) {
                throw new IOException(name + ": message " + written + " of " + r.size + " bytes, beyond the " + room
                        + " bytes the receiver posted");
            }
            write(qps[(int) (written % qps.length)], written, r.address, r.size, r.lkey, r.inline, IbCts.address(fifo, n, written),
                    IbCts.rkey(fifo, n, written), true, r.stamp);
            written++;
        }
    }

    @Override
    void sideSaid(int what, long now) throws IOException {
        // The receiver writes nothing after the handshake: whatever it said, it closed.
        if (goneSince == 0) {
            goneSince = now;
        } else if (now - goneSince >= GONE_GRACE_NANOS) {
            throw new IOException(name + ": the receiver closed the connection while messages wait (" + (posted - written)
                    + " not yet written, the receiver's side socket closed " + (now - goneSince) / 1_000_000
                    + " ms ago): its process died, or its net was closed");
        }
    }

    @Override
    void completed(long id, int opcode, int qpNumber, long bytes, int imm) throws IOException {
        if (opcode != IbVerbs.IBV_WC_RDMA_WRITE || id < 0 || id >= written || id < written - ring.length) {
            throw new IOException(name + ": a completion of opcode " + opcode + " for request " + id + ", which was not posted");
        }
        ring[(int) (id % ring.length)].done = true;
    }

    @Override
    void freeMemory() {
        for (int i = 0; bounces != null && i < bounces.length; i++) {
            if (bounces[i] != null) {
                dev.memory.release(bounceMrs[i]);
                bounceArenas[i].close();
                bounces[i] = null;
            }
        }
        if (fifoMr != null) {
            try {
                Verbs.deregister(fifoMr);
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
    }
}
