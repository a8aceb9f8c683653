package io.jccl.engine.host;

import java.util.concurrent.locks.LockSupport;

/**
 * How a host thread waits for another, by whether the threads running operations on this host
 * fit on its cores:
 * <ul>
 * <li>They fit (2 ranks on 2 cores): spin for {@link #DEDICATED_SPIN_NANOS}, then yield. A park
 * would hand the wake-up to the peer, and Linux places a woken thread on its waker's core: two
 * ranks that ping-pong then end up sharing one core, and stay so, waking each other on every
 * message (25-50x slower). Yielding keeps both runnable, so the scheduler can see the imbalance
 * and move one to the idle core.</li>
 * <li>They do not fit (4 or 8 ranks on 2 cores, as threads or processes): spin only
 * {@link #OVERSUBSCRIBED_SPINS} times, then yield: the thread waited for may need this very core.
 * Threads of one process used to park instead, registered on the FIFO, because a yield under
 * CFS often handed the core straight back; on Linux 6.18 (EEVDF) yielding was 12-30x faster for
 * small calls (8 B all-reduce, 4 threads on 2 cores: 3.8-5.0 µs a call against 92-95; 8 threads
 * 13-15 against 166-227; 16 threads 43 against 340) and 1.3-2x for large ones (8 threads, 2 MiB:
 * 2.6-2.9 ms against 4.9-6.1), and 4 processes on 2 cores: 4 µs a call where spinning 2 µs first
 * gave 7.</li>
 * </ul>
 * Either way a wait that lasts past {@link #YIELD_NANOS} stops taking a core: a peer that has not
 * made its call yet must not cost one until the timeout. It then parks with a growing sleep,
 * registered on the FIFO it waits for so that the other side wakes it at once; a FIFO shared with
 * another process cannot be woken from there, so its waits sleep at most
 * {@link #SHARED_MAX_PARK_NANOS} at a time, and give up when the other process died (a final look
 * still takes what it wrote before) or aborted the communicator (the FIFO's abort word). Any wait
 * of a communicator one of whose processes died gives up after {@link PeerProcesses#LOST_GRACE_NANOS}.
 *
 * <p>{@link #pause()} answers false once the wait has lasted past its deadline or the domain was
 * aborted, so that the caller can fail with its own context. One per thread, reused.
 */
final class Backoff {
    private static final long DEDICATED_SPIN_NANOS = 20_000;
    /** Spins before anything else when the threads fit on the cores, and when they do not. */
    private static final int SPINS = 64;
    private static final int OVERSUBSCRIBED_SPINS = 8;
    /** After this long a wait parks whatever the cores: latency no longer matters, a busy core does. */
    private static final long YIELD_NANOS = 10_000_000;
    private static final long MIN_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;
    private static final long SHARED_MAX_PARK_NANOS = 50_000;
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
    /** Why the last wait gave up besides deadline and local abort: the lost rank (or -1), another process's abort word (or 0). */
    private int lostPeer = -1;
    private long remoteAbort;

    Backoff(long timeoutNanos, HostDomain domain) {
        this.timeoutNanos = timeoutNanos;
        this.domain = domain;
    }

    /** Counts the calling thread as running a lane until {@link #stopRunning()}. */
    static void startRunning() {
        RUNNERS.incrementAndGet();
    }

    /** Whether the threads running lanes in this process fit on its cores (none waits for a core). */
    static boolean threadsFitCores() {
        return RUNNERS.get() <= CORES;
    }

    static void stopRunning() {
        RUNNERS.decrementAndGet();
    }

    /** Starts a new wait. */
    void reset() {
        iteration = 0;
        startNanos = 0;
        parkNanos = MIN_PARK_NANOS;
        lostPeer = -1;
        remoteAbort = 0;
    }

    /** The rank whose process died, when that ended the last wait; -1 otherwise. */
    int lostPeer() {
        return lostPeer;
    }

    /** The abort word of another process that ended the last wait; 0 otherwise. */
    long remoteAbort() {
        return remoteAbort;
    }

    /** Whether the wait has reached its parking phase. */
    private boolean parking() {
        return startNanos != 0 && System.nanoTime() - startNanos > YIELD_NANOS;
    }

    /**
     * Waits a little for a FIFO; while parked the thread is registered on the FIFO so that the
     * other side's publish or release wakes it at once (the timed park bounds a missed wake).
     */
    boolean pause(Fifo f, boolean forData) {
        if (f.shared) {
            return pauseShared(f, forData);
        }
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

    /** Polls a FIFO shared with another process (no wake-up can come from there). */
    private boolean pauseShared(Fifo f, boolean forData) {
        if ((iteration & 63) == 63) {
            long word = f.abortWord();
            if (word != 0) {
                remoteAbort = word;
                return false;
            }
            int peer = forData ? f.from : f.to;
            if (domain.peers.lost() == peer) {
                // What it wrote before it died is still there.
                if (forData ? f.hasData() : f.hasRoom()) {
                    return true;
                }
                lostPeer = peer;
                return false;
            }
        }
        return pause(SHARED_MAX_PARK_NANOS);
    }

    /** Waits a little; false when the wait is over its deadline or the domain was aborted. */
    boolean pause() {
        return pause(MAX_PARK_NANOS);
    }

    private boolean pause(long maxPark) {
        int i = iteration++;
        if (i == 0) {
            // Ranks of this host in other processes compete for the same cores.
            dedicated = RUNNERS.get() + (domain.peers == null ? 0 : domain.peers.otherProcessRanksHere()) <= CORES;
        }
        if (i < (dedicated ? SPINS : OVERSUBSCRIBED_SPINS)) {
            Thread.onSpinWait();
            return true;
        }
        long now = System.nanoTime();
        if (startNanos == 0) {
            startNanos = now;
            spinNanos = dedicated ? DEDICATED_SPIN_NANOS : 0;
        }
        if ((i & 7) == 0 && (domain.aborted() || now - startNanos > timeoutNanos)) {
            return false;
        }
        if ((i & 1023) == 0 && domain.peers != null && now - startNanos > PeerProcesses.LOST_GRACE_NANOS) {
            int lost = domain.peers.lost();
            if (lost >= 0) {
                lostPeer = lost;
                return false;
            }
        }
        long waited = now - startNanos;
        if (waited <= spinNanos) {
            Thread.onSpinWait();
        } else if (waited <= YIELD_NANOS) {
            // Hands the core to the thread or process this one waits for, where a sleep would add
            // its length to every hop.
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(parkNanos, maxPark));
            parkNanos = Math.min(MAX_PARK_NANOS, parkNanos * 2);
        }
        return true;
    }

    /** Whether the last failed pause was due to an abort rather than the deadline. */
    boolean aborted() {
        return domain.aborted();
    }
}
