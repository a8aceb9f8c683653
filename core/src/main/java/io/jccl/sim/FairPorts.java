// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import java.util.Arrays;

/**
 * Ports that share their rate equally among the connections with bytes on them, each connection's
 * messages in their order: TCP's flows through one shaped link, each a byte stream. A message
 * joins every port of its route when it is sent (cut through) and is done on its links when the
 * last of them has carried it. Its end on a port is projected as if no other message joined; a
 * message that joins later takes a share and so moves the ends of those in flight later, never
 * earlier, and {@link Listener#moved} says so.
 *
 * <pre>
 * port q's list, in the order messages joined:   a1 b1 a2 c1       (a, b, c: connections)
 * heads (each connection's first):               a1 b1    c1       each drains at rate / 3
 * a2 starts when a1 is done; a connection leaves the share when its last message is.
 * </pre>
 *
 * A message is an id from {@link #open}; it is given back once it is done on every port.
 */
final class FairPorts {
    /** Told of messages' moves and ends. */
    interface Listener {
        /** Message {@code m}'s projected end on its links is now {@code doneUs}. */
        void moved(int m, double doneUs);

        /** Message {@code m} is done on every port of its route at {@code doneUs}; its id is free after this. */
        void finished(int m, double doneUs);
    }

    /** Hops a route may have: an entry of a port's list is a message's id and its hop, 3 bits. */
    static final int MAX_HOPS = 8;

    private final double[] rate;
    private final double[] burst;
    private final int hopsMax;
    private final Listener listener;
    /** Per port: its entries (message << 3 | hop) in the order they joined, how many, when its shares were last taken. */
    private final int[][] entries;
    private final int[] count;
    private final double[] last;
    /** Per port: the burst it had left when it went idle, and when it did. */
    private final double[] credit;
    private final double[] idleSince;
    // per message
    private int[] conn;
    private int[] hops;
    private int[] hopsLeft;
    private double[] left;
    private double[] doneOnHop;
    private int[] freeIds;
    private int free;
    // scratch of one port's list
    private double[] cumulative = new double[16];
    private double[] totals = new double[16];
    private boolean[] head = new boolean[16];

    /**
     * Ports of {@code rate} bytes per µs and {@code burst} bytes each (a token bucket that fills at
     * its rate while the port idles), routes of at most {@code maxHops} ports.
     */
    FairPorts(double[] rate, double[] burst, int maxHops, Listener listener) {
        if (maxHops > MAX_HOPS) {
            throw new IllegalArgumentException("routes of " + maxHops + " hops; at most " + MAX_HOPS);
        }
        this.rate = rate.clone();
        this.burst = burst.clone();
        this.hopsMax = Math.max(1, maxHops);
        this.listener = listener;
        int n = rate.length;
        entries = new int[n][4];
        count = new int[n];
        last = new double[n];
        credit = new double[n];
        idleSince = new double[n];
        grow(64);
    }

    /** A new message of connection {@code connection} over {@code routeHops} ports; then {@link #join} each. */
    int open(int connection, int routeHops) {
        if (free == 0) {
            grow(2 * conn.length);
        }
        int m = freeIds[--free];
        conn[m] = connection;
        hops[m] = routeHops;
        hopsLeft[m] = 0;
        return m;
    }

    /**
     * Message {@code m} of {@code bytes} takes hop {@code h} of its route, port {@code q}, at
     * {@code t}: what the port's burst holds goes at once, the rest at its share of the rate.
     */
    void join(int m, int h, int q, double bytes, double t) {
        advance(q, t);
        double rest = bytes;
        if (count[q] == 0) {
            double bucket = Math.min(burst[q], credit[q] + rate[q] * Math.max(0, t - idleSince[q]));
            double use = Math.min(bucket, bytes);
            rest = bytes - use;
            credit[q] = bucket - use;
            idleSince[q] = t;
            last[q] = t;
        }
        int k = m * hopsMax + h;
        left[k] = rest;
        doneOnHop[k] = t;
        if (rest > 0) {
            if (count[q] == entries[q].length) {
                entries[q] = Arrays.copyOf(entries[q], 2 * count[q]);
            }
            entries[q][count[q]++] = m << 3 | h;
            hopsLeft[m]++;
        }
    }

    /**
     * After its joins: the ends of message {@code m} and of every message sharing a port with it
     * are projected again ({@link Listener#moved}), or {@code m} is done at once if it has no
     * bytes left on any port (its end returned; else NaN).
     */
    double settle(int m, int[] ports, double t) {
        if (hopsLeft[m] == 0) {
            freeIds[free++] = m;
            return Math.max(t, doneOnLinks(m));
        }
        for (int h = 0; h < hops[m]; h++) {
            if (left[m * hopsMax + h] > 0) {
                project(ports[h]);
            }
        }
        return Double.NaN;
    }

    /** Every port's shares taken to the end: what is in flight finishes ({@link Listener#finished}). */
    void drain() {
        for (int q = 0; q < count.length; q++) {
            advance(q, Double.POSITIVE_INFINITY);
        }
    }

    /** When port {@code q} is projected to be idle: its last message's end, or when it went idle. */
    double freeAt(int q) {
        double at = last[q];
        for (int i = 0; i < count[q]; i++) {
            int e = entries[q][i];
            at = Math.max(at, doneOnHop[(e >>> 3) * hopsMax + (e & 7)]);
        }
        return count[q] == 0 ? idleSince[q] : at;
    }

