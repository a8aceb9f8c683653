// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * The receiving end of a socket connection: {@code K} sockets and a ring of posted receives. Each
 * socket reads a frame header, checks it (message number in order, no chunk skipped, size within
 * the posted buffer, the chunk's length from the size) before reading a byte of data, then reads
 * the chunk straight into the posted buffer at its place; a receive is done once all its chunks
 * arrived. A frame for a message not posted yet waits in the socket (TCP holds the rest back).
 * Reads happen in the calling thread ({@link #progress}); with a {@link SocketPoller} only sockets
 * it saw readable are read.
 */
final class SocketRecvComm extends SocketComm implements RecvComm {
    private static final int HEADER = 0;
    private static final int CHECK = 1;
    private static final int DATA = 2;

    /** One socket and the frame it is reading. */
    static final class In {
        final SocketChannel channel;
        final int index;
        final ByteBuffer header = ByteBuffer.allocateDirect(SocketFrames.FRAME);
        final SocketView view;
        /** Reading a header, its frame waiting to be placed, or reading the chunk's data. */
        int state;
        long seq;
        long size;
        long length;
        int stamp;
        ByteBuffer data;
        SocketRequest request;
        /** The last message this socket brought a chunk of, and the first it may still owe one. */
        long last = -1;
        long next;
        /** The sender ended this socket (an END frame): nothing more comes, and its close is no loss. */
        boolean ended;
        /** Its poller's registration (null: none, read whenever asked), whether bytes may wait, whether its interest is off. */
        SelectionKey key;
        boolean ready = true;
        boolean held;

        In(SocketChannel channel, int index) {
            this.channel = channel;
            this.index = index;
            this.view = new SocketView(index);
        }
    }

    private final In[] ins;

    SocketRecvComm(long tag, String name, SocketChannel[] channels, int requests) throws IOException {
        super(tag, name, channels, requests);
        this.ins = new In[channels.length];
        for (int i = 0; i < channels.length; i++) {
            ins[i] = new In(channels[i], i);
        }
    }

    @Override
    int sockets() {
        return ins.length;
    }

    SocketRequest post(MemorySegment data, long offset, long max, MemoryHandle memory) {
        if (max < 0) {
            throw new IllegalArgumentException("a receive of at most " + max + " bytes on " + name);
        }
        SocketRequest r = next(data, offset, memory, max);
        if (r != null) {
            r.max = max;
            r.size = -1;
            r.stamp = 0;
            r.left = 0;
        }
        return r;
    }

    /** Reads what has arrived for the posted receives, stopping once {@code r} is whole. */
    @Override
    boolean progress(SocketRequest r) throws IOException {
        // Stops once r is whole, so the caller can hand it on before later messages are read.
        boolean moved;
        do {
            moved = false;
            for (int i = 0; i < ins.length && !whole(r); i++) {
                while (!whole(r) && step(ins[i])) {
                    moved = true;
                }
            }
        } while (moved && !whole(r));
        return whole(r);
    }

    private static boolean whole(SocketRequest r) {
        return r.size >= 0 && r.left == 0;
    }

    /** Moves one socket on; true when its frame changed state (false: it has nothing more now, or its frame waits). */
    private boolean step(In in) throws IOException {
        if (in.ended) {
            return false;
        }
        if (in.state == HEADER) {
            if (!fill(in, in.header)) {
                return false;
            }
            in.header.flip();
            long number = in.header.getLong();
            in.size = in.header.getInt() & 0xFFFF_FFFFL;
            in.length = in.header.getInt() & 0xFFFF_FFFFL;
            in.header.clear();
            if (number == SocketFrames.END && in.size == 0 && in.length == 0) {
                end(in);
                return true;
            }
            in.seq = number & SocketFrames.NUMBER_MASK;
            in.stamp = (int) (number >>> SocketFrames.STAMP_SHIFT);
            if (in.seq <= in.last) {
                throw bad(in, "message " + in.seq + " after message " + in.last);
            }
            if (in.index == 0 && in.seq != in.last + 1) {
                throw bad(in, "message " + in.seq + " skips its chunk of message " + (in.last + 1));
            }
            in.state = CHECK;
        }
        if (in.state == CHECK) {
            if (!place(in)) {
                interest(in, false);
                return false;
            }
            interest(in, true);
            in.state = DATA;
        }
        if (!fill(in, in.data)) {
            return false;
        }
        in.request.left--;
        in.last = in.seq;
        in.next = in.seq + 1;
        in.state = HEADER;
        in.data = null;
        in.request = null;
        return true;
    }

    /** Reads into {@code b} until it is full (true) or the socket has nothing more now (false). */
    private boolean fill(In in, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (in.key != null && !in.ready) {
                return false;
            }
            int n = in.channel.read(b);
            if (n < 0) {
                throw closed(in);
            }
            if (n == 0) {
                in.ready = false;
                return false;
            }
        }
        return true;
    }

    /**
     * Finds where socket {@code in}'s frame goes: false while that cannot be known yet (its message
     * is not posted, or an earlier one's size has not come); throws when the frame is wrong.
     */
    private boolean place(In in) throws IOException {
        int k = ins.length;
        // Messages before the frame's: this socket must have had no chunk in them. Those before
        // posted - ring.length are done and freed, so it had none or brought it.
        in.next = Math.max(in.next, posted - ring.length);
        while (in.next < in.seq) {
            long m = in.next;
            if (m >= posted) {
                return false;
            }
            SocketRequest r = request(m);
            if (r.seq == m && r.busy) {
                if (r.size < 0) {
                    return false; // socket 0 brings its size
                }
                if (in.index < SocketFrames.chunks(r.size, k)) {
                    throw bad(in, "message " + in.seq + " skips its chunk of message " + m);
                }
            }
            in.next++;
        }
        if (in.seq >= posted) {
            return false; // a receive posted late
        }
        SocketRequest r = request(in.seq);
        if (r.seq != in.seq || !r.busy || r.size >= 0 && r.left == 0) {
            throw bad(in, "a chunk of message " + in.seq + ", which arrived whole already");
        }
        if (r.size < 0) {
            if (in.size > r.max) {
                throw bad(in, "message " + in.seq + " of " + in.size + " bytes, beyond the " + r.max + " bytes posted");
            }
            r.size = in.size;
            r.stamp = in.stamp;
            r.left = SocketFrames.chunks(in.size, k);
        } else if (r.size != in.size || r.stamp != in.stamp) {
            throw bad(in, "message " + in.seq + " of " + in.size + " bytes (stamp " + Integer.toHexString(in.stamp)
                    + "), where another socket said " + r.size + " (stamp " + Integer.toHexString(r.stamp) + ")");
        }
        if (in.index >= SocketFrames.chunks(in.size, k) || in.length != SocketFrames.chunkLength(in.size, k, in.index)) {
            throw bad(in, "a chunk of " + in.length + " bytes for chunk " + in.index + " of a message of " + in.size + " bytes");
        }
        in.request = r;
        in.data = in.view.of(r, in.index * SocketFrames.chunkBytes(in.size, k), in.length);
        return true;
    }

    /** An END frame: fine unless this socket still owes a chunk of a message whose size came. */
    private void end(In in) throws IOException {
        for (long m = Math.max(in.next, posted - ring.length); m < posted; m++) {
            SocketRequest r = request(m);
            if (r.seq == m && r.busy && r.size >= 0 && r.left > 0 && in.index < SocketFrames.chunks(r.size, ins.length)) {
                throw bad(in, "the sender ended the connection within message " + m);
            }
        }
        in.ended = true;
        if (in.key != null) {
            in.key.cancel();
        }
    }

    /** Selects the socket for reading again, or not while its frame waits (so a poller does not spin on it). */
    private static void interest(In in, boolean read) throws IOException {
        if (in.key == null || in.held != read) {
            return;
        }
        try {
            in.key.interestOps(read ? SelectionKey.OP_READ : 0);
        } catch (CancelledKeyException e) {
            throw new IOException("the connection was closed", e);
        }
        in.held = !read;
    }

    /** Registers every socket with {@code selector} (a poller's), attached to its state. */
    void attach(Selector selector) throws IOException {
        for (In in : ins) {
            if (!in.ended) {
                in.held = in.state == CHECK;
                in.key = in.channel.register(selector, in.held ? 0 : SelectionKey.OP_READ, in);
                in.ready = true;
            }
        }
    }

    void detach() {
        for (In in : ins) {
            if (in.key != null) {
                in.key.cancel();
                in.key = null;
            }
        }
    }

    private IOException bad(In in, String what) {
        return new IOException("a bad frame on socket " + in.index + " of " + ins.length + " (" + name + "): " + what);
    }

    private IOException closed(In in) {
        return new EOFException("the connection was closed (socket " + in.index + " of " + ins.length + ", " + name + ")");
    }

    @Override
    void close() {
        for (In in : ins) {
            in.view.forget();
            SocketNet.closeQuietly(in.channel);
        }
    }
}
