// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/** A rank's side of the rendezvous with the {@link BootstrapRoot}. */
final class RootClient {
    private RootClient() {
    }

    /**
     * Joins the root of {@code id} as {@code rank} of {@code nranks}, advertising {@code listen},
     * and returns the listen address of rank {@code (rank + 1) % nranks}. Connecting retries until
     * {@code d}; the answer may take a little longer, so that the root, whose clock starts at the
     * first rank, is the one to report missing ranks by name.
     */
    /** The pause before a rank connects again to a root that dropped its connection. */
    private static final long RETRY_MILLIS = 50;

    /**
     * Tells the root of {@code id} that this rank cannot take part, and why, so that it fails every
     * rank with the reason instead of their waiting out the timeout for this one. Best effort,
     * within {@link #TELL_MILLIS}: a root that cannot be reached learns it by its own timeout.
     */
    static void tellFailure(CommId id, int nranks, int rank, String why) {
        Deadline d = Deadline.after(java.time.Duration.ofMillis(TELL_MILLIS));
        try {
            Socket s = Sockets.connect(id.host(), id.port(), d, rank, "the bootstrap root");
            try {
                SecureChannel ch = Handshake.connect(s, id.secret(), Handshake.ROOT, new byte[0], d.socketTimeoutMillis());
                ch.send(RootProtocol.fail(rank, nranks, why));
            } finally {
                Sockets.closeQuietly(s);
            }
        } catch (IOException | RuntimeException e) {
            // The root's own timeout names this rank then.
        }
    }

    /** How long a failing rank tries to tell the root. */
    private static final long TELL_MILLIS = 2_000;

    static InetSocketAddress join(CommId id, int nranks, int rank, InetSocketAddress listen, Deadline d, Duration grace) {
        String root = "the bootstrap root at " + new CommId.HostPort(id.host(), id.port());
        Socket s = Sockets.connect(id.host(), id.port(), d, rank, "the bootstrap root");
        try {
            SecureChannel ch;
            while (true) {
                try {
                    ch = Handshake.connect(s, id.secret(), Handshake.ROOT, new byte[0], d.socketTimeoutMillis());
                    break;
                } catch (BadFrame e) {
                    throw new JcclException(ErrorCode.REMOTE_ERROR, rank, root + " failed the handshake: " + e.getMessage()
                            + " (do all ranks use the same comm id?)", e);
                } catch (IOException e) {
                    // The root dropped the connection before this rank proved the secret (strangers'
                    // connections pushed it out, or a secret it does not share): again, while the deadline allows.
                    Sockets.closeQuietly(s);
                    if (d.expired()) {
                        throw new JcclException(ErrorCode.REMOTE_ERROR, rank, root + " closed every connection of this rank "
                                + "before the handshake ended, until the bootstrap timeout: " + e.getMessage()
                                + " (do all ranks use the same comm id and, for a job id, the same job?)", e);
                    }
                    Sockets.sleep(RETRY_MILLIS, rank, "the bootstrap root");
                    s = Sockets.connect(id.host(), id.port(), d, rank, "the bootstrap root");
                }
            }
            ch.send(RootProtocol.join(rank, nranks, listen));
            Deadline answer = d.extendedBy(grace);
            byte[] reply;
            try {
                reply = ch.receive(RootProtocol.MAX_MESSAGE, answer.socketTimeoutMillis());
            } catch (SocketTimeoutException e) {
                throw new JcclException(ErrorCode.TIMEOUT, rank, "joined " + root + " as rank " + rank + " of " + nranks
                        + " but it did not answer within " + d.budget(), e);
            }
            Wire.Reader r = new Wire.Reader(reply, "answer of " + root);
            int type = r.u8();
            if (type == RootProtocol.ERROR) {
                ErrorCode code = RootProtocol.code(r.i32());
                String message = r.string(65535);
                throw new JcclException(code, rank, root + ": " + message);
            }
            if (type != RootProtocol.NEXT) {
                throw new BadFrame("answer of type " + type);
            }
            int n = r.i32();
            InetSocketAddress next = r.address();
            r.end();
            if (n != nranks) {
                throw new BadFrame("it says nranks is " + n + ", this rank says " + nranks);
            }
            return next;
        } catch (IOException e) {
            throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "lost " + root + ": " + e.getMessage(), e);
        } finally {
            Sockets.closeQuietly(s);
        }
    }
}