    /** Takes port {@code q}'s shares from its last time to {@code t}, finishing messages on the way. */
    private void advance(int q, double t) {
        int[] list = entries[q];
        double now = last[q];
        while (count[q] > 0) {
            int n = markHeads(q);
            int flows = 0;
            double least = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (head[i]) {
                    flows++;
                    least = Math.min(least, left[slot(list[i])]);
                }
            }
            double share = rate[q] / flows;
            double done = now + least / share;
            if (done > t) {
                for (int i = 0; i < n; i++) {
                    if (head[i]) {
                        left[slot(list[i])] -= (t - now) * share;
                    }
                }
                now = t;
                break;
            }
            int kept = 0;
            for (int i = 0; i < n; i++) {
                int e = list[i];
                if (head[i]) {
                    left[slot(e)] -= least;
                }
                if (head[i] && left[slot(e)] <= least * 1e-12) {
                    left[slot(e)] = 0;
                    doneOnHop[slot(e)] = done;
                    hopDone(e >>> 3);
                } else {
                    list[kept++] = e;
                }
            }
            count[q] = kept;
            now = done;
            if (kept == 0) {
                // a busy port spends its tokens as they come
                credit[q] = 0;
                idleSince[q] = done;
            }
        }
        last[q] = now;
    }

    private void hopDone(int m) {
        if (--hopsLeft[m] > 0) {
            return;
        }
        listener.finished(m, doneOnLinks(m));
        freeIds[free++] = m;
    }

    /** When message {@code m} is done on every port of its route, as far as they are projected. */
    private double doneOnLinks(int m) {
        double done = 0;
        for (int h = 0; h < hops[m]; h++) {
            done = Math.max(done, doneOnHop[m * hopsMax + h]);
        }
        return done;
    }

    /**
     * Projects the end of each message on port {@code q} with no one joining: every connection
     * with bytes on it drains at the same pace until its last byte, so a message ends when its
     * connection has drained the bytes up to its own.
     */
    private void project(int q) {
        int n = count[q];
        scratch(n);
        int[] list = entries[q];
        int flows = 0;
        for (int i = 0; i < n; i++) {
            int c = conn[list[i] >>> 3];
            double before = 0;
            for (int j = i - 1; j >= 0; j--) {
                if (conn[list[j] >>> 3] == c) {
                    before = cumulative[j];
                    break;
                }
            }
            cumulative[i] = before + left[slot(list[i])];
        }
        for (int i = 0; i < n; i++) {
            if (lastOfConnection(list, i, n)) {
                totals[flows++] = cumulative[i];
            }
        }
        Arrays.sort(totals, 0, flows);
        for (int i = 0; i < n; i++) {
            double x = cumulative[i];
            double time = last[q];
            double drained = 0;
            int active = flows;
            for (int f = 0; f < flows && x > totals[f]; f++) {
                time += (totals[f] - drained) * active / rate[q];
                drained = totals[f];
                active--;
            }
            time += (x - drained) * active / rate[q];
            doneOnHop[slot(list[i])] = time;
            listener.moved(list[i] >>> 3, doneOnLinks(list[i] >>> 3));
        }
    }

    private boolean lastOfConnection(int[] list, int i, int n) {
        int c = conn[list[i] >>> 3];
        for (int j = i + 1; j < n; j++) {
            if (conn[list[j] >>> 3] == c) {
                return false;
            }
        }
        return true;
    }

    /** Marks in {@link #head} which entries of port {@code q} are their connection's first; their count. */
    private int markHeads(int q) {
        int n = count[q];
        scratch(n);
        int[] list = entries[q];
        for (int i = 0; i < n; i++) {
            int c = conn[list[i] >>> 3];
            boolean first = true;
            for (int j = 0; j < i && first; j++) {
                first = conn[list[j] >>> 3] != c;
            }
            head[i] = first;
        }
        return n;
    }

    /** Scratch for a list of {@code n} entries. */
    private void scratch(int n) {
        if (head.length < n) {
            head = new boolean[2 * n];
            cumulative = new double[2 * n];
            totals = new double[2 * n];
        }
    }

    private int slot(int entry) {
        return (entry >>> 3) * hopsMax + (entry & 7);
    }

    private void grow(int capacity) {
        int old = conn == null ? 0 : conn.length;
        conn = conn == null ? new int[capacity] : Arrays.copyOf(conn, capacity);
        hops = hops == null ? new int[capacity] : Arrays.copyOf(hops, capacity);
        hopsLeft = hopsLeft == null ? new int[capacity] : Arrays.copyOf(hopsLeft, capacity);
        left = left == null ? new double[capacity * hopsMax] : Arrays.copyOf(left, capacity * hopsMax);
        doneOnHop = doneOnHop == null ? new double[capacity * hopsMax] : Arrays.copyOf(doneOnHop, capacity * hopsMax);
        int[] ids = new int[capacity];
        if (freeIds != null) {
            System.arraycopy(freeIds, 0, ids, 0, free);
        }
        for (int m = capacity - 1; m >= old; m--) {
            ids[free++] = m;
        }
        freeIds = ids;
    }
}
