package io.jccl.transport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The sending half of the socket transport: {@code T} proxy threads of this process, each serving
 * socket {@code i} of every sending connection with {@code i mod T} equal to its index. The first
 * thread with nothing to do takes the FIFO's next message (its size, and where it lies: the slot,
 * or the sender's memory for a by-reference message), every socket writes its chunk with
 * non-blocking writes, and the last one done releases the message. An idle thread parks registered
 * as the FIFOs' data waiter, so a lane's send wakes it at once; a thread whose socket is full polls
 * with short parks (the link is busy then, latency does not matter).
 */
final class NetSender {
    private static final long MAX_FULL_PARK_NANOS = 50_000;
    private static final long MAX_IDLE_PARK_NANOS = 10_000_000;

    /** One sending connection: its FIFO, sockets, and the message being written (guarded by {@code this}). */
    static final class Conn {
        final Fifo fifo;
        final SocketChannel[] socks;
        /** The message being written: its number (-1: none), size, memory and chunks not yet written. */
        long seq = -1;
        long size;
        MemorySegment segment;
        long offset;
        int left;
        /** The next message's number. */
        long next;
        /** Threads serving this connection, woken when a message opens. */
        final Thread[] servers;
        /** Set once its rank closed: the threads leave it alone. */
        volatile boolean ended;

        Conn(Fifo fifo, SocketChannel[] socks, Thread[] servers) {
            this.fifo = fifo;
            this.socks = socks;
            this.servers = servers;
        }

        /** Takes the FIFO's next message if none is being written; true when one is being written. */
        synchronized boolean open() {
            if (seq >= 0) {
                return true;
            }
            if (!fifo.hasData()) {
                return false;
            }
            seq = next++;
            size = fifo.recvSize();
            segment = fifo.recvSegment();
            offset = fifo.recvOffset();
            left = NetProxy.chunks(size, socks.length);
            for (Thread t : servers) {
                if (t != Thread.currentThread()) {
                    LockSupport.unpark(t);
                }
            }
            return true;
        }

        /** One chunk of message {@code s} is written; the last one releases the message and wakes the other threads for the next. */
        synchronized void written(long s) {
            if (s == seq && --left == 0) {
                seq = -1;
                segment = null;
                fifo.release();
                for (Thread t : servers) {
                    if (t != Thread.currentThread()) {
                        LockSupport.unpark(t);
                    }
                }
            }
        }

        /** Whether a message waits in the FIFO and none is being written. */
        synchronized boolean waiting() {
            return seq < 0 && fifo.hasData();
        }
    }

    /** Socket {@code index} of a connection, as one thread serves it. */
    private static final class Socket {
        final Conn conn;
        final int index;
        final ByteBuffer header = ByteBuffer.allocate(NetProxy.FRAME);
        /** The frame being written: message number (-1: none), header and data left. */
        long seq = -1;
        ByteBuffer data;
        /** The last message this socket finished (wrote its chunk, or had none). */
        long done = -1;

        Socket(Conn conn, int index) {
            this.conn = conn;
            this.index = index;
        }
    }

    private final NetProxy proxy;
    private final Worker[] workers;
    private final java.util.List<Conn> conns = new java.util.concurrent.CopyOnWriteArrayList<>();

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

    /** Serves a connected sending connection: socket {@code i} by thread {@code i mod T}. */
    void add(Fifo f, SocketChannel[] socks) throws IOException {
        int used = Math.min(workers.length, socks.length);
        Thread[] servers = new Thread[used];
        for (int t = 0; t < used; t++) {
            servers[t] = workers[t].thread;
        }
        Conn c = new Conn(f, socks, servers);
        conns.add(c);
        for (SocketChannel ch : socks) {
            ch.configureBlocking(false);
        }
        for (int i = 0; i < socks.length; i++) {
            Worker w = workers[i % workers.length];
            w.incoming.add(new Socket(c, i));
            LockSupport.unpark(w.thread);
        }
    }

