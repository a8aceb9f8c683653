// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.tune.Tuner;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Plans of the ranks a process runs: the choice and steps the plan of every rank gives them, no other rank's. */
class PlannerTest {
    @Test
    void aPlanOfOneRankHoldsTheStepsThePlanOfAllGivesIt() {
        int n = 16;
        int rank = 9;
        for (String algo : List.of("ring", "tree", "splittree", "butterfly")) {
            Config c = Config.defaults().withAlgorithms(algo);
            Tuner t = Tuner.create(c, n, 2);
            Planner.CallKey k = new Planner.CallKey(Collective.ALL_REDUCE, 100_003, 4, 0);
            Planner.Planned all = Planner.make(t, c, n, Planner.THREADS, k, 0);
            Planner.Planned mine = Planner.make(t, c, RankSet.of(n, rank), Planner.THREADS, k, rank);
            assertThat(mine.choice()).as(algo).isEqualTo(all.choice());
            assertThat(mine.plan().ranks()).isEqualTo(RankSet.of(n, rank));
            assertThat(mine.plan().segments(rank)).hasSameSizeAs(all.plan().segments(rank));
            for (int s = 0; s < all.plan().segments(rank).size(); s++) {
                for (int l = 0; l < all.plan().lanes(); l++) {
                    assertThat(mine.plan().segments(rank).get(s).schedule().steps(rank, l)).as("%s segment %d lane %d", algo, s, l)
                            .isEqualTo(all.plan().segments(rank).get(s).schedule().steps(rank, l));
                }
            }
            assertThatThrownBy(() -> mine.plan().segments(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rank 0 was not planned");
        }
    }

    @Test
    void aSendRecvGroupIsPlannedForItsRankAlone() {
        MemorySegment buf = MemorySegment.ofArray(new float[64]);
        Plan p = Planner.sendRecv(16_384, 7, List.of(new P2pArgs(true, buf, 64, DataType.FLOAT32, 8),
                new P2pArgs(false, buf, 64, DataType.FLOAT32, 6)), 1 << 20, 2);
        assertThat(p.ranks()).isEqualTo(RankSet.of(16_384, 7));
        assertThat(p.segments(7)).hasSize(1);
        assertThat(p.segments(7).getFirst().schedule().ranks()).isEqualTo(RankSet.of(16_384, 7));
        assertThat(p.segments(7).getFirst().schedule().steps(7, 0)).hasSize(2);
        assertThatThrownBy(() -> p.segments(8)).isInstanceOf(IllegalArgumentException.class);
    }
}
