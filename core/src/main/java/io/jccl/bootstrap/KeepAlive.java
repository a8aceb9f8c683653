// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.JcclException;

import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ObjIntConsumer;

/**
 * Heartbeats among the ranks of a communicator in other processes, over the bootstrap's
 * connections. Each rank beats every interval to the ranks it watches (every rank of another
 * process up to {@link #WATCH_ALL} ranks, else the two on each side around the ring), and a watched
 * rank that stays silent for more than {@link #SILENT_BEATS} of its own intervals, or whose
 * connection ends without a goodbye, is declared lost: the watcher tells every rank, the lost one
 * included (so that it fails clearly if it resumes), and each rank's listener hears it once per
 * lost rank. A rank that finds it was itself stalled (its own loop late by more than an interval)
 * gives its peers a fresh start instead of blaming them.
 *
 * <pre>
 *   payload: kind (u8) | BEAT: interval ms (i32), current call (bytes) | LOST: rank (i32), why (string) | BYE: nothing
 *            | FAILED: why (string)
 * </pre>
 *
 * <p>Each beat carries the call the rank started last ({@link Bootstrap.CallProbe}); once a call
 * has run {@link io.jccl.transport.Wait#PROBE_NANOS} a beat goes out at once, so that ranks stuck
 * in calls that differ (roots no message shows) find it within a fraction of a second.
 */
final class KeepAlive implements PeerLinks.Listener {
    /** Up to this many ranks every rank watches every other process's ranks. */
    static final int WATCH_ALL = 16;
    /** Beats a watched rank may miss before it is declared lost. */
    static final int SILENT_BEATS = 2;
    private static final int BEAT = 0;
    private static final int LOST = 1;
    private static final int BYE = 2;
    private static final int FAILED = 3;
    private static final int MAX_WHY = 4096;
    /** How long telling a rank of a loss (or saying goodbye) may take. */
    private static final Duration NOTICE_BUDGET = Duration.ofSeconds(2);

    private final PeerLinks links;
    private final int tag;
    private final int rank;
    private final List<PeerInfo> peers;
    private final long intervalNanos;
    private final ObjIntConsumer<String> onLost;
    private final Bootstrap.CallProbe probe;
    private static final int MAX_CALL = 256;
    /** The ranks this one beats to and watches. */
    private final int[] watched;
    private final AtomicLongArray lastHeard;
    private final AtomicIntegerArray peerIntervalMillis;
    /** Per rank: 0 present, 1 said goodbye, 2 lost. */
    private final AtomicIntegerArray gone;
    private final Thread thread;
    private volatile boolean stopped;
    /** The threads sending notices, which {@link #stop} lets finish before the links close. */
    private final java.util.Queue<Thread> notices = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Whether the others declared this rank lost (it was stopped, or cut off, for too long). */
    private volatile boolean selfLost;

    private KeepAlive(PeerLinks links, int tag, int rank, List<PeerInfo> peers, Duration interval, ObjIntConsumer<String> onLost,
                      Bootstrap.CallProbe probe) {
        this.probe = probe;
        this.links = links;
        this.tag = tag;
        this.rank = rank;
        this.peers = peers;
        this.intervalNanos = interval.toNanos();
        this.onLost = onLost;
        this.watched = watchedBy(rank, peers);
        int n = peers.size();
        this.lastHeard = new AtomicLongArray(n);
        this.peerIntervalMillis = new AtomicIntegerArray(n);
        this.gone = new AtomicIntegerArray(n);
        long now = System.nanoTime();
        for (int p = 0; p < n; p++) {
            lastHeard.set(p, now);
        }
        this.thread = new Thread(this::run, "jccl-keepalive-" + rank);
        thread.setDaemon(true);
    }

    /** Starts beating and watching; {@code onLost} hears (why, rank) once per rank lost, on a jccl thread. */
    static KeepAlive start(PeerLinks links, int tag, int rank, List<PeerInfo> peers, Duration interval, ObjIntConsumer<String> onLost,
                           Bootstrap.CallProbe probe) {
        KeepAlive k = new KeepAlive(links, tag, rank, peers, interval, onLost, probe);
        links.listen(tag, k);
        k.thread.start();
        return k;
    }

