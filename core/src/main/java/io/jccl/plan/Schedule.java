package io.jccl.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of one tile of a collective: for every rank and every lane, an ordered list. A lane is
 * one sequential executor (a thread of the host engine, a thread block on a GPU); lanes of one
 * rank run concurrently. Immutable.
 */
public final class Schedule {
    private final int nranks;
    private final int lanes;
    private final Step[][][] steps;
    /** Scratch elements a rank needs: the end of the farthest scratch region. */
    private final long scratch;

    private Schedule(int nranks, int lanes, Step[][][] steps) {
        this.nranks = nranks;
        this.lanes = lanes;
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

    /** The steps of one rank and lane, in order. */
    public List<Step> steps(int rank, int lane) {
        return Arrays.asList(steps[rank][lane]);
    }

    /** The same, as the array executors iterate; callers must not modify it. */
    public Step[] stepArray(int rank, int lane) {
        return steps[rank][lane];
    }

    /** Elements sent on each connection in this tile: what the cost model and simulator read. */
    public Map<Connection, Long> volume() {
        Map<Connection, Long> v = new LinkedHashMap<>();
        for (int r = 0; r < nranks; r++) {
            for (int l = 0; l < lanes; l++) {
                for (Step s : steps[r][l]) {
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
        Step[][][] copy = new Step[nranks][][];
        for (int r = 0; r < nranks; r++) {
            copy[r] = steps[r].clone();
        }
        copy[rank][lane] = replacement.toArray(Step[]::new);
        return new Schedule(nranks, lanes, copy);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < nranks; r++) {
            for (int l = 0; l < lanes; l++) {
                b.append("rank ").append(r).append(" lane ").append(l).append(":\n");
                for (Step s : steps[r][l]) {
                    b.append("  ").append(s).append('\n');
                }
            }
        }
        return b.toString();
    }

    /** Collects steps per rank and lane; steps that move no element are dropped. */
    public static final class Builder {
        private final int nranks;
        private final int lanes;
        private final List<List<List<Step>>> steps = new ArrayList<>();

        public Builder(int nranks, int lanes) {
            if (nranks < 1 || lanes < 1) {
                throw new IllegalArgumentException("nranks " + nranks + ", lanes " + lanes);
            }
            this.nranks = nranks;
            this.lanes = lanes;
            for (int r = 0; r < nranks; r++) {
                List<List<Step>> perLane = new ArrayList<>();
                for (int l = 0; l < lanes; l++) {
                    perLane.add(new ArrayList<>());
                }
                steps.add(perLane);
            }
        }

        /**
         * Appends a step. A step of zero elements is dropped: every generator gives a message the
         * same count on both of its ends, so both ends drop it alike.
         */
        public Builder add(int rank, int lane, Step step) {
            if (step.count() > 0) {
                steps.get(rank).get(lane).add(step);
            }
            return this;
        }

        public Schedule build() {
            Step[][][] a = new Step[nranks][lanes][];
            for (int r = 0; r < nranks; r++) {
                for (int l = 0; l < lanes; l++) {
                    a[r][l] = steps.get(r).get(l).toArray(Step[]::new);
                }
            }
            return new Schedule(nranks, lanes, a);
        }
    }
}
