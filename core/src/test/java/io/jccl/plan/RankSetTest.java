// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The planned ranks: slots in rank order, all ranks as a set of its own, bad sets refused. */
class RankSetTest {
    @Test
    void slotsFollowRankOrder() {
        RankSet s = RankSet.of(16, 9, 2, 14);
        assertThat(s.size()).isEqualTo(3);
        assertThat(s.isAll()).isFalse();
        assertThat(new int[] {s.rank(0), s.rank(1), s.rank(2)}).containsExactly(2, 9, 14);
        assertThat(new int[] {s.slot(2), s.slot(9), s.slot(14), s.slot(3), s.slot(-1), s.slot(16)})
                .containsExactly(0, 1, 2, -1, -1, -1);
        assertThat(s).hasToString("ranks [2, 9, 14] of 16").isEqualTo(RankSet.of(16, 14, 9, 2));
    }

    @Test
    void everyRankIsTheFullSet() {
        RankSet all = RankSet.all(5);
        assertThat(RankSet.of(5, 4, 3, 2, 1, 0)).isEqualTo(all);
        assertThat(all.size()).isEqualTo(5);
        assertThat(all.slot(4)).isEqualTo(4);
        assertThat(all.slot(5)).isEqualTo(-1);
        assertThat(all.containsAll(RankSet.of(5, 1, 3))).isTrue();
        assertThat(RankSet.of(5, 1, 3).containsAll(all)).isFalse();
        assertThat(RankSet.of(5, 1, 3).containsAll(RankSet.of(5, 3))).isTrue();
        assertThat(RankSet.of(5, 1, 3).containsAll(RankSet.of(6, 3))).isFalse();
        assertThat(all).hasToString("all 5 ranks");
    }

    @Test
    void badSetsAreRefused() {
        assertThatThrownBy(() -> RankSet.of(4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RankSet.of(4, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RankSet.of(4, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RankSet.all(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aScheduleKeepsThePlannedRanksStepsOnly() {
        Schedule.Builder b = new Schedule.Builder(RankSet.of(4, 1), 1);
        b.add(0, 0, Step.localCopy(Region.input(0, 1), Region.output(0, 1), false));
        b.add(1, 0, Step.localCopy(Region.input(0, 2), Region.output(0, 2), false));
        Schedule s = b.build();
        assertThat(s.stepArray(1, 0)).hasSize(1);
        assertThat(s.volume()).isEmpty();
        assertThatThrownBy(() -> s.stepArray(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rank 0 was not planned: this schedule holds the steps of ranks [1] of 4 only");
        assertThatThrownBy(() -> b.add(4, 0, Step.localCopy(Region.input(0, 1), Region.output(0, 1), false)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
