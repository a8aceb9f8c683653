// SPDX-License-Identifier: Apache-2.0
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
final class SocketSendComm extends SocketComm implements SendComm {
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

    private final Out[] outs;

    SocketSendComm(long tag, String name, SocketChannel[] channels, int requests) throws IOException {
        super(tag, name, channels, requests);
        this.outs = new Out[channels.length];
        for (int i = 0; i < channels.length; i++) {
            outs[i] = new Out(channels[i], i);
        }
    }

    @Override
    int sockets() {
        return outs.length;
    }

    SocketRequest post(MemorySegment data, long offset, long size, MemoryHandle memory, int stamp) {
        if (size < 0 || size > SocketFrames.MAX_MESSAGE) {
            throw new IllegalArgumentException("a message of " + size + " bytes on " + name);
        }
        SocketRequest r = next(data, offset, memory, size);
        if (r != null) {
            r.size = size;
            r.stamp = stamp;
            r.left = SocketFrames.chunks(size, outs.length);
        }
        return r;
    }

    @Override
    boolean progress(SocketRequest r) throws IOException {
        for (int i = 0; i < outs.length && r.left > 0; i++) {
            write(outs[i], i);
        }
        return r.left == 0;
    }

    /** Socket {@code i} writes its chunks of the posted messages in order until done or full. */
    private void write(Out o, int i) throws IOException {
        int k = outs.length;
        // Messages before posted - ring.length are done and freed: this socket wrote its chunk of them, or had none.
        o.next = Math.max(o.next, posted - ring.length);
        while (o.next < posted) {
            SocketRequest r = request(o.next);
            if (!o.writing) {
                // A message done and freed, even reused, had no chunk on this socket.
                if (r.seq != o.next || !r.busy || i >= SocketFrames.chunks(r.size, k)) {
                    o.next++;
                    continue;
                }
                long length = SocketFrames.chunkLength(r.size, k, i);
                o.header.clear().putLong((long) r.stamp << SocketFrames.STAMP_SHIFT | r.seq).putInt((int) r.size).putInt((int) length).flip();
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

    @Override
    void close() {
        for (Out o : outs) {
            o.view.forget();
            SocketNet.closeQuietly(o.channel);
        }
    }
}
