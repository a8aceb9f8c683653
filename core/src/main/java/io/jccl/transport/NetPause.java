package io.jccl.transport;

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

    /** The next sleep, in nanoseconds; each is twice the last, up to the profile's longest. */
    long sleep() {
        long p = park;
        park = Math.min(pacing.maxParkNanos(), park * 2);
        return p;
    }
}
