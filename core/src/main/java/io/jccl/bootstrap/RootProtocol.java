// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;

import java.net.InetSocketAddress;

/**
 * The messages between a rank and the root, after the {@link Handshake}:
 * <pre>
 * rank -> root  JOIN   1 rank nranks listenAddress pid host
 * root -> rank  NEXT   2 nranks nextListenAddress      (once every rank has joined)
 *               ERROR  3 code message                   (the bootstrap failed; the message names why)
 * rank -> root  FAIL   4 rank nranks message           (instead of JOIN: this rank cannot take part, and why)
 * </pre>
 * The root hands each rank only its successor's address (O(n) bytes in all, as NCCL's root);
 * the ranks then all-gather their full {@link PeerInfo} around that ring.
 */
final class RootProtocol {
    static final int JOIN = 1;
    static final int NEXT = 2;
    static final int ERROR = 3;
    static final int FAIL = 4;
    static final int MAX_MESSAGE = 4096;

    private RootProtocol() {
    }

    /** The longest host name a JOIN may carry (HostIdentity's names are at most 200 characters). */
    static final int MAX_HOST = 255;

    static byte[] join(int rank, int nranks, InetSocketAddress listen) {
        return new Wire.Writer().u8(JOIN).i32(rank).i32(nranks).address(listen).i64(ProcessHandle.current().pid())
                .string(HostIdentity.hostname()).toByteArray();
    }

    static byte[] fail(int rank, int nranks, String message) {
        String m = message.length() > 2000 ? message.substring(0, 2000) + "..." : message;
        return new Wire.Writer().u8(FAIL).i32(rank).i32(nranks).string(m).toByteArray();
    }

    static byte[] next(int nranks, InetSocketAddress next) {
        return new Wire.Writer().u8(NEXT).i32(nranks).address(next).toByteArray();
    }

    static byte[] error(ErrorCode code, String message) {
        String m = message.length() > 2000 ? message.substring(0, 2000) + "..." : message;
        return new Wire.Writer().u8(ERROR).i32(code.value()).string(m).toByteArray();
    }

    static ErrorCode code(int value) {
        for (ErrorCode c : ErrorCode.values()) {
            if (c.value() == value) {
                return c;
            }
        }
        return ErrorCode.REMOTE_ERROR;
    }
}
