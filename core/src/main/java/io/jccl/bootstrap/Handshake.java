// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;

/**
 * Mutual proof of the shared secret without sending it, then a session key.
 *
 * <pre>
 * server -> client  CHALLENGE  "JCCL" version purpose serverNonce[32]
 * client -> server  RESPONSE   "JCCL" version purpose clientNonce[32] claim proof[32]
 *                              proof = HMAC(secret, "jccl/1 client" purpose serverNonce clientNonce claim)
 * server -> client  CONFIRM    0 HMAC(secret, "jccl/1 server" purpose serverNonce clientNonce claim)
 *                              or 1 (refused) and the connection closes
 * session key = HMAC(secret, "jccl/1 session" purpose serverNonce clientNonce claim)
 * </pre>
 *
 * Both nonces are fresh, so a recorded exchange replays nowhere; the labels differ per direction,
 * so a proof cannot be reflected back; the purpose keeps root and peer connections apart. Each
 * frame is at most {@value #MAX_FRAME} bytes: anything else is a {@link BadFrame}.
 */
final class Handshake {
    static final int ROOT = 1;
    static final int PEER = 2;
    static final int VERSION = 1;
    static final int NONCE_BYTES = 32;
    static final int MAX_FRAME = 256;
    static final int MAX_CLAIM = 64;
    private static final byte[] MAGIC = "JCCL".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {
    }

    /** Server side; throws {@link BadFrame} (after answering "refused") when the client lacks the secret. */
    static SecureChannel accept(Socket s, byte[] secret, int purpose, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        DataInputStream in = SecureChannel.input(s);
        OutputStream out = s.getOutputStream();
        byte[] serverNonce = nonce();
        Frames.write(out, header(purpose), serverNonce);

        Wire.Reader r = new Wire.Reader(Frames.read(in, MAX_FRAME), "handshake response");
        checkHeader(r, purpose);
        byte[] clientNonce = r.raw(NONCE_BYTES);
        byte[] claim = r.bytes(MAX_CLAIM);
        byte[] proof = r.raw(32);
        r.end();
        if (!MessageDigest.isEqual(proof, mac(secret, "client", purpose, serverNonce, clientNonce, claim))) {
            Frames.write(out, new byte[] {1});
            throw new BadFrame("wrong proof: the client does not know the secret");
        }
        Frames.write(out, new byte[] {0}, mac(secret, "server", purpose, serverNonce, clientNonce, claim));
        return new SecureChannel(s, in, mac(secret, "session", purpose, serverNonce, clientNonce, claim), false, claim);
    }

    /** Client side; throws {@link BadFrame} when the server refuses this side's proof or fails its own. */
    static SecureChannel connect(Socket s, byte[] secret, int purpose, byte[] claim, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        DataInputStream in = SecureChannel.input(s);
        OutputStream out = s.getOutputStream();
        Wire.Reader r = new Wire.Reader(Frames.read(in, MAX_FRAME), "handshake challenge");
        checkHeader(r, purpose);
        byte[] serverNonce = r.raw(NONCE_BYTES);
        r.end();
        byte[] clientNonce = nonce();
        Frames.write(out, header(purpose), clientNonce, new Wire.Writer().bytes(claim).toByteArray(),
                mac(secret, "client", purpose, serverNonce, clientNonce, claim));

        byte[] confirm = Frames.read(in, MAX_FRAME);
        if (confirm.length == 1 && confirm[0] == 1) {
            throw new BadFrame("it refused this side's proof: the two sides hold different secrets");
        }
        if (confirm.length != 33 || confirm[0] != 0
                || !MessageDigest.isEqual(Arrays.copyOfRange(confirm, 1, 33),
                mac(secret, "server", purpose, serverNonce, clientNonce, claim))) {
            throw new BadFrame("its proof is wrong: it does not know the secret");
        }
        return new SecureChannel(s, in, mac(secret, "session", purpose, serverNonce, clientNonce, claim), true, claim);
    }

    private static byte[] header(int purpose) {
        return new Wire.Writer().raw(MAGIC).u8(VERSION).u8(purpose).toByteArray();
    }

    private static void checkHeader(Wire.Reader r, int purpose) throws BadFrame {
        if (!Arrays.equals(r.raw(MAGIC.length), MAGIC)) {
            throw new BadFrame("not a jccl bootstrap handshake (wrong magic)");
        }
        int version = r.u8();
        if (version != VERSION) {
            throw new BadFrame("bootstrap protocol version " + version + ", this side speaks " + VERSION);
        }
        int p = r.u8();
        if (p != purpose) {
            throw new BadFrame("a " + name(p) + " handshake where a " + name(purpose) + " one was expected");
        }
    }

    private static String name(int purpose) {
        return purpose == ROOT ? "root" : purpose == PEER ? "peer" : "purpose-" + purpose;
    }

    private static byte[] nonce() {
        byte[] b = new byte[NONCE_BYTES];
        RANDOM.nextBytes(b);
        return b;
    }

    static byte[] mac(byte[] secret, String label, int purpose, byte[] serverNonce, byte[] clientNonce, byte[] claim) {
        Mac m = SecureChannel.hmac(secret);
        m.update(("jccl/1 " + label).getBytes(StandardCharsets.US_ASCII));
        m.update((byte) purpose);
        m.update(serverNonce);
        m.update(clientNonce);
        m.update(new Wire.Writer().bytes(claim).toByteArray());
        return m.doFinal();
    }
}
