// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;
import io.jccl.plan.StepKind;
import io.jccl.topo.Channels;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Plans broken on purpose: the verifier must fail them and name the fault. */
class VerifierFaultTest {
    private static final Call RING3 = new Call(Collective.ALL_REDUCE, 3, 3, 0);

    private static Plan ring3() {
        return Algorithms.plan(RING3, Algorithm.RING, Channels.flat(3, 1), 1);
    }

    /** The ring plan with one rank's step list edited. */
    private static Plan edit(Plan p, int rank, java.util.function.Consumer<List<Step>> change) {
        Segment s = p.segments(0).get(0);
        List<Step> steps = new ArrayList<>(s.schedule().steps(rank, 0));
        change.accept(steps);
        return p.withSegment(0, new Segment(s.schedule().withSteps(rank, 0, steps), s.firstShift(), s.stride(), s.repeat()));
    }

    private static Plan single(Collective c, int n, int lanes, Schedule s) {
        return Plan.shared("test", c, n, lanes, List.of(new Segment(s, 0, 0, 1)));
    }

    private static String faults(Plan p, Call call) {
        VerifyResult r = Verifier.collective(p, call, false, 2, false);
        assertThat(r.ok()).as("the broken plan passed").isFalse();
        return r.describe();
    }

    @Test
    void theUnbrokenPlanPasses() {
        assertThat(Verifier.collective(ring3(), RING3, false, 2).describe()).isEqualTo("ok");
        assertThat(Verifier.collective(ring3(), RING3, true, 2).describe()).isEqualTo("ok");
        // A ring step holds its incoming message while it needs room for its outgoing one: with
        // one-message FIFOs every rank waits for room at once.
        assertThat(Verifier.collective(ring3(), RING3, false, 1).describe()).contains("deadlock");
    }

    @Test
    void droppedReceiveLeavesAMessageBehind() {
        Plan p = edit(ring3(), 2, steps -> steps.remove(steps.size() - 1));
        assertThat(faults(p, RING3)).contains("connection ch0 1->2 holds 1 message(s) nobody received");
    }

    @Test
    void droppedSendDeadlocksAndNamesTheWaiter() {
        Plan p = edit(ring3(), 0, steps -> steps.remove(0));
        assertThat(faults(p, RING3)).contains("deadlock").contains("rank 1 lane 0 tile 0 step 4")
                .contains("waits for a message from rank 0 on ch0");
    }

    @Test
    void swappedPeerDeadlocks() {
        Plan p = edit(ring3(), 0, steps -> steps.set(0, Step.send(steps.get(0).src(), new Link(2, 0))));
        assertThat(faults(p, RING3)).contains("deadlock").contains("waits for a message from rank 0");
    }

    @Test
    void swappedPeerInAPairIsCaughtInTheData() {
        // Two ranks swap which chunk they send first: messages match in size but carry the wrong chunk.
        Plan p = edit(ring3(), 1, steps -> steps.set(0, Step.send(Region.input(2, 1), steps.get(0).send().get(0))));
        assertThat(faults(p, RING3)).contains("mixes different elements");
    }

    @Test
    void missingPostOperationIsNamed() {
        Plan p = edit(ring3(), 1, steps -> {
            for (int i = 0; i < steps.size(); i++) {
                Step s = steps.get(i);
                if (s.kind() == StepKind.RECV_REDUCE_COPY_SEND) {
                    steps.set(i, new Step(s.kind(), s.recv(), s.send(), s.src(), s.dst(), false));
                }
            }
        });
        assertThat(faults(p, RING3)).contains("had the post-operation applied 0 times");
    }

