// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import org.junit.jupiter.api.Test;

import static io.jccl.sim.LanePrograms.COST_DOUBLES;
import static io.jccl.sim.LanePrograms.END_SLOT;
import static io.jccl.sim.LanePrograms.FIRST_SLOT;
import static io.jccl.sim.LanePrograms.MICROS;
import static io.jccl.sim.LanePrograms.RECVS;
import static io.jccl.sim.LanePrograms.RUNS;
import static io.jccl.sim.LanePrograms.STEP_INTS;
import static org.assertj.core.api.Assertions.assertThat;

class LaneProgramsTest {
    /** A ring lane of rank r among n: send, n-2 equal steps receiving from r-1 and sending to r+1, a last receive. */
    private static void ringLane(LanePrograms.Builder b, int r, int n) {
        b.lane(r, 0);
        b.segment(3);
        int recv = (r + n - 1) % n;
        int send = r;
        b.step(1.0, 64, new int[] {send}, 0, 1);
        for (int k = 0; k < n - 2; k++) {
            b.step(2.0, 64, new int[] {recv, send}, 1, 2);
        }
        b.step(1.5, 64, new int[] {recv}, 1, 1);
    }

    private static int[] identity(int n) {
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            id[i] = i;
        }
        return id;
    }

    @Test
    void equalStepsFoldIntoARunAndLanesAlikeShareOneShapeWithTheirOwnConnections() {
        int n = 6;
        LanePrograms.Builder b = new LanePrograms.Builder();
        for (int r = 0; r < n; r++) {
            ringLane(b, r, n);
        }
        LanePrograms p = b.build(identity(n));
        assertThat(p.lanes()).isEqualTo(n);
        assertThat(p.shapes()).isEqualTo(1);
        // three steps held: the send, the run of n-2, the last receive
        assertThat(p.steps.length / STEP_INTS).isEqualTo(3);
        assertThat(p.steps[RUNS]).isEqualTo(1);
        assertThat(p.steps[STEP_INTS + RUNS]).isEqualTo(n - 2);
        assertThat(p.steps[STEP_INTS + RECVS]).isEqualTo(1);
        assertThat(p.costs[COST_DOUBLES + MICROS]).isEqualTo(2.0);
        assertThat(p.segmentRepeat[p.firstSegment(0)]).isEqualTo(3);
        for (int l = 0; l < n; l++) {
            int r = p.rank[l];
            int i = STEP_INTS;   // the run: receives from r-1, sends on r
            assertThat(p.steps[i + END_SLOT] - p.steps[i + FIRST_SLOT]).isEqualTo(2);
            assertThat(p.connection(l, p.steps[i + FIRST_SLOT])).isEqualTo((r + n - 1) % n);
            assertThat(p.connection(l, p.steps[i + FIRST_SLOT] + 1)).isEqualTo(r);
        }
    }

    @Test
    void lanesThatDifferGetTheirOwnShapeAndLanesAreNumberedLaneByLaneOfTheRanks() {
        LanePrograms.Builder b = new LanePrograms.Builder();
        for (int r = 0; r < 2; r++) {
            b.lane(r, 0);
            b.segment(1);
            b.step(1.0, 8, new int[] {2 * r}, 0, 1);
            b.lane(r, 1);
            b.segment(1);
            b.step(1.0, 8, new int[] {2 * r + 1}, 0, 1);
            b.step(1.0, 16, new int[] {2 * r + 1}, 0, 1);   // other bytes: a step of its own, not the run
        }
        int[] renumber = {3, 2, 1, 0};
        LanePrograms p = b.build(renumber);
        assertThat(p.shapes()).isEqualTo(2);
        assertThat(p.rank).containsExactly(0, 1, 0, 1);
        assertThat(p.lane).containsExactly(0, 0, 1, 1);
        assertThat(p.steps.length / STEP_INTS).isEqualTo(3);
        // connections renumbered: rank 1's lane 1 sent on 3 as built, 0 now
        int lane = 3;
        int first = p.steps[p.segmentStart[p.firstSegment(lane)] * STEP_INTS + FIRST_SLOT];
        assertThat(p.connection(lane, first)).isEqualTo(0);
        assertThat(p.endSegment(lane) - p.firstSegment(lane)).isEqualTo(1);
    }
}
