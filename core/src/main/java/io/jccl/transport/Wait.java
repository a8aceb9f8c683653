// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The one way the engines wait for another thread, another process or a GPU. The caller owns the
 * condition and looks at it between pauses; the wait owns everything else:
 *
 * <pre>{@code
 * wait.beginData(fifo);
 * while (!fifo.hasData()) {
 *     if (!wait.pause()) {
 *         throw failure(wait.end());   // DEADLINE, ABORTED, REMOTE_ABORT or LOST_PEER
 *     }
 * }
 * }</pre>
 *
 * <p>Every pause past the first few spins checks, whatever the caller saw since the last one: this
 * process's abort, the abort word another process left in the shared FIFO waited on (or for the
 * communicator), the deadline, and (at most every millisecond) the death of the process the wait
 * depends on and, past {@link #PROBE_NANOS}, whether that peer makes another call. A pause never
 * answers "go on" without advancing and checking, so no path (not even one on which the caller
 * sees some progress but not its condition) can spin past a dead peer or the deadline. A dead
 * peer gets one last look: the pause after the one that saw it dead answers false, so the caller
 * takes what the peer wrote before it died and then fails.
 *
 * <p>The pacing is {@link Pacing}'s: spin while a reply is expected within microseconds, yield
 * while the thread waited for may need this very core, then park with a growing sleep so that a
 * peer that has not made its call costs no core. A wait on a FIFO of this process registers as
 * its waiter while parked, so the other side wakes it at once. One per thread, reused.
 */
public final class Wait {
    /** Why a wait gave up. */
    public enum End {
        /** It has not: the wait is still on. */
        NONE,
        /** Past its deadline. */
        DEADLINE,
        /** This process aborted the communicator. */
        ABORTED,
        /** Another process aborted it: {@link #remoteAbort()} says who and why. */
        REMOTE_ABORT,
        /** The process of {@link #lostPeer()} died. */
        LOST_PEER,
        /** The rank waited for makes another call: {@link #mismatch()} names both. */
        MISMATCH
    }

    /** Which side of a FIFO a wait is on, for the wake-up it registers for. */
    enum Side {
        /** The receiver, waiting for a message. */
        DATA,
        /** The sender, waiting for a free slot or for a message to be taken. */
        ROOM
    }

    /**
     * What a wait watches besides its condition: this process's abort, the processes of the
     * communicator's ranks, and an abort another process left for all.
     */
    public interface Watch {
        /** Whether this process aborted the communicator. */
        boolean aborted();

        /** Whether the process of {@code rank} is known dead (never for a rank this process cannot see). */
        boolean dead(int rank);

        /** A rank whose process is known dead, or -1. */
        int anyDead();

        /** The abort word another process left for the whole communicator: its rank + 1 in the low half, the rank it lost + 1 in the high half; 0 for none. */
        default long abortWord() {
            return 0;
        }

        /**
         * Asked of a wait of rank {@code waiter} on {@code rank} that lasted {@link #PROBE_NANOS}:
         * why the two cannot meet (they make different calls), or null.
         */
        default String mismatch(int waiter, int rank) {
            return null;
        }
    }

    /** How long a wait on one peer lasts before it asks whether that peer makes another call. */
    public static final long PROBE_NANOS = 100_000_000L;

    /** A watch of nothing: waits between threads of one process whose communicator has no abort of its own. */
    public static final Watch NOTHING = abortOnly(() -> false);

    /** A watch of {@code aborted} alone: waits of a thread that no peer's death concerns directly (a proxy's). */
    public static Watch abortOnly(BooleanSupplier aborted) {
        return new Watch() {
            @Override
            public boolean aborted() {
                return aborted.getAsBoolean();
            }

            @Override
            public boolean dead(int rank) {
                return false;
            }

            @Override
            public int anyDead() {
                return -1;
            }
        };
    }

    /**
     * How long a wait that does not depend on one peer goes on once some process of the
     * communicator is known dead: another rank may still be passing on what the dead one sent
     * before it closed and exited; the ranks that waited on the dead one directly fail at once and
     * abort the others.
     */
    public static final long LOST_GRACE_NANOS = 2_000_000_000L;
    /** No deadline: the thing waited for carries its own (a kernel's watchdog, each lane's waits). */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * How a wait spends its time: {@code spins} spins first, then spinning until {@code spinNanos},
     * yielding until {@code yieldNanos}, then parking, the sleep growing from {@code minParkNanos}
     * to {@code maxParkNanos}. The thresholds of every waiting loop of the engines are here.
     */
    public record Pacing(int spins, long spinNanos, long yieldNanos, long minParkNanos, long maxParkNanos) {
        /**
         * A lane whose threads fit the cores: it spins 20 µs, since a reply usually comes in
         * microseconds, then yields rather than park: a park hands the wake-up to the peer, and
         * Linux then places both ranks on the waker's core for good (docs/results.md,
         * "Scheduling").
         */
        public static final Pacing DEDICATED = new Pacing(64, 20_000, 10_000_000, 10_000, 1_000_000);
        /** A lane when threads outnumber the cores: barely spins, since the thread waited for may need this very core. */
        public static final Pacing OVERSUBSCRIBED = new Pacing(8, 0, 10_000_000, 10_000, 1_000_000);
        /** A thread waiting for helpers that need the cores (lane 0 for the other lanes): short, then sleeps of at most 100 µs. */
        public static final Pacing HELPERS = new Pacing(1024, 0, 50_000, 1_000, 100_000);
        /** Polling something that cannot wake the waiter (a GPU stream, another process's file): spins, then 50 µs sleeps. */
        public static final Pacing POLL = new Pacing(2_000, 0, 0, 50_000, 50_000);
        /** Polling a file another process writes once (a FIFO's export): every 200 µs. */
        public static final Pacing FILE_POLL = new Pacing(0, 0, 0, 200_000, 200_000);
        /**
         * A network proxy thread whose connection waits on the network (a full socket, a
         * completion) or on a FIFO whose other side cannot wake it (a GPU's): a few spins, then
         * sleeps growing from 1 µs to 50 µs, short since the link is busy then.
         */
        public static final Pacing NET_POLL = new Pacing(64, 0, 0, 1_000, 50_000);
        /**
         * A network proxy thread with nothing to do: lanes and arriving frames wake it, so its
         * sleeps (10 ms growing to 1 s) only bound how late it sees an abort from elsewhere.
         */
        public static final Pacing NET_IDLE = new Pacing(0, 0, 0, 10_000_000, 1_000_000_000);
        /** Connecting to a listener that may not be up yet: again at once, then after 10 ms growing to 0.5 s. */
        public static final Pacing NET_CONNECT = new Pacing(0, 0, 0, 10_000_000, 500_000_000);
    }

    /** How often a wait asks about the peers' processes (the watch itself looks at /proc less often). */
    private static final long PEERS_EVERY_NANOS = 1_000_000;
    /** A FIFO shared with another process cannot wake its waiter: its parks are this short at most. */
    private static final long SHARED_MAX_PARK_NANOS = 50_000;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** Threads of this process running an operation's lane right now. */
    private static final AtomicInteger RUNNERS = new AtomicInteger();

    private final Watch watch;
    private final long timeoutNanos;
    /** The pacing of every wait, or null: a lane's, chosen per wait by whether the threads fit the cores. */
    private final Pacing fixed;
    /** Ranks of this host in other processes: they compete for the cores too (lanes only). */
    private final int otherProcessRanks;

    private Pacing pacing;
    private Fifo fifo;
    private Side side;
    /** A sender's wait ends once the receiver's head passes this. */
    private long roomHead;
    private int peer;
    private int iteration;
    private long startNanos;
    private long parkNanos;
    private long lastLookNanos;
    private long peersLookedNanos;
    private End end = End.NONE;
    private int lostPeer = -1;
    private long remoteAbort;
    private String mismatch;
    /** The rank that waits, for {@link Watch#mismatch}; -1 for waits of no rank (proxies, helpers). */
    private final int self;

    /** A wait with a fixed pacing ({@code timeoutNanos}: {@link #NO_DEADLINE} for none). */
    public Wait(Watch watch, long timeoutNanos, Pacing pacing) {
        this(watch, timeoutNanos, pacing, 0, -1);
    }

    private Wait(Watch watch, long timeoutNanos, Pacing pacing, int otherProcessRanks, int self) {
        this.watch = watch;
        this.self = self;
        this.timeoutNanos = timeoutNanos;
        this.fixed = pacing;
        this.otherProcessRanks = otherProcessRanks;
    }

    /**
     * A lane's wait of rank {@code self}: {@link Pacing#DEDICATED} when the threads running lanes here, and the
     * {@code otherProcessRanks} ranks of this host in other processes, fit the cores, else
     * {@link Pacing#OVERSUBSCRIBED}.
     */
    public static Wait forLane(Watch watch, int self, int otherProcessRanks, long timeoutNanos) {
        return new Wait(watch, timeoutNanos, null, otherProcessRanks, self);
    }

    /** Counts the calling thread as running a lane until {@link #stopRunning()}. */
    public static void startRunning() {
        RUNNERS.incrementAndGet();
    }

    public static void stopRunning() {
        RUNNERS.decrementAndGet();
    }

    /** Whether the threads running lanes in this process fit on its cores (none waits for a core). */
    public static boolean threadsFitCores() {
        return RUNNERS.get() <= CORES;
    }

    /** Starts a wait that depends on no one peer. */
    public void begin() {
        begin(null, null, -1);
    }

    /** Starts a wait on the process of {@code peer} (its death ends the wait after one last look). */
    public void begin(int peer) {
        begin(null, null, peer);
    }

    /** Starts a wait for a message on {@code f}; its sender's process is the peer watched. */
    public void beginData(Fifo f) {
        begin(f, Side.DATA, f.from);
    }

    /** Starts a wait for a free slot in {@code f}; its receiver's process is the peer watched. */
    public void beginRoom(Fifo f) {
        begin(f, Side.ROOM, f.to);
        roomHead = f.tail() - io.jccl.proto.Protocol.STEPS;
    }

    /** Starts a wait for the receiver of {@code f} to take message {@code seq}. */
    public void beginTaken(Fifo f, long seq) {
        begin(f, Side.ROOM, f.to);
        roomHead = seq;
    }

    private void begin(Fifo f, Side s, int p) {
        fifo = f;
        side = s;
        peer = p;
        iteration = 0;
        startNanos = 0;
        lastLookNanos = 0;
        end = End.NONE;
        lostPeer = -1;
        remoteAbort = 0;
        mismatch = null;
        pacing = fixed;
    }

    /** Whether the last wait was for a message (else for room to send one, or for none at all). */
    public boolean forData() {
        return side == Side.DATA;
    }

    /** The rank whose process the last wait watched (the other end of its FIFO), or -1. */
    public int peer() {
        return peer;
    }

    /** Why the last wait gave up ({@link End#NONE} while it goes on). */
    public End end() {
        return end;
    }

    /** The rank whose process died, when that ended the last wait; -1 otherwise. */
    public int lostPeer() {
        return lostPeer;
    }

    /** Why the waiter and its peer make different calls, when that ended the last wait; null otherwise. */
    public String mismatch() {
        return mismatch;
    }

    /** The abort word of another process that ended the last wait; 0 otherwise. */
    public long remoteAbort() {
        return remoteAbort;
    }

    /** How long the current wait has lasted past its spins, in nanoseconds. */
    public long waitedNanos() {
        return startNanos == 0 ? 0 : System.nanoTime() - startNanos;
    }

    /** Waits a little; false once the wait is over: {@link #end()} says why. */
    public boolean pause() {
        int i = iteration++;
        if (i == 0 && pacing == null) {
            pacing = RUNNERS.get() + otherProcessRanks <= CORES ? Pacing.DEDICATED : Pacing.OVERSUBSCRIBED;
        }
        if (i < pacing.spins()) {
            Thread.onSpinWait();
            return true;
        }
        long now = System.nanoTime();
        if (startNanos == 0) {
            startNanos = now;
            peersLookedNanos = now - PEERS_EVERY_NANOS;
            parkNanos = pacing.minParkNanos();
        }
        if (!watched(now)) {
            return false;
        }
        long waited = now - startNanos;
        if (waited <= pacing.spinNanos()) {
            Thread.onSpinWait();
        } else if (waited <= pacing.yieldNanos()) {
            // Hands the core to the thread or process this one waits for, where a sleep would add
            // its length to every hop.
            Thread.yield();
        } else {
            park();
        }
        return true;
    }

    /** The checks of every pause; false (with {@link #end} set) when the wait is over. */
    private boolean watched(long now) {
        if (watch.aborted()) {
            end = End.ABORTED;
            return false;
        }
        long word = fifo != null && fifo.shared ? fifo.abortWord() : 0;
        if (word == 0) {
            word = watch.abortWord();
        }
        if (word != 0) {
            remoteAbort = word;
            end = End.REMOTE_ABORT;
            return false;
        }
        if (now - startNanos > timeoutNanos) {
            end = End.DEADLINE;
            return false;
        }
        if (now - peersLookedNanos < PEERS_EVERY_NANOS && lastLookNanos == 0) {
            return true;
        }
        peersLookedNanos = now;
        int dead = peer >= 0 && watch.dead(peer) ? peer : -1;
        if (dead < 0 && now - startNanos > LOST_GRACE_NANOS) {
            dead = watch.anyDead();
        }
        if (dead >= 0) {
            if (lastLookNanos == 0) {
                // One more look at the condition: what the peer wrote before it died is still there.
                lastLookNanos = now;
                return true;
            }
            lostPeer = dead;
            end = End.LOST_PEER;
            return false;
        }
        if (peer >= 0 && self >= 0 && now - startNanos > PROBE_NANOS) {
            String m = watch.mismatch(self, peer);
            if (m != null) {
                mismatch = m;
                end = End.MISMATCH;
                return false;
            }
        }
        return true;
    }

    /** Parks, registered as the FIFO's waiter when the other side can wake this thread. */
    private void park() {
        long nanos = parkNanos;
        parkNanos = Math.min(pacing.maxParkNanos(), parkNanos * 2);
        if (fifo == null) {
            LockSupport.parkNanos(nanos);
            return;
        }
        if (fifo.shared) {
            LockSupport.parkNanos(Math.min(nanos, SHARED_MAX_PARK_NANOS));
            return;
        }
        Thread me = Thread.currentThread();
        fifo.await(side, me);
        try {
            // Look again once registered: the other side may have published just before it could
            // see this thread, and would not wake it.
            if (side == Side.DATA ? !fifo.hasData() : fifo.head() <= roomHead) {
                LockSupport.parkNanos(nanos);
            }
        } finally {
            fifo.unwait(side, me);
        }
    }
}
