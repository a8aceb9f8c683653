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

import io.jccl.kernels.WorkLayout;
import io.jccl.plan.Buf;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one rank's plan into the bytes of a {@code jccl_work} descriptor (kernels-ptx's
 * jccl_work.h): the header, then the operations' buffer addresses, the segments, each lane's step
 * range per segment, the steps and the connections they name, each part 16-byte aligned. Pointers
 * inside are {@code base} plus the part's offset, so the bytes are valid once copied to device
 * address {@code base}. Pure Java: no driver call.
 */
final class WorkPacker {
    private WorkPacker() {
    }

    /** A connection of this rank: receiving from {@code peer} or sending to it, on a channel. */
    record Conn(boolean sending, int peer, int channel) {
    }

    /** Where the FIFO of a connection is (device address of its head word), and who is at its other end. */
    interface Fifos {
        long address(Conn c);

        /** Whether the CPU is at the FIFO's other end (the socket proxy): {@link WorkLayout#CONN_SYSTEM}. */
        default boolean system(Conn c) {
            return false;
        }
    }

    /** What the kernel needs besides the plan. Addresses are device addresses. */
    record Launch(int protocol, int elementSize, int redop, long scalar, int nranks, int rank, long[] inputs,
                  long[] outputs, long slotBytes, long scratch, long scratchPerLane, long status, long claim,
                  long abortFlag, long timeoutNs, long planScratch) {
    }

    /** The packed descriptor: {@code bytes} to copy to {@code base}; {@code conns} in index order. */
    record Packed(MemorySegment bytes, long base, List<Conn> conns) {
    }

    private static long align(long x) {
        return (x + 15) & ~15L;
    }

    static Packed pack(Plan plan, int rank, Launch l, Fifos fifos, long base, java.lang.foreign.SegmentAllocator alloc) {
        int lanes = plan.lanes();
        List<Segment> segs = plan.segments(rank);
        int nops = l.inputs().length;
        if (l.outputs().length != nops) {
            throw new IllegalArgumentException(nops + " inputs but " + l.outputs().length + " outputs");
        }
        // Steps per (lane, segment), lane-major as the kernel reads them.
        List<Step> steps = new ArrayList<>();
        int[][] first = new int[lanes][segs.size()];
        int[][] count = new int[lanes][segs.size()];
        Map<Conn, Integer> conns = new LinkedHashMap<>();
        for (int lane = 0; lane < lanes; lane++) {
            for (int g = 0; g < segs.size(); g++) {
                Step[] s = segs.get(g).schedule().stepArray(rank, lane);
                first[lane][g] = steps.size();
                count[lane][g] = s.length;
                for (Step st : s) {
                    steps.add(st);
                    for (Link in : st.recv()) {
                        conns.putIfAbsent(new Conn(false, in.peer(), in.channel()), conns.size());
                    }
                    for (Link out : st.send()) {
                        conns.putIfAbsent(new Conn(true, out.peer(), out.channel()), conns.size());
                    }
                }
            }
        }
        if (conns.size() > 0xFFFF) {
            throw new IllegalArgumentException(conns.size() + " connections: more than a step can name");
        }
        if (plan.scratch() > 0 && l.planScratch() == 0) {
            throw new IllegalArgumentException(plan.algorithm() + " keeps partial results in " + plan.scratch()
                    + " elements of scratch, and the launch has none");
        }
        // The inputs, then each operation's scratch (the kernel finds it at inputs[nops + op]).
        long oInputs = align(WORK.byteSize());
        long oOutputs = align(oInputs + 16L * nops);
        long oSegments = align(oOutputs + 8L * nops);
        long oLaneSteps = align(oSegments + SEGMENT.byteSize() * segs.size());
        long oSteps = align(oLaneSteps + LANE_STEPS.byteSize() * lanes * segs.size());
        long oConns = align(oSteps + STEP.byteSize() * steps.size());
        long total = align(oConns + CONN.byteSize() * conns.size());
        MemorySegment m = alloc.allocate(total, 16);
        m.fill((byte) 0);

        putLong(m, 0, WORK, "inputs", base + oInputs);
        putLong(m, 0, WORK, "outputs", base + oOutputs);
        putLong(m, 0, WORK, "segments", base + oSegments);
        putLong(m, 0, WORK, "laneSteps", base + oLaneSteps);
        putLong(m, 0, WORK, "steps", base + oSteps);
        putLong(m, 0, WORK, "conns", base + oConns);
        putLong(m, 0, WORK, "scratch", l.scratch());
        putLong(m, 0, WORK, "scratchPerLane", l.scratchPerLane());
        putLong(m, 0, WORK, "status", l.status());
        putLong(m, 0, WORK, "claim", l.claim());
        putLong(m, 0, WORK, "abortFlag", l.abortFlag());
        putLong(m, 0, WORK, "slotBytes", l.slotBytes());
        putLong(m, 0, WORK, "scalar", l.scalar());
        putLong(m, 0, WORK, "timeoutNs", l.timeoutNs());
        putInt(m, 0, WORK, "nsegments", segs.size());
        putInt(m, 0, WORK, "nlanes", lanes);
        putInt(m, 0, WORK, "nops", nops);
        putInt(m, 0, WORK, "elementSize", l.elementSize());
        putInt(m, 0, WORK, "redop", l.redop());
        putInt(m, 0, WORK, "nranks", l.nranks());
        putInt(m, 0, WORK, "rank", l.rank());
        putInt(m, 0, WORK, "protocol", l.protocol());
        putInt(m, 0, WORK, "pairedLanes", CudaTuning.pairedLanes(plan));
        for (int i = 0; i < nops; i++) {
            m.set(JAVA_LONG, oInputs + 8L * i, l.inputs()[i]);
            // One scratch for the work, as the host engine's rank has one for each operation it runs.
            m.set(JAVA_LONG, oInputs + 8L * (nops + i), l.planScratch());
            m.set(JAVA_LONG, oOutputs + 8L * i, l.outputs()[i]);
        }
        long tile = 0;
        for (int g = 0; g < segs.size(); g++) {
            Segment s = segs.get(g);
            long at = oSegments + SEGMENT.byteSize() * g;
            putLong(m, at, SEGMENT, "firstShift", s.firstShift());
            putLong(m, at, SEGMENT, "stride", s.stride());
            putLong(m, at, SEGMENT, "repeat", s.repeat());
            putLong(m, at, SEGMENT, "firstTile", tile);
            tile += s.repeat();
        }
        for (int lane = 0; lane < lanes; lane++) {
            for (int g = 0; g < segs.size(); g++) {
                long at = oLaneSteps + LANE_STEPS.byteSize() * ((long) lane * segs.size() + g);
                putInt(m, at, LANE_STEPS, "first", first[lane][g]);
                putInt(m, at, LANE_STEPS, "count", count[lane][g]);
            }
        }
        for (int i = 0; i < steps.size(); i++) {
            putStep(m, oSteps + STEP.byteSize() * i, steps.get(i), conns, l.redop() != WorkLayout.OP_NONE);
        }
        List<Conn> order = new ArrayList<>(conns.keySet());
        for (int i = 0; i < order.size(); i++) {
            Conn c = order.get(i);
            long at = oConns + CONN.byteSize() * i;
            putLong(m, at, CONN, "fifo", fifos.address(c));
            putInt(m, at, CONN, "peer", c.peer());
            putInt(m, at, CONN, "channel", c.channel());
            putInt(m, at, CONN, "flags", fifos.system(c) ? WorkLayout.CONN_SYSTEM : 0);
        }
        return new Packed(m, base, List.copyOf(order));
    }

