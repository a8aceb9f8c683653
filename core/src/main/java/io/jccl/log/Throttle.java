// SPDX-License-Identifier: Apache-2.0
package io.jccl.log;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Lets a line through at most once per interval and counts the ones it held back, so that a flood
 * of one event (strangers' connections, say) costs a line a second, not a line each.
 *
 * <pre>{@code
 * Throttle dropped = new Throttle(1_000_000_000L);
 * dropped.write(warn, "dropped a connection from " + address);  // "... (12 more since the last)"
 * }</pre>
 */
public final class Throttle {
    private final long intervalNanos;
    private final AtomicLong last;
    private final AtomicLong held = new AtomicLong();

    public Throttle(long intervalNanos) {
        this.intervalNanos = intervalNanos;
        this.last = new AtomicLong(System.nanoTime() - intervalNanos);
    }

    /** Writes {@code line} to {@code out} unless a line went through less than the interval ago. */
    public void write(Consumer<String> out, String line) {
        long now = System.nanoTime();
        long l = last.get();
        if (now - l < intervalNanos || !last.compareAndSet(l, now)) {
            held.incrementAndGet();
            return;
        }
        long n = held.getAndSet(0);
        out.accept(n == 0 ? line : line + " (" + n + " more since the last line)");
    }
}
