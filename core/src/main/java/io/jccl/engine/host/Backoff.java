package io.jccl.engine.host;

import java.util.concurrent.locks.LockSupport;

/**
 * How a host thread waits for another: spin briefly (the answer is often nanoseconds away), then
 * yield (another rank may need this core: 8 ranks on 2 cores must still progress), then park with
 * a growing sleep. {@link #pause()} answers false once the wait has lasted past its deadline or
 * the domain was aborted, so the caller can fail with its own context. One per thread, reused.
 */
final class Backoff {
    private static final int SPINS = 1024;
    private static final int YIELDS = 64;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final long timeoutNanos;
    private final HostDomain domain;
    private int iteration;
    private long startNanos;
    private long parkNanos;

    Backoff(long timeoutNanos, HostDomain domain) {
        this.timeoutNanos = timeoutNanos;
        this.domain = domain;
    }

    /** Starts a new wait. */
    void reset() {
        iteration = 0;
        startNanos = 0;
        parkNanos = 1_000;
    }

    /**
     * Waits a little for a FIFO; while parked the thread is registered on the FIFO so that the
     * other side's publish or release wakes it at once (the timed park bounds a missed wake).
     */
    boolean pause(Fifo f, boolean forData) {
        if (iteration < SPINS + YIELDS) {
            return pause();
        }
        Thread me = Thread.currentThread();
        if (forData) {
            f.dataWaiter = me;
        } else {
            f.roomWaiter = me;
        }
        try {
            return pause();
        } finally {
            if (forData) {
                f.dataWaiter = null;
            } else {
                f.roomWaiter = null;
            }
        }
    }

    /** Waits a little; false when the wait is over its deadline or the domain was aborted. */
    boolean pause() {
        int i = iteration++;
        if (i < SPINS) {
            Thread.onSpinWait();
            return true;
        }
        if (i == SPINS) {
            startNanos = System.nanoTime();
        }
        if ((i & 7) == 0 && (domain.aborted() || System.nanoTime() - startNanos > timeoutNanos)) {
            return false;
        }
        if (i < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(MAX_PARK_NANOS, parkNanos * 2);
        }
        return true;
    }

    /** Whether the last failed pause was due to an abort rather than the deadline. */
    boolean aborted() {
        return domain.aborted();
    }

    long waitedNanos() {
        return startNanos == 0 ? 0 : System.nanoTime() - startNanos;
    }
}
