// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;


import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The socket net (NCCL's net_socket, on the wire jccl's own): each connection is
 * {@code K = T × P} TCP sockets ({@code JCCL_SOCKET_NTHREADS × JCCL_NSOCKS_PERTHREAD}), each opened
 * with an authenticated {@link SocketHeader}; a message is cut into at most {@code K} chunks
 * ({@link SocketFrames}), chunk {@code i} written as a frame on socket {@code i}; a closing sender
 * writes an END frame on each socket. No threads of its own but the listener's: sends and receives
 * progress in the threads that post and test them (the proxy's {@code T} threads per direction),
 * and a {@link SocketPoller} lets those sleep in a selector. TCP_NODELAY everywhere: a small
 * message leaves at once.
 */
public final class SocketNet implements Net {
    /** Requests per comm: as many as a FIFO has slots, the most the proxy posts. */
    private static final int MAX_REQUESTS = 8;

    private final NetSetup setup;
    private final int threads;
    private final int sockets;
    private final NetProperties device;
    private final Set<SocketListener<SocketRecvComm>> listeners = ConcurrentHashMap.newKeySet();
    private final Set<SocketSendComm> sends = ConcurrentHashMap.newKeySet();
    private final Set<SocketRecvComm> recvs = ConcurrentHashMap.newKeySet();
    /** Sockets accepted or connected and not yet in a comm (closed with the net). */
    private final Set<SocketChannel> loose = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** A net for {@code setup} whose connections have {@code threads × socksPerThread} sockets. */
    public SocketNet(NetSetup setup, int threads, int socksPerThread) {
        this.setup = setup;
        this.threads = threads;
        this.sockets = threads * socksPerThread;
        this.device = SocketDevice.describe(setup.bind(), MAX_REQUESTS);
    }

    long commId() {
        return setup.commId();
    }

    byte[] key() {
        return setup.key();
    }

    String name(long tag) {
        return setup.names().apply(tag);
    }

    /** Writes a warning to the communicator's log. */
    void warn(String message) {
        setup.warnings().accept(message);
    }

    void opened(SocketChannel ch) {
        loose.add(ch);
        if (closed) {
            closeQuietly(ch);
        }
    }

    /** Sockets opened and not yet part of a comm (a test's look at what is kept). */
    int looseSockets() {
        return loose.size();
    }

    /** Closes a socket the listener refused, and forgets it. */
    void dropped(SocketChannel ch) {
        loose.remove(ch);
        closeQuietly(ch);
    }

    /** The listener's connection {@code tag}, all of whose sockets came. */
    SocketRecvComm received(long tag, SocketChannel[] channels) throws IOException {
        return adopt(new SocketRecvComm(tag, name(tag), channels, MAX_REQUESTS), recvs, channels);
    }

    /** What this net's listeners serve. */
    private final SocketListener.Owner<SocketRecvComm> owner = new SocketListener.Owner<>() {
        @Override
        public long commId() {
            return SocketNet.this.commId();
        }

        @Override
        public byte[] key() {
            return SocketNet.this.key();
        }

        @Override
        public String name(long tag) {
            return SocketNet.this.name(tag);
        }

        @Override
        public void warn(String message) {
            SocketNet.this.warn(message);
        }

        @Override
        public void opened(SocketChannel ch) {
            SocketNet.this.opened(ch);
        }

        @Override
        public void dropped(SocketChannel ch) {
            SocketNet.this.dropped(ch);
        }

        @Override
        public SocketRecvComm received(long tag, SocketChannel[] channels) throws IOException {
            return SocketNet.this.received(tag, channels);
        }

        @Override
        public void discard(SocketRecvComm comm) {
            recvs.remove(comm);
            comm.close();
        }
    };

    /** Keeps comm {@code c} among {@code comms} (closed with the net) and its sockets no longer loose. */
    private <C extends SocketComm> C adopt(C c, Set<C> comms, SocketChannel[] channels) {
        comms.add(c);
        for (SocketChannel ch : channels) {
            loose.remove(ch);
        }
        if (closed) {
            c.close();
        }
        return c;
    }

    @Override
    public String name() {
        return "Socket";
    }

    @Override
    public int devices() {
        return 1;
    }

    @Override
    public NetProperties properties(int dev) {
        check(dev);
        return device;
    }

    @Override
    public int proxyThreads() {
        return threads;
    }

    @Override
    public String connectionShape() {
        return sockets + " socket(s) per connection";
    }

    @Override
    public ListenComm listen(int dev) throws IOException {
        check(dev);
        SocketListener<SocketRecvComm> l = new SocketListener<>(owner, setup.bind());
        listeners.add(l);
        return l;
    }

    @Override
    public SendComm connect(int dev, NetHandle handle, long tag, long deadline) throws IOException {
        check(dev);
        InetSocketAddress to = SocketListener.address(handle);
        SocketChannel[] chs = new SocketChannel[sockets];
        try {
            for (int i = 0; i < sockets; i++) {
                chs[i] = SocketListener.connect(owner, to, tag, i, sockets, deadline, () -> closed);
            }
            return adopt(new SocketSendComm(tag, name(tag), chs, MAX_REQUESTS), sends, chs);
        } catch (IOException | RuntimeException e) {
            for (SocketChannel ch : chs) {
                closeQuietly(ch);
            }
            throw e;
        }
    }

    @Override
    public RecvComm accept(ListenComm listener, long deadline) throws IOException {
        return ((SocketListener<?>) listener).accept(deadline);
    }

    @Override
    public MemoryHandle register(NetComm comm, MemorySegment region, MemoryKind kind) throws IOException {
        if (kind != MemoryKind.HOST) {
            throw new IOException("the socket net sends from and receives into host memory only, not " + kind);
        }
        return new SocketMemory(region, ((SocketComm) comm).sockets());
    }

    @Override
    public void deregister(MemoryHandle memory) {
        // nothing was told to the kernel
    }

    @Override
    public NetRequest isend(SendComm comm, MemorySegment data, long offset, long size, MemoryHandle memory, int stamp) {
        return ((SocketSendComm) comm).post(data, offset, size, memory, stamp);
    }

    @Override
    public NetRequest irecv(RecvComm comm, MemorySegment data, long offset, long maxSize, MemoryHandle memory) {
        return ((SocketRecvComm) comm).post(data, offset, maxSize, memory);
    }

    @Override
    public boolean test(NetRequest request) throws IOException {
        SocketRequest r = (SocketRequest) request;
        return r.comm.test(r);
    }

    @Override
    public NetPoller poller() throws IOException {
        return new SocketPoller();
    }

    @Override
    public void closeSend(SendComm comm, long deadline) {
        SocketSendComm c = (SocketSendComm) comm;
        sends.remove(c);
        c.end(deadline);
    }

    @Override
    public void closeRecv(RecvComm comm) {
        SocketRecvComm c = (SocketRecvComm) comm;
        recvs.remove(c);
        c.close();
    }

    @Override
    public void closeListen(ListenComm listener) {
        SocketListener<?> l = (SocketListener<?>) listener;
        listeners.remove(l);
        l.close();
    }

    @Override
    public void close() {
        closed = true;
        listeners.forEach(SocketListener::close);
        sends.forEach(SocketSendComm::close);
        recvs.forEach(SocketRecvComm::close);
        loose.forEach(SocketNet::closeQuietly);
    }

    private void check(int dev) {
        if (dev != 0) {
            throw new IllegalArgumentException("the socket net has one device (0), not " + dev);
        }
    }

    static void closeQuietly(Channel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
