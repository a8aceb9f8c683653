package io.jccl.transport;

import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetRequest;
import io.jccl.transport.net.SendComm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
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
final class NetSender {
    static final int IDLE = 0;
    static final int MOVED = 1;
    /** A message waits on the net (not sent yet, or no request free). */
    static final int NET = 2;

    /** One sending connection; its state is guarded by {@code this} (its thread, and a closing rank). */
    static final class Conn {
        final Fifo fifo;
        final SendComm comm;
        final MemoryHandle memory;
        /** The FIFO's own memory, registered; a message elsewhere was passed by reference. */
        final MemorySegment region;
        private NetRequest inFlight;
        private boolean ended;

        Conn(Fifo fifo, SendComm comm, MemoryHandle memory, MemorySegment region) {
            this.fifo = fifo;
            this.comm = comm;
            this.memory = memory;
            this.region = region;
        }

        /** Sends what it can: MOVED when a message was posted or released, NET when one waits on the net, else IDLE. */
        synchronized int progress(Net net) throws IOException {
            if (ended) {
                return IDLE;
            }
            boolean moved = false;
            while (true) {
                if (inFlight != null) {
                    if (!net.test(inFlight)) {
                        return moved ? MOVED : NET;
                    }
                    inFlight = null;
                    fifo.release();
                    moved = true;
                }
                if (!fifo.hasData()) {
                    return moved ? MOVED : IDLE;
                }
                MemorySegment data = fifo.recvSegment();
                NetRequest r = net.isend(comm, data, fifo.recvOffset(), fifo.recvSize(), data == region ? memory : null);
                if (r == null) {
                    return moved ? MOVED : NET;
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
        synchronized boolean waiting() {
            return !ended && fifo.hasData();
        }
    }

    private final NetProxy proxy;
    private final Worker[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final List<Conn> conns = new CopyOnWriteArrayList<>();

    NetSender(NetProxy proxy, int threads) {
        this.proxy = proxy;
        this.workers = new Worker[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Worker();
            workers[t].thread = Thread.ofPlatform().daemon().name("jccl-net-send-" + t).unstarted(workers[t]);
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    /** Serves a connected sending connection, on the threads in turn. */
    void add(Conn c) {
        conns.add(c);
        Worker w = workers[Math.floorMod(next.getAndIncrement(), workers.length)];
        w.incoming.add(c);
        LockSupport.unpark(w.thread);
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

    void close() {
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
    }

    private final class Worker implements Runnable {
        Thread thread;
        final ConcurrentLinkedQueue<Conn> incoming = new ConcurrentLinkedQueue<>();
        private final List<Conn> mine = new ArrayList<>();

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
                    int r;
                    try {
                        r = c.progress(proxy.net);
                    } catch (IOException | RuntimeException e) {
                        proxy.lost(c.fifo.from, c.fifo.to, e);
                        return;
                    }
                    if (r == IDLE && c.ended()) {
                        mine.remove(i--);
                    }
                    moved |= r == MOVED;
                    // A FIFO in another's memory (a GPU's) cannot wake this thread: it polls.
                    polling |= r == NET || c.fifo.shared;
                }
                if (moved) {
                    poll.reset();
                    idle.reset();
                } else if (polling) {
                    if (!poll.spin()) {
                        LockSupport.parkNanos(poll.sleep());
                    }
                } else {
                    parkForData(idle.sleep());
                }
            }
        }

        /** Parks until a lane sends on one of this thread's FIFOs (it registers as their data waiter first, then looks again). */
        private void parkForData(long nanos) {
            Thread me = Thread.currentThread();
            for (int i = 0; i < mine.size(); i++) {
                mine.get(i).fifo.dataWaiter = me;
            }
            try {
                for (int i = 0; i < mine.size(); i++) {
                    if (mine.get(i).waiting()) {
                        return;
                    }
                }
                if (incoming.isEmpty()) {
                    LockSupport.parkNanos(nanos);
                }
            } finally {
                for (int i = 0; i < mine.size(); i++) {
                    Fifo f = mine.get(i).fifo;
                    if (f.dataWaiter == me) {
                        f.dataWaiter = null;
                    }
                }
            }
        }
    }
}
