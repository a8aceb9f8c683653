package io.jccl.engine.host;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The socket transport of one process's domain, for ranks on other hosts: each such connection has
 * an ordinary in-process FIFO at both ends, and a proxy thread per end moves its messages over one
 * TCP connection: on the sender's host it takes messages from the FIFO the sending lane fills
 * (reading by-reference messages in place) and writes them as frames; on the receiver's host it
 * reads frames into the FIFO the receiving lane empties. The lanes see in-process FIFOs only.
 *
 * <p>The sender's proxy connects when the connection is first used, to the listener the receiver's
 * process published at init, and opens with a header (communicator id, its 16-byte token from rank
 * 0's settings, protocol, channel, ranks) that the receiver checks before it takes the connection.
 * A frame is a 4-byte size, then the message; a size beyond what the FIFO's slot holds is an error.
 */
final class NetProxy implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.jccl.net");
    private static final int MAGIC = 0x4a434e31; // "JCN1"
    private static final int HEADER = 4 + 8 + 16 + 4 * 4;

    private final HostDomain domain;
    private final long commId;
    private final byte[] token;
    private final ServerSocketChannel server;
    private final InetSocketAddress[] addresses;
    private final List<SocketChannel> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    NetProxy(HostDomain domain, InetAddress bind, long commId, byte[] token, int rank) {
        this.domain = domain;
        this.commId = commId;
        this.token = token.clone();
        this.addresses = new InetSocketAddress[domain.nranks];
        try {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(bind, 0), 256);
        } catch (IOException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot listen for the socket transport on " + bind + ": " + e, e);
        }
        Thread.ofPlatform().daemon().name("jccl-net-accept").start(this::acceptLoop);
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    void setAddress(int rank, InetSocketAddress a) {
        addresses[rank] = a;
    }

    /** Starts the proxy that sends what the local rank {@code f.from} writes into {@code f} to rank {@code f.to}. */
    void startSend(Fifo f) {
        Thread.ofPlatform().daemon().name("jccl-net-send-" + f).start(() -> {
            SocketChannel ch = null;
            try {
                ch = connect(f);
                pumpOut(f, ch);
            } catch (IOException | RuntimeException e) {
                lost(f.from, f.to, e);
            } finally {
                closeQuietly(ch);
            }
        });
    }

    private SocketChannel connect(Fifo f) throws IOException {
        long deadline = System.nanoTime() + domain.config.timeout().toNanos();
        IOException last = null;
        long pause = 10;
        while (!closed && System.nanoTime() < deadline) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(addresses[f.to]);
                sockets.add(ch);
                ByteBuffer h = ByteBuffer.allocate(HEADER).putInt(MAGIC).putLong(commId).put(token)
                        .putInt(f.protocol.ordinal()).putInt(f.channel).putInt(f.from).putInt(f.to).flip();
                while (h.hasRemaining()) {
                    ch.write(h);
                }
                return ch;
            } catch (IOException e) {
                last = e;
                ch.close();
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
                pause = Math.min(500, pause * 2);
            }
        }
        throw last != null ? last : new IOException("closed");
    }

    private void pumpOut(Fifo f, SocketChannel ch) throws IOException {
        Backoff b = new Backoff(Long.MAX_VALUE, domain);
        ByteBuffer size = ByteBuffer.allocate(4);
        while (!closed) {
            b.reset();
            while (!f.hasData()) {
                if (!b.pause(f, true) || closed) {
                    return;
                }
            }
            long n = f.recvSize();
            size.clear().putInt((int) n).flip();
            while (size.hasRemaining()) {
                ch.write(size);
            }
            ByteBuffer data = f.recvSegment().asSlice(f.recvOffset(), n).asByteBuffer();
            while (data.hasRemaining()) {
                ch.write(data);
            }
            f.release();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                return;
            }
            sockets.add(ch);
            Thread.ofPlatform().daemon().name("jccl-net-recv").start(() -> serve(ch));
        }
    }

    private void serve(SocketChannel ch) {
        Fifo f;
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer h = ByteBuffer.allocate(HEADER);
            readFully(ch, h);
            h.flip();
            byte[] t = new byte[16];
            int magic = h.getInt();
            long id = h.getLong();
            h.get(t);
            if (magic != MAGIC || id != commId || !MessageDigest.isEqual(t, token)) {
                throw new IOException("not a connection of this communicator");
            }
            int proto = h.getInt();
            int channel = h.getInt();
            int from = h.getInt();
            int to = h.getInt();
            if (proto < 0 || proto >= Protocol.values().length || channel < 0 || channel >= HostDomain.MAX_CHANNELS || from < 0
                    || from >= domain.nranks || to < 0 || to >= domain.nranks || !domain.peers.inProcess(to)
                    || domain.peers.inProcess(from) || domain.peers.shm(from)) {
                throw new IOException("impossible connection: protocol " + proto + ", channel " + channel + ", " + from + " -> " + to);
            }
            f = domain.fifo(Protocol.values()[proto], channel, from, to);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jccl: dropped a connection to the socket transport: " + e.getMessage());
            closeQuietly(ch);
            return;
        }
        try {
            pumpIn(f, ch);
        } catch (IOException | RuntimeException e) {
            lost(f.to, f.from, e);
        } finally {
            closeQuietly(ch);
        }
    }

    private void pumpIn(Fifo f, SocketChannel ch) throws IOException {
        Backoff b = new Backoff(Long.MAX_VALUE, domain);
        ByteBuffer size = ByteBuffer.allocate(4);
        long capacity = f.protocol.maxMessageBytes(domain.config.buffSize(f.protocol));
        while (!closed) {
            size.clear();
            readFully(ch, size);
            long n = size.flip().getInt() & 0xFFFF_FFFFL;
            if (n > capacity) {
                throw new IOException("a frame of " + n + " bytes, beyond the " + capacity + " a message holds");
            }
            b.reset();
            while (!f.hasRoom()) {
                if (!b.pause(f, false) || closed) {
                    return;
                }
            }
            MemorySegment into = f.sendSegment();
            long at = f.sendOffset();
            readFully(ch, into.asSlice(at, n).asByteBuffer());
            f.send(into, at, n, false);
        }
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("the connection was closed");
            }
        }
    }

    private void lost(int local, int remote, Throwable e) {
        if (closed || domain.aborted()) {
            return;
        }
        domain.abort("rank " + local + " lost its connection with " + domain.peers.describe(remote) + ": " + e.getMessage(), local,
                remote);
    }

    private static void closeQuietly(SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(NetProxy::closeQuietly);
    }
}
