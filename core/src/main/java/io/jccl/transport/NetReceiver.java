package io.jccl.transport;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The receiving half of the socket transport: {@code T} proxy threads of this process, each
 * waiting in a selector on the sockets it serves (socket {@code i} of a connection by thread
 * {@code i mod T}), so a frame is read as soon as it arrives. Each socket reads its frame header,
 * checks it (message number in order, size within the slot, the chunk's length from the size),
 * then reads the chunk straight into the FIFO's free slot (or its staging buffer) at the chunk's
 * place; the socket that completes a message publishes it to the lane. A socket whose frame must
 * wait (no free slot yet, or it belongs to a later message than the one being assembled) stops
 * being selected and is retried with short parks, as the FIFO's room waiter.
 */
final class NetReceiver {
    private static final long MAX_STALL_PARK_NANOS = 50_000;
    private static final int PROGRESS = 1;
    private static final int NOTHING = 0;
    private static final int STALLED = -1;

    /** One receiving connection: its FIFO, sockets, and the message being assembled (guarded by {@code this}). */
    static final class Conn {
        final Fifo fifo;
        final int count;
        /** The largest message the FIFO holds. */
        final long capacity;
        final SocketChannel[] socks;
        private int placed;
        /** The message being assembled: its number, size (-1: no header seen yet), where it goes, chunks to come. */
        long seq;
        long size = -1;
        boolean open;
        MemorySegment segment;
        long offset;
        int left;
        Worker[] servers = new Worker[0];
        /** Set once its rank closed (its FIFO is gone): nothing more is read. */
        volatile boolean detached;

        Conn(Fifo fifo, int count, long capacity) {
            this.fifo = fifo;
            this.count = count;
            this.capacity = capacity;
            this.socks = new SocketChannel[count];
        }

        /**
         * Takes socket {@code index}: 1 when it was the last one missing (the caller then serves the
         * connection), 0 when others are still missing, -1 if it came already or the socket count differs.
         */
        synchronized int place(int index, int n, SocketChannel ch) {
            if (n != count || socks[index] != null) {
                return -1;
            }
            socks[index] = ch;
            return ++placed == count ? 1 : 0;
        }
    }

    /** Socket {@code index} of a connection, as one thread serves it. */
    private static final class Socket {
        final Conn conn;
        final int index;
        final ByteBuffer header = ByteBuffer.allocate(NetProxy.FRAME);
        /** The frame: 0 reading its header, 1 header checked and waiting for its message, 2 reading its data. */
        int state;
        long seq;
        long size;
        long length;
        ByteBuffer data;
        /** The last message number this socket brought. */
        long last = -1;
        SelectionKey key;
        /** The sender ended this socket (an END frame): nothing more comes, and its close is no loss. */
        boolean ended;
        /** Why it last stalled: no free slot (true), or its frame is for a later message (false: another socket wakes it). */
        boolean forRoom;

        Socket(Conn conn, int index) {
            this.conn = conn;
            this.index = index;
        }
    }

    private final NetProxy proxy;
    private final Worker[] workers;
    private final java.util.List<Conn> conns = new java.util.concurrent.CopyOnWriteArrayList<>();

    NetReceiver(NetProxy proxy, int threads) {
        this.proxy = proxy;
        this.workers = new Worker[threads];
        try {
            for (int t = 0; t < threads; t++) {
                workers[t] = new Worker(Selector.open());
                workers[t].thread = Thread.ofPlatform().daemon().name("jccl-net-recv-" + t).unstarted(workers[t]);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot open a selector for the socket transport", e);
        }
        for (Worker w : workers) {
            w.thread.start();
        }
    }

    /** Serves a receiving connection whose sockets all arrived: socket {@code i} by thread {@code i mod T}. */
    void add(Conn c) {
        conns.add(c);
        int used = Math.min(workers.length, c.count);
        Worker[] servers = new Worker[used];
        System.arraycopy(workers, 0, servers, 0, used);
        synchronized (c) {
            c.servers = servers;
        }
        for (int i = 0; i < c.count; i++) {
            Worker w = workers[i % workers.length];
            w.incoming.add(new Socket(c, i));
            w.wake();
        }
    }

    /** Stops reading the connections {@code rank} receives on (it closed; its FIFOs go with its arena). */
    void detach(int rank) {
        for (Conn c : conns) {
            if (c.fifo.to == rank) {
                c.detached = true;
                conns.remove(c);
                for (Worker w : c.servers) {
                    w.wake();
                }
            }
        }
    }

    void close() {
        for (Worker w : workers) {
            try {
                w.selector.close();
            } catch (IOException e) {
                // closing anyway
            }
            LockSupport.unpark(w.thread);
        }
    }

    /** Checks a frame header against the connection; throws naming what is wrong. */
    private static IOException badFrame(Socket s, String what) {
        return new IOException("a bad frame on socket " + s.index + " of " + s.conn.count + " (" + s.conn.fifo + "): " + what);
    }

    final class Worker implements Runnable {
        Thread thread;
        final Selector selector;
        final ConcurrentLinkedQueue<Socket> incoming = new ConcurrentLinkedQueue<>();
        private final List<Socket> stalled = new ArrayList<>();

        Worker(Selector selector) {
            this.selector = selector;
        }

        void wake() {
            selector.wakeup();
            LockSupport.unpark(thread);
        }

        @Override
        public void run() {
            long park = 1_000;
            Socket current = null;
            try {
                while (!proxy.closed() && !proxy.owner.aborted()) {
                    for (Socket s; (s = incoming.poll()) != null; ) {
                        s.key = s.conn.socks[s.index].register(selector, SelectionKey.OP_READ, s);
                    }
                    boolean progress = false;
                    for (int i = 0; i < stalled.size(); i++) {
                        Socket s = current = stalled.get(i);
                        int r = drain(s);
                        if (r != STALLED) {
                            progress = true;
                            stalled.remove(i--);
                            if (s.key.isValid()) {
                                s.key.interestOps(SelectionKey.OP_READ);
                            }
                        }
                    }
                    // Frames and the other sockets' completions wake a select; a lane freeing a slot
                    // unparks, so sockets waiting for room are polled with short parks instead.
                    boolean forRoom = stalled.stream().anyMatch(s -> s.forRoom);
                    if (forRoom) {
                        selector.selectNow();
                    } else {
                        selector.select(1000);
                    }
                    for (SelectionKey k : selector.selectedKeys()) {
                        Socket s = current = (Socket) k.attachment();
                        int r = drain(s);
                        progress |= r == PROGRESS;
                        if (r == STALLED && k.isValid()) {
                            k.interestOps(0);
                            stalled.add(s);
                        }
                    }
                    selector.selectedKeys().clear();
                    current = null;
                    if (progress || !forRoom) {
                        park = 1_000;
                    } else {
                        parkStalled(park);
                        park = Math.min(MAX_STALL_PARK_NANOS, park * 2);
                    }
                }
            } catch (ClosedSelectorException e) {
                // closed with the proxy
            } catch (IOException | RuntimeException e) {
                if (current != null) {
                    proxy.lost(current.conn.fifo.to, current.conn.fifo.from, e);
                } else {
                    proxy.lost(proxy.peers.localRanks()[0], -1, e);
                }
            }
        }

        /** Parks a little as the room waiter of the FIFOs stalled sockets wait on (a lane's release wakes it). */
        private void parkStalled(long nanos) {
            Thread me = Thread.currentThread();
            for (Socket s : stalled) {
                if (s.forRoom) {
                    s.conn.fifo.roomWaiter = me;
                }
            }
            try {
                for (Socket s : stalled) {
                    if (s.forRoom && s.conn.fifo.hasRoom()) {
                        return;
                    }
                }
                LockSupport.parkNanos(nanos);
            } finally {
                for (Socket s : stalled) {
                    if (s.conn.fifo.roomWaiter == me) {
                        s.conn.fifo.roomWaiter = null;
                    }
                }
            }
        }

        /** Steps a socket until it would block (PROGRESS if it read or delivered anything, else NOTHING) or stalls (STALLED). */
        private int drain(Socket s) throws IOException {
            if (s.conn.detached || s.ended) {
                s.key.cancel();
                return NOTHING;
            }
            int any = NOTHING;
            for (int r; (r = step(s)) != NOTHING; ) {
                if (r == STALLED) {
                    return STALLED;
                }
                any = PROGRESS;
                if (s.ended) {
                    s.key.cancel();
                    break;
                }
            }
            return any;
        }
    }

    /** Moves one socket one state on: PROGRESS, NOTHING (it would block) or STALLED (its frame must wait). */
    private int step(Socket s) throws IOException {
        Conn c = s.conn;
        SocketChannel ch = c.socks[s.index];
        if (s.state == 0) {
            if (ch.read(s.header) < 0) {
                throw new EOFException("the connection was closed");
            }
            if (s.header.hasRemaining()) {
                return NOTHING;
            }
            s.header.flip();
            s.seq = s.header.getLong();
            s.size = s.header.getInt() & 0xFFFF_FFFFL;
            s.length = s.header.getInt() & 0xFFFF_FFFFL;
            s.header.clear();
            if (s.seq == NetProxy.END && s.size == 0 && s.length == 0) {
                synchronized (c) {
                    if (c.size >= 0 && s.last < c.seq && s.index < NetProxy.chunks(c.size, c.count)) {
                        throw badFrame(s, "the sender ended the connection within message " + c.seq);
                    }
                }
                s.ended = true;
                return PROGRESS;
            }
            if (s.size > c.capacity) {
                throw badFrame(s, "message " + s.seq + " of " + s.size + " bytes, beyond the " + c.capacity + " a message holds");
            }
            if (s.seq <= s.last) {
                throw badFrame(s, "message " + s.seq + " after message " + s.last);
            }
            s.state = 1;
        }
        if (s.state == 1) {
            synchronized (c) {
                if (s.seq < c.seq) {
                    throw badFrame(s, "message " + s.seq + " while message " + c.seq + " is being received");
                }
                if (s.seq > c.seq) {
                    // Fine while this socket already brought its chunk of the message being assembled, or has
                    // none in it; socket 0 carries a chunk of every message.
                    if (s.last < c.seq && (s.index == 0 || c.size >= 0 && s.index < NetProxy.chunks(c.size, c.count))) {
                        throw badFrame(s, "message " + s.seq + " skips its chunk of message " + c.seq);
                    }
                    s.forRoom = false;
                    return STALLED;
                }
                if (c.size < 0) {
                    c.size = s.size;
                    c.left = NetProxy.chunks(s.size, c.count);
                } else if (c.size != s.size) {
                    throw badFrame(s, "message " + s.seq + " of " + s.size + " bytes, where another socket said " + c.size);
                }
                if (s.index >= NetProxy.chunks(s.size, c.count) || s.length != NetProxy.chunkLength(s.size, c.count, s.index)) {
                    throw badFrame(s, "a chunk of " + s.length + " bytes for chunk " + s.index + " of a message of " + s.size + " bytes");
                }
                if (!c.open) {
                    if (!c.fifo.hasRoom()) {
                        s.forRoom = true;
                        return STALLED;
                    }
                    c.open = true;
                    c.segment = c.fifo.sendSegment();
                    c.offset = c.fifo.sendOffset();
                }
                s.data = c.segment.asSlice(c.offset + s.index * NetProxy.chunkBytes(s.size, c.count), s.length).asByteBuffer();
            }
            s.state = 2;
        }
        if (s.data.hasRemaining()) {
            if (ch.read(s.data) < 0) {
                throw new EOFException("the connection was closed");
            }
            if (s.data.hasRemaining()) {
                return NOTHING;
            }
        }
        s.state = 0;
        s.data = null;
        s.last = s.seq;
        synchronized (c) {
            if (--c.left == 0) {
                c.fifo.send(c.segment, c.offset, c.size, false);
                c.seq++;
                c.size = -1;
                c.open = false;
                c.segment = null;
                for (Worker w : c.servers) {
                    if (w.thread != Thread.currentThread()) {
                        w.wake();
                    }
                }
            }
        }
        return PROGRESS;
    }
}