    /** The ranks of other processes that {@code rank} watches: all of them in small jobs, else two on each side. */
    static int[] watchedBy(int rank, List<PeerInfo> peers) {
        int n = peers.size();
        PeerInfo me = peers.get(rank);
        List<Integer> out = new ArrayList<>();
        if (n <= WATCH_ALL) {
            for (int p = 0; p < n; p++) {
                out.add(p);
            }
        } else {
            for (int d = -2; d <= 2; d++) {
                int p = Math.floorMod(rank + d, n);
                if (!out.contains(p)) {
                    out.add(p);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).filter(p -> p != rank && !peers.get(p).sameProcess(me)).toArray();
    }

    /** The ranks declared lost so far, ascending. */
    int[] lost() {
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < gone.length(); p++) {
            if (gone.get(p) == 2) {
                out.add(p);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private void run() {
        long period = Math.max(1_000_000, Math.min(intervalNanos / 5, io.jccl.transport.Wait.PROBE_NANOS));
        long lastLoop = System.nanoTime();
        long lastBeat = lastLoop - intervalNanos;
        int intervalMillis = (int) Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(intervalNanos));
        byte[] probed = null;
        while (!stopped) {
            LockSupport.parkNanos(period);
            long now = System.nanoTime();
            if (now - lastLoop > intervalNanos) {
                // This process was stalled (stopped, paused, starved): the silence was ours, not theirs.
                for (int p : watched) {
                    lastHeard.set(p, now);
                }
            }
            lastLoop = now;
            byte[] call = probe.current();
            boolean stuck = call != null && probe.runningNanos() > io.jccl.transport.Wait.PROBE_NANOS
                    && !java.util.Arrays.equals(call, probed);
            if (now - lastBeat >= intervalNanos || stuck) {
                lastBeat = now;
                probed = stuck ? call : probed;
                byte[] beat = new Wire.Writer().u8(BEAT).i32(intervalMillis).bytes(call == null ? new byte[0] : call).toByteArray();
                for (int p : watched) {
                    if (gone.get(p) == 0 && !stopped) {
                        sendTo(p, beat, Duration.ofNanos(intervalNanos), true);
                    }
                }
            }
            for (int p : watched) {
                long limit = SILENT_BEATS * Math.max(intervalNanos, TimeUnit.MILLISECONDS.toNanos(peerIntervalMillis.get(p)));
                long silent = System.nanoTime() - lastHeard.get(p);
                if (gone.get(p) == 0 && silent > limit && !stopped) {
                    declare(p, "it sent no heartbeat for " + Deadline.seconds(Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(silent)))
                            + ": it is stopped (SIGSTOP, a debugger, a paused VM or a long pause) or the network to it is down");
                }
            }
        }
    }

    /**
     * Sends {@code payload}; a rank a beat cannot reach (refused, connection lost) is declared lost.
     * A beat that times out (a slow handshake, a peer that does not read) is left to the silence
     * check, which gives the peer its whole allowance.
     */
    private void sendTo(int p, byte[] payload, Duration budget, boolean beat) {
        try {
            links.send(p, tag, payload, Deadline.after(budget), beat ? "a heartbeat" : "a keep-alive notice");
        } catch (JcclException e) {
            if (beat && !stopped && e.code() != io.jccl.ErrorCode.TIMEOUT) {
                declare(p, "it cannot be reached for heartbeats: " + e.getMessage());
            }
        }
    }

    /** Tells every other rank this one fails the communicator for {@code why} (their listeners hear it with rank -1). */
    void tell(String why) {
        broadcast(new Wire.Writer().u8(FAILED).string(clip(why)).toByteArray());
    }

    /** Declares {@code p} lost (once) and tells every other rank, {@code p} included. */
    private void declare(int p, String why) {
        if (!gone.compareAndSet(p, 0, 2)) {
            return;
        }
        String msg = "lost " + describe(p) + ": " + why + " (found by rank " + rank + ")";
        onLost.accept(msg, p);
        broadcast(new Wire.Writer().u8(LOST).i32(p).string(clip(msg)).toByteArray());
    }

    /** Sends {@code notice} to every rank of another process still present, each on a thread of its own. */
    private void broadcast(byte[] notice) {
        for (int q = 0; q < peers.size(); q++) {
            int to = q;
            if (q != rank && !peers.get(q).sameProcess(peers.get(rank)) && gone.get(q) != 1) {
                notices.add(Thread.ofVirtual().name("jccl-keepalive-notice").start(() -> sendTo(to, notice, NOTICE_BUDGET, false)));
            }
        }
    }

    private String describe(int p) {
        PeerInfo info = peers.get(p);
        return "rank " + p + " (pid " + info.pid() + " on " + info.hostname() + ")";
    }

    private static String clip(String s) {
        return s.length() <= MAX_WHY / 4 ? s : s.substring(0, MAX_WHY / 4);
    }

    @Override
    public void heard(int peer) {
        lastHeard.set(peer, System.nanoTime());
    }

    /** Whether the others declared this rank lost. */
    boolean selfLost() {
        return selfLost;
    }

    @Override
    public void frame(int peer, byte[] payload) {
        if (stopped) {
            return;
        }
        try {
            Wire.Reader r = new Wire.Reader(payload, "keep-alive frame of rank " + peer);
            switch (r.u8()) {
                case BEAT -> {
                    peerIntervalMillis.set(peer, Math.max(1, r.i32()));
                    byte[] call = r.bytes(MAX_CALL);
                    if (call.length > 0) {
                        probe.heard(peer, call);
                    }
                }
                case LOST -> {
                    int lost = r.i32();
                    String why = r.string(MAX_WHY);
                    if (lost == rank) {
                        selfLost = true;
                        onLost.accept("this rank was declared lost by the others: " + why + "; it cannot rejoin, close the"
                                + " communicator", rank);
                    } else if (lost >= 0 && lost < peers.size() && gone.compareAndSet(lost, 0, 2)) {
                        onLost.accept(why, lost);
                    }
                }
                case BYE -> gone.compareAndSet(peer, 0, 1);
                case FAILED -> onLost.accept(r.string(MAX_WHY), -1);
                default -> throw new BadFrame("unknown keep-alive kind");
            }
        } catch (BadFrame e) {
            declare(peer, "it sent a bad keep-alive frame: " + e.getMessage());
        }
    }

    @Override
    public void broken(int peer, IOException e) {
        if (!stopped && gone.get(peer) == 0 && contains(watched, peer)) {
            declare(peer, e instanceof EOFException ? "its process died (it closed its connections without a goodbye)"
                    : "its connection broke: " + e.getMessage());
        }
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** Stops beating and tells the watchers this rank leaves on purpose. */
    void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(intervalNanos / 1_000_000 + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long until = System.nanoTime() + NOTICE_BUDGET.toNanos();
        for (Thread t; (t = notices.poll()) != null; ) {
            try {
                t.join(Duration.ofNanos(Math.max(1, until - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        byte[] bye = new Wire.Writer().u8(BYE).toByteArray();
        for (int p : watched) {
            if (gone.get(p) == 0) {
                sendTo(p, bye, Duration.ofMillis(500), false);
            }
        }
    }
}
