package io.jccl.transport.net;

import io.jccl.transport.Wait;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The sending end of a socket connection: {@code K} sockets, and a ring of requests. Each socket
 * writes its chunk of every posted message in order, as a frame, with non-blocking writes from
 * the calling thread ({@link #progress}); a request is done once every chunk of it is written.
 */
final class SocketSendComm implements SendComm {
    /** One socket and the frame it is writing. */
    private static final class Out {
        final SocketChannel channel;
        final ByteBuffer header = ByteBuffer.allocateDirect(SocketFrames.FRAME);
        final ByteBuffer[] frame = {header, null};
        final SocketView view;
        /** The next message this socket has to consider. */
        long next;
        /** Whether a frame of message {@code next} is being written. */
        boolean writing;

        Out(SocketChannel channel, int index) {
            this.channel = channel;
            this.view = new SocketView(index);
        }
    }

    private final long tag;
    private final String name;
    private final Out[] outs;
    private final SocketRequest[] ring;
    /** Messages posted. */
    private long posted;

    SocketSendComm(long tag, String name, SocketChannel[] channels, int requests) throws IOException {
        this.tag = tag;
        this.name = name;
        this.outs = new Out[channels.length];
        for (int i = 0; i < channels.length; i++) {
            channels[i].configureBlocking(false);
            outs[i] = new Out(channels[i], i);
        }
        this.ring = new SocketRequest[requests];
        for (int i = 0; i < requests; i++) {
            ring[i] = new SocketRequest(this);
        }
    }

    @Override
    public long tag() {
        return tag;
    }

    int sockets() {
        return outs.length;
    }

    SocketRequest post(MemorySegment data, long offset, long size, MemoryHandle memory) {
        if (size < 0 || size > SocketFrames.MAX_MESSAGE) {
            throw new IllegalArgumentException("a message of " + size + " bytes on " + name);
        }
        SocketRequest r = ring[(int) (posted % ring.length)];
        if (r.busy) {
            return null;
        }
        r.post(posted++, data, offset, memory, size);
        r.size = size;
        r.left = SocketFrames.chunks(size, outs.length);
        return r;
    }

    /** Writes what the sockets take now; true when {@code r} is done (it is then free again). */
    boolean progress(SocketRequest r) throws IOException {
        if (!r.busy) {
            throw new IllegalStateException("a request of " + name + " tested after it was done");
        }
        if (r.left > 0) {
            for (int i = 0; i < outs.length; i++) {
                write(outs[i], i);
            }
        }
        if (r.left > 0) {
            return false;
        }
        r.busy = false;
        r.data = null;
        return true;
    }

    /** Socket {@code i} writes its chunks of the posted messages in order until done or full. */
    private void write(Out o, int i) throws IOException {
        int k = outs.length;
        while (o.next < posted) {
            SocketRequest r = ring[(int) (o.next % ring.length)];
            if (!o.writing) {
                // A message done and freed, even reused, had no chunk on this socket.
                if (r.seq != o.next || !r.busy || i >= SocketFrames.chunks(r.size, k)) {
                    o.next++;
                    continue;
                }
                long length = SocketFrames.chunkLength(r.size, k, i);
                o.header.clear().putLong(r.seq).putInt((int) r.size).putInt((int) length).flip();
                o.frame[1] = o.view.of(r, i * SocketFrames.chunkBytes(r.size, k), length);
                o.writing = true;
            }
            if (o.header.hasRemaining()) {
                o.channel.write(o.frame);
            } else {
                o.channel.write(o.frame[1]);
            }
            if (o.header.hasRemaining() || o.frame[1].hasRemaining()) {
                return;
            }
            o.writing = false;
            o.frame[1] = null;
            r.left--;
            o.next++;
        }
    }

    /**
     * Ends the connection: an END frame on every socket (written by {@code deadline}), then closes
     * them. A socket in the middle of a frame is closed without one: the receiver lost a message.
     */
    void end(long deadline) {
        for (Out o : outs) {
            try {
                if (!o.writing) {
                    ByteBuffer b = o.header.clear().putLong(SocketFrames.END).putInt(0).putInt(0).flip();
                    Wait pause = new Wait(Wait.NOTHING, Math.max(0, deadline - System.nanoTime()), Wait.Pacing.NET_POLL);
                    pause.begin();
                    while (b.hasRemaining()) {
                        if (o.channel.write(b) == 0 && !pause.pause()) {
                            break;
                        }
                    }
                }
            } catch (IOException e) {
                // the peer is gone already: nothing to tell it
            }
            o.view.forget();
            SocketNet.closeQuietly(o.channel);
        }
    }

    void close() {
        for (Out o : outs) {
            o.view.forget();
            SocketNet.closeQuietly(o.channel);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
