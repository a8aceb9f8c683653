// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

/**
 * How many timed rounds one perf column takes, and how long each is. nccl-tests times one loop
 * after 5 warm-up calls; a JVM is not in its steady state that early: the first calls after a
 * pause overstate the pace (8 B across 2 processes: 5 warm-up calls at 20 µs each gave a timed
 * loop of 3 ms, where one scheduler hiccup made the row 10-1000× slow), and while the JIT still
 * recompiles the paths a new size or the in-place form takes, a whole 100 ms loop ran 50× slow.
 * So a column is timed again until two rounds that each lasted at least half of {@code --min-time} agree
 * within {@link #AGREE}, at most {@link #MAX_ROUNDS} rounds; the last round is the one reported.
 * With {@code --min-time 0} one round of exactly {@code -n} calls, as in nccl-tests.
 *
 * <p>Every rank feeds the same value (the slowest rank's time of the round), so all decide alike
 * without exchanging a message.
 */
final class TimingRounds {
    /** Most rounds a column is timed with. */
    static final int MAX_ROUNDS = 6;
    /** Two long-enough rounds whose times differ by at most this fraction end the column. */
    static final double AGREE = 0.10;

    private final long minMicros;
    private int iters;
    private int rounds;
    private double previous = Double.NaN;

    /** Rounds wanting at least {@code minMillis} ms each, the first of {@code iters} calls. */
    TimingRounds(int iters, long minMillis) {
        this.iters = Math.max(1, iters);
        this.minMicros = minMillis * 1000;
    }

    /** Calls of the round to run now. */
    int iters() {
        return iters;
    }

    /**
     * Takes the round just run ({@link #iters()} calls at {@code micros} µs each) and answers
     * whether another round follows (then {@link #iters()} is its length).
     */
    boolean another(double micros) {
        rounds++;
        if (minMicros == 0 || rounds >= MAX_ROUNDS) {
            return false;
        }
        boolean longEnough = micros * iters >= minMicros / 2.0 || iters >= PerfCommand.MAX_TIMED_ITERS;
        if (longEnough && !Double.isNaN(previous) && Math.abs(micros - previous) <= AGREE * Math.min(micros, previous)) {
            return false;
        }
        previous = longEnough ? micros : Double.NaN;
        if (!longEnough) {
            double scaled = Math.ceil(minMicros / Math.max(micros, 1e-3));
            iters = (int) Math.min(PerfCommand.MAX_TIMED_ITERS, Math.max(2L * iters, (long) scaled));
        }
        return true;
    }
}
