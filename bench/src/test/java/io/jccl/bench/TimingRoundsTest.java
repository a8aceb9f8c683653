// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TimingRoundsTest {
    @Test
    void twoLongRoundsThatAgreeEndTheColumn() {
        TimingRounds r = new TimingRounds(100_000, 100);
        assertThat(r.another(1.0)).isTrue(); // 100 ms: long enough, but nothing to agree with yet
        assertThat(r.another(1.05)).isFalse();
        assertThat(r.iters()).isEqualTo(100_000);
    }

    @Test
    void aShortRoundIsRunAgainLongEnoughForTheMinimumTime() {
        // The warm-up said 20 us a call (5 000 calls for 100 ms); they took 0.6 us: 3 ms in all.
        TimingRounds r = new TimingRounds(5_000, 100);
        assertThat(r.another(0.6)).isTrue();
        assertThat(r.iters()).isEqualTo(166_667);
        // A short round is never one of the two that must agree.
        assertThat(r.another(0.6)).isTrue();
        assertThat(r.another(0.62)).isFalse();
    }

    @Test
    void aRoundOfHalfTheMinimumTimeIsLongEnoughAndShortOnesAtLeastDouble() {
        TimingRounds r = new TimingRounds(10, 100);
        assertThat(r.another(4_000)).isTrue(); // 40 ms of 100
        assertThat(r.iters()).isEqualTo(25);
        r = new TimingRounds(24, 100);
        assertThat(r.another(2_000)).isTrue(); // 48 ms: double, though 50 would do
        assertThat(r.iters()).isEqualTo(50);
        r = new TimingRounds(25, 100);
        assertThat(r.another(2_000)).isTrue(); // 50 ms: long enough, kept
        assertThat(r.iters()).isEqualTo(25);
    }

    @Test
    void roundsThatDisagreeGoOnUntilTwoAgreeOrTheLimit() {
        TimingRounds r = new TimingRounds(100_000, 100);
        assertThat(r.another(60.0)).isTrue();
        assertThat(r.another(5.0)).isTrue(); // the JIT settled: 12x faster
        assertThat(r.another(1.0)).isTrue();
        assertThat(r.another(1.08)).isFalse();

        r = new TimingRounds(100_000, 100);
        int rounds = 1;
        double t = 1;
        while (r.another(t)) {
            t *= 2;
            rounds++;
        }
        assertThat(rounds).isEqualTo(TimingRounds.MAX_ROUNDS);
    }

    @Test
    void noMinimumTimeMeansOneRoundOfExactlyTheGivenIterations() {
        TimingRounds r = new TimingRounds(20, 0);
        assertThat(r.iters()).isEqualTo(20);
        assertThat(r.another(0.5)).isFalse();
    }

    @Test
    void theIterationsStayBounded() {
        TimingRounds r = new TimingRounds(1_000, 100);
        assertThat(r.another(0.0)).isTrue();
        assertThat(r.iters()).isEqualTo(PerfCommand.MAX_TIMED_ITERS);
        // At the bound a round counts as long enough, whatever it lasted, and the bound holds.
        assertThat(r.another(0.0)).isTrue();
        assertThat(r.iters()).isEqualTo(PerfCommand.MAX_TIMED_ITERS);
        assertThat(r.another(0.0)).isFalse();
    }
}
