// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BusBandwidthTest {
    /** nccl-tests' getBw factors, written out per collective. */
    private static double ncclTests(Collective c, int n) {
        return switch (c) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> (n - 1) / (double) n;
            case BROADCAST, REDUCE, SEND_RECV -> 1.0;
        };
    }

    @Test
    void factorsAreNcclTestsForOneToEightRanks() {
        for (Collective c : Collective.values()) {
            for (int n = 1; n <= 8; n++) {
                assertThat(BusBandwidth.factor(c, n)).as("%s n=%d", c, n).isCloseTo(ncclTests(c, n), within(1e-12));
            }
        }
    }

    @Test
    void knownValues() {
        assertThat(BusBandwidth.factor(Collective.ALL_REDUCE, 1)).isZero();
        assertThat(BusBandwidth.factor(Collective.ALL_REDUCE, 4)).isEqualTo(1.5);
        assertThat(BusBandwidth.factor(Collective.ALL_REDUCE, 8)).isEqualTo(1.75);
        assertThat(BusBandwidth.factor(Collective.ALL_GATHER, 8)).isEqualTo(0.875);
        assertThat(BusBandwidth.factor(Collective.REDUCE_SCATTER, 2)).isEqualTo(0.5);
        assertThat(BusBandwidth.factor(Collective.ALL_TO_ALL, 4)).isEqualTo(0.75);
        assertThat(BusBandwidth.factor(Collective.SCATTER, 1)).isZero();
        assertThat(BusBandwidth.factor(Collective.BROADCAST, 8)).isEqualTo(1);
        assertThat(BusBandwidth.factor(Collective.SEND_RECV, 3)).isEqualTo(1);
    }

    @Test
    void algorithmBandwidthIsGigabytesPerSecond() {
        assertThat(BusBandwidth.gbps(1_000_000_000L, 1e6)).isEqualTo(1.0);
        assertThat(BusBandwidth.gbps(2_000, 1.0)).isEqualTo(2.0);
        assertThat(BusBandwidth.gbps(8, 0)).isZero();
    }
}
