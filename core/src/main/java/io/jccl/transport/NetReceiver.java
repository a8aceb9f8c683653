// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.transport.NetConn.Progress;
import io.jccl.proto.Protocol;
import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetPoller;
import io.jccl.transport.net.NetRequest;
import io.jccl.transport.net.RecvComm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The receiving half of the proxy: {@code T} threads of this process, each serving some of its
 * receiving connections. For each, it posts an {@code irecv} into every free slot of the FIFO in
 * order (a Simple FIFO's slots, up to {@link Protocol#STEPS}; an LL or LL128 FIFO's one staging
 * buffer, whose message {@link Fifo#send} then packs into lines) and publishes each message, in
 * order, once {@code test} says it arrived. A thread whose connections all wait for the network
 * sleeps in its {@link NetPoller}, which an arriving frame wakes; one whose connection waits for
 * a free slot parks as that FIFO's room waiter, which the lane's release wakes (polling the
 * network meanwhile, with short sleeps, when other connections wait on it).
 */
final class NetReceiver extends NetHalf<NetReceiver.Conn> {
    /** One receiving connection; its state is guarded by {@code this} (its thread, and a closing rank). */
    static final class Conn extends NetConn<RecvComm> {
        /** The largest message a slot holds. */
        final long capacity;
        /** Receives posted at most: the slots, or the one staging buffer. */
        private final int limit;
        /** Receives posted, oldest first, from {@code first} (a ring of STEPS). */
        private final NetRequest[] posted = new NetRequest[Protocol.STEPS];
        private int first;
        private int count;
        private boolean detached;

        Conn(Fifo fifo, RecvComm comm, MemoryHandle memory, long capacity) {
            super(fifo, comm, memory);
            this.capacity = capacity;
            this.limit = fifo instanceof LineFifo ? 1 : Protocol.STEPS;
        }

        /** Where message {@code seq} is received. */
        private long offset(long seq) {
            return fifo instanceof LineFifo ? 0 : fifo.slotOffset(seq);
        }

        /** Publishes what arrived and posts into free slots: MOVED, NET (receives wait on the network), ROOM (none posted, no slot free). */
        synchronized Progress progress(Net net, NetTrace trace) throws IOException {
            if (detached) {
                return Progress.IDLE;
            }
            boolean moved = false;
            while (count > 0 && net.test(posted[first])) {
                long size = posted[first].size();
                int stamp = posted[first].stamp();
                posted[first] = null;
                first = (first + 1) % Protocol.STEPS;
                count--;
                trace.event("arrived", fifo, fifo.tail(), size, stamp);
                fifo.send(memory.region(), offset(fifo.tail()), size, false, stamp);
                moved = true;
            }
            while (count < limit && fifo.tail() + count - fifo.head() < Protocol.STEPS) {
                NetRequest r = net.irecv(comm, memory.region(), offset(fifo.tail() + count), capacity, memory);
                if (r == null) {
                    break;
                }
                posted[(first + count) % Protocol.STEPS] = r;
                trace.event("irecv", fifo, fifo.tail() + count, -1, 0);
                count++;
                moved = true;
            }
            return moved ? Progress.MOVED : count > 0 ? Progress.NET : Progress.ROOM;
        }

        /** Stops receiving (its rank closed; its FIFO goes with the rank's arena). */
        synchronized void detach(Net net) {
            if (!detached) {
                detached = true;
                net.deregister(memory);
                net.closeRecv(comm);
            }
        }

        synchronized boolean detached() {
            return detached;
        }

        /** Whether a slot came free where none was and nothing is posted (false once detached: its memory may be gone). */
        @Override
        synchronized boolean ready() {
            return !detached && count == 0 && fifo.hasRoom();
        }
    }

    NetReceiver(NetProxy proxy, int threads) {
        super(proxy);
        List<Worker> all = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                all.add(new Worker(proxy.net.poller()));
            }
        } catch (IOException e) {
            all.forEach(w -> w.poller.close());
            throw new java.io.UncheckedIOException("cannot make a poller for the network transport", e);
        }
        start(all, "jccl-net-recv-");
    }

    /** Stops receiving on the connections {@code rank} receives on (it closed; its FIFOs go with its arena). */
    void detach(int rank) {
        for (Conn c : conns) {
            if (c.fifo.to == rank) {
                c.detach(proxy.net);
                conns.remove(c);
            }
        }
        wakeAll();
    }

    private final class Worker extends NetHalf.Worker<Conn> {
        final NetPoller poller;

        Worker(NetPoller poller) {
            this.poller = poller;
        }

        @Override
        void wake() {
            poller.wakeup();
            super.wake();
        }

        @Override
        public void run() {
            NetPause poll = new NetPause(Wait.Pacing.NET_POLL);
            NetPause idle = new NetPause(Wait.Pacing.NET_IDLE);
            Conn current = null;
            try {
                while (!proxy.watch.aborted()) {
                    for (Conn c; (c = incoming.poll()) != null; ) {
                        current = c;
                        poller.add(c.comm);
                        mine.add(c);
                    }
                    boolean moved = false;
                    boolean network = false;
                    boolean room = false;
                    boolean polling = false;
                    for (int i = 0; i < mine.size(); i++) {
                        Conn c = current = mine.get(i);
                        Progress r = c.progress(proxy.net, proxy.trace);
                        if (r == Progress.IDLE && c.detached()) {
                            poller.remove(c.comm);
                            mine.remove(i--);
                        }
                        moved |= r == Progress.MOVED;
                        network |= r == Progress.NET;
                        room |= r == Progress.ROOM;
                        // A FIFO in another's memory (a GPU's) cannot wake this thread: it polls.
                        polling |= r == Progress.ROOM && c.fifo.shared;
                    }
                    current = null;
                    if (moved) {
                        poll.reset();
                        idle.reset();
                    } else if (!room) {
                        poller.await(idle.sleep());
                    } else if (network || polling) {
                        // Frames and a lane's release both matter: look at the network, then a short park.
                        if (!poller.await(0) && !poll.spin()) {
                            NetPause.park(mine, Wait.Side.ROOM, incoming, poll.sleep());
                        }
                    } else {
                        NetPause.park(mine, Wait.Side.ROOM, incoming, idle.sleep());
                    }
                }
            } catch (IOException | RuntimeException e) {
                if (current != null) {
                    proxy.lost(current.fifo.to, current.fifo.from, e);
                } else {
                    proxy.lost(proxy.peers.localRanks()[0], -1, e);
                }
            } finally {
                poller.close();
            }
        }
    }
}
