// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static io.jccl.kernels.WorkLayout.CONN;
import static io.jccl.kernels.WorkLayout.LANE_STEPS;
import static io.jccl.kernels.WorkLayout.SEGMENT;
import static io.jccl.kernels.WorkLayout.STEP;
import static io.jccl.kernels.WorkLayout.WORK;
import static io.jccl.kernels.WorkLayout.offset;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.kernels.WorkLayout;
import io.jccl.plan.Buf;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The descriptor bytes the packer writes, read back field by field and at fixed byte positions. */
class WorkPackerTest {
    private static final long BASE = 0x7f00_0000_0000L;

    private static WorkPacker.Launch launch(int nops) {
        return launch(nops, 0);
    }

    /** A launch of {@code nops} operations whose plan scratch (0: none) is at {@code planScratch}. */
    private static WorkPacker.Launch launch(int nops, long planScratch) {
        long[] in = new long[nops];
        long[] out = new long[nops];
        for (int i = 0; i < nops; i++) {
            in[i] = 0x1000_0000L + i * 0x100;
            out[i] = 0x2000_0000L + i * 0x100;
        }
        return new WorkPacker.Launch(WorkLayout.PROTO_LL128, 4, WorkLayout.OP_AVG, 0x3f80_0000L, 4, 1, in, out,
                1 << 16, 0x3000_0000L, 5 * 4096, 0x4000_0000L, 0x4800_0000L, 0x5000_0000L, 30_000_000_000L, planScratch);
    }

    /** A FIFO address that encodes the connection, so the test can tell which one a slot names. */
    private static long fifo(WorkPacker.Conn c) {
        return 0x6000_0000L + (c.sending() ? 0x100_0000L : 0) + c.peer() * 0x1000L + c.channel() * 0x10L;
    }

