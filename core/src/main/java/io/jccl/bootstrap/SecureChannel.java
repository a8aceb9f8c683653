// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An authenticated connection after {@link Handshake}: every frame carries an HMAC-SHA256 under
 * the session key over its direction, its sequence number and its payload, so a frame that was
 * altered, replayed, reordered or reflected fails to verify. Not encrypted: bootstrap messages
 * hold addresses and ranks, not secrets.
 */
final class SecureChannel implements Closeable {
    static final int MAC_BYTES = 32;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final Mac sendMac;
    private final Mac recvMac;
    private final byte sendDirection;
    private final byte recvDirection;
    private final byte[] claim;
    private final Object sendLock = new Object();
    private final Object recvLock = new Object();
    private long sendSeq;
    private long recvSeq;

    SecureChannel(Socket socket, DataInputStream in, byte[] sessionKey, boolean client, byte[] claim) throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        this.sendMac = hmac(sessionKey);
        this.recvMac = hmac(sessionKey);
        this.sendDirection = (byte) (client ? 'C' : 'S');
        this.recvDirection = (byte) (client ? 'S' : 'C');
        this.claim = claim.clone();
    }

    static DataInputStream input(Socket s) throws IOException {
        return new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
    }

    static Mac hmac(byte[] key) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static byte[] mac(Mac m, byte direction, long seq, byte[] payload) {
        m.update(direction);
        for (int i = 56; i >= 0; i -= 8) {
            m.update((byte) (seq >>> i));
        }
        m.update(payload);
        return m.doFinal();
    }

    /** What the client asserted in the handshake (a peer's ranks), covered by its proof. */
    byte[] claim() {
        return claim.clone();
    }

    Socket socket() {
        return socket;
    }

    String remote() {
        return String.valueOf(socket.getRemoteSocketAddress());
    }

    void send(byte[] payload) throws IOException {
        synchronized (sendLock) {
            byte[] tag = mac(sendMac, sendDirection, sendSeq, payload);
            Frames.write(out, payload, tag);
            sendSeq++;
        }
    }

    /**
     * The next payload of at most {@code maxPayload} bytes, waiting at most {@code timeoutMillis}
     * (a {@link java.net.SocketTimeoutException} when nothing arrived, the channel intact).
     */
    byte[] receive(int maxPayload, int timeoutMillis) throws IOException {
        synchronized (recvLock) {
            socket.setSoTimeout(timeoutMillis);
            byte[] frame = Frames.read(in, maxPayload + MAC_BYTES);
            if (frame.length < MAC_BYTES) {
                throw new BadFrame("frame of " + frame.length + " bytes, shorter than its MAC");
            }
            byte[] payload = Arrays.copyOf(frame, frame.length - MAC_BYTES);
            byte[] expected = mac(recvMac, recvDirection, recvSeq, payload);
            if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(frame, payload.length, frame.length))) {
                throw new BadFrame("frame " + recvSeq + " fails its MAC (altered, replayed or not from the session)");
            }
            recvSeq++;
            return payload;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort; the socket is unusable either way
        }
    }
}
