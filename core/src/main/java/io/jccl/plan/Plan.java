package io.jccl.plan;

import io.jccl.Collective;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Everything an engine runs for one call: per rank, the segments of tiles to run in order. Each
 * lane of a rank walks all segments and, within a segment, every tile, executing that lane's steps.
 * All ranks of a collective share one segment list; a point-to-point group has one per rank.
 */
public final class Plan {
    private final String algorithm;
    private final Collective collective;
    private final int nranks;
    private final int lanes;
    private final List<List<Segment>> segmentsPerRank;
    private final long scratch;

    private Plan(String algorithm, Collective collective, int nranks, int lanes, List<List<Segment>> segmentsPerRank) {
        this.algorithm = algorithm;
        this.collective = collective;
        this.nranks = nranks;
        this.lanes = lanes;
        this.segmentsPerRank = segmentsPerRank;
        long s = 0;
        for (List<Segment> l : segmentsPerRank) {
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
        if (tile < 1) {
            throw new IllegalArgumentException("tile of " + tile + " elements");
        }
        List<Segment> segments = new ArrayList<>(2);
        long full = count / tile;
        long rest = count % tile;
        if (full > 0) {
            segments.add(new Segment(checkLanes(scheduleOf.apply(tile), nranks, lanes), 0, tile, full));
        }
        if (rest > 0) {
            segments.add(new Segment(checkLanes(scheduleOf.apply(rest), nranks, lanes), full * tile, 0, 1));
        }
        return shared(algorithm, collective, nranks, lanes, segments);
    }

    /** A plan whose ranks all run {@code segments}. */
    public static Plan shared(String algorithm, Collective collective, int nranks, int lanes, List<Segment> segments) {
        List<Segment> s = List.copyOf(segments);
        for (Segment seg : s) {
            checkLanes(seg.schedule(), nranks, lanes);
        }
        List<List<Segment>> perRank = new ArrayList<>(nranks);
        for (int r = 0; r < nranks; r++) {
            perRank.add(s);
        }
        return new Plan(algorithm, collective, nranks, lanes, List.copyOf(perRank));
    }

    /** A plan in which each rank runs its own segments (point-to-point groups). */
    public static Plan perRank(String algorithm, Collective collective, int nranks, int lanes,
                               List<List<Segment>> segmentsPerRank) {
        if (segmentsPerRank.size() != nranks) {
            throw new IllegalArgumentException(segmentsPerRank.size() + " segment lists for " + nranks + " ranks");
        }
        List<List<Segment>> copy = new ArrayList<>(nranks);
        for (List<Segment> l : segmentsPerRank) {
            for (Segment seg : l) {
                checkLanes(seg.schedule(), nranks, lanes);
            }
            copy.add(List.copyOf(l));
        }
        return new Plan(algorithm, collective, nranks, lanes, List.copyOf(copy));
    }

    private static Schedule checkLanes(Schedule s, int nranks, int lanes) {
        if (s.nranks() != nranks || s.lanes() != lanes) {
            throw new IllegalArgumentException("schedule of " + s.nranks() + " ranks and " + s.lanes()
                    + " lanes in a plan of " + nranks + " ranks and " + lanes + " lanes");
        }
        return s;
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

    public List<Segment> segments(int rank) {
        return segmentsPerRank.get(rank);
    }

    /**
     * Scratch elements each rank needs for this plan ({@link Buf#SCRATCH}): the engine provides
     * them per call; 0 for plans that keep everything in the user buffers.
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
        List<List<Segment>> copy = new ArrayList<>(nranks);
        for (List<Segment> l : segmentsPerRank) {
            List<Segment> m = new ArrayList<>(l);
            m.set(index, replacement);
            copy.add(m);
        }
        return perRank(algorithm, collective, nranks, lanes, copy);
    }
}
