// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.transport.NetConn.Progress;
import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetRequest;
import io.jccl.transport.net.SendComm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
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
        private boolean ended;

        Conn(Fifo fifo, SendComm comm, MemoryHandle memory) {
            super(fifo, comm, memory);
        }

        /** Sends what it can: MOVED when a message was posted or released, NET when one waits on the net, else IDLE. */
        synchronized Progress progress(Net net) throws IOException {
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
                    moved = true;
                }
                if (!fifo.hasData()) {
                    return moved ? Progress.MOVED : Progress.IDLE;
                }
                MemorySegment data = fifo.recvSegment();
                NetRequest r = net.isend(comm, data, fifo.recvOffset(), fifo.recvSize(), data == memory.region() ? memory : null,
                        fifo.recvStamp());
                if (r == null) {
                    return moved ? Progress.MOVED : Progress.NET;
                }
                inFlight = r;
                moved = true;
            }
        }

        /** Ends the connection (its rank closed): the net tells the receiver, by {@code deadline}. */
        synchronized void end(Net net, long deadline) {
            if (!ended) {
                ended = true;
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
                        r = c.progress(proxy.net);
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
