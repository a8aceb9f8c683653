// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.time.Duration;

/** A point in time a bootstrap step must finish by, with the budget it was given (for messages). */
final class Deadline {
    private final long endNanos;
    private final Duration budget;

    private Deadline(long endNanos, Duration budget) {
        this.endNanos = endNanos;
        this.budget = budget;
    }

    static Deadline after(Duration budget) {
        long nanos;
        try {
            nanos = budget.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 4;
        }
        return new Deadline(System.nanoTime() + Math.min(nanos, Long.MAX_VALUE / 4), budget);
    }

    /** This deadline moved later by {@code extra} (a grace period for an answer that reports a timeout). */
    Deadline extendedBy(Duration extra) {
        return new Deadline(endNanos + Math.min(extra.toNanos(), Long.MAX_VALUE / 4), budget);
    }

    long remainingNanos() {
        return endNanos - System.nanoTime();
    }

    boolean expired() {
        return remainingNanos() <= 0;
    }

    /** The remaining time as a socket timeout: at least 1 ms, since 0 would mean forever. */
    int socketTimeoutMillis() {
        long ms = (remainingNanos() + 999_999) / 1_000_000;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, ms));
    }

    /** The budget, for messages: "2 s", "300 s", "0.5 s". */
    String budget() {
        return seconds(budget);
    }

    static String seconds(Duration d) {
        long ms = d.toMillis();
        return (ms % 1000 == 0 ? Long.toString(ms / 1000) : Double.toString(ms / 1000.0)) + " s";
    }
}
