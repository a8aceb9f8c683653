// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

import io.jccl.Collective;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Everything an engine runs for one call: per planned rank ({@link RankSet}), the segments of
 * tiles to run in order. Each lane of a rank walks all segments and, within a segment, every tile,
 * executing that lane's steps. All ranks of a collective share one segment list; a point-to-point
 * group has one per rank. Asking for a rank that was not planned fails.
 */
public final class Plan {
    private final String algorithm;
    private final Collective collective;
    private final int nranks;
    private final int lanes;
    private final RankSet ranks;
    /** The segments every planned rank runs, or null when each has its own. */
    private final List<Segment> shared;
    /** Per slot of {@link #ranks}, the segments of that rank; null when {@link #shared}. */
    private final List<List<Segment>> own;
    private final long scratch;

    private Plan(String algorithm, Collective collective, RankSet ranks, int lanes, List<Segment> shared,
                 List<List<Segment>> own) {
        this.algorithm = algorithm;
        this.collective = collective;
        this.nranks = ranks.nranks();
        this.lanes = lanes;
        this.ranks = ranks;
        this.shared = shared;
        this.own = own;
        long s = 0;
        for (List<Segment> l : shared != null ? List.of(shared) : own) {
            for (Segment seg : l) {
                s = Math.max(s, seg.schedule().scratch());
            }
        }
        this.scratch = s;
    }

    /**
     * A plan of equal tiles of {@code tile} elements, the last one possibly shorter: the schedule of
     * a tile of {@code n} elements comes from {@code scheduleOf}. A count of 0 gives an empty plan.
     */
    public static Plan tiled(String algorithm, Collective collective, int nranks, int lanes, long count, long tile,
                             LongFunction<Schedule> scheduleOf) {
        return tiled(algorithm, collective, RankSet.all(nranks), lanes, count, tile, scheduleOf);
    }

    /** The same for the ranks {@code ranks}, whose steps the schedules hold. */
    public static Plan tiled(String algorithm, Collective collective, RankSet ranks, int lanes, long count, long tile,
                             LongFunction<Schedule> scheduleOf) {
        if (tile < 1) {
            throw new IllegalArgumentException("tile of " + tile + " elements");
        }
        List<Segment> segments = new ArrayList<>(2);
        long full = count / tile;
        long rest = count % tile;
        if (full > 0) {
            segments.add(new Segment(scheduleOf.apply(tile), 0, tile, full));
        }
        if (rest > 0) {
            segments.add(new Segment(scheduleOf.apply(rest), full * tile, 0, 1));
        }
        return shared(algorithm, collective, ranks, lanes, segments);
    }

    /** A plan whose ranks all run {@code segments}. */
    public static Plan shared(String algorithm, Collective collective, int nranks, int lanes, List<Segment> segments) {
        return shared(algorithm, collective, RankSet.all(nranks), lanes, segments);
    }

    /** A plan whose ranks {@code ranks} all run {@code segments}, whose schedules hold their steps. */
    public static Plan shared(String algorithm, Collective collective, RankSet ranks, int lanes, List<Segment> segments) {
        List<Segment> s = List.copyOf(segments);
        for (Segment seg : s) {
            checkShape(seg.schedule(), ranks.nranks(), lanes);
            if (!seg.schedule().ranks().containsAll(ranks)) {
                throw new IllegalArgumentException("a schedule of " + seg.schedule().ranks() + " in a plan of " + ranks);
            }
        }
        return new Plan(algorithm, collective, ranks, lanes, s, null);
    }

    /** A plan in which each rank runs its own segments (point-to-point groups). */
    public static Plan perRank(String algorithm, Collective collective, int nranks, int lanes,
                               List<List<Segment>> segmentsPerRank) {
        return perRank(algorithm, collective, RankSet.all(nranks), lanes, segmentsPerRank);
    }

    /**
     * A plan in which each rank of {@code ranks} runs its own segments, {@code segmentsPerRank} in
     * slot order; the schedules of a rank's segments need hold only its own steps.
     */
    public static Plan perRank(String algorithm, Collective collective, RankSet ranks, int lanes,
                               List<List<Segment>> segmentsPerRank) {
        if (segmentsPerRank.size() != ranks.size()) {
            throw new IllegalArgumentException(segmentsPerRank.size() + " segment lists for " + ranks);
        }
        List<List<Segment>> copy = new ArrayList<>(ranks.size());
        for (int i = 0; i < ranks.size(); i++) {
            for (Segment seg : segmentsPerRank.get(i)) {
                checkShape(seg.schedule(), ranks.nranks(), lanes);
                if (!seg.schedule().ranks().contains(ranks.rank(i))) {
                    throw new IllegalArgumentException("rank " + ranks.rank(i) + "'s segment has a schedule of "
                            + seg.schedule().ranks());
                }
            }
            copy.add(List.copyOf(segmentsPerRank.get(i)));
        }
        return new Plan(algorithm, collective, ranks, lanes, null, List.copyOf(copy));
    }

    private static void checkShape(Schedule s, int nranks, int lanes) {
        if (s.nranks() != nranks || s.lanes() != lanes) {
            throw new IllegalArgumentException("schedule of " + s.nranks() + " ranks and " + s.lanes()
                    + " lanes in a plan of " + nranks + " ranks and " + lanes + " lanes");
        }
    }

    /** The generator's name, as {@code JCCL_ALGO} and the perf tool print it. */
    public String algorithm() {
        return algorithm;
    }

    public Collective collective() {
        return collective;
    }

    public int nranks() {
        return nranks;
    }

    public int lanes() {
        return lanes;
    }

    /** The ranks whose segments this plan holds. */
    public RankSet ranks() {
        return ranks;
    }

    /** The segments rank {@code rank} runs; refused for a rank that was not planned. */
    public List<Segment> segments(int rank) {
        int slot = ranks.slotOf(rank, "plan");
        return shared != null ? shared : own.get(slot);
    }

    /**
     * This plan's segments followed by {@code next}'s, for the same ranks: both must be plans every
     * rank shares (as a tree's reduce and broadcast halves are).
     */
    public Plan then(Plan next) {
        if (shared == null || next.shared == null || !ranks.equals(next.ranks) || lanes != next.lanes) {
            throw new IllegalArgumentException("only shared plans of the same ranks and lanes run one after the other");
        }
        List<Segment> all = new ArrayList<>(shared);
        all.addAll(next.shared);
        return shared(algorithm, collective, ranks, lanes, all);
    }

    /**
     * Scratch elements each planned rank needs for this plan ({@link Buf#SCRATCH}): the engine
     * provides them per call; 0 for plans that keep everything in the user buffers.
     */
    public long scratch() {
        return scratch;
    }

    /** Total tiles a rank runs. */
    public long tiles(int rank) {
        long t = 0;
        for (Segment s : segments(rank)) {
            t += s.repeat();
        }
        return t;
    }

    /** The same plan with one segment of every rank replaced: how tests break a plan on purpose. */
    public Plan withSegment(int index, Segment replacement) {
        if (shared != null) {
            List<Segment> m = new ArrayList<>(shared);
            m.set(index, replacement);
            return shared(algorithm, collective, ranks, lanes, m);
        }
        List<List<Segment>> copy = new ArrayList<>(own.size());
        for (List<Segment> l : own) {
            List<Segment> m = new ArrayList<>(l);
            m.set(index, replacement);
            copy.add(m);
        }
        return perRank(algorithm, collective, ranks, lanes, copy);
    }
}
