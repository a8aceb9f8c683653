// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;
import io.jccl.topo.Ring;

import java.util.List;

/**
 * Ring schedules. Each channel takes an equal share of the tile and runs the ring of that channel;
 * every message is one chunk of one channel's share, at most {@code maxMessage} elements.
 * Planned per rank: each planned rank's steps come from its own position on each channel's ring
 * (found in O(1)), so a rank's plan costs its own steps, whatever the number of ranks.
 */
final class RingGenerators {
    private RingGenerators() {
    }

    /** Reduce-scatter then all-gather over 2(n-1) steps; the tile is split into n chunks per channel. */
    static Plan allReduce(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        return onRings(Collective.ALL_REDUCE, call, ch, Math.multiplyExact(maxMessage, (long) n), (b, c, ring, p, ps, pl) -> {
            int rank = ring.at(p);
            if (n == 1) {
                b.add(rank, c, Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), true));
                return;
            }
            Link prev = new Link(ring.at(p - 1), c);
            List<Link> prevs = List.of(prev);
            List<Link> next = List.of(new Link(ring.at(p + 1), c));
            b.add(rank, c, Step.send(chunk(true, ps, pl, n, p - 1), next.get(0)));
            for (int j = 2; j < n; j++) {
                b.add(rank, c, Step.recvReduceSend(prevs, chunk(true, ps, pl, n, p - j), next));
            }
            b.add(rank, c, Step.recvReduceCopySend(prevs, chunk(true, ps, pl, n, p),
                    chunk(false, ps, pl, n, p), next, true));
            for (int j = 1; j < n - 1; j++) {
                b.add(rank, c, Step.recvCopySend(prev, chunk(false, ps, pl, n, p - j), next));
            }
            b.add(rank, c, Step.recv(prev, chunk(false, ps, pl, n, p + 1)));
        });
    }

    /** Chunk {@code k} (taken modulo n) of a channel's share [ps, ps+pl) of the tile. */
    private static Region chunk(boolean input, long ps, long pl, int n, int k) {
        int i = Math.floorMod(k, n);
        long off = ps + Split.start(pl, n, i);
        long len = Split.size(pl, n, i);
        return input ? Region.input(off, len) : Region.output(off, len);
    }

    /** n-1 steps: each rank forwards the block it received last, its own first. */
    static Plan allGather(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        long count = call.count();
        return onRings(Collective.ALL_GATHER, call, ch, maxMessage, (b, c, ring, p, ps, pl) -> {
            int rank = ring.at(p);
            Region own = Region.output(rank * count + ps, pl);
            if (n == 1) {
                b.add(rank, c, Step.localCopy(Region.input(ps, pl), own, false));
                return;
            }
            Link prev = new Link(ring.at(p - 1), c);
            List<Link> next = List.of(new Link(ring.at(p + 1), c));
            b.add(rank, c, Step.copySend(Region.input(ps, pl), own, next));
            for (int j = 1; j < n - 1; j++) {
                b.add(rank, c, Step.recvCopySend(prev, Region.output(ring.at(p - j) * count + ps, pl), next));
            }
            b.add(rank, c, Step.recv(prev, Region.output(ring.at(p + 1) * count + ps, pl)));
        });
    }

    /** n-1 steps: each rank adds its share of the block passing by; the last adds its own. */
    static Plan reduceScatter(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        long count = call.count();
        return onRings(Collective.REDUCE_SCATTER, call, ch, maxMessage, (b, c, ring, p, ps, pl) -> {
            int rank = ring.at(p);
            Region out = Region.output(ps, pl);
            Region own = Region.input(rank * count + ps, pl);
            if (n == 1) {
                b.add(rank, c, Step.localCopy(own, out, true));
                return;
            }
            List<Link> prev = List.of(new Link(ring.at(p - 1), c));
            List<Link> next = List.of(new Link(ring.at(p + 1), c));
            b.add(rank, c, Step.send(Region.input(ring.at(p - 1) * count + ps, pl), next.get(0)));
            for (int j = 2; j < n; j++) {
                b.add(rank, c, Step.recvReduceSend(prev, Region.input(ring.at(p - j) * count + ps, pl), next));
            }
            b.add(rank, c, Step.recvReduceCopy(prev, own, out, true));
        });
    }

    /** A pipeline from the root along the ring; the last rank only receives. */
    static Plan broadcast(Call call, Channels ch, long maxMessage) {
        int last = call.nranks() - 1;
        return rooted(Collective.BROADCAST, call, ch, maxMessage, (d, prev, next, in, out) -> d == 0
                ? Step.copySend(in, out, List.of(next))
                : d < last ? Step.recvCopySend(prev, out, List.of(next)) : Step.recv(prev, out));
    }

    /** A pipeline along the ring that starts after the root and ends at it. */
    static Plan reduce(Call call, Channels ch, long maxMessage) {
        return rooted(Collective.REDUCE, call, ch, maxMessage, (d, prev, next, in, out) -> switch (d) {
            case 0 -> Step.recvReduceCopy(List.of(prev), in, out, true);
            case 1 -> Step.send(in, next);
            default -> Step.recvReduceSend(List.of(prev), in, List.of(next));
        });
    }

    /** The step of the rank {@code d} places after the root on a lane's ring (of more than one rank). */
    private interface RootedStep {
        Step at(int d, Link prev, Link next, Region in, Region out);
    }

    /** A collective rooted on each lane's ring: every rank runs the step of its place after the root; one rank copies. */
    private static Plan rooted(Collective collective, Call call, Channels ch, long maxMessage, RootedStep step) {
        boolean alone = call.nranks() == 1;
        return onRings(collective, call, ch, maxMessage, (b, c, ring, p, ps, pl) -> b.add(ring.at(p), c, alone
                ? Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), collective.reduces())
                : step.at(p, new Link(ring.at(p - 1), c), new Link(ring.at(p + 1), c), Region.input(ps, pl), Region.output(ps, pl))));
    }

    /** The steps the rank at position {@code p} of lane {@code c}'s ring runs on the lane's share [ps, ps + pl). */
    private interface AtPosition {
        void add(Schedule.Builder b, int c, Ring ring, int p, long ps, long pl);
    }

    /**
     * One share per lane, laid on the lane's ring at each planned rank's position; messages of at
     * most {@code maxMessage}. A rooted collective's ring starts at the root.
     */
    private static Plan onRings(Collective collective, Call call, Channels ch, long maxMessage, AtPosition at) {
        RankSet ranks = call.ranks();
        return Tiles.perLane(Algorithm.RING, collective, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            Ring ring = collective.rooted() ? ch.ring(c).startingAt(call.root()) : ch.ring(c);
            for (int i = 0; i < ranks.size(); i++) {
                at.add(b, c, ring, ring.positionOf(ranks.rank(i)), ps, pl);
            }
        });
    }
}
