// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.locks.LockSupport;

/**
 * How a network proxy thread paces itself after a pass over its connections that moved nothing,
 * by one of {@link Wait.Pacing}'s profiles: {@link #spin} a few times, then sleeps that grow from
 * the profile's shortest to its longest; {@link #reset} once something moved.
 */
final class NetPause {
    private final Wait.Pacing pacing;
    private int spins;
    private long park;

    NetPause(Wait.Pacing pacing) {
        this.pacing = pacing;
        reset();
    }

    void reset() {
        spins = 0;
        park = pacing.minParkNanos();
    }

    /** Spins once and says true while the profile's spins last; false when the thread should sleep instead. */
    boolean spin() {
        if (spins < pacing.spins()) {
            spins++;
            Thread.onSpinWait();
            return true;
        }
        return false;
    }

    /**
     * Parks a proxy thread for {@code nanos}, registered as the {@code side} waiter of each of its
     * connections' FIFOs so that a lane's send (or release) wakes it; not at all when one is ready
     * once registered (it may have published before it could see this thread) or a new connection
     * is {@code incoming}.
     */
    static void park(List<? extends NetConn<?>> conns, Wait.Side side, Queue<?> incoming, long nanos) {
        Thread me = Thread.currentThread();
        for (int i = 0; i < conns.size(); i++) {
            conns.get(i).fifo.await(side, me);
        }
        try {
            for (int i = 0; i < conns.size(); i++) {
                if (conns.get(i).ready()) {
                    return;
                }
            }
            if (incoming.isEmpty()) {
                LockSupport.parkNanos(nanos);
            }
        } finally {
            for (int i = 0; i < conns.size(); i++) {
                conns.get(i).fifo.unwait(side, me);
            }
        }
    }

    /** The next sleep, in nanoseconds; each is twice the last, up to the profile's longest. */
    long sleep() {
        long p = park;
        park = Math.min(pacing.maxParkNanos(), park * 2);
        return p;
    }
}
