// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;

import java.util.List;

/**
 * PAT (NCCL 2.23's Parallel Aggregated Trees), for one rank per node: n binomial trees, one rooted
 * at each rank, run at once in ceil(log2 n) steps of doubling distance, the trees' messages of a
 * step that go between the same two ranks travelling together on one connection. Any n, not only
 * powers of two: the last step carries n - 2^(L-1) blocks. Blocks go to and from their final
 * places; NCCL packs a step's blocks into one buffer, jccl sends them back to back (a message is
 * one contiguous region).
 *
 * <p>Not planned per rank: every rank is laid out and the planned ranks' steps kept
 * ({@link Tiles}), so a plan is correct for any ranks but costs the whole job's steps.
 */
final class PatGenerators {
    private PatGenerators() {
    }

    private static int steps(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /** Blocks step k (distance 2^k) carries. */
    private static int blocks(int n, int k) {
        int d = 1 << k;
        return Math.min(d, n - d);
    }

    /**
     * Step k: rank r sends the blocks of ranks r .. r+m-1 (all it holds, or the m the last step
     * needs) to rank r - 2^k, and receives those of r + 2^k .. r + 2^k + m - 1 from rank r + 2^k.
     */
    static Plan allGather(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.PAT, Collective.ALL_GATHER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            // A lane holding whole blocks (small calls) sends a step's consecutive blocks as one
            // message, as PAT aggregates them: they are consecutive in the output.
            boolean whole = pl == count;
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int r = b.ranks().rank(slot);
                Region own = Region.output(r * count + ps, pl);
                if (n == 1) {
                    b.add(r, c, Step.localCopy(Region.input(ps, pl), own, false));
                    continue;
                }
                b.add(r, c, Step.localCopy(Region.input(ps, pl), own, false));
                for (int k = 0; k < steps(n); k++) {
                    int d = 1 << k;
                    Link to = new Link(Math.floorMod(r - d, n), c);
                    Link from = new Link((r + d) % n, c);
                    List<Region> mine = runs(r, blocks(n, k), n, count, ps, pl, whole, maxMessage);
                    List<Region> theirs = runs((r + d) % n, blocks(n, k), n, count, ps, pl, whole, maxMessage);
                    for (int z = 0; z < Math.max(mine.size(), theirs.size()); z++) {
                        if (z < mine.size()) {
                            b.add(r, c, Step.send(mine.get(z), to));
                        }
                        if (z < theirs.size()) {
                            b.add(r, c, Step.recv(from, theirs.get(z)));
                        }
                    }
                }
            }
        });
    }

    /**
     * The output regions of blocks first, first+1, ..., first+m-1 (mod n), a message each, or
     * when the lane holds whole blocks, runs of consecutive blocks (broken where they wrap round)
     * cut into messages of at most {@code max} elements.
     */
    private static List<Region> runs(int first, int m, int n, long count, long ps, long pl, boolean whole, long max) {
        List<Region> l = new java.util.ArrayList<>();
        int o = 0;
        while (o < m) {
            int b = (first + o) % n;
            int len = 1;
            if (whole) {
                while (o + len < m && b + len < n) {
                    len++;
                }
            }
            long start = b * count + ps;
            long size = whole ? len * count : pl;
            for (long at = 0; at < size; at += max) {
                l.add(Region.output(start + at, Math.min(max, size - at)));
            }
            o += len;
        }
        return l;
    }

    /**
     * The mirror image, steps in the reverse order: in step k rank r sends its partial sums of the
     * blocks of ranks r + 2^k .. r + 2^k + m - 1 to rank r + 2^k, and adds what rank r - 2^k sends
     * it for blocks r .. r + m - 1; partial sums wait in scratch, one slot per block offset, and the
     * last step completes the rank's own block. A lane holding whole blocks aggregates a step's
     * consecutive blocks as the all-gather does, wherever both ends read them from one kind of
     * memory (all partial sums in scratch, or all still the input).
     */
    static Plan reduceScatter(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.PAT, Collective.REDUCE_SCATTER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            long base = c * n * maxMessage;
            if (n == 1) {
                b.add(0, c, Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), true));
                return;
            }
            boolean whole = pl == count;
            // Which block offsets hold a partial sum: the same on every rank, step by step.
            boolean[] partial = new boolean[n];
            for (int k = steps(n) - 1; k >= 0; k--) {
                int d = 1 << k;
                int m = blocks(n, k);
                for (int slot = 0; slot < b.ranks().size(); slot++) {
                    int r = b.ranks().rank(slot);
                    List<Region> sends = new java.util.ArrayList<>();
                    List<Region> srcs = new java.util.ArrayList<>();
                    List<Region> dsts = new java.util.ArrayList<>();
                    // To r + d: offsets d .. d+m-1 of r, which are offsets 0 .. m-1 of the receiver.
                    for (int[] run : reduceRuns((r + d) % n, k, m, d, n, partial, whole)) {
                        int o = run[0];
                        int len = run[1] - run[0];
                        Region from = partial[d + o] ? Region.scratch(base + (long) (d + o) * pl, len * pl)
                                : Region.input((r + d + o) % n * count + ps, len * pl);
                        pieces(from, maxMessage, sends);
                    }
                    for (int[] run : reduceRuns(r, k, m, d, n, partial, whole)) {
                        int o = run[0];
                        int len = run[1] - run[0];
                        Region src = partial[o] ? Region.scratch(base + (long) o * pl, len * pl)
                                : Region.input((r + o) % n * count + ps, len * pl);
                        Region dst = k == 0 && o == 0 ? Region.output(ps, pl) : Region.scratch(base + (long) o * pl, len * pl);
                        pieces(src, maxMessage, srcs);
                        pieces(dst, maxMessage, dsts);
                    }
                    Link to = new Link((r + d) % n, c);
                    Link from = new Link(Math.floorMod(r - d, n), c);
                    for (int z = 0; z < Math.max(sends.size(), srcs.size()); z++) {
                        if (z < sends.size()) {
                            b.add(r, c, Step.send(sends.get(z), to));
                        }
                        if (z < srcs.size()) {
                            boolean done = k == 0 && dsts.get(z).buf() == io.jccl.plan.Buf.OUTPUT;
                            b.add(r, c, Step.recvReduceCopy(List.of(from), srcs.get(z), dsts.get(z), done));
                        }
                    }
                }
                for (int o = 0; o < m; o++) {
                    partial[o] = true;
                }
            }
        });
    }

    /**
     * The runs [from, to) of block offsets 0 .. m-1 of the receiver {@code first} in reduce-scatter
     * step k that travel as one message: one offset each unless the lane holds whole blocks; else
     * cut where the blocks wrap round, and where either end switches between scratch and input.
     */
    private static List<int[]> reduceRuns(int first, int k, int m, int d, int n, boolean[] partial, boolean whole) {
        List<int[]> runs = new java.util.ArrayList<>();
        int start = 0;
        for (int o = 1; o <= m; o++) {
            boolean cut = o == m || !whole || (first + o) % n == 0 || partial[d + o] != partial[d + o - 1]
                    || partial[o] != partial[o - 1] || (k == 0 && o == 1);
            if (cut) {
                runs.add(new int[] {start, o});
                start = o;
            }
        }
        return runs;
    }

    /** {@code r} cut into consecutive pieces of at most {@code max} elements, appended to {@code into}. */
    private static void pieces(Region r, long max, List<Region> into) {
        for (long at = 0; at < r.count(); at += max) {
            into.add(new Region(r.buf(), r.op(), r.offset() + at, Math.min(max, r.count() - at)));
        }
    }
}
