// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class FairPortsTest {
    /** Each message's latest projected end and, once done, its end. */
    private final Map<Integer, Double> projected = new HashMap<>();
    private final Map<Integer, Double> finished = new HashMap<>();
    private final FairPorts.Listener listener = new FairPorts.Listener() {
        @Override
        public void moved(int m, double doneUs) {
            projected.put(m, doneUs);
        }

        @Override
        public void finished(int m, double doneUs) {
            finished.put(m, doneUs);
        }
    };

    /** Ports of 1 byte per µs and {@code burst} bytes each. */
    private static FairPorts unitPorts(int n, int maxHops, double burst, FairPorts.Listener l) {
        double[] rate = new double[n];
        double[] b = new double[n];
        java.util.Arrays.fill(rate, 1.0);
        java.util.Arrays.fill(b, burst);
        return new FairPorts(rate, b, maxHops, l);
    }

    /** Message {@code m}'s end in {@code ends} is {@code us}. */
    private static void endsAt(Map<Integer, Double> ends, int m, double us) {
        assertThat(ends.get(m)).as("message %d", m).isCloseTo(us, within(1e-9));
    }

    private int send(FairPorts p, int connection, double bytes, double t, int... route) {
        int m = p.open(connection, route.length);
        for (int h = 0; h < route.length; h++) {
            p.join(m, h, route[h], bytes, t);
        }
        double done = p.settle(m, route, t);
        if (!Double.isNaN(done)) {
            finished.put(m, done);
        }
        return m;
    }

    @Test
    void twoConnectionsOnOnePortEachGetHalfItsRate() {
        FairPorts p = unitPorts(1, 1, 0, listener);
        int a = send(p, 0, 100, 0, 0);
        int b = send(p, 1, 100, 0, 0);
        endsAt(projected, a, 200);
        endsAt(projected, b, 200);
        p.drain();
        endsAt(finished, a, 200);
        endsAt(finished, b, 200);
    }

    @Test
    void oneConnectionsMessagesGoInTheirOrder() {
        FairPorts p = unitPorts(1, 1, 0, listener);
        int a = send(p, 0, 100, 0, 0);
        int b = send(p, 0, 100, 0, 0);
        endsAt(projected, a, 100);
        endsAt(projected, b, 200);
    }

    @Test
    void aConnectionThatJoinsLaterMovesTheEndsInFlightLaterNeverEarlier() {
        FairPorts p = unitPorts(1, 1, 0, listener);
        int a = send(p, 0, 200, 0, 0);
        endsAt(projected, a, 200);
        // at 100 a has 100 left; b's 100 share the port with it: both end at 300
        int b = send(p, 1, 100, 100, 0);
        endsAt(projected, a, 300);
        endsAt(projected, b, 300);
        // c of a third connection, 50 bytes at 250: a and b have 25 left each; c's first 25 end
        // with them at 325, its last 25 alone at 350
        int c = send(p, 2, 50, 250, 0);
        endsAt(projected, a, 325);
        endsAt(projected, b, 325);
        endsAt(projected, c, 350);
        p.drain();
        assertThat(finished).containsOnlyKeys(a, b, c);
        endsAt(finished, c, 350);
    }

    @Test
    void aMessageEndsWhenItsSlowestPortHasCarriedIt() {
        // port 0 carries a alone; port 1 carries a beside b of another connection
        FairPorts p = unitPorts(2, 2, 0, listener);
        int b = send(p, 1, 100, 0, 1);
        int a = send(p, 0, 100, 0, 0, 1);
        endsAt(projected, a, 200);
        endsAt(projected, b, 200);
        p.drain();
        endsAt(finished, a, 200);
    }

    @Test
    void anIdlePortSendsWhatItsBurstHoldsAtOnce() {
        FairPorts p = unitPorts(1, 1, 64, listener);
        // the bucket fills at the rate while the port idles, up to 64 bytes
        int a = send(p, 0, 50, 1000, 0);
        endsAt(finished, a, 1000);
        // 14 bytes left in it: 86 of b's 100 go at the rate
        int b = send(p, 0, 100, 1000, 0);
        endsAt(projected, b, 1086);
        // busy, the port has no bucket: c waits for b and goes at the rate after it
        int c = send(p, 0, 10, 1050, 0);
        endsAt(projected, c, 1096);
    }

    @Test
    void idsAreGivenBackAndReused() {
        FairPorts p = unitPorts(1, 1, 0, listener);
        for (int i = 0; i < 1000; i++) {
            send(p, i % 3, 1, i, 0);
        }
        p.drain();
        // one message in flight at a time: one id serves them all
        assertThat(finished).isNotEmpty();
        assertThat(finished.keySet()).allMatch(m -> m < 2);
    }

    @Test
    void refusesRoutesItCannotNumber() {
        assertThatThrownBy(() -> unitPorts(1, FairPorts.MAX_HOPS + 1, 0, listener))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + FairPorts.MAX_HOPS);
    }
}
