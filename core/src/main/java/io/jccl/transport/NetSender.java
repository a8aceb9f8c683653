// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.transport.NetConn.Progress;
import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.MemoryKind;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetRequest;
import io.jccl.transport.net.SendComm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The sending half of the proxy: {@code T} threads of this process, each serving some of its
 * sending connections. For each, it takes the FIFO's next message (its size, and where it lies:
 * the slot, or the sender's memory for a by-reference message), {@code isend}s it, and releases it
 * once {@code test} says it was sent; one message of a connection is in flight at a time, since a
 * FIFO shows its receiver only the oldest. An idle thread parks registered as its FIFOs' data
 * waiter, so a lane's send wakes it at once; one whose message waits on the net, or whose FIFO's
 * writer cannot wake it (a GPU's), polls with short sleeps.
 */
final class NetSender extends NetHalf<NetSender.Conn> {
    /** One sending connection; its state is guarded by {@code this} (its thread, and a closing rank). */
    static final class Conn extends NetConn<SendComm> {
        private NetRequest inFlight;
        /** Messages handed to the net so far: the number of the next, as {@link NetTrace} shows it. */
        private long posted;
        private boolean ended;
        private final UserMemory user;
        /** The registered user buffers this connection sent from, each registered with the net for it. */
        private final Map<MemorySegment, MemoryHandle> userHandles = new IdentityHashMap<>();

        Conn(Fifo fifo, SendComm comm, MemoryHandle memory, UserMemory user) {
            super(fifo, comm, memory);
            this.user = user;
        }

        /** Sends what it can: MOVED when a message was posted or released, NET when one waits on the net, else IDLE. */
        synchronized Progress progress(Net net, NetTrace trace) throws IOException {
            if (ended) {
                return Progress.IDLE;
            }
            boolean moved = false;
            while (true) {
                if (inFlight != null) {
                    if (!net.test(inFlight)) {
                        return moved ? Progress.MOVED : Progress.NET;
                    }
                    inFlight = null;
                    fifo.release();
                    trace.event("sent", fifo, posted - 1, -1, 0);
                    moved = true;
                }
                if (!fifo.hasData()) {
                    return moved ? Progress.MOVED : Progress.IDLE;
                }
                MemorySegment data = fifo.recvSegment();
                long offset = fifo.recvOffset();
                long size = fifo.recvSize();
                MemoryHandle m = data == memory.region() ? memory : userHandle(net, data, offset, size);
                int stamp = fifo.recvStamp();
                NetRequest r = net.isend(comm, data, offset, size, m, stamp);
                if (r == null) {
                    return moved ? Progress.MOVED : Progress.NET;
                }
                inFlight = r;
                trace.event("isend", fifo, posted++, size, stamp);
                moved = true;
            }
        }

        /**
         * The net's registration of the user buffer holding a by-reference message, made on its
         * first use; null when no registered buffer holds it (the net then stages it).
         */
        private MemoryHandle userHandle(Net net, MemorySegment data, long offset, long size) throws IOException {
            MemorySegment b = user.holding(data, offset, size);
            if (b == null) {
                return null;
            }
            MemoryHandle h = userHandles.get(b);
            if (h == null) {
                h = net.register(comm, b, MemoryKind.HOST);
                userHandles.put(b, h);
            }
            return h;
        }

        /** Drops the net's registration of {@code buffer} (its user deregistered it). */
        synchronized void forget(Net net, MemorySegment buffer) {
            MemoryHandle h = userHandles.remove(buffer);
            if (h != null) {
                net.deregister(h);
            }
        }

        /** Ends the connection (its rank closed): the net tells the receiver, by {@code deadline}. */
        synchronized void end(Net net, long deadline) {
            if (!ended) {
                ended = true;
                userHandles.values().forEach(net::deregister);
                userHandles.clear();
                net.deregister(memory);
                net.closeSend(comm, deadline);
            }
        }

        synchronized boolean ended() {
            return ended;
        }

        /** Whether a message waits in the FIFO (false once ended: the FIFO's memory may be gone). */
        @Override
        synchronized boolean ready() {
            return !ended && fifo.hasData();
        }
    }

    NetSender(NetProxy proxy, int threads) {
        super(proxy);
        List<Worker> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            all.add(new Worker());
        }
        start(all, "jccl-net-send-");
    }

    /** Drops every connection's net registration of the user buffer {@code buffer}. */
    void forget(MemorySegment buffer) {
        for (Conn c : conns) {
            c.forget(proxy.net, buffer);
        }
    }

    /** Ends every connection {@code rank} sends on, each by {@code deadline}. */
    void end(int rank, long deadline) {
        for (Conn c : conns) {
            if (c.fifo.from == rank) {
                c.end(proxy.net, deadline);
                conns.remove(c);
            }
        }
    }

    private final class Worker extends NetHalf.Worker<Conn> {
        @Override
        public void run() {
            NetPause poll = new NetPause(Wait.Pacing.NET_POLL);
            NetPause idle = new NetPause(Wait.Pacing.NET_IDLE);
            while (!proxy.watch.aborted()) {
                for (Conn c; (c = incoming.poll()) != null; ) {
                    mine.add(c);
                }
                boolean moved = false;
                boolean polling = false;
                for (int i = 0; i < mine.size(); i++) {
                    Conn c = mine.get(i);
                    Progress r;
                    try {
                        r = c.progress(proxy.net, proxy.trace);
                    } catch (IOException | RuntimeException e) {
                        proxy.lost(c.fifo.from, c.fifo.to, e);
                        return;
                    }
                    if (r == Progress.IDLE && c.ended()) {
                        mine.remove(i--);
                    }
                    moved |= r == Progress.MOVED;
                    // A FIFO in another's memory (a GPU's) cannot wake this thread: it polls.
                    polling |= r == Progress.NET || c.fifo.shared;
                }
                if (moved) {
                    poll.reset();
                    idle.reset();
                } else if (polling) {
                    if (!poll.spin()) {
                        LockSupport.parkNanos(poll.sleep());
                    }
                } else {
                    NetPause.park(mine, Wait.Side.DATA, incoming, idle.sleep());
                }
            }
        }
    }
}
