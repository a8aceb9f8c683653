// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

import io.jccl.plan.Buf;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a plan on symbolic buffers the way an engine would: each (rank, lane) is a sequential
 * worker walking its tiles, connections are FIFOs of a fixed number of messages, and a step runs
 * only when every message it receives is there and every FIFO it sends on has room. When no worker
 * can move and some are not finished, the plan deadlocks and the blocked workers are named.
 */
final class SymbolicRun {
    private final Plan plan;
    private final SymBuffer[][][] buffers;
    private final boolean reduces;
    private final int fifoSlots;
    private final boolean reverse;
    private final int n;
    private final Map<Long, ArrayDeque<Sym[]>> fifos = new HashMap<>();
    /** The lane that sends (index 0) and receives (index 1) on each connection: engines rely on one of each. */
    private final Map<Long, int[]> endpoints = new HashMap<>();
    /** For each element of each storage array: 1 + the lane of the rank that wrote it (0: not yet). */
    private final Map<Sym[], int[]> writers = new IdentityHashMap<>();
    private final List<String> faults = new ArrayList<>();
    /** Each rank's scratch memory ({@link Buf#SCRATCH}), made when first touched. */
    private final SymBuffer[] scratch;
    /** For each scratch element: 1 + the lane that last wrote it (0: never). */
    private final int[][] scratchWriters;
    private long steps;
    private long messages;
    private long elements;

    SymbolicRun(Plan plan, SymBuffer[][][] buffers, boolean reduces, int fifoSlots, boolean reverse) {
        if (fifoSlots < 1) {
            throw new IllegalArgumentException("fifoSlots " + fifoSlots);
        }
        this.plan = plan;
        this.buffers = buffers;
        this.reduces = reduces;
        this.fifoSlots = fifoSlots;
        this.reverse = reverse;
        this.n = plan.nranks();
        this.scratch = new SymBuffer[n];
        this.scratchWriters = new int[n][];
    }

    VerifyResult result(List<String> allFaults) {
        return new VerifyResult(allFaults.size() > Verifier.MAX_FAULTS ? allFaults.subList(0, Verifier.MAX_FAULTS) : allFaults,
                steps, messages, elements);
    }

    /** One sequential executor: a rank's lane, with its position in the plan. */
    private final class Worker {
        final int rank;
        final int lane;
        final List<Segment> segments;
        int segment;
        long repeat;
        int step;

        Worker(int rank, int lane) {
            this.rank = rank;
            this.lane = lane;
            this.segments = plan.segments(rank);
            settle();
        }

        /** Moves past empty step lists so that {@link #current()} is a step or the worker is done. */
        void settle() {
            while (segment < segments.size()) {
                Segment s = segments.get(segment);
                if (step < s.schedule().stepArray(rank, lane).length) {
                    return;
                }
                step = 0;
                if (++repeat >= s.repeat()) {
                    repeat = 0;
                    segment++;
                }
            }
        }

        boolean done() {
            return segment >= segments.size();
        }

        Step current() {
            return segments.get(segment).schedule().stepArray(rank, lane)[step];
        }

        long shift() {
            return segments.get(segment).shift(repeat);
        }

        String where() {
            long tile = repeat;
            for (int i = 0; i < segment; i++) {
                tile += segments.get(i).repeat();
            }
            return "rank " + rank + " lane " + lane + " tile " + tile + " step " + step + " (" + current() + ")";
        }
    }

