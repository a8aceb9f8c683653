// SPDX-License-Identifier: Apache-2.0
package io.jccl.kernels;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The work descriptors of {@code jccl_work.h} as {@link MemoryLayout}s, and its constants. Member
 * names are the C names; kernels-ptx's LayoutProbeTest compiles the header with g++ and checks
 * every offset and size, and every constant here against its {@code #define JCCL_<NAME>}.
 */
public final class WorkLayout {
    private WorkLayout() {
    }

    // ---- protocols (io.jccl.proto.Protocol) ----
    public static final int STEPS = 8;
    public static final int HEADER_BYTES = 8;
    public static final int LL_LINE_BYTES = 16;
    public static final int LL_DATA_BYTES = 8;
    public static final int LL128_LINE_BYTES = 128;
    public static final int LL128_DATA_BYTES = 120;
    public static final long LL_CLEAN_INTERVAL = 1L << 31;

    // ---- FIFO offsets (the host engine's) ----
    public static final int FIFO_HEAD = 0;
    public static final int FIFO_TAIL = 64;
    public static final int FIFO_SIZES = 128;
    public static final int FIFO_SLOTS = 256;

    // ---- connection flags ----
    /** The FIFO's other end is the CPU (a socket proxy over pinned host memory): counters at system scope. */
    public static final int CONN_SYSTEM = 1;

    // ---- kernels ----
    public static final int PROTO_LL = 0;
    public static final int PROTO_LL128 = 1;
    public static final int PROTO_SIMPLE = 2;
    public static final int MAX_LINKS = 4;
    public static final int MAX_THREADS = Kernels.MAX_THREADS;
    public static final int MAX_BATCH = 8;

    // ---- step kinds: io.jccl.plan.StepKind ordinals ----
    public static final int SEND = 0;
    public static final int RECV = 1;
    public static final int RECV_REDUCE_SEND = 2;
    public static final int RECV_REDUCE_COPY = 3;
    public static final int RECV_REDUCE_COPY_SEND = 4;
    public static final int RECV_COPY_SEND = 5;
    public static final int COPY_SEND = 6;
    public static final int LOCAL_COPY = 7;

    // ---- step flags ----
    public static final int STEP_POST_OP = 1;
    public static final int STEP_PRE_SRC = 2;
    public static final int STEP_SRC_OUTPUT = 4;
    public static final int STEP_DST_OUTPUT = 8;
    public static final int STEP_SRC_SCRATCH = 16;
    public static final int STEP_DST_SCRATCH = 32;

    // ---- reductions: io.jccl.RedOp.Kind ordinals, and none ----
    public static final int OP_SUM = 0;
    public static final int OP_PROD = 1;
    public static final int OP_MAX = 2;
    public static final int OP_MIN = 3;
    public static final int OP_AVG = 4;
    public static final int OP_PRE_MUL_SUM = 5;
    public static final int OP_NONE = 6;

    // ---- status codes ----
    public static final int STATUS_OK = 0;
    public static final int STATUS_TIMEOUT = 1;
    public static final int STATUS_SIZE_MISMATCH = 2;
    public static final int STATUS_ABORTED = 3;
    public static final int STATUS_BAD_WORK = 4;

    // ---- the direct kernels: every rank of a GPU in one launch ----
    public static final int DIRECT_MAX_RANKS = 32;
    public static final int DIRECT_THREADS = 512;
    public static final int DIRECT_ALL_REDUCE = 0;
    public static final int DIRECT_REDUCE = 1;
    public static final int DIRECT_BROADCAST = 2;
    public static final int DIRECT_ALL_GATHER = 3;
    public static final int DIRECT_REDUCE_SCATTER = 4;
    public static final int DIRECT_ALL_TO_ALL = 5;
    public static final int DIRECT_GATHER = 6;
    public static final int DIRECT_SCATTER = 7;

    /** {@code jccl_batch}: every kernel's one parameter, by value: the operations of the launch, in order. */
    public static final StructLayout BATCH = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(MAX_BATCH, JAVA_LONG).withName("works"),
            JAVA_INT.withName("count"),
            JAVA_INT.withName("pad")).withName("jccl_batch");

    /** {@code jccl_work}: the descriptor of one operation of one rank. */
    public static final StructLayout WORK = MemoryLayout.structLayout(
            JAVA_LONG.withName("inputs"),
            JAVA_LONG.withName("outputs"),
            JAVA_LONG.withName("segments"),
            JAVA_LONG.withName("laneSteps"),
            JAVA_LONG.withName("steps"),
            JAVA_LONG.withName("conns"),
            JAVA_LONG.withName("scratch"),
            JAVA_LONG.withName("scratchPerLane"),
            JAVA_LONG.withName("status"),
            JAVA_LONG.withName("claim"),
            JAVA_LONG.withName("abortFlag"),
            JAVA_LONG.withName("slotBytes"),
            JAVA_LONG.withName("scalar"),
            JAVA_LONG.withName("timeoutNs"),
            JAVA_INT.withName("nsegments"),
            JAVA_INT.withName("nlanes"),
            JAVA_INT.withName("nops"),
            JAVA_INT.withName("elementSize"),
            JAVA_INT.withName("redop"),
            JAVA_INT.withName("nranks"),
            JAVA_INT.withName("rank"),
            JAVA_INT.withName("protocol"),
            JAVA_INT.withName("pairedLanes"),
            JAVA_INT.withName("pad")).withName("jccl_work");

    /** {@code jccl_segment}: a schedule run {@code repeat} times over consecutive tiles. */
    public static final StructLayout SEGMENT = MemoryLayout.structLayout(
            JAVA_LONG.withName("firstShift"),
            JAVA_LONG.withName("stride"),
            JAVA_LONG.withName("repeat"),
            JAVA_LONG.withName("firstTile")).withName("jccl_segment");

    /** {@code jccl_lane_steps}: the steps of one lane in one segment. */
    public static final StructLayout LANE_STEPS = MemoryLayout.structLayout(
            JAVA_INT.withName("first"),
            JAVA_INT.withName("count")).withName("jccl_lane_steps");

    /** {@code jccl_step}: one primitive. */
    public static final StructLayout STEP = MemoryLayout.structLayout(
            JAVA_BYTE.withName("kind"),
            JAVA_BYTE.withName("flags"),
            JAVA_BYTE.withName("nrecv"),
            JAVA_BYTE.withName("nsend"),
            JAVA_SHORT.withName("srcOp"),
            JAVA_SHORT.withName("dstOp"),
            MemoryLayout.sequenceLayout(MAX_LINKS, JAVA_SHORT).withName("recv"),
            MemoryLayout.sequenceLayout(MAX_LINKS, JAVA_SHORT).withName("send"),
            JAVA_LONG.withName("srcOffset"),
            JAVA_LONG.withName("dstOffset"),
            JAVA_LONG.withName("count")).withName("jccl_step");

    /** {@code jccl_conn}: one FIFO as a link of this rank sees it. */
    public static final StructLayout CONN = MemoryLayout.structLayout(
            JAVA_LONG.withName("fifo"),
            JAVA_INT.withName("peer"),
            JAVA_INT.withName("channel"),
            JAVA_INT.withName("flags"),
            JAVA_INT.withName("pad")).withName("jccl_conn");

    /** {@code jccl_status}: the first failure of a launch. */
    public static final StructLayout STATUS = MemoryLayout.structLayout(
            JAVA_INT.withName("code"),
            JAVA_INT.withName("lane"),
            JAVA_INT.withName("step"),
            JAVA_INT.withName("peer"),
            JAVA_INT.withName("channel"),
            JAVA_INT.withName("pad"),
            JAVA_LONG.withName("tile"),
            JAVA_LONG.withName("got"),
            JAVA_LONG.withName("expected")).withName("jccl_status");

    /** {@code jccl_direct}: the one parameter of the direct kernels, by value: every rank's buffers. */
    public static final StructLayout DIRECT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(DIRECT_MAX_RANKS, JAVA_LONG).withName("inputs"),
            MemoryLayout.sequenceLayout(DIRECT_MAX_RANKS, JAVA_LONG).withName("outputs"),
            JAVA_LONG.withName("count"),
            JAVA_LONG.withName("scalar"),
            JAVA_INT.withName("nranks"),
            JAVA_INT.withName("kind"),
            JAVA_INT.withName("redop"),
            JAVA_INT.withName("root")).withName("jccl_direct");

    /** Every struct of the header. */
    public static final java.util.List<StructLayout> STRUCTS = java.util.List.of(BATCH, WORK, SEGMENT, LANE_STEPS, STEP, CONN, STATUS,
            DIRECT);

    /** The byte offset of a member, by C name. */
    public static long offset(StructLayout s, String member) {
        return s.byteOffset(MemoryLayout.PathElement.groupElement(member));
    }
}
