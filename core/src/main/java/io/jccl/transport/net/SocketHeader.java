// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The header that opens every socket of a connection: magic, communicator id, the connection's
 * tag, the socket's index and the connection's socket count, then a MAC (the first
 * {@link #MAC_BYTES} of HMAC-SHA256) of them under the communicator's key. The key never crosses
 * the wire, so a header shows that its sender knows the bootstrap's secret.
 */
public final class SocketHeader {
    private SocketHeader() {
    }

    public static final int MAGIC = 0x4a434e33; // "JCN3"
    /** Bytes before the MAC: magic, comm id, tag, socket index, socket count. */
    public static final int BYTES = 4 + 8 + 8 + 4 + 4;
    public static final int MAC_BYTES = 16;

    /** A checked header: which connection, and which of its sockets. */
    record Opened(long tag, int index, int count) {
    }

    /** The header of socket {@code index} of {@code count} of connection {@code tag}, with its MAC under {@code key}. */
    public static byte[] encode(long commId, byte[] key, long tag, int index, int count) {
        ByteBuffer b = ByteBuffer.allocate(BYTES + MAC_BYTES).putInt(MAGIC).putLong(commId).putLong(tag).putInt(index).putInt(count);
        return b.put(mac(key, b.array(), BYTES)).array();
    }

    /** Checks a header read off a new socket; throws saying why it is not one of this communicator's. */
    static Opened check(byte[] h, long commId, byte[] key) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(h);
        if (b.getInt() != MAGIC || b.getLong() != commId) {
            throw new IOException("not a connection of this communicator");
        }
        if (!MessageDigest.isEqual(mac(key, h, BYTES), Arrays.copyOfRange(h, BYTES, BYTES + MAC_BYTES))) {
            throw new IOException("its header does not carry this communicator's key");
        }
        long tag = b.getLong();
        int index = b.getInt();
        int count = b.getInt();
        if (count < 1 || count > io.jccl.Config.MAX_SOCKETS || index < 0 || index >= count) {
            throw new IOException("impossible socket " + index + " of " + count);
        }
        return new Opened(tag, index, count);
    }

    private static byte[] mac(byte[] key, byte[] bytes, int n) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            m.update(bytes, 0, n);
            return Arrays.copyOf(m.doFinal(), MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
