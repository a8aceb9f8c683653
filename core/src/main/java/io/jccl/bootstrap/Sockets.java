// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** Connecting with a retry window, listening, and writes bounded in time. */
final class Sockets {
    /** Longest single connect attempt; the retry window is the caller's deadline. */
    private static final int CONNECT_ATTEMPT_MILLIS = 5_000;
    private static final long FIRST_RETRY_MILLIS = 10;
    private static final long MAX_RETRY_MILLIS = 500;

    private Sockets() {
    }

    /** One daemon thread that closes sockets whose writes outlive their deadline. */
    private static final class Timer {
        static final ScheduledExecutorService INSTANCE = create();

        private static ScheduledExecutorService create() {
            ScheduledThreadPoolExecutor t = (ScheduledThreadPoolExecutor) Executors.newScheduledThreadPool(1, r -> {
                Thread th = new Thread(r, "jccl-bootstrap-timer");
                th.setDaemon(true);
                return th;
            });
            t.setRemoveOnCancelPolicy(true);
            return t;
        }
    }

    /**
     * Connects to {@code host:port}, resolving the name again and retrying refused or failed
     * attempts with a growing pause until {@code deadline}: the root or peer may not listen yet.
     */
    static Socket connect(String host, int port, Deadline deadline, int rank, String what) {
        long pause = FIRST_RETRY_MILLIS;
        IOException last = null;
        while (!deadline.expired()) {
            Socket s = new Socket();
            try {
                InetSocketAddress a = new InetSocketAddress(host, port);
                if (a.isUnresolved()) {
                    throw new UnknownHostException(host);
                }
                s.setTcpNoDelay(true);
                s.setKeepAlive(true);
                s.connect(a, Math.min(CONNECT_ATTEMPT_MILLIS, deadline.socketTimeoutMillis()));
                return s;
            } catch (IOException e) {
                last = e;
                closeQuietly(s);
            }
            long left = deadline.remainingNanos() / 1_000_000 - FIRST_RETRY_MILLIS;
            if (left <= 0) {
                break; // no time for a real attempt after a pause: report this attempt's error
            }
            sleep(Math.min(pause, left), rank, what);
            pause = Math.min(MAX_RETRY_MILLIS, pause * 2);
        }
        throw new JcclException(ErrorCode.TIMEOUT, rank, "could not connect to " + what + " at "
                + new CommId.HostPort(host, port) + " within " + deadline.budget()
                + (last == null ? "" : " (last error: " + last + ")"), last);
    }

    static Socket connect(InetSocketAddress a, Deadline deadline, int rank, String what) {
        return connect(a.getAddress().getHostAddress(), a.getPort(), deadline, rank, what);
    }

    static ServerSocket listen(InetAddress address, int port, int rank) {
        ServerSocket ss = null;
        try {
            ss = new ServerSocket();
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(address, port), 1024);
            return ss;
        } catch (IOException e) {
            closeQuietly(ss);
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot listen on "
                    + new CommId.HostPort(address.getHostAddress(), port) + ": " + e.getMessage(), e);
        }
    }

    interface Io<T> {
        T run() throws IOException;
    }

    /**
     * Runs a blocking write on {@code c}, closing {@code c} if it is still running at
     * {@code deadline} (a blocked write has no timeout of its own); {@code timedOut} tells the
     * caller afterwards whether the close was the watchdog's.
     */
    static <T> T bounded(Closeable c, Deadline deadline, AtomicBoolean timedOut, Io<T> io) throws IOException {
        ScheduledFuture<?> f = Timer.INSTANCE.schedule(() -> {
            timedOut.set(true);
            closeQuietly(c);
        }, Math.max(1, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
        try {
            return io.run();
        } finally {
            f.cancel(false);
        }
    }

    static void sleep(long millis, int rank, String what) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted while waiting for " + what, e);
        }
    }

    static void closeQuietly(Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // best effort: the resource is being abandoned
            }
        }
    }
}
