package io.jccl.transport;

import io.jccl.proto.Protocol;
import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetPoller;
import io.jccl.transport.net.NetRequest;
import io.jccl.transport.net.RecvComm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

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
final class NetReceiver {
    static final int IDLE = 0;
    static final int MOVED = 1;
    /** Receives are posted and wait on the network. */
    static final int NET = 2;
    /** Nothing posted: the FIFO has no free slot. */
    static final int ROOM = 3;

    /** One receiving connection; its state is guarded by {@code this} (its thread, and a closing rank). */
    static final class Conn {
        final Fifo fifo;
        final RecvComm comm;
        final MemoryHandle memory;
        /** Where messages are received: a Simple FIFO's memory (all slots), a line FIFO's staging buffer. */
        final MemorySegment region;
        /** The largest message a slot holds. */
        final long capacity;
        /** Receives posted at most: the slots, or the one staging buffer. */
        private final int limit;
        /** Receives posted, oldest first, from {@code first} (a ring of STEPS). */
        private final NetRequest[] posted = new NetRequest[Protocol.STEPS];
        private int first;
        private int count;
        private boolean detached;

        Conn(Fifo fifo, RecvComm comm, MemoryHandle memory, MemorySegment region, long capacity) {
            this.fifo = fifo;
            this.comm = comm;
            this.memory = memory;
            this.region = region;
            this.capacity = capacity;
            this.limit = fifo instanceof LineFifo ? 1 : Protocol.STEPS;
        }

        /** Where message {@code seq} is received. */
        private long offset(long seq) {
            return fifo instanceof LineFifo ? 0 : fifo.slotOffset(seq);
        }

        /** Publishes what arrived and posts into free slots: MOVED, NET (receives wait on the network), ROOM (none posted, no slot free). */
        synchronized int progress(Net net) throws IOException {
            if (detached) {
                return IDLE;
            }
            boolean moved = false;
            while (count > 0 && net.test(posted[first])) {
                long size = posted[first].size();
                posted[first] = null;
                first = (first + 1) % Protocol.STEPS;
                count--;
                fifo.send(region, offset(fifo.tail()), size, false);
                moved = true;
            }
            while (count < limit && fifo.tail() + count - fifo.head() < Protocol.STEPS) {
                NetRequest r = net.irecv(comm, region, offset(fifo.tail() + count), capacity, memory);
                if (r == null) {
                    break;
                }
                posted[(first + count) % Protocol.STEPS] = r;
                count++;
                moved = true;
            }
            return moved ? MOVED : count > 0 ? NET : ROOM;
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
        synchronized boolean roomCame() {
            return !detached && count == 0 && fifo.hasRoom();
        }
    }

    private final NetProxy proxy;
    private final Worker[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final List<Conn> conns = new CopyOnWriteArrayList<>();

    NetReceiver(NetProxy proxy, int threads) {
        this.proxy = proxy;
        this.workers = new Worker[threads];
        try {
            for (int t = 0; t < threads; t++) {
                workers[t] = new Worker(proxy.net.poller());
                workers[t].thread = Thread.ofPlatform().daemon().name("jccl-net-recv-" + t).unstarted(workers[t]);
            }
        } catch (IOException e) {
            for (Worker w : workers) {
                if (w != null) {
                    w.poller.close();
                }
            }
            throw new java.io.UncheckedIOException("cannot make a poller for the network transport", e);
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    /** Serves an accepted connection, on the threads in turn. */
    void add(Conn c) {
        conns.add(c);
        Worker w = workers[Math.floorMod(next.getAndIncrement(), workers.length)];
        w.incoming.add(c);
        w.wake();
    }

    /** Stops receiving on the connections {@code rank} receives on (it closed; its FIFOs go with its arena). */
    void detach(int rank) {
        for (Conn c : conns) {
            if (c.fifo.to == rank) {
                c.detach(proxy.net);
                conns.remove(c);
            }
        }
        for (Worker w : workers) {
            w.wake();
        }
    }

    void close() {
        for (Worker w : workers) {
            w.wake();
        }
    }

    private final class Worker implements Runnable {
        Thread thread;
        final NetPoller poller;
        final ConcurrentLinkedQueue<Conn> incoming = new ConcurrentLinkedQueue<>();
        private final List<Conn> mine = new ArrayList<>();

        Worker(NetPoller poller) {
            this.poller = poller;
        }

        void wake() {
            poller.wakeup();
            LockSupport.unpark(thread);
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
                        int r = c.progress(proxy.net);
                        if (r == IDLE && c.detached()) {
                            poller.remove(c.comm);
                            mine.remove(i--);
                        }
                        moved |= r == MOVED;
                        network |= r == NET;
                        room |= r == ROOM;
                        // A FIFO in another's memory (a GPU's) cannot wake this thread: it polls.
                        polling |= r == ROOM && c.fifo.shared;
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
                            parkForRoom(poll.sleep());
                        }
                    } else {
                        parkForRoom(idle.sleep());
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

        /** Parks as the room waiter of the FIFOs that have none (a lane's release wakes it), unless one has room now. */
        private void parkForRoom(long nanos) {
            Thread me = Thread.currentThread();
            for (int i = 0; i < mine.size(); i++) {
                mine.get(i).fifo.roomWaiter = me;
            }
            try {
                for (int i = 0; i < mine.size(); i++) {
                    if (mine.get(i).roomCame()) {
                        return;
                    }
                }
                if (incoming.isEmpty()) {
                    LockSupport.parkNanos(nanos);
                }
            } finally {
                for (int i = 0; i < mine.size(); i++) {
                    Fifo f = mine.get(i).fifo;
                    if (f.roomWaiter == me) {
                        f.roomWaiter = null;
                    }
                }
            }
        }
    }
}
