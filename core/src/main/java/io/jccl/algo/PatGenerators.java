package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.plan.Collective;
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
            for (int r = 0; r < n; r++) {
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
     * it for blocks r .. r + m - 1; partial sums wait in scratch, one slot per block, and the last
     * step completes the rank's own block.
     */
    static Plan reduceScatter(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        long count = call.count();
        return Tiles.perLane(Algorithm.PAT, Collective.REDUCE_SCATTER, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            long base = c * n * maxMessage;
            for (int r = 0; r < n; r++) {
                if (n == 1) {
                    b.add(r, c, Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), true));
                    continue;
                }
                boolean[] partial = new boolean[n];
                for (int k = steps(n) - 1; k >= 0; k--) {
                    int d = 1 << k;
                    Link to = new Link((r + d) % n, c);
                    Link from = new Link(Math.floorMod(r - d, n), c);
                    for (int o = 0; o < blocks(n, k); o++) {
                        int sent = d + o;
                        b.add(r, c, Step.send(held(partial, sent, r, n, count, ps, pl, base), to));
                        Region src = held(partial, o, r, n, count, ps, pl, base);
                        boolean done = o == 0 && k == 0;
                        Region dst = done ? Region.output(ps, pl) : Region.scratch(base + o * pl, pl);
                        b.add(r, c, Step.recvReduceCopy(List.of(from), src, dst, done));
                        partial[o] = true;
                    }
                }
            }
        });
    }

    /**
     * Where rank r's contribution to the block at offset o (of rank r + o) is: its scratch slot
     * once partial (n slots per lane from {@code base}), else the input.
     */
    private static Region held(boolean[] partial, int o, int r, int n, long count, long ps, long pl, long base) {
        return partial[o] ? Region.scratch(base + o * pl, pl) : Region.input((r + o) % n * count + ps, pl);
    }
}
