// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scratch regions: a rank's working memory, not shifted per tile, rewritten freely by one lane.
 * Plans that read scratch never written or share a scratch element between lanes must fail with
 * the fault named.
 */
class ScratchVerifierTest {
    /** Two ranks, one element per tile: each keeps its input in scratch, sends it, and adds the peer's. */
    private static Schedule keepAndAdd(Region keep, int lane, int lanes) {
        Schedule.Builder b = new Schedule.Builder(2, lanes);
        for (int r = 0; r < 2; r++) {
            Link peer = new Link(1 - r, lane);
            b.add(r, lane, Step.localCopy(Region.input(0, 1), keep, false));
            b.add(r, lane, Step.send(keep, peer));
            b.add(r, lane, Step.recvReduceCopy(List.of(peer), keep, Region.output(0, 1), true));
        }
        return b.build();
    }

    private static Plan tiles(Schedule s, int lanes, long count) {
        return Plan.shared("test", Collective.ALL_REDUCE, 2, lanes, List.of(new Segment(s, 0, 1, count)));
    }

    @Test
    void scratchIsReusedTileAfterTileAndSizedByThePlan() {
        Plan p = tiles(keepAndAdd(Region.scratch(3, 1), 0, 1), 1, 5);
        assertThat(p.scratch()).isEqualTo(4);
        Call call = new Call(Collective.ALL_REDUCE, 2, 5, 0);
        assertThat(Verifier.collective(p, call, false, 2).describe()).isEqualTo("ok");
        assertThat(Verifier.collective(p, call, true, 2).describe()).isEqualTo("ok");
    }

    @Test
    void readingScratchNeverWrittenIsAFault() {
        Schedule.Builder b = new Schedule.Builder(2, 1);
        for (int r = 0; r < 2; r++) {
            b.add(r, 0, Step.localCopy(Region.scratch(0, 1), Region.output(0, 1), true));
        }
        Plan p = tiles(b.build(), 1, 1);
        VerifyResult v = Verifier.collective(p, new Call(Collective.ALL_REDUCE, 2, 1, 0), false, 2);
        assertThat(v.describe()).contains("reads SCRATCH[0], never written");
    }

    @Test
    void twoLanesOnOneScratchElementRace() {
        // Lanes 0 and 1 each take every other tile's element but keep it in the same scratch slot.
        Schedule.Builder b = new Schedule.Builder(2, 2);
        for (int lane = 0; lane < 2; lane++) {
            for (int r = 0; r < 2; r++) {
                Link peer = new Link(1 - r, lane);
                b.add(r, lane, Step.localCopy(Region.input(lane, 1), Region.scratch(0, 1), false));
                b.add(r, lane, Step.send(Region.scratch(0, 1), peer));
                b.add(r, lane, Step.recvReduceCopy(List.of(peer), Region.scratch(0, 1), Region.output(lane, 1), true));
            }
        }
        Plan p = Plan.shared("test", Collective.ALL_REDUCE, 2, 2, List.of(new Segment(b.build(), 0, 2, 2)));
        VerifyResult v = Verifier.collective(p, new Call(Collective.ALL_REDUCE, 2, 4, 0), false, 2);
        assertThat(v.describe()).contains("writes scratch[0], which lane").contains("a race between lanes");
    }
}