    List<String> execute() {
        List<Worker> workers = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            for (int l = 0; l < plan.lanes(); l++) {
                workers.add(new Worker(r, l));
            }
        }
        if (reverse) {
            java.util.Collections.reverse(workers);
        }
        boolean progress = true;
        while (progress && faults.isEmpty()) {
            progress = false;
            for (Worker w : workers) {
                while (!w.done() && faults.isEmpty() && ready(w, false)) {
                    run(w);
                    w.step++;
                    w.settle();
                    progress = true;
                }
            }
        }
        if (!faults.isEmpty()) {
            return faults;
        }
        for (Worker w : workers) {
            if (!w.done() && faults.size() < Verifier.MAX_FAULTS) {
                ready(w, true);
            }
        }
        if (!faults.isEmpty()) {
            faults.add(0, "deadlock: no worker can move (FIFOs of " + fifoSlots + " message(s)); blocked:");
            return faults;
        }
        fifos.forEach((key, q) -> {
            if (!q.isEmpty() && faults.size() < Verifier.MAX_FAULTS) {
                faults.add("connection " + describe(key) + " holds " + q.size() + " message(s) nobody received");
            }
        });
        return faults;
    }

    private long key(int channel, int from, int to) {
        return ((long) channel * n + from) * n + to;
    }

    private String describe(long key) {
        long to = key % n;
        long from = (key / n) % n;
        long channel = key / ((long) n * n);
        return "ch" + channel + " " + from + "->" + to;
    }

    private ArrayDeque<Sym[]> fifo(int channel, int from, int to) {
        return fifos.computeIfAbsent(key(channel, from, to), k -> new ArrayDeque<>());
    }

    private boolean checkLink(Worker w, Link l, boolean sending) {
        if (l.peer() < 0 || l.peer() >= n || l.channel() < 0) {
            faults.add(w.where() + ": link to " + l + " names no rank of " + n);
            return false;
        }
        long k = sending ? key(l.channel(), w.rank, l.peer()) : key(l.channel(), l.peer(), w.rank);
        int[] ends = endpoints.computeIfAbsent(k, x -> new int[] {-1, -1});
        int side = sending ? 0 : 1;
        if (ends[side] >= 0 && ends[side] != w.lane) {
            faults.add(w.where() + ": lanes " + ends[side] + " and " + w.lane + " both " + (sending ? "send" : "receive")
                    + " on connection " + describe(k) + " (a FIFO has one producer and one consumer)");
            return false;
        }
        ends[side] = w.lane;
        return true;
    }

    /** Whether the worker's step can run now; with {@code explain}, records why not. */
    private boolean ready(Worker w, boolean explain) {
        Step s = w.current();
        for (Link l : s.recv()) {
            if (!checkLink(w, l, false)) {
                return false;
            }
            if (fifo(l.channel(), l.peer(), w.rank).isEmpty()) {
                if (explain) {
                    faults.add("  " + w.where() + " waits for a message from rank " + l.peer() + " on ch" + l.channel());
                }
                return false;
            }
        }
        for (Link l : s.send()) {
            if (!checkLink(w, l, true)) {
                return false;
            }
            if (fifo(l.channel(), w.rank, l.peer()).size() >= fifoSlots) {
                if (explain) {
                    faults.add("  " + w.where() + " waits for room to send to rank " + l.peer() + " on ch" + l.channel());
                }
                return false;
            }
        }
        return true;
    }

    private void run(Worker w) {
        Step s = w.current();
        long shift = w.shift();
        long count = s.count();
        steps++;
        List<Sym[]> msgs = new ArrayList<>(s.recv().size());
        for (Link l : s.recv()) {
            Sym[] m = fifo(l.channel(), l.peer(), w.rank).poll();
            if (m.length != count) {
                faults.add(w.where() + ": message of " + m.length + " elements from rank " + l.peer() + " on ch"
                        + l.channel() + " where the step expects " + count);
                return;
            }
            msgs.add(m);
        }
        Sym[] v;
        if (s.kind().readsSrc()) {
            v = read(w, s.src(), shift);
            if (v == null) {
                return;
            }
            if (s.kind().reduces()) {
                for (Sym[] m : msgs) {
                    for (int i = 0; i < v.length; i++) {
                        v[i] = Sym.reduce(m[i], v[i]);
                    }
                }
            }
        } else {
            v = msgs.get(0);
        }
        if (s.postOp()) {
            v = v.clone();
            for (int i = 0; i < v.length; i++) {
                v[i] = v[i].withPost();
            }
        }
        if (s.kind().writesDst() && !write(w, s.dst(), shift, v)) {
            return;
        }
        for (Link l : s.send()) {
            fifo(l.channel(), w.rank, l.peer()).add(v);
            messages++;
            elements += count;
        }
    }

    private SymBuffer buffer(Worker w, Region r, long shift) {
        if (r.buf() == Buf.SCRATCH) {
            if (r.offset() + r.count() > plan.scratch()) {
                faults.add(w.where() + ": region " + r + " ends past the " + plan.scratch() + " scratch elements of the plan");
                return null;
            }
            if (scratch[w.rank] == null) {
                scratch[w.rank] = SymBuffer.of(Math.toIntExact(plan.scratch()));
                scratchWriters[w.rank] = new int[scratch[w.rank].length()];
            }
            return scratch[w.rank];
        }
        SymBuffer[][] rank = buffers[w.rank];
        SymBuffer b = r.op() < rank.length ? rank[r.op()][r.buf().ordinal()] : null;
        if (b == null) {
            faults.add(w.where() + ": rank " + w.rank + " has no " + r.buf() + " buffer for operation " + r.op());
            return null;
        }
        long start = r.offset() + shift;
        if (start + r.count() > b.length()) {
            faults.add(w.where() + ": region " + r + " at tile shift " + shift + " ends at " + (start + r.count())
                    + ", past the " + b.length() + " elements of the buffer");
            return null;
        }
        return b;
    }

    private Sym[] read(Worker w, Region r, long shift) {
        SymBuffer b = buffer(w, r, shift);
        if (b == null) {
            return null;
        }
        boolean pre = reduces && r.buf() == Buf.INPUT;
        long start = r.offset() + (r.buf() == Buf.SCRATCH ? 0 : shift);
        Sym[] v = new Sym[(int) r.count()];
        for (int i = 0; i < v.length; i++) {
            Sym x = b.get(start + i);
            if (x.poison) {
                faults.add(w.where() + ": reads " + r.buf() + "[" + (start + i) + "], never written");
                return null;
            }
            v[i] = pre ? x.withPre() : x;
        }
        return v;
    }

    private boolean write(Worker w, Region r, long shift, Sym[] v) {
        SymBuffer b = buffer(w, r, shift);
        if (b == null) {
            return false;
        }
        if (r.buf() == Buf.SCRATCH) {
            // Scratch is the rank's working memory: rewritten freely, tile after tile, but by one lane
            // (a scratch element two lanes write is a race).
            int[] last = scratchWriters[w.rank];
            for (int i = 0; i < v.length; i++) {
                int at = (int) r.offset() + i;
                if (last[at] != 0 && last[at] != w.lane + 1) {
                    faults.add(w.where() + ": writes scratch[" + at + "], which lane " + (last[at] - 1)
                            + " wrote (a race between lanes)");
                    return false;
                }
                last[at] = w.lane + 1;
                b.set(at, v[i]);
            }
            return true;
        }
        long start = r.offset() + shift;
        int[] lanes = writers.computeIfAbsent(b.data(), k -> new int[k.length]);
        for (int i = 0; i < v.length; i++) {
            int at = b.base() + (int) (start + i);
            if (lanes[at] != 0) {
                // Engines may let a peer read a written region in place until the call ends (the
                // host engine's by-reference messages), so a region is written once per call.
                faults.add(w.where() + ": writes " + r.buf() + "[" + (start + i) + "] a second time in this call"
                        + (lanes[at] != w.lane + 1 ? ", after lane " + (lanes[at] - 1) + " (a race between lanes)" : ""));
                return false;
            }
            lanes[at] = w.lane + 1;
            b.set(start + i, v[i]);
        }
        return true;
    }
}
