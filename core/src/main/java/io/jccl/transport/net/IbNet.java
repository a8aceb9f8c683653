// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;


import java.io.DataInputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ibverbs net (NCCL's net_ib, on the wire jccl's own): InfiniBand or RoCE v2 ports
 * ({@link IbDevice}), reliable-connected queue pairs, receiver-driven RDMA writes.
 *
 * <ul>
 *   <li>Connecting: the listener is the socket net's ({@link SocketListener}), so its handle is
 *       an address and port and every side socket opens with the same authenticated header
 *       (the communicator's key, the connection's tag). Over that socket the sender sends its
 *       queue pairs, LID/GID, MTU, PSN and where its CTS FIFO lies; the receiver, on the
 *       listener's thread, makes its queue pairs, moves them to RTS and answers with its own; the
 *       sender moves its own to RTS and writes one byte; only then is the connection accepted.</li>
 *   <li>Data: {@code irecv} RDMA-writes the buffer's address, size and rkey into the sender's CTS
 *       FIFO ({@link IbCts}: {@link NetProperties#maxRequests} slots, so a sender never overruns);
 *       {@code isend} waits (in {@code test}) for its slot, then RDMA-writes the message with the
 *       stamp as immediate data; the receiver's completion queue says the size and the stamp.
 *       Messages take the connection's {@code JCCL_IB_QPS_PER_CONNECTION} queue pairs in turn.</li>
 *   <li>Memory: {@code register} shares registrations by page range ({@link IbMemoryCache});
 *       unregistered messages go inline when tiny, else through a registered bounce buffer.</li>
 * </ul>
 *
 * <p>No threads of its own but the listener's: sends and receives progress in the proxy threads
 * that post and test them, and an {@link IbPoller} polls (no completion channel). Host memory only
 * for now (GPU memory would register through dma-buf).
 */
final class IbNet implements Net {
    /** Requests per comm: as many as a FIFO has slots, the most the proxy posts; also the CTS slots. */
    static final int MAX_REQUESTS = 8;
    /** A peer's handshake must come within this long once its side socket was accepted. */
    private static final int HANDSHAKE_TIMEOUT_MS = 10_000;

    private final NetSetup setup;
    private final IbOptions options;
    private final List<IbDevice> devices;
    private final Set<SocketListener<IbRecvComm>> listeners = ConcurrentHashMap.newKeySet();
    private final Set<IbComm> comms = ConcurrentHashMap.newKeySet();
    /** Side sockets accepted or connected and not yet part of a comm (closed with the net). */
    private final Set<SocketChannel> loose = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** A net over {@code devices} (not empty; the process's, {@link IbDevice#shared}: they outlive the net). */
    IbNet(NetSetup setup, IbOptions options, List<IbDevice> devices) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("an IB net needs a device");
        }
        this.setup = setup;
        this.options = options;
        this.devices = List.copyOf(devices);
    }

    @Override
    public String name() {
        return "IB";
    }

    @Override
    public int devices() {
        return devices.size();
    }

    @Override
    public NetProperties properties(int dev) {
        return device(dev).properties(MAX_REQUESTS);
    }

    @Override
    public int proxyThreads() {
        return 1;
    }

    @Override
    public String connectionShape() {
        return options.qps() + " queue pair(s) per connection";
    }

    private IbDevice device(int dev) {
        if (dev < 0 || dev >= devices.size()) {
            throw new IllegalArgumentException("the IB net has devices 0 to " + (devices.size() - 1) + ", not " + dev);
        }
        return devices.get(dev);
    }

    @Override
    public ListenComm listen(int dev) throws IOException {
        SocketListener<IbRecvComm> l = new SocketListener<>(new Side(device(dev)), setup.bind());
        listeners.add(l);
        return l;
    }

    /** What one listener serves: the side sockets of connections to its device. */
    private final class Side implements SocketListener.Owner<IbRecvComm> {
        private final IbDevice device;

        Side(IbDevice device) {
            this.device = device;
        }

        @Override
        public long commId() {
            return setup.commId();
        }

        @Override
        public byte[] key() {
            return setup.key();
        }

        @Override
        public String name(long tag) {
            return IbNet.this.name(tag);
        }

        @Override
        public void warn(String message) {
            setup.warnings().accept(message);
        }

        @Override
        public void opened(SocketChannel ch) {
            IbNet.this.opened(ch);
        }

        @Override
        public void dropped(SocketChannel ch) {
            loose.remove(ch);
            SocketNet.closeQuietly(ch);
        }

        /** The receiver's half of the handshake, on the listener's virtual thread. */
        @Override
        public IbRecvComm received(long tag, SocketChannel[] channels) throws IOException {
            SocketChannel ch = channels[0];
            ch.socket().setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            DataInputStream in = new DataInputStream(ch.socket().getInputStream());
            IbConnInfo sender = readInfo(in);
            IbRecvComm c = new IbRecvComm(tag, IbNet.this.name(tag), device, options, MAX_REQUESTS, ch, sender);
            try {
                writeFully(ch, c.info().encode());
                if (in.read() != 1) {
                    throw new IOException("the sender of " + c + " did not finish the handshake");
                }
                ch.socket().setSoTimeout(0);
            } catch (IOException | RuntimeException e) {
                c.close();
                throw e;
            }
            return adopt(c, ch);
        }

        @Override
        public void discard(IbRecvComm comm) {
            comms.remove(comm);
            comm.close();
        }
    }

    private String name(long tag) {
        return setup.names().apply(tag);
    }

    private void opened(SocketChannel ch) {
        loose.add(ch);
        if (closed) {
            SocketNet.closeQuietly(ch);
        }
    }

    /** Keeps {@code c} (closed with the net), its side socket no longer loose. */
    private <C extends IbComm> C adopt(C c, SocketChannel side) {
        comms.add(c);
        loose.remove(side);
        if (closed) {
            c.close();
        }
        return c;
    }

    @Override
    public SendComm connect(int dev, NetHandle handle, long tag, long deadline) throws IOException {
        IbDevice device = device(dev);
        InetSocketAddress to = SocketListener.address(handle);
        SocketChannel ch = SocketListener.connect(new Side(device), to, tag, 0, 1, deadline, () -> closed);
        IbSendComm c;
        try {
            c = new IbSendComm(tag, name(tag), device, options, MAX_REQUESTS, ch);
        } catch (RuntimeException e) {
            loose.remove(ch);
            SocketNet.closeQuietly(ch);
            throw e;
        }
        try {
            writeFully(ch, c.info().encode());
            ch.socket().setSoTimeout(Math.clamp((deadline - System.nanoTime()) / 1_000_000, 1, Integer.MAX_VALUE));
            IbConnInfo receiver = readInfo(new DataInputStream(ch.socket().getInputStream()));
            c.connect(receiver);
            writeFully(ch, new byte[] {1});
            ch.socket().setSoTimeout(0);
        } catch (SocketTimeoutException e) {
            c.close();
            loose.remove(ch);
            throw new IOException("the receiver of " + c + " at " + to + " did not answer the IB handshake in time", e);
        } catch (java.io.EOFException e) {
            c.close();
            loose.remove(ch);
            throw new IOException("the receiver of " + c + " at " + to + " refused the IB handshake (its log says why: "
                    + "JCCL_IB_QPS_PER_CONNECTION differs, or its queue pairs cannot reach this port)", e);
        } catch (IOException | RuntimeException e) {
            c.close();
            loose.remove(ch);
            throw new IOException("cannot connect " + c + " to " + to + " over IB: " + e.getMessage(), e);
        }
        return adopt(c, ch);
    }

    private static IbConnInfo readInfo(DataInputStream in) throws IOException {
        byte[] head = new byte[IbConnInfo.bytes(0)];
        in.readFully(head);
        int n = IbConnInfo.qpCount(head);
        byte[] all = new byte[IbConnInfo.bytes(n)];
        System.arraycopy(head, 0, all, 0, head.length);
        in.readFully(all, head.length, all.length - head.length);
        return IbConnInfo.decode(all);
    }

    private static void writeFully(SocketChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    @Override
    public RecvComm accept(ListenComm listener, long deadline) throws IOException {
        return ((SocketListener<?>) listener).accept(deadline);
    }

    @Override
    public MemoryHandle register(NetComm comm, MemorySegment region, MemoryKind kind) throws IOException {
        if (kind != MemoryKind.HOST) {
            throw new IOException("the IB net registers host memory only for now, not " + kind + " (" + comm + ")");
        }
        if (!region.isNative()) {
            throw new IOException("the IB net registers native memory only, not " + region + " (" + comm + ")");
        }
        IbDevice dev = ((IbComm) comm).dev;
        try {
            return new IbMemory(region, dev, dev.memory.acquire(region.address(), region.byteSize()));
        } catch (RuntimeException e) {
            throw new IOException("cannot register " + region.byteSize() + " bytes for " + comm + " on " + dev + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void deregister(MemoryHandle memory) {
        IbMemory m = (IbMemory) memory;
        m.device.memory.release(m.entry);
    }

    @Override
    public NetRequest isend(SendComm comm, MemorySegment data, long offset, long size, MemoryHandle memory, int stamp)
            throws IOException {
        return ((IbSendComm) comm).post(data, offset, size, memory, stamp);
    }

    @Override
    public NetRequest irecv(RecvComm comm, MemorySegment data, long offset, long maxSize, MemoryHandle memory) throws IOException {
        return ((IbRecvComm) comm).post(data, offset, maxSize, memory);
    }

    @Override
    public boolean test(NetRequest request) throws IOException {
        IbRequest r = (IbRequest) request;
        return r.comm.test(r);
    }

    @Override
    public NetPoller poller() {
        return new IbPoller();
    }

    /** Tells the receiver on the side socket that this is a close, then destroys the queues (messages not written are cut). */
    @Override
    public void closeSend(SendComm comm, long deadline) {
        IbSendComm c = (IbSendComm) comm;
        comms.remove(c);
        c.sayEnd();
        c.close();
    }

    @Override
    public void closeRecv(RecvComm comm) {
        IbRecvComm c = (IbRecvComm) comm;
        comms.remove(c);
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
        comms.forEach(IbComm::close);
        loose.forEach(SocketNet::closeQuietly);
    }
}