    @Test
    void contributionCountedTwiceIsNamed() {
        Call call = new Call(Collective.ALL_REDUCE, 2, 2, 0);
        Schedule.Builder b = new Schedule.Builder(2, 1);
        b.add(0, 0, Step.send(Region.input(0, 2), new Link(1, 0)));
        // Rank 0 adds its own input again to the finished sum it gets back.
        b.add(0, 0, Step.recvReduceCopy(List.of(new Link(1, 0)), Region.input(0, 2), Region.output(0, 2), false));
        b.add(1, 0, Step.recvReduceCopySend(List.of(new Link(0, 0)), Region.input(0, 2), Region.output(0, 2),
                List.of(new Link(0, 0)), true));
        assertThat(faults(single(Collective.ALL_REDUCE, 2, 1, b.build()), call))
                .contains("rank 0 output[0] counts a contribution twice").contains("was reduced after a post-operation");
    }

    @Test
    void messageSizeMismatchIsNamed() {
        Call call = new Call(Collective.BROADCAST, 2, 3, 0);
        Schedule.Builder b = new Schedule.Builder(2, 1);
        b.add(0, 0, Step.copySend(Region.input(0, 2), Region.output(0, 2), List.of(new Link(1, 0))));
        b.add(1, 0, Step.recv(new Link(0, 0), Region.output(0, 3)));
        assertThat(faults(single(Collective.BROADCAST, 2, 1, b.build()), call))
                .contains("rank 1 lane 0 tile 0 step 0").contains("message of 2 elements from rank 0 on ch0 where the step expects 3");
    }

    @Test
    void regionPastTheBufferIsNamed() {
        Call call = new Call(Collective.ALL_REDUCE, 1, 4, 0);
        Schedule.Builder b = new Schedule.Builder(1, 1);
        b.add(0, 0, Step.localCopy(Region.input(1, 4), Region.output(0, 4), true));
        assertThat(faults(single(Collective.ALL_REDUCE, 1, 1, b.build()), call)).contains("ends at 5, past the 4 elements");
    }

    @Test
    void twoLanesWritingOneElementIsARace() {
        Call call = new Call(Collective.ALL_REDUCE, 1, 4, 0);
        Schedule.Builder b = new Schedule.Builder(1, 2);
        b.add(0, 0, Step.localCopy(Region.input(0, 3), Region.output(0, 3), true));
        b.add(0, 1, Step.localCopy(Region.input(2, 2), Region.output(2, 2), true));
        assertThat(faults(single(Collective.ALL_REDUCE, 1, 2, b.build()), call)).contains("a second time in this call, after lane 0 (a race between lanes)");
    }

    @Test
    void readingStorageNeverWrittenIsNamed() {
        Call call = new Call(Collective.ALL_REDUCE, 1, 2, 0);
        Schedule.Builder b = new Schedule.Builder(1, 1);
        b.add(0, 0, Step.localCopy(Region.output(0, 2), Region.output(0, 2), true));
        assertThat(faults(single(Collective.ALL_REDUCE, 1, 1, b.build()), call)).contains("reads OUTPUT[0], never written");
    }

    @Test
    void wrongBlockOfAnAllGatherIsNamed() {
        Call call = new Call(Collective.ALL_GATHER, 2, 1, 0);
        Schedule.Builder b = new Schedule.Builder(2, 1);
        for (int r = 0; r < 2; r++) {
            // Each rank stores its own block in the other's slot.
            b.add(r, 0, Step.copySend(Region.input(0, 1), Region.output(1 - r, 1), List.of(new Link(1 - r, 0))));
            b.add(r, 0, Step.recv(new Link(1 - r, 0), Region.output(r, 1)));
        }
        assertThat(faults(single(Collective.ALL_GATHER, 2, 1, b.build()), call))
                .contains("rank 0 output[0] holds ranks {1} element 0, expected rank 0's input element 0");
    }

