// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.util.Arrays;

/**
 * What a sender needs to reach a listener, exchanged through the bootstrap: opaque bytes, at most
 * {@link #MAX_BYTES} (NCCL's NCCL_NET_HANDLE_MAXSIZE).
 */
public record NetHandle(byte[] bytes) {
    public static final int MAX_BYTES = 128;

    public NetHandle {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("a net handle of " + bytes.length + " bytes, above " + MAX_BYTES);
        }
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NetHandle h && Arrays.equals(bytes, h.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "NetHandle" + Arrays.toString(bytes);
    }
}