    /** Every connection {@code rank} sends on: ends it with an END frame on each socket (written by {@code deadline}), closes it. */
    void end(int rank, long deadline) {
        for (Conn c : conns) {
            if (c.fifo.from != rank) {
                continue;
            }
            synchronized (c) {
                c.ended = true;
            }
            for (SocketChannel ch : c.socks) {
                ByteBuffer b = ByteBuffer.allocate(NetProxy.FRAME).putLong(NetProxy.END).putInt(0).putInt(0).flip();
                try {
                    while (b.hasRemaining() && System.nanoTime() < deadline) {
                        if (ch.write(b) == 0) {
                            LockSupport.parkNanos(100_000);
                        }
                    }
                } catch (IOException e) {
                    // the peer is gone already: nothing to tell it
                }
                NetProxy.closeQuietly(ch);
            }
            conns.remove(c);
        }
    }

    void close() {
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
    }

    private final class Worker implements Runnable {
        Thread thread;
        final ConcurrentLinkedQueue<Socket> incoming = new ConcurrentLinkedQueue<>();
        private final List<Socket> mine = new ArrayList<>();

        @Override
        public void run() {
            int idle = 0;
            long park = 1_000;
            while (!proxy.closed() && !proxy.owner.aborted()) {
                for (Socket s; (s = incoming.poll()) != null; ) {
                    mine.add(s);
                }
                mine.removeIf(s -> s.conn.ended);
                boolean progress = false;
                boolean full = false;
                for (Socket s : mine) {
                    try {
                        int r = step(s);
                        progress |= r > 0;
                        full |= r < 0;
                    } catch (IOException | RuntimeException e) {
                        proxy.lost(s.conn.fifo.from, s.conn.fifo.to, e);
                        return;
                    }
                }
                if (progress) {
                    idle = 0;
                    park = 1_000;
                } else if (++idle < 64) {
                    Thread.onSpinWait();
                } else if (full || mine.stream().anyMatch(s -> s.conn.fifo.shared)) {
                    // A full socket, or a FIFO whose writer cannot unpark this thread (a GPU's, in
                    // pinned host memory): short parks, growing while nothing comes.
                    LockSupport.parkNanos(park);
                    park = Math.min(MAX_FULL_PARK_NANOS, park * 2);
                } else {
                    parkForData();
                }
            }
        }

        /** Parks until a lane sends on one of this thread's FIFOs (it registers as their data waiter first, then looks again). */
        private void parkForData() {
            Thread me = Thread.currentThread();
            for (Socket s : mine) {
                s.conn.fifo.dataWaiter = me;
            }
            try {
                for (Socket s : mine) {
                    if (s.conn.waiting()) {
                        return;
                    }
                }
                if (incoming.isEmpty()) {
                    LockSupport.parkNanos(MAX_IDLE_PARK_NANOS);
                }
            } finally {
                for (Socket s : mine) {
                    if (s.conn.fifo.dataWaiter == me) {
                        s.conn.fifo.dataWaiter = null;
                    }
                }
            }
        }

        /** Moves one socket on: 1 when it wrote something or finished, 0 when it had nothing to do, -1 when its socket is full. */
        private int step(Socket s) throws IOException {
            Conn c = s.conn;
            if (c.ended) {
                return 0;
            }
            if (s.seq < 0) {
                long seq;
                long size;
                MemorySegment seg;
                long off;
                synchronized (c) {
                    if (!c.open() || c.seq <= s.done) {
                        return 0;
                    }
                    seq = c.seq;
                    size = c.size;
                    seg = c.segment;
                    off = c.offset;
                }
                int k = c.socks.length;
                s.done = seq;
                if (s.index >= NetProxy.chunks(size, k)) {
                    return 1;
                }
                long len = NetProxy.chunkLength(size, k, s.index);
                s.header.clear().putLong(seq).putInt((int) size).putInt((int) len).flip();
                s.data = seg.asSlice(off + s.index * NetProxy.chunkBytes(size, k), len).asByteBuffer();
                s.seq = seq;
            }
            SocketChannel ch = c.socks[s.index];
            long wrote = s.header.hasRemaining() ? ch.write(new ByteBuffer[] {s.header, s.data}) : ch.write(s.data);
            if (s.header.hasRemaining() || s.data.hasRemaining()) {
                return wrote > 0 ? 1 : -1;
            }
            long seq = s.seq;
            s.seq = -1;
            s.data = null;
            c.written(seq);
            return 1;
        }
    }
}
