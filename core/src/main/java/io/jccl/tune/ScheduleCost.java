// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.plan.Schedule;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;
import io.jccl.topo.ServerLayout;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The cost of an algorithm read from its own schedule on a two-level fabric, rather than from a
 * formula: one tile of a representative call is played (see {@link #makespan}) with each rank
 * having one link per level (intra-server, inter-server), each with its hop latency and bandwidth.
 * Played once with latencies only (the hops on the critical path, per level) and once with
 * bandwidths only (the bytes on the busiest links and how well the levels overlap), which give
 * the model's {@code latency + bytes / bandwidth} form. DESIGN.md's formulas
 * (hierarchical ring ≈ 2(m+1)α + 4S/B, 2D torus ≈ 2(m+n)α + 4S/B, butterfly ≈ log2 N (α + S/B), the
 * pipeline's overlap) come out of the schedules; TunerTest checks them.
 *
 * <p>Playing a schedule visits every rank's steps, which grows faster than the job (a first call
 * of a shape took half a minute at 1,024 ranks), so a job of more than {@link #PLAYED_RANKS}
 * ranks is priced from the same terms in closed form ({@link ScheduleFormulas}, checked against
 * the played ones) and counts its messages on a sample of its ranks, each planned alone.
 *
 * <pre>{@code
 * ScheduleCost cost = new ScheduleCost(ServerLayout.uniform(2, 4));
 * double us = cost.time(Collective.ALL_REDUCE, Algorithm.HIER_RING, 1 << 20, 0.2, 5, 3000, 1000);
 * }</pre>
 */
public final class ScheduleCost {
    /** Per call byte, µs, and µs of latency. */
    private record Terms(double latency, double perByte) {
    }

    /** The largest job whose schedules are played; larger ones are priced in closed form. */
    public static final int PLAYED_RANKS = 64;
    /** The most ranks whose messages are counted in a job too large to play. */
    static final int SAMPLED_RANKS = 48;

    private final ServerLayout layout;
    private final Map<String, Schedule> schedules = new HashMap<>();
    private final Map<String, Terms> terms = new HashMap<>();
    private final Map<String, Double> extra = new HashMap<>();
    private final Map<String, int[][]> sends = new HashMap<>();
    private Channels channels;

    public ScheduleCost(ServerLayout layout) {
        this.layout = layout;
    }

    /** The ranks' layout on servers whose schedules this prices. */
    public ServerLayout layout() {
        return layout;
    }

    /**
     * Predicted µs of {@code bytes} (as {@link CallSize} counts) of {@code c} by {@code a}: hops
     * cost {@code alphaIntra} / {@code alphaInter} µs, levels move {@code bwIntra} / {@code bwInter}
     * bytes per µs.
     */
    public synchronized double time(Collective c, Algorithm a, long bytes, double alphaIntra, double alphaInter,
                                    double bwIntra, double bwInter) {
        String key = c + "/" + a + "/" + alphaIntra + "/" + alphaInter + "/" + bwIntra + "/" + bwInter;
        Terms t = terms.get(key);
        if (t == null && !played()) {
            ScheduleFormulas.Shape f = ScheduleFormulas.shape(c, a, layout.servers(), perServer());
            t = new Terms(f.latency(alphaIntra, alphaInter), f.perByte(bwIntra, bwInter));
            terms.put(key, t);
        }
        if (t == null) {
            Schedule s = schedule(c, a);
            double latency = makespan(s, layout, 0, alphaIntra, alphaInter, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
            double perByte = makespan(s, layout, 1, 0, 0, bwIntra, bwInter) / CallSize.bytes(c, count(c), 1, layout.nranks());
            t = new Terms(latency, perByte);
            terms.put(key, t);
        }
        return t.latency + bytes * t.perByte;
    }

    /** Whether this job is small enough to play its schedules. */
    private boolean played() {
        return layout.nranks() <= PLAYED_RANKS;
    }

    /** Ranks per server, rounded up where servers differ. */
    private int perServer() {
        return (layout.nranks() + layout.servers() - 1) / layout.servers();
    }

    /**
     * Elements one rank combines beyond what the ring's schedule has it combine, per element of
     * {@code c}'s call size ({@link CallSize}), at the busiest rank: a butterfly all-reduce reduces
     * the whole buffer at each of its log2 N steps where the ring reduces (N-1)/N of it once. The
     * ring's own reductions are in its calibrated bandwidth; this is what an algorithm adds to
     * them. 0 for collectives that do not reduce and algorithms that reduce no more than the ring.
     */
    public synchronized double extraReduced(Collective c, Algorithm a) {
        if (!c.reduces() || a == Algorithm.RING) {
            return 0;
        }
        if (!played()) {
            return ScheduleFormulas.extraReduced(c, a, layout.nranks());
        }
        return extra.computeIfAbsent(c + "/" + a, k -> {
            double callElements = CallSize.bytes(c, count(c), 1, layout.nranks());
            return Math.max(0, (reduced(schedule(c, a)) - reduced(schedule(c, Algorithm.RING))) / callElements);
        });
    }

    /**
     * What the messages of one run of {@code a}'s schedule of a call of {@code count} elements of
     * {@code c} cost at {@code intra} per message to a rank of the sender's server and {@code inter}
     * per message to another server: the most any rank spends, and the mean over the ranks.
     */
    public synchronized Sends sends(Collective c, Algorithm a, long count, double intra, double inter) {
        // Below one element per rank some blocks are empty and nothing is sent for them, so the
        // call's own schedule is counted; from there on every block has an element and the
        // representative call sends as many messages.
        long k = count < layout.nranks() ? Math.max(0, count) : count(c);
        int[][] perRank = this.sends.computeIfAbsent(c + "/" + a + "/" + k,
                key -> k == 0 ? new int[1][2] : !played() ? sendsPerLevel(sampled(c, a, k))
                        : sendsPerLevel(k == count(c) ? schedule(c, a) : schedule(c, a, k)));
        double most = 0;
        double sum = 0;
        for (int[] r : perRank) {
            double cost = r[CostModel.INTRA] * intra + r[CostModel.INTER] * inter;
            most = Math.max(most, cost);
            sum += cost;
        }
        return new Sends(most, sum / perRank.length);
    }

    /** The cost of a run's messages at its busiest rank, and the mean over its ranks. */
    public record Sends(double busiest, double mean) {
    }

    /** Per planned rank, the messages it sends to its own server and to others in one run of {@code s}. */
    private int[][] sendsPerLevel(Schedule s) {
        RankSet planned = s.ranks();
        int[][] sends = new int[planned.size()][2];
        for (int slot = 0; slot < planned.size(); slot++) {
            int r = planned.rank(slot);
            for (int l = 0; l < s.lanes(); l++) {
                for (Step st : s.stepArray(r, l)) {
                    for (Link out : st.send()) {
                        sends[slot][layout.serverOf(out.peer()) == layout.serverOf(r) ? CostModel.INTRA : CostModel.INTER]++;
                    }
                }
            }
        }
        return sends;
    }

    /** The most elements any rank combines in one run of {@code s} (k received messages onto a source: k per element). */
    private static long reduced(Schedule s) {
        long most = 0;
        for (int r = 0; r < s.nranks(); r++) {
            long sum = 0;
            for (int l = 0; l < s.lanes(); l++) {
                for (Step st : s.stepArray(r, l)) {
                    if (st.kind().reduces()) {
                        sum += st.count() * st.recv().size();
                    }
                }
            }
            most = Math.max(most, sum);
        }
        return most;
    }

    /** Elements of the representative call: enough for every algorithm to cut its blocks evenly. */
    private long count(Collective c) {
        long n = layout.nranks();
        return c == Collective.ALL_REDUCE ? 4 * n * n : 4 * n;
    }

    private Schedule schedule(Collective c, Algorithm a) {
        return schedules.computeIfAbsent(c + "/" + a, k -> schedule(c, a, count(c)));
    }

    /**
     * {@code a}'s schedule of {@code count} elements of {@code c} for a sample of the ranks, each
     * planned alone: the first and last ranks of the first and last servers and of a server in
     * the middle (where rings turn and trees and folds put their odd ranks), and ranks spread
     * evenly over the job.
     */
    private Schedule sampled(Collective c, Algorithm a, long count) {
        int n = layout.nranks();
        java.util.TreeSet<Integer> ranks = new java.util.TreeSet<>();
        for (int server : new int[] {0, layout.servers() / 2, layout.servers() - 1}) {
            int size = layout.localSize(server);
            for (int i : new int[] {0, 1, size - 2, size - 1}) {
                if (i >= 0 && i < size) {
                    ranks.add(layout.rank(server, i));
                }
            }
        }
        for (int i = 0; ranks.size() < SAMPLED_RANKS && i < SAMPLED_RANKS; i++) {
            ranks.add((int) ((long) i * n / SAMPLED_RANKS));
        }
        Call call = new Call(c, n, count, 0).planning(RankSet.of(n, ranks.stream().mapToInt(Integer::intValue).toArray()));
        Plan p = Algorithms.plan(call, a, channels(), count * n);
        return p.segments(0).getFirst().schedule();
    }

    /** The one channel of the representative call, made once. */
    private Channels channels() {
        if (channels == null) {
            channels = Channels.flat(layout, 1);
        }
        return channels;
    }

    /** One tile of {@code a}'s plan of a call of {@code count} elements of {@code c}, on one channel. */
    private Schedule schedule(Collective c, Algorithm a, long count) {
        Call call = new Call(c, layout.nranks(), count, 0);
        Plan p = Algorithms.plan(call, a, channels(), count * layout.nranks());
        return p.segments(0).getFirst().schedule();
    }

    /**
     * µs one run of {@code s} takes when each element is {@code elementBytes} bytes. A lane runs its
     * steps in order; a step starts when the lane reaches it and its messages have arrived, and
     * hands its sends to the rank's link of each level without waiting for them (as a copy into a
     * FIFO that a proxy or a DMA engine drains): a rank's link of one level carries one message at a
     * time, taking {@code bytes / bw} of it, and a message arrives {@code alpha} after it has gone
     * out. So the two levels work at once exactly where the schedule lets them, a rank's messages on
     * one level share its bandwidth, and FIFOs are taken as deep enough never to hold a sender back.
     */
    static double makespan(Schedule s, ServerLayout layout, double elementBytes, double alphaIntra, double alphaInter,
                           double bwIntra, double bwInter) {
        int n = s.nranks();
        int lanes = s.lanes();
        int[][] next = new int[n][lanes];
        double[][] clock = new double[n][lanes];
        double[][] linkFree = new double[n][2];
        Map<Long, ArrayDeque<Double>> arriving = new HashMap<>();
        double end = 0;
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int r = 0; r < n; r++) {
                for (int l = 0; l < lanes; l++) {
                    Step[] steps = s.stepArray(r, l);
                    while (next[r][l] < steps.length) {
                        Step st = steps[next[r][l]];
                        boolean ready = true;
                        for (Link in : st.recv()) {
                            ArrayDeque<Double> q = arriving.get(key(n, in.channel(), in.peer(), r));
                            if (q == null || q.isEmpty()) {
                                ready = false;
                                break;
                            }
                        }
                        if (!ready) {
                            break;
                        }
                        double start = clock[r][l];
                        for (Link in : st.recv()) {
                            start = Math.max(start, arriving.get(key(n, in.channel(), in.peer(), r)).poll());
                        }
                        double bytes = st.count() * elementBytes;
                        for (Link out : st.send()) {
                            int level = layout.serverOf(out.peer()) == layout.serverOf(r) ? 0 : 1;
                            double wire = bytes / (level == 0 ? bwIntra : bwInter);
                            double go = Math.max(start, linkFree[r][level]);
                            linkFree[r][level] = go + wire;
                            double at = go + wire + (level == 0 ? alphaIntra : alphaInter);
                            arriving.computeIfAbsent(key(n, out.channel(), r, out.peer()), k -> new ArrayDeque<>()).add(at);
                            end = Math.max(end, at);
                        }
                        clock[r][l] = start;
                        end = Math.max(end, start);
                        next[r][l]++;
                        progress = true;
                    }
                }
            }
        }
        for (int r = 0; r < n; r++) {
            for (int l = 0; l < lanes; l++) {
                if (next[r][l] < s.stepArray(r, l).length) {
                    throw new IllegalStateException("schedule does not complete: rank " + r + " lane " + l + " is stuck");
                }
            }
        }
        return end;
    }

    private static long key(int n, int channel, int from, int to) {
        return ((long) channel * n + from) * n + to;
    }
}
