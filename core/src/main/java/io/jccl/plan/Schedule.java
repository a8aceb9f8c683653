// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of one tile of a collective: for every planned rank ({@link RankSet}: all ranks of the
 * job, or those of one process) and every lane, an ordered list. A lane is one sequential executor
 * (a thread of the host engine, a thread block on a GPU); lanes of one rank run concurrently.
 * Asking for a rank that was not planned fails. Immutable.
 */
public final class Schedule {
    private final int nranks;
    private final int lanes;
    private final RankSet ranks;
    /** By slot of {@link #ranks}, then lane. */
    private final Step[][][] steps;
    /** Scratch elements a rank needs: the end of the farthest scratch region. */
    private final long scratch;

    private Schedule(RankSet ranks, int lanes, Step[][][] steps) {
        this.nranks = ranks.nranks();
        this.lanes = lanes;
        this.ranks = ranks;
        this.steps = steps;
        long s = 0;
        for (Step[][] rank : steps) {
            for (Step[] lane : rank) {
                for (Step st : lane) {
                    s = Math.max(s, scratchEnd(st.src()));
                    s = Math.max(s, scratchEnd(st.dst()));
                }
            }
        }
        this.scratch = s;
    }

    private static long scratchEnd(Region r) {
        return r != null && r.buf() == Buf.SCRATCH ? r.offset() + r.count() : 0;
    }

    /** Scratch elements each rank needs to run this schedule (0 for most algorithms). */
    public long scratch() {
        return scratch;
    }

    public int nranks() {
        return nranks;
    }

    public int lanes() {
        return lanes;
    }

    /** The ranks whose steps this schedule holds. */
    public RankSet ranks() {
        return ranks;
    }

    /** The steps of one rank and lane, in order. */
    public List<Step> steps(int rank, int lane) {
        return Arrays.asList(stepArray(rank, lane));
    }

    /** The same, as the array executors iterate; callers must not modify it. */
    public Step[] stepArray(int rank, int lane) {
        return steps[ranks.slotOf(rank, "schedule")][lane];
    }

    /** Elements the planned ranks send on each connection in this tile: what the cost model and simulator read. */
    public Map<Connection, Long> volume() {
        Map<Connection, Long> v = new LinkedHashMap<>();
        for (int i = 0; i < steps.length; i++) {
            int r = ranks.rank(i);
            for (int l = 0; l < lanes; l++) {
                for (Step s : steps[i][l]) {
                    for (Link to : s.send()) {
                        v.merge(new Connection(to.channel(), r, to.peer()), s.count(), Long::sum);
                    }
                }
            }
        }
        return v;
    }

    /** A copy with one rank's steps of one lane replaced: how tests break a schedule on purpose. */
    public Schedule withSteps(int rank, int lane, List<Step> replacement) {
        int slot = ranks.slotOf(rank, "schedule");
        Step[][][] copy = new Step[steps.length][][];
        for (int i = 0; i < steps.length; i++) {
            copy[i] = steps[i].clone();
        }
        copy[slot][lane] = replacement.toArray(Step[]::new);
        return new Schedule(ranks, lanes, copy);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < steps.length; i++) {
            for (int l = 0; l < lanes; l++) {
                b.append("rank ").append(ranks.rank(i)).append(" lane ").append(l).append(":\n");
                for (Step s : steps[i][l]) {
                    b.append("  ").append(s).append('\n');
                }
            }
        }
        return b.toString();
    }

    /**
     * Collects steps per planned rank and lane; steps that move no element are dropped, and so are
     * steps of ranks that are not planned (a generator that lays out every rank still gives the
     * plan of a few).
     */
    public static final class Builder {
        private final RankSet ranks;
        private final int lanes;
        private final List<List<List<Step>>> steps;

        /** A builder of every rank's steps. */
        public Builder(int nranks, int lanes) {
            this(RankSet.all(nranks), lanes);
        }

        /** A builder of the steps of {@code ranks} only. */
        public Builder(RankSet ranks, int lanes) {
            if (lanes < 1) {
                throw new IllegalArgumentException(ranks + ", lanes " + lanes);
            }
            this.ranks = ranks;
            this.lanes = lanes;
            this.steps = new ArrayList<>(ranks.size());
            for (int i = 0; i < ranks.size(); i++) {
                List<List<Step>> perLane = new ArrayList<>(lanes);
                for (int l = 0; l < lanes; l++) {
                    perLane.add(new ArrayList<>());
                }
                steps.add(perLane);
            }
        }

        /** The ranks whose steps it keeps: a generator that plans rank by rank lays out these. */
        public RankSet ranks() {
            return ranks;
        }

        /**
         * Appends a step. A step of zero elements is dropped: every generator gives a message the
         * same count on both of its ends, so both ends drop it alike.
         */
        public Builder add(int rank, int lane, Step step) {
            if (step.count() > 0) {
                int slot = ranks.slot(rank);
                if (slot >= 0) {
                    steps.get(slot).get(lane).add(step);
                } else if (rank < 0 || rank >= ranks.nranks()) {
                    throw new IllegalArgumentException("rank " + rank + " of " + ranks.nranks());
                }
            }
            return this;
        }

        public Schedule build() {
            Step[][][] a = new Step[ranks.size()][lanes][];
            for (int i = 0; i < a.length; i++) {
                for (int l = 0; l < lanes; l++) {
                    a[i][l] = steps.get(i).get(l).toArray(Step[]::new);
                }
            }
            return new Schedule(ranks, lanes, a);
        }
    }
}