    @Test
    void aOneStepPlanHasEveryByteWhereTheHeaderSays() {
        // rank 0 of 1, one lane, one step: out[2 + shift] := in[5 + shift] / n over 7 elements,
        // one segment of 3 tiles of stride 7 starting at shift 11.
        Schedule s = new Schedule.Builder(1, 1).add(0, 0, Step.localCopy(Region.input(5, 7), Region.output(2, 7), true)).build();
        Plan plan = Plan.shared("test", Collective.ALL_REDUCE, 1, 1, List.of(new Segment(s, 11, 7, 3)));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = WorkPacker.pack(plan, 0, launch(1), WorkPackerTest::fifo, BASE, a).bytes();
            // header 152 bytes -> inputs at 160, outputs at 176, segments at 192, lane steps at 224,
            // steps at 240, conns (none) at 288; 288 bytes in all.
            assertThat(WORK.byteSize()).isEqualTo(152);
            assertThat(m.byteSize()).isEqualTo(288);
            assertThat(m.get(JAVA_LONG, 0)).isEqualTo(BASE + 160);        // inputs
            assertThat(m.get(JAVA_LONG, 8)).isEqualTo(BASE + 176);        // outputs
            assertThat(m.get(JAVA_LONG, 16)).isEqualTo(BASE + 192);       // segments
            assertThat(m.get(JAVA_LONG, 24)).isEqualTo(BASE + 224);       // laneSteps
            assertThat(m.get(JAVA_LONG, 32)).isEqualTo(BASE + 240);       // steps
            assertThat(m.get(JAVA_LONG, 40)).isEqualTo(BASE + 288);       // conns
            assertThat(m.get(JAVA_LONG, 48)).isEqualTo(0x3000_0000L);     // scratch
            assertThat(m.get(JAVA_LONG, 56)).isEqualTo(5 * 4096L);        // scratchPerLane
            assertThat(m.get(JAVA_LONG, 64)).isEqualTo(0x4000_0000L);     // status
            assertThat(m.get(JAVA_LONG, 72)).isEqualTo(0x4800_0000L);     // claim
            assertThat(m.get(JAVA_LONG, 80)).isEqualTo(0x5000_0000L);     // abortFlag
            assertThat(m.get(JAVA_LONG, 88)).isEqualTo(1 << 16);          // slotBytes
            assertThat(m.get(JAVA_LONG, 96)).isEqualTo(0x3f80_0000L);     // scalar
            assertThat(m.get(JAVA_LONG, 104)).isEqualTo(30_000_000_000L); // timeoutNs
            // ..., protocol, pairedLanes (none: a block per lane), pad
            assertThat(ints(m, 112, 10)).containsExactly(1, 1, 1, 4, WorkLayout.OP_AVG, 4, 1, WorkLayout.PROTO_LL128, 0, 0);
            assertThat(m.get(JAVA_LONG, 160)).isEqualTo(0x1000_0000L);
            assertThat(m.get(JAVA_LONG, 176)).isEqualTo(0x2000_0000L);
            assertThat(longs(m, 192, 4)).containsExactly(11L, 7L, 3L, 0L);
            assertThat(ints(m, 224, 2)).containsExactly(0, 1);
            // the step: kind LOCAL_COPY (7), flags post-op | pre-src | dst-output, no links
            assertThat(m.get(JAVA_BYTE, 240)).isEqualTo((byte) 7);
            assertThat(m.get(JAVA_BYTE, 241)).isEqualTo((byte) (WorkLayout.STEP_POST_OP | WorkLayout.STEP_PRE_SRC
                    | WorkLayout.STEP_DST_OUTPUT));
            assertThat(m.get(JAVA_BYTE, 242)).isZero();
            assertThat(m.get(JAVA_BYTE, 243)).isZero();
            assertThat(longs(m, 240 + 24, 3)).containsExactly(5L, 2L, 7L);
        }
    }

    @Test
    void theSplitTreesLanesRunInPairsOnHalfAsManyBlocks() {
        int n = 5;
        Plan split = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1001, 0), Algorithm.SPLIT_TREE, Channels.flat(n, 2), 37);
        Plan tree = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1001, 0), Algorithm.TREE, Channels.flat(n, 2), 37);
        // lane c reduces up, lane c + lanes/2 broadcasts down: block c runs both
        assertThat(split.lanes()).isEqualTo(2 * tree.lanes());
        assertThat(CudaTuning.pairedLanes(split)).isEqualTo(tree.lanes());
        assertThat(CudaTuning.blocks(split)).isEqualTo(CudaTuning.blocks(tree)).isEqualTo(tree.lanes());
        assertThat(CudaTuning.pairedLanes(tree)).isZero();
        for (int rank = 0; rank < n; rank++) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment m = WorkPacker.pack(split, rank, launch(1), WorkPackerTest::fifo, BASE, a).bytes();
                assertThat(m.get(JAVA_INT, offset(WORK, "nlanes"))).isEqualTo(split.lanes());
                assertThat(m.get(JAVA_INT, offset(WORK, "pairedLanes"))).isEqualTo(tree.lanes());
                MemorySegment t = WorkPacker.pack(tree, rank, launch(1), WorkPackerTest::fifo, BASE, a).bytes();
                assertThat(t.get(JAVA_INT, offset(WORK, "pairedLanes"))).isZero();
            }
        }
    }

    @Test
    void aRingAllReduceKeepsEveryStepLinkAndSegmentOfTheRank() {
        int n = 4;
        Plan plan = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1001, 0), Algorithm.RING, Channels.flat(n, 2), 37);
        for (int rank = 0; rank < n; rank++) {
            try (Arena a = Arena.ofConfined()) {
                WorkPacker.Packed p = WorkPacker.pack(plan, rank, launch(1), WorkPackerTest::fifo, BASE, a);
                MemorySegment m = p.bytes();
                List<Segment> segs = plan.segments(rank);
                assertThat(m.get(JAVA_INT, offset(WORK, "nsegments"))).isEqualTo(segs.size());
                assertThat(m.get(JAVA_INT, offset(WORK, "nlanes"))).isEqualTo(plan.lanes());
                long oSeg = m.get(JAVA_LONG, offset(WORK, "segments")) - BASE;
                long oLane = m.get(JAVA_LONG, offset(WORK, "laneSteps")) - BASE;
                long oSteps = m.get(JAVA_LONG, offset(WORK, "steps")) - BASE;
                long oConns = m.get(JAVA_LONG, offset(WORK, "conns")) - BASE;
                long tile = 0;
                for (int g = 0; g < segs.size(); g++) {
                    long at = oSeg + SEGMENT.byteSize() * g;
                    assertThat(longs(m, at, 4)).containsExactly(segs.get(g).firstShift(), segs.get(g).stride(),
                            segs.get(g).repeat(), tile);
                    tile += segs.get(g).repeat();
                }
                int stepsSeen = 0;
                for (int lane = 0; lane < plan.lanes(); lane++) {
                    for (int g = 0; g < segs.size(); g++) {
                        long at = oLane + LANE_STEPS.byteSize() * ((long) lane * segs.size() + g);
                        int first = m.get(JAVA_INT, at);
                        int count = m.get(JAVA_INT, at + 4);
                        Step[] want = segs.get(g).schedule().stepArray(rank, lane);
                        assertThat(count).isEqualTo(want.length);
                        for (int k = 0; k < count; k++) {
                            checkStep(m, oSteps + STEP.byteSize() * (first + k), oConns, want[k]);
                            stepsSeen++;
                        }
                    }
                }
                assertThat(stepsSeen).isPositive();
                assertThat(p.conns()).isNotEmpty().doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void aPlanWithScratchNamesItAfterTheInputsAndFlagsItsRegions() {
        // The butterfly on 3 ranks folds rank 2 into rank 1, whose partial sums live in scratch.
        int n = 3;
        Plan plan = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1001, 0), Algorithm.BUTTERFLY, Channels.flat(n, 2), 37);
        assertThat(plan.scratch()).isPositive();
        WorkPacker.Launch without = launch(1);
        WorkPacker.Launch with = launch(1, 0x7000_0000L);
        int scratchSteps = 0;
        for (int rank = 0; rank < n; rank++) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment m = WorkPacker.pack(plan, rank, with, WorkPackerTest::fifo, BASE, a).bytes();
                long oInputs = m.get(JAVA_LONG, offset(WORK, "inputs")) - BASE;
                assertThat(m.get(JAVA_LONG, oInputs)).isEqualTo(with.inputs()[0]);
                assertThat(m.get(JAVA_LONG, oInputs + 8)).isEqualTo(0x7000_0000L); // inputs[nops + 0]
                long oSteps = m.get(JAVA_LONG, offset(WORK, "steps")) - BASE;
                int k = 0;
                for (Segment seg : plan.segments(rank)) {
                    for (int lane = 0; lane < plan.lanes(); lane++) {
                        for (Step st : seg.schedule().stepArray(rank, lane)) {
                            int flags = m.get(JAVA_BYTE, oSteps + STEP.byteSize() * k++ + 1);
                            boolean src = st.src() != null && st.src().buf() == Buf.SCRATCH;
                            boolean dst = st.dst() != null && st.dst().buf() == Buf.SCRATCH;
                            assertThat((flags & WorkLayout.STEP_SRC_SCRATCH) != 0).isEqualTo(src);
                            assertThat((flags & WorkLayout.STEP_DST_SCRATCH) != 0).isEqualTo(dst);
                            scratchSteps += src || dst ? 1 : 0;
                        }
                    }
                }
            }
        }
        assertThat(scratchSteps).isPositive();
        try (Arena a = Arena.ofConfined()) {
            assertThatThrownBy(() -> WorkPacker.pack(plan, 1, without, WorkPackerTest::fifo, BASE, a))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scratch");
        }
    }

    private static void checkStep(MemorySegment m, long at, long oConns, Step want) {
        assertThat(m.get(JAVA_BYTE, at)).isEqualTo((byte) want.kind().ordinal());
        int flags = m.get(JAVA_BYTE, at + 1);
        assertThat((flags & WorkLayout.STEP_POST_OP) != 0).isEqualTo(want.postOp());
        assertThat((flags & WorkLayout.STEP_PRE_SRC) != 0).isEqualTo(want.src() != null && want.src().buf() == Buf.INPUT);
        assertThat((flags & WorkLayout.STEP_SRC_OUTPUT) != 0).isEqualTo(want.src() != null && want.src().buf() == Buf.OUTPUT);
        assertThat((flags & WorkLayout.STEP_DST_OUTPUT) != 0).isEqualTo(want.dst() != null && want.dst().buf() == Buf.OUTPUT);
        assertThat(m.get(JAVA_BYTE, at + 2)).isEqualTo((byte) want.recv().size());
        assertThat(m.get(JAVA_BYTE, at + 3)).isEqualTo((byte) want.send().size());
        for (int k = 0; k < want.recv().size(); k++) {
            checkConn(m, oConns, m.get(JAVA_SHORT, at + offset(STEP, "recv") + 2L * k), false, want.recv().get(k));
        }
        for (int k = 0; k < want.send().size(); k++) {
            checkConn(m, oConns, m.get(JAVA_SHORT, at + offset(STEP, "send") + 2L * k), true, want.send().get(k));
        }
        assertThat(m.get(JAVA_LONG, at + offset(STEP, "srcOffset"))).isEqualTo(want.src() == null ? 0 : want.src().offset());
        assertThat(m.get(JAVA_LONG, at + offset(STEP, "dstOffset"))).isEqualTo(want.dst() == null ? 0 : want.dst().offset());
        assertThat(m.get(JAVA_LONG, at + offset(STEP, "count"))).isEqualTo(want.count());
    }

    private static void checkConn(MemorySegment m, long oConns, short index, boolean sending, Link l) {
        long at = oConns + CONN.byteSize() * index;
        assertThat(m.get(JAVA_LONG, at)).isEqualTo(fifo(new WorkPacker.Conn(sending, l.peer(), l.channel())));
        assertThat(m.get(JAVA_INT, at + 8)).isEqualTo(l.peer());
        assertThat(m.get(JAVA_INT, at + 12)).isEqualTo(l.channel());
    }

    @Test
    void connectionsBehindTheSocketProxyAreMarkedForSystemScope() {
        int n = 4;
        Plan plan = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1001, 0), Algorithm.RING, Channels.flat(n, 2), 37);
        WorkPacker.Fifos fifos = new WorkPacker.Fifos() {
            @Override
            public long address(WorkPacker.Conn c) {
                return fifo(c);
            }

            @Override
            public boolean system(WorkPacker.Conn c) {
                return c.peer() == 1;
            }
        };
        try (Arena a = Arena.ofConfined()) {
            WorkPacker.Packed p = WorkPacker.pack(plan, 0, launch(1), fifos, BASE, a);
            long oConns = p.bytes().get(JAVA_LONG, offset(WORK, "conns")) - BASE;
            assertThat(p.conns()).extracting(WorkPacker.Conn::peer).contains(1, 3);
            for (int i = 0; i < p.conns().size(); i++) {
                int flags = p.bytes().get(JAVA_INT, oConns + CONN.byteSize() * i + offset(CONN, "flags"));
                assertThat(flags).as("connection %s", p.conns().get(i))
                        .isEqualTo(p.conns().get(i).peer() == 1 ? WorkLayout.CONN_SYSTEM : 0);
            }
        }
    }

    @Test
    void aStepWithMoreLinksThanTheKernelTakesIsRefused() {
        List<Link> five = List.of(new Link(1, 0), new Link(2, 0), new Link(3, 0), new Link(4, 0), new Link(5, 0));
        Schedule s = new Schedule.Builder(6, 1).add(0, 0, Step.recvReduceCopy(five, Region.input(0, 1), Region.output(0, 1), false))
                .build();
        Plan plan = Plan.shared("test", Collective.REDUCE, 6, 1, List.of(new Segment(s, 0, 0, 1)));
        try (Arena a = Arena.ofConfined()) {
            assertThatThrownBy(() -> WorkPacker.pack(plan, 0, launch(1), WorkPackerTest::fifo, BASE, a))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than 4 links");
            assertThatThrownBy(() -> WorkPacker.pack(plan, 0, new WorkPacker.Launch(0, 4, 0, 0, 6, 0, new long[1],
                    new long[2], 1, 0, 0, 0, 0, 0, 1, 0), WorkPackerTest::fifo, BASE, a))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 inputs but 2 outputs");
        }
    }

    private static int[] ints(MemorySegment m, long at, int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = m.get(JAVA_INT, at + 4L * i);
        }
        return v;
    }

    private static long[] longs(MemorySegment m, long at, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = m.get(JAVA_LONG, at + 8L * i);
        }
        return v;
    }
}