    @Test
    void inPlaceHazardIsCaught() {
        // Correct out of place, wrong in place: rank 1 overwrites its input with the result
        // before sending that input on.
        Call call = new Call(Collective.ALL_REDUCE, 2, 1, 0);
        Schedule.Builder b = new Schedule.Builder(2, 1);
        b.add(0, 0, Step.send(Region.input(0, 1), new Link(1, 0)));
        b.add(0, 0, Step.recvReduceCopy(List.of(new Link(1, 0)), Region.input(0, 1), Region.output(0, 1), true));
        b.add(1, 0, Step.recvReduceCopy(List.of(new Link(0, 0)), Region.input(0, 1), Region.output(0, 1), true));
        b.add(1, 0, Step.send(Region.input(0, 1), new Link(0, 0)));
        Plan p = single(Collective.ALL_REDUCE, 2, 1, b.build());
        assertThat(Verifier.collective(p, call, false, 2).describe()).isEqualTo("ok");
        assertThat(Verifier.collective(p, call, true, 2).describe()).contains("rank 0 output[0] counts a contribution twice");
    }

    @Test
    void mismatchedPointToPointSizesAreNamed() {
        List<List<io.jccl.plan.P2pOp>> ops = List.of(List.of(io.jccl.plan.P2pOp.send(1, 8)), List.of(io.jccl.plan.P2pOp.recv(0, 8)));
        Plan good = io.jccl.algo.P2pPlanner.plan(2, ops, 3, 1);
        assertThat(Verifier.pointToPoint(good, ops, 1).describe()).isEqualTo("ok");
        List<List<io.jccl.plan.P2pOp>> bad = List.of(List.of(io.jccl.plan.P2pOp.send(1, 8)), List.of(io.jccl.plan.P2pOp.recv(0, 7)));
        Plan p = io.jccl.algo.P2pPlanner.plan(2, bad, 3, 1);
        assertThat(Verifier.pointToPoint(p, bad, 1).describe()).contains("message of 2 elements from rank 0 on ch0 where the step expects 1");
    }

    @Test
    void fifoDepthMatters() {
        // Both ranks send two messages before receiving: fine with two slots, a deadlock with one.
        Call call = new Call(Collective.ALL_GATHER, 2, 2, 0);
        Schedule.Builder b = new Schedule.Builder(2, 1);
        for (int r = 0; r < 2; r++) {
            Link other = new Link(1 - r, 0);
            b.add(r, 0, Step.copySend(Region.input(0, 1), Region.output(2 * r, 1), List.of(other)));
            b.add(r, 0, Step.copySend(Region.input(1, 1), Region.output(2 * r + 1, 1), List.of(other)));
            b.add(r, 0, Step.recv(other, Region.output(2 * (1 - r), 1)));
            b.add(r, 0, Step.recv(other, Region.output(2 * (1 - r) + 1, 1)));
        }
        Plan p = single(Collective.ALL_GATHER, 2, 1, b.build());
        assertThat(Verifier.collective(p, call, false, 2).describe()).isEqualTo("ok");
        assertThat(Verifier.collective(p, call, false, 1).describe()).contains("deadlock").contains("waits for room to send to rank 1");
    }

    @Test
    void twoLanesSharingAConnectionAreNamed() {
        Call call = new Call(Collective.BROADCAST, 2, 2, 0);
        Schedule.Builder b = new Schedule.Builder(2, 2);
        for (int lane = 0; lane < 2; lane++) {
            b.add(0, lane, Step.copySend(Region.input(lane, 1), Region.output(lane, 1), List.of(new Link(1, 0))));
            b.add(1, lane, Step.recv(new Link(0, 0), Region.output(lane, 1)));
        }
        assertThat(faults(single(Collective.BROADCAST, 2, 2, b.build()), call))
                .contains("lanes 0 and 1 both send on connection ch0 0->1");
    }

    @Test
    void writingAnElementTwiceIsNamed() {
        Call call = new Call(Collective.ALL_REDUCE, 1, 2, 0);
        Schedule.Builder b = new Schedule.Builder(1, 1);
        b.add(0, 0, Step.localCopy(Region.input(0, 2), Region.output(0, 2), true));
        b.add(0, 0, Step.localCopy(Region.input(1, 1), Region.output(1, 1), true));
        assertThat(faults(single(Collective.ALL_REDUCE, 1, 1, b.build()), call))
                .contains("rank 0 lane 0 tile 0 step 1").contains("writes OUTPUT[1] a second time in this call");
    }
}