    private static void putStep(MemorySegment m, long at, Step s, Map<Conn, Integer> conns, boolean reduces) {
        if (s.recv().size() > WorkLayout.MAX_LINKS || s.send().size() > WorkLayout.MAX_LINKS) {
            throw new IllegalArgumentException("step " + s + " has more than " + WorkLayout.MAX_LINKS + " links");
        }
        int flags = 0;
        if (s.postOp()) {
            flags |= WorkLayout.STEP_POST_OP;
        }
        // As LaneExecutor: the pre-operation applies to a source read from the input buffer.
        if (reduces && s.src() != null && s.src().buf() == Buf.INPUT) {
            flags |= WorkLayout.STEP_PRE_SRC;
        }
        if (s.src() != null && s.src().buf() == Buf.OUTPUT) {
            flags |= WorkLayout.STEP_SRC_OUTPUT;
        }
        if (s.dst() != null && s.dst().buf() == Buf.OUTPUT) {
            flags |= WorkLayout.STEP_DST_OUTPUT;
        }
        if (s.src() != null && s.src().buf() == Buf.SCRATCH) {
            flags |= WorkLayout.STEP_SRC_SCRATCH;
        }
        if (s.dst() != null && s.dst().buf() == Buf.SCRATCH) {
            flags |= WorkLayout.STEP_DST_SCRATCH;
        }
        m.set(JAVA_BYTE, at + offset(STEP, "kind"), (byte) s.kind().ordinal());
        m.set(JAVA_BYTE, at + offset(STEP, "flags"), (byte) flags);
        m.set(JAVA_BYTE, at + offset(STEP, "nrecv"), (byte) s.recv().size());
        m.set(JAVA_BYTE, at + offset(STEP, "nsend"), (byte) s.send().size());
        Region src = s.src();
        Region dst = s.dst();
        m.set(JAVA_SHORT, at + offset(STEP, "srcOp"), (short) (src == null ? 0 : src.op()));
        m.set(JAVA_SHORT, at + offset(STEP, "dstOp"), (short) (dst == null ? 0 : dst.op()));
        for (int k = 0; k < s.recv().size(); k++) {
            Link in = s.recv().get(k);
            m.set(JAVA_SHORT, at + offset(STEP, "recv") + 2L * k, (short) (int) conns.get(new Conn(false, in.peer(), in.channel())));
        }
        for (int k = 0; k < s.send().size(); k++) {
            Link out = s.send().get(k);
            m.set(JAVA_SHORT, at + offset(STEP, "send") + 2L * k, (short) (int) conns.get(new Conn(true, out.peer(), out.channel())));
        }
        m.set(JAVA_LONG, at + offset(STEP, "srcOffset"), src == null ? 0 : src.offset());
        m.set(JAVA_LONG, at + offset(STEP, "dstOffset"), dst == null ? 0 : dst.offset());
        m.set(JAVA_LONG, at + offset(STEP, "count"), s.count());
    }

    private static void putLong(MemorySegment m, long at, StructLayout s, String member, long v) {
        m.set(JAVA_LONG, at + offset(s, member), v);
    }

    private static void putInt(MemorySegment m, long at, StructLayout s, String member, int v) {
        m.set(JAVA_INT, at + offset(s, member), v);
    }
}
