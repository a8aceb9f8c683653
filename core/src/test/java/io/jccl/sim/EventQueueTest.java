// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventQueueTest {
    private record Event(double time, long order, int lane) {
    }

    @Test
    void eventsComeOutByTimeAndAmongEqualTimesInTheOrderTheyWereQueued() {
        EventQueue q = new EventQueue();
        SplittableRandom random = new SplittableRandom(7);
        List<Event> queued = new ArrayList<>();
        List<Event> polled = new ArrayList<>();
        long order = 0;
        double now = 0;
        // interleaved adds and polls, as a run makes them: never earlier than the last polled, many ties
        for (int round = 0; round < 20_000; round++) {
            int adds = random.nextInt(3);
            for (int a = 0; a < adds; a++) {
                double t = now + random.nextInt(5) * 0.25;
                Event e = new Event(t, order++, random.nextInt(1 << 20));
                queued.add(e);
                q.add(e.time(), e.lane());
            }
            if (!q.isEmpty() && random.nextBoolean()) {
                now = q.peekTime();
                polled.add(new Event(now, -1, q.poll()));
            }
        }
        while (!q.isEmpty()) {
            double t = q.peekTime();
            polled.add(new Event(t, -1, q.poll()));
        }
        assertThat(polled).hasSize(queued.size());
        for (int i = 1; i < polled.size(); i++) {
            assertThat(polled.get(i).time()).isGreaterThanOrEqualTo(polled.get(i - 1).time());
        }
        // the ties: with every event queued before the first poll, the order is (time, order queued)
        EventQueue all = new EventQueue();
        queued.forEach(e -> all.add(e.time(), e.lane()));
        List<Event> expected = new ArrayList<>(queued);
        expected.sort(Comparator.comparingDouble(Event::time).thenComparingLong(Event::order));
        for (Event e : expected) {
            assertThat(all.peekTime()).isEqualTo(e.time());
            assertThat(all.poll()).isEqualTo(e.lane());
        }
        assertThat(all.isEmpty()).isTrue();
    }

    @Test
    void aNegativeTimeOrALaneOutOfRangeIsRefused() {
        EventQueue q = new EventQueue();
        assertThatThrownBy(() -> q.add(-1, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1.0");
        assertThatThrownBy(() -> q.add(Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.add(0, 1 << 24)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lane 16777216");
        assertThatThrownBy(() -> q.add(0, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
