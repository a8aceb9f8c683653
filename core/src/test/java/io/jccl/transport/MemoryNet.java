// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.transport.net.ListenComm;
import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.MemoryKind;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetComm;
import io.jccl.transport.net.NetHandle;
import io.jccl.transport.net.NetPoller;
import io.jccl.transport.net.NetProperties;
import io.jccl.transport.net.NetRequest;
import io.jccl.transport.net.RecvComm;
import io.jccl.transport.net.SendComm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Net} with no sockets: connections are queues of byte arrays between the nets of one
 * {@link Fabric}, so a test can drive the proxy over it and see that the proxy needs nothing of
 * the socket net. It keeps the interface's contract as a real net must (requests per comm, null
 * when all are in flight, in-order matching, a message above the posted size fails, END on
 * close) and a send completes only on its second test, so the proxy's waits on the net run too.
 * {@link Fabric#breakAll} breaks every connection, as a dead peer would.
 */
final class MemoryNet implements Net {
    static final int REQUESTS = 3;

    /** The "network" the nets of one test share: listeners by number. */
    static final class Fabric {
        final Map<Integer, Listener> listeners = new ConcurrentHashMap<>();
        final AtomicInteger next = new AtomicInteger();
        final Set<Pipe> pipes = ConcurrentHashMap.newKeySet();

        void breakAll() {
            for (Pipe p : pipes) {
                p.broken = true;
                p.wake();
            }
        }
    }

    static final class Listener implements ListenComm {
        final int id;
        final LinkedBlockingQueue<Recv> accepted = new LinkedBlockingQueue<>();

        Listener(int id) {
            this.id = id;
        }

        @Override
        public NetHandle handle() {
            return new NetHandle(ByteBuffer.allocate(4).putInt(id).array());
        }
    }

    /** One connection: messages in flight, the END mark, and the thread to wake when one comes. */
    static final class Pipe {
        final ConcurrentLinkedQueue<Message> messages = new ConcurrentLinkedQueue<>();
        volatile boolean ended;
        volatile boolean broken;
        volatile Thread waiter;

        void wake() {
            Thread t = waiter;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** A message in flight and its stamp. */
    record Message(byte[] bytes, int stamp) {
    }

    static final class Request implements NetRequest {
        final Comm comm;
        MemorySegment data;
        long offset;
        long size;
        int stamp;
        long max;
        int tests;
        boolean busy;

        Request(Comm comm) {
            this.comm = comm;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public int stamp() {
            return stamp;
        }
    }

    abstract static class Comm implements NetComm {
        final long tag;
        final Pipe pipe;
        final Request[] ring = new Request[REQUESTS];
        long posted;
        long done;

        Comm(long tag, Pipe pipe) {
            this.tag = tag;
            this.pipe = pipe;
            for (int i = 0; i < REQUESTS; i++) {
                ring[i] = new Request(this);
            }
        }

        @Override
        public long tag() {
            return tag;
        }

        /** The next request, over {@code data + offset}, with its size (a send's) or -1 (a receive's); null when none is free. */
        Request post(MemorySegment data, long offset, long size) {
            Request r = ring[(int) (posted % REQUESTS)];
            if (r.busy) {
                return null;
            }
            posted++;
            r.busy = true;
            r.tests = 0;
            r.data = data;
            r.offset = offset;
            r.size = size;
            return r;
        }
    }

    static final class Send extends Comm implements SendComm {
        Send(long tag, Pipe pipe) {
            super(tag, pipe);
        }
    }

    static final class Recv extends Comm implements RecvComm {
        Recv(long tag, Pipe pipe) {
            super(tag, pipe);
        }
    }

    record Memory(MemorySegment region, MemoryKind kind) implements MemoryHandle {
    }

    private final Fabric fabric;
    private final java.util.function.LongFunction<String> names;
    /** Registrations not yet deregistered, and receiving comms closed: what a test looks at. */
    final Set<MemoryHandle> registered = ConcurrentHashMap.newKeySet();
    final Set<Long> closedRecvs = ConcurrentHashMap.newKeySet();

    MemoryNet(Fabric fabric, java.util.function.LongFunction<String> names) {
        this.fabric = fabric;
        this.names = names;
    }

    @Override
    public String name() {
        return "Memory";
    }

    @Override
    public int devices() {
        return 1;
    }

    @Override
    public NetProperties properties(int device) {
        return new NetProperties("memory", null, 1, Set.of(MemoryKind.HOST), REQUESTS);
    }

    @Override
    public int proxyThreads() {
        return 2;
    }

    @Override
    public String connectionShape() {
        return "1 queue per connection";
    }

    @Override
    public ListenComm listen(int device) {
        Listener l = new Listener(fabric.next.getAndIncrement());
        fabric.listeners.put(l.id, l);
        return l;
    }

    @Override
    public SendComm connect(int device, NetHandle handle, long tag, long deadline) throws IOException {
        Listener l = fabric.listeners.get(ByteBuffer.wrap(handle.bytes()).getInt());
        if (l == null) {
            throw new IOException("no listener " + handle);
        }
        Pipe p = new Pipe();
        fabric.pipes.add(p);
        l.accepted.add(new Recv(tag, p));
        return new Send(tag, p);
    }

    @Override
    public RecvComm accept(ListenComm listener, long deadline) throws IOException {
        try {
            return ((Listener) listener).accepted.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    @Override
    public MemoryHandle register(NetComm comm, MemorySegment region, MemoryKind kind) {
        Memory m = new Memory(region, kind);
        registered.add(m);
        return m;
    }

    @Override
    public void deregister(MemoryHandle memory) {
        registered.remove(memory);
    }

    @Override
    public NetRequest isend(SendComm comm, MemorySegment data, long offset, long size, MemoryHandle memory, int stamp) {
        Request r = ((Send) comm).post(data, offset, size);
        if (r != null) {
            r.stamp = stamp;
        }
        return r;
    }

    @Override
    public NetRequest irecv(RecvComm comm, MemorySegment data, long offset, long maxSize, MemoryHandle memory) {
        Request r = ((Recv) comm).post(data, offset, -1);
        if (r != null) {
            r.max = maxSize;
        }
        return r;
    }

    @Override
    public boolean test(NetRequest request) throws IOException {
        Request r = (Request) request;
        Comm c = r.comm;
        if (c.pipe.broken) {
            throw new IOException("the wire broke under " + names.apply(c.tag));
        }
        if (c instanceof Send) {
            // Sent on the second look: the bytes leave now, the request is done then.
            if (r.tests++ == 0) {
                c.pipe.messages.add(new Message(r.data.asSlice(r.offset, r.size).toArray(ValueLayout.JAVA_BYTE), r.stamp));
                c.pipe.wake();
                return false;
            }
        } else {
            // Messages fill the posted receives in order.
            while (c.done < c.posted) {
                Request next = c.ring[(int) (c.done % REQUESTS)];
                Message msg = c.pipe.messages.poll();
                if (msg == null) {
                    break;
                }
                byte[] m = msg.bytes();
                next.stamp = msg.stamp();
                if (m.length > next.max) {
                    throw new IOException("a message of " + m.length + " bytes, beyond the " + next.max + " posted on " + names.apply(c.tag));
                }
                MemorySegment.copy(MemorySegment.ofArray(m), 0, next.data, next.offset, m.length);
                next.size = m.length;
                c.done++;
            }
            if (r.size < 0) {
                return false;
            }
        }
        r.busy = false;
        return true;
    }

    @Override
    public NetPoller poller() {
        return new NetPoller() {
            private final Set<Recv> comms = ConcurrentHashMap.newKeySet();
            private volatile Thread waiting;

            @Override
            public void add(RecvComm comm) {
                comms.add((Recv) comm);
            }

            @Override
            public void remove(RecvComm comm) {
                comms.remove(comm);
            }

            @Override
            public boolean await(long nanos) {
                Thread me = Thread.currentThread();
                waiting = me;
                comms.forEach(c -> c.pipe.waiter = me);
                for (Recv c : comms) {
                    if (!c.pipe.messages.isEmpty() || c.pipe.broken) {
                        return true;
                    }
                }
                if (nanos > 0) {
                    LockSupport.parkNanos(nanos);
                }
                return false;
            }

            @Override
            public void wakeup() {
                Thread t = waiting;
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }

            @Override
            public void close() {
                comms.clear();
            }
        };
    }

    @Override
    public void closeSend(SendComm comm, long deadline) {
        Pipe p = ((Send) comm).pipe;
        p.ended = true;
        p.wake();
    }

    @Override
    public void closeRecv(RecvComm comm) {
        ((Recv) comm).pipe.waiter = null;
        closedRecvs.add(comm.tag());
    }

    @Override
    public void closeListen(ListenComm listener) {
        fabric.listeners.remove(((Listener) listener).id);
    }

    @Override
    public void close() {
        // the fabric goes with the test
    }
}
