// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventQueueTest {
    private record Event(double time, long order, int lane) {
    }

    /**
     * Interleaved adds and polls, as a run makes them (never earlier than the last event taken),
     * against a plain priority queue by (time, order queued); {@code delay} draws how far ahead an
     * event is queued.
     */
    private static void matchesAPriorityQueue(long seed, int rounds, DoubleSupplier delay) {
        EventQueue q = new EventQueue();
        PriorityQueue<Event> reference = new PriorityQueue<>(Comparator.comparingDouble(Event::time).thenComparingLong(Event::order));
        SplittableRandom random = new SplittableRandom(seed);
        long order = 0;
        double now = 0;
        long polled = 0;
        for (int round = 0; round < rounds; round++) {
            int adds = random.nextInt(3);
            for (int a = 0; a < adds; a++) {
                Event e = new Event(now + delay.getAsDouble(), order++, random.nextInt(1 << 20));
                reference.add(e);
                q.add(e.time(), e.lane());
            }
            boolean drain = round == rounds - 1;
            while (!reference.isEmpty() && (drain || random.nextInt(3) == 0)) {
                Event e = reference.poll();
                assertThat(q.isEmpty()).isFalse();
                assertThat(q.peekTime()).as("event %d", polled).isEqualTo(e.time());
                assertThat(q.poll()).as("event %d", polled).isEqualTo(e.lane());
                now = e.time();
                polled++;
                if (!drain) {
                    break;
                }
            }
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(polled).isEqualTo(order);
    }

    @Test
    void eventsComeOutByTimeAndAmongEqualTimesInTheOrderTheyWereQueued() {
        SplittableRandom r = new SplittableRandom(1);
        // many ties: a few distinct delays
        matchesAPriorityQueue(7, 40_000, () -> r.nextInt(5) * 0.25);
        // spans from nanoseconds to seconds, so the calendar's buckets are spread again and again
        SplittableRandom s = new SplittableRandom(2);
        matchesAPriorityQueue(8, 40_000, () -> Math.pow(10, s.nextDouble(-3, 6)));
        // everything at one time, then far outliers
        SplittableRandom u = new SplittableRandom(3);
        matchesAPriorityQueue(9, 20_000, () -> u.nextInt(100) == 0 ? 1e9 : 0);
    }

    @Test
    void aNegativeTimeOrALaneOutOfRangeIsRefusedAndAnEmptyQueueHasNoEarliest() {
        EventQueue q = new EventQueue();
        assertThatThrownBy(() -> q.add(-1, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1.0");
        assertThatThrownBy(() -> q.add(Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.add(0, 1 << 24)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lane 16777216");
        assertThatThrownBy(() -> q.add(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(q::peekTime).isInstanceOf(IllegalStateException.class).hasMessageContaining("no event");
    }
}
