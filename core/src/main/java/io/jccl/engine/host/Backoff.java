package io.jccl.engine.host;

import java.util.concurrent.locks.LockSupport;

/**
 * How a host thread waits for another, by whether the threads running operations in this process
 * fit on its cores:
 * <ul>
 * <li>They fit (2 ranks on 2 cores): spin for {@link #DEDICATED_SPIN_NANOS}, then yield, and
 * park only after {@link #DEDICATED_YIELD_NANOS} (a peer that has not made its call yet must not
 * cost a busy core until the timeout). A park hands the wake-up to the peer, and Linux places a woken thread on its waker's core:
 * two ranks that ping-pong then end up sharing one core, and stay so, waking each other on every
 * message (25-50x slower). Yielding keeps both runnable, so the scheduler can see the imbalance
 * and move one to the idle core.</li>
 * <li>They do not fit (8 ranks on 2 cores): spin only {@link #SHARED_SPIN_NANOS}, then park with a
 * growing sleep, registered on the FIFO it waits for so that the other side wakes it at once:
 * the awaited thread may need this very core, and under Linux's CFS a yield often hands the core
 * straight back (two ranks on one core then took over a millisecond a message).</li>
 * </ul>
 * {@link #pause()} answers false once the wait has lasted past its deadline or the domain was
 * aborted, so that the caller can fail with its own context. One per thread, reused.
 */
final class Backoff {
    private static final long DEDICATED_SPIN_NANOS = 20_000;
    private static final long SHARED_SPIN_NANOS = 2_000;
    /** After this long a wait parks whatever the cores: latency no longer matters, a busy core does. */
    private static final long DEDICATED_YIELD_NANOS = 10_000_000;
    private static final long MIN_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** Threads of this process running an operation's lane right now. */
    private static final java.util.concurrent.atomic.AtomicInteger RUNNERS = new java.util.concurrent.atomic.AtomicInteger();

    private final long timeoutNanos;
    private final HostDomain domain;
    private int iteration;
    private long startNanos;
    private long spinNanos;
    private boolean dedicated;
    private long parkNanos;

    Backoff(long timeoutNanos, HostDomain domain) {
        this.timeoutNanos = timeoutNanos;
        this.domain = domain;
    }

    /** Counts the calling thread as running a lane until {@link #stopRunning()}. */
    static void startRunning() {
        RUNNERS.incrementAndGet();
    }

    static void stopRunning() {
        RUNNERS.decrementAndGet();
    }

    /** Starts a new wait. */
    void reset() {
        iteration = 0;
        startNanos = 0;
        parkNanos = MIN_PARK_NANOS;
    }

    /** Whether the wait has reached its parking phase. */
    private boolean parking() {
        return startNanos != 0 && System.nanoTime() - startNanos > (dedicated ? DEDICATED_YIELD_NANOS : spinNanos);
    }

    /**
     * Waits a little for a FIFO; while parked the thread is registered on the FIFO so that the
     * other side's publish or release wakes it at once (the timed park bounds a missed wake).
     */
    boolean pause(Fifo f, boolean forData) {
        if (!parking()) {
            return pause();
        }
        Thread me = Thread.currentThread();
        if (forData) {
            f.dataWaiter = me;
        } else {
            f.roomWaiter = me;
        }
        try {
            // Check again once registered: the other side may have published just before it
            // could see this thread, and would not wake it.
            if (forData ? f.hasData() : f.hasRoom()) {
                return true;
            }
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
        if (i < 64) {
            Thread.onSpinWait();
            return true;
        }
        long now = System.nanoTime();
        if (startNanos == 0) {
            startNanos = now;
            dedicated = RUNNERS.get() <= CORES;
            spinNanos = dedicated ? DEDICATED_SPIN_NANOS : SHARED_SPIN_NANOS;
        }
        if ((i & 7) == 0 && (domain.aborted() || now - startNanos > timeoutNanos)) {
            return false;
        }
        long waited = now - startNanos;
        if (waited <= spinNanos) {
            Thread.onSpinWait();
        } else if (dedicated && waited <= DEDICATED_YIELD_NANOS) {
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
}
