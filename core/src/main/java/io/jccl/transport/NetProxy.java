package io.jccl.transport;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The socket transport of one process's domain, for connections whose {@link Transport} is NET:
 * each such connection has an ordinary in-process FIFO at both ends, and the process's proxy
 * threads move its messages over {@code K} TCP sockets: on the sender's side {@link NetSender}
 * threads take each message from the FIFO the sending lane fills (reading by-reference messages
 * in place), cut it into at most {@code K} chunks and write chunk {@code i} as a frame on socket
 * {@code i}; on the receiver's side {@link NetReceiver} threads read the frames straight into
 * the FIFO's slot, each chunk at its place, and publish the message once every chunk arrived. The
 * lanes see in-process FIFOs only.
 *
 * <p>{@code JCCL_SOCKET_NTHREADS} ({@code T}) threads per direction serve all connections of the
 * process; each connection opens {@code K = T × JCCL_NSOCKS_PERTHREAD} sockets, socket {@code i}
 * served by thread {@code i mod T} (NCCL's net_socket arrangement). A chunk is at least 64 KiB
 * (NCCL's MIN_CHUNKSIZE): a message of {@code n} bytes has {@code ceil(n / max(64 KiB, ceil(n /
 * K)))} chunks, at least one.
 *
 * <p>Wire: the sender connects each socket to the listener the receiver's process published at
 * init and opens with a {@link #HEADER} (magic, communicator id, protocol, channel, ranks, socket
 * index and count) and a MAC of it under a key derived from the bootstrap's secret (so strangers,
 * and ranks of other communicators, are refused, and the key never crosses the wire). Every chunk
 * then travels as a {@link #FRAME} header (message number, message size, chunk length) and the
 * bytes. The receiver checks each against what it expects (size within the slot, the chunk's
 * length from the size, message numbers in order): a bad frame aborts the domain naming the peer,
 * it is never read past its bounds.
 */
final class NetProxy implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.jccl.net");
    static final int MAGIC = 0x4a434e32; // "JCN2"
    /** Connection header before its MAC: magic, comm id, protocol, channel, from, to, socket index, socket count. */
    static final int HEADER = 4 + 8 + 6 * 4;
    static final int MAC_BYTES = 16;
    /** Chunk frame header: message number (8), message size (4), chunk length (4). */
    static final int FRAME = 16;
    /** The message number of the frame a sender writes on each socket when its rank closes: nothing follows. */
    static final long END = -2;
    /** How long a closing rank waits for its messages to leave over the sockets. */
    private static final long FINISH_NANOS = 30_000_000_000L;
    /** NCCL's MIN_CHUNKSIZE: a message is cut into chunks no smaller than this (but the last). */
    static final long MIN_CHUNK = 64 << 10;
    /** A connection's header must arrive within this long, or it is dropped. */
    private static final int HEADER_TIMEOUT_MS = 10_000;

    final NetOwner owner;
    private final int nranks;
    /** The communicator's shared settings (sockets, threads, buffer sizes, timeout). */
    private final io.jccl.Config config;
    final PeerProcesses peers;
    private final long commId;
    private final byte[] key;
    private final ServerSocketChannel server;
    private final InetSocketAddress[] addresses;
    /** Sockets of every connection, closed with the proxy. */
    private final List<SocketChannel> sockets = new CopyOnWriteArrayList<>();
    /** FIFOs whose messages this process sends over sockets (drained when their rank closes). */
    private final List<Fifo> sendFifos = new CopyOnWriteArrayList<>();
    /** Receiving connections whose sockets are still arriving, by (protocol, channel, from, to). */
    private final Map<Long, NetReceiver.Conn> arriving = new ConcurrentHashMap<>();
    private final NetSender sender;
    private final NetReceiver receiver;
    private volatile boolean closed;

    /**
     * Listens on {@code bind}; {@code key} (from the bootstrap's secret) authenticates connections.
     * Sockets per connection and threads come from the domain's configuration.
     */
    NetProxy(NetOwner owner, io.jccl.Config config, PeerProcesses peers, InetAddress bind, long commId, byte[] key, int rank) {
        this.owner = owner;
        this.nranks = peers.size();
        this.config = config;
        this.peers = peers;
        this.commId = commId;
        this.key = key.clone();
        this.addresses = new InetSocketAddress[nranks];
        try {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(bind, 0), 256);
        } catch (IOException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot listen for the socket transport on " + bind + ": " + e, e);
        }
        int threads = config.socketThreads();
        sender = new NetSender(this, threads);
        receiver = new NetReceiver(this, threads);
        Thread.ofPlatform().daemon().name("jccl-net-accept").start(this::acceptLoop);
    }

    /** The key that authenticates a communicator's socket connections, derived from the bootstrap's secret. */
    static byte[] key(io.jccl.bootstrap.Bootstrap bootstrap, long commId) {
        return bootstrap.deriveKey("net", ByteBuffer.allocate(8).putLong(commId).array());
    }

    /** Every rank contributes its process's listener and learns everyone's (collective over the bootstrap). */
    void exchangeAddresses(io.jccl.bootstrap.Bootstrap bootstrap) {
        InetSocketAddress mine = address();
        byte[][] addrs = bootstrap.allGather((mine.getAddress().getHostAddress() + " " + mine.getPort())
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        for (int r = 0; r < addrs.length; r++) {
            String[] hp = new String(addrs[r], java.nio.charset.StandardCharsets.US_ASCII).split(" ");
            setAddress(r, new InetSocketAddress(InetAddress.ofLiteral(hp[0]), Integer.parseInt(hp[1])));
        }
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

    /** Sockets each connection this process opens uses. */
    int socketsPerConnection() {
        return config.socketThreads() * config.socksPerThread();
    }

    boolean closed() {
        return closed;
    }

    /** Chunks of a message of {@code n} bytes over {@code k} sockets (at least one, for empty messages). */
    static int chunks(long n, int k) {
        long c = chunkBytes(n, k);
        return (int) Math.max(1, (n + c - 1) / c);
    }

    /** Bytes of every chunk but the last. */
    static long chunkBytes(long n, int k) {
        return Math.max(MIN_CHUNK, (n + k - 1) / k);
    }

    /** Length of chunk {@code i} of a message of {@code n} bytes over {@code k} sockets. */
    static long chunkLength(long n, int k, int i) {
        long c = chunkBytes(n, k);
        return Math.max(0, Math.min(c, n - i * c));
    }

    /**
     * Starts sending what the local rank {@code f.from} writes into {@code f} to rank {@code f.to}:
     * a virtual thread connects the sockets (retrying until the timeout), then the send threads serve them.
     */
    void startSend(Fifo f) {
        sendFifos.add(f);
        Thread.ofVirtual().name("jccl-net-connect-" + f).start(() -> {
            int k = socketsPerConnection();
            SocketChannel[] socks = new SocketChannel[k];
            try {
                for (int i = 0; i < k; i++) {
                    socks[i] = connect(f, i, k);
                }
                sender.add(f, socks);
            } catch (IOException | RuntimeException e) {
                lost(f.from, f.to, e);
            }
        });
    }

    private SocketChannel connect(Fifo f, int index, int count) throws IOException {
        long deadline = System.nanoTime() + config.timeout().toNanos();
        IOException last = null;
        long pause = 10;
        while (!closed && System.nanoTime() < deadline) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(addresses[f.to]);
                sockets.add(ch);
                ByteBuffer h = ByteBuffer.allocate(HEADER + MAC_BYTES).putInt(MAGIC).putLong(commId).putInt(f.protocol.ordinal())
                        .putInt(f.channel).putInt(f.from).putInt(f.to).putInt(index).putInt(count);
                h.put(mac(h.array(), HEADER)).flip();
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

    /** The first {@link #MAC_BYTES} of HMAC-SHA256 under the connection key over {@code bytes[0..n)}. */
    private byte[] mac(byte[] bytes, int n) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            m.update(bytes, 0, n);
            return java.util.Arrays.copyOf(m.doFinal(), MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
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
            // A silent or slow stranger holds up only its own virtual thread, for the header's timeout.
            Thread.ofVirtual().name("jccl-net-header").start(() -> admit(ch));
        }
    }

    /** Checks a new socket's header and hands it to the receiving connection it belongs to; drops and logs anything else. */
    private void admit(SocketChannel ch) {
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.socket().setSoTimeout(HEADER_TIMEOUT_MS);
            byte[] h = new byte[HEADER + MAC_BYTES];
            new DataInputStream(ch.socket().getInputStream()).readFully(h);
            ByteBuffer b = ByteBuffer.wrap(h);
            int magic = b.getInt();
            long id = b.getLong();
            if (magic != MAGIC || id != commId) {
                throw new IOException("not a connection of this communicator");
            }
            if (!MessageDigest.isEqual(mac(h, HEADER), java.util.Arrays.copyOfRange(h, HEADER, HEADER + MAC_BYTES))) {
                throw new IOException("its header does not carry this communicator's key");
            }
            int proto = b.getInt();
            int channel = b.getInt();
            int from = b.getInt();
            int to = b.getInt();
            int index = b.getInt();
            int count = b.getInt();
            if (proto < 0 || proto >= Protocol.values().length || channel < 0 || channel >= FifoKey.MAX_CHANNELS || from < 0
                    || from >= nranks || to < 0 || to >= nranks || from == to || !peers.inProcess(to)
                    || peers.transport(from, to) != Transport.NET || count < 1 || count > io.jccl.Config.MAX_SOCKETS
                    || index < 0 || index >= count) {
                throw new IOException("impossible connection: protocol " + proto + ", channel " + channel + ", " + from + " -> " + to
                        + ", socket " + index + " of " + count);
            }
            long connKey = FifoKey.pack(Protocol.values()[proto], channel, from, to, nranks);
            NetReceiver.Conn c = arriving.computeIfAbsent(connKey, k -> new NetReceiver.Conn(
                    owner.receiveFifo(Protocol.values()[proto], channel, from, to), count,
                    Protocol.values()[proto].maxMessageBytes(Protocol.values()[proto].buffSize(config))));
            ch.socket().setSoTimeout(0);
            ch.configureBlocking(false);
            int placed = c.place(index, count, ch);
            if (placed < 0) {
                throw new IOException("socket " + index + " of " + count + " of " + c.fifo + " came twice, or the count differs");
            }
            if (placed == 1) {
                receiver.add(c);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jccl: dropped a connection to the socket transport: " + e.getMessage());
            closeQuietly(ch);
        }
    }

    /**
     * Rank {@code rank} of this process closes: waits (bounded) until the messages it sent over
     * sockets have all been written, ends its connections with an {@link #END} frame on every
     * socket (so the receiver takes the close for what it is, not for a lost peer), and stops
     * reading the connections it receives on (their FIFOs go with its arena).
     */
    void finish(int rank) {
        long deadline = System.nanoTime() + Math.min(FINISH_NANOS, config.timeout().toNanos());
        for (Fifo f : sendFifos) {
            // A message is released only once every chunk of it was written.
            while (f.from == rank && f.tail() != f.head() && !closed && !owner.aborted() && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000);
            }
        }
        sender.end(rank, deadline);
        receiver.detach(rank);
    }

    /** A connection of {@code local} with {@code remote} broke or brought a bad frame: the domain fails naming the peer. */
    void lost(int local, int remote, Throwable e) {
        if (closed || owner.aborted()) {
            return;
        }
        owner.abort(remote < 0 ? "rank " + local + ": the socket transport failed: " + e
                : "rank " + local + " lost its connection with " + peers.describe(remote) + ": " + e.getMessage(), local, remote);
    }

    static void closeQuietly(java.nio.channels.Channel ch) {
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
        closeQuietly(server);
        sockets.forEach(NetProxy::closeQuietly);
        sender.close();
        receiver.close();
    }
}
