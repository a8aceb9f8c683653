package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;
import io.jccl.topo.Ring;

import java.util.List;

/**
 * Ring schedules. Each channel takes an equal share of the tile and runs the ring of that channel;
 * every message is one chunk of one channel's share, at most {@code maxMessage} elements.
 */
final class RingGenerators {
    private RingGenerators() {
    }

    /** Reduce-scatter then all-gather over 2(n-1) steps; the tile is split into n chunks per channel. */
    static Plan allReduce(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        int lanes = ch.count();
        return Tiles.perLane(Algorithm.RING, Collective.ALL_REDUCE, call, lanes, Math.multiplyExact(maxMessage, (long) n),
                (b, c, ps, pl) -> {
            Ring ring = ch.ring(c);
            for (int p = 0; p < n; p++) {
                int rank = ring.at(p);
                if (n == 1) {
                    b.add(rank, c, Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), true));
                    continue;
                }
                Link prev = new Link(ring.at(p - 1), c);
                List<Link> next = List.of(new Link(ring.at(p + 1), c));
                b.add(rank, c, Step.send(chunk(true, ps, pl, n, p - 1), next.get(0)));
                for (int j = 2; j < n; j++) {
                    b.add(rank, c, Step.recvReduceSend(List.of(prev), chunk(true, ps, pl, n, p - j), next));
                }
                b.add(rank, c, Step.recvReduceCopySend(List.of(prev), chunk(true, ps, pl, n, p),
                        chunk(false, ps, pl, n, p), next, true));
                for (int j = 1; j < n - 1; j++) {
                    b.add(rank, c, Step.recvCopySend(prev, chunk(false, ps, pl, n, p - j), next));
                }
                b.add(rank, c, Step.recv(prev, chunk(false, ps, pl, n, p + 1)));
            }
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
        int lanes = ch.count();
        long count = call.count();
        return Tiles.perLane(Algorithm.RING, Collective.ALL_GATHER, call, lanes, maxMessage, (b, c, ps, pl) -> {
            Ring ring = ch.ring(c);
            for (int p = 0; p < n; p++) {
                int rank = ring.at(p);
                Region own = Region.output(rank * count + ps, pl);
                if (n == 1) {
                    b.add(rank, c, Step.localCopy(Region.input(ps, pl), own, false));
                    continue;
                }
                Link prev = new Link(ring.at(p - 1), c);
                List<Link> next = List.of(new Link(ring.at(p + 1), c));
                b.add(rank, c, Step.copySend(Region.input(ps, pl), own, next));
                for (int j = 1; j < n - 1; j++) {
                    b.add(rank, c, Step.recvCopySend(prev, Region.output(ring.at(p - j) * count + ps, pl), next));
                }
                b.add(rank, c, Step.recv(prev, Region.output(ring.at(p + 1) * count + ps, pl)));
            }
        });
    }

    /** n-1 steps: each rank adds its share of the block passing by; the last adds its own. */
    static Plan reduceScatter(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        int lanes = ch.count();
        long count = call.count();
        return Tiles.perLane(Algorithm.RING, Collective.REDUCE_SCATTER, call, lanes, maxMessage, (b, c, ps, pl) -> {
            Ring ring = ch.ring(c);
            for (int p = 0; p < n; p++) {
                int rank = ring.at(p);
                Region out = Region.output(ps, pl);
                Region own = Region.input(rank * count + ps, pl);
                if (n == 1) {
                    b.add(rank, c, Step.localCopy(own, out, true));
                    continue;
                }
                List<Link> prev = List.of(new Link(ring.at(p - 1), c));
                List<Link> next = List.of(new Link(ring.at(p + 1), c));
                b.add(rank, c, Step.send(Region.input(ring.at(p - 1) * count + ps, pl), next.get(0)));
                for (int j = 2; j < n; j++) {
                    b.add(rank, c, Step.recvReduceSend(prev, Region.input(ring.at(p - j) * count + ps, pl), next));
                }
                b.add(rank, c, Step.recvReduceCopy(prev, own, out, true));
            }
        });
    }

    /** A pipeline from the root along the ring; the last rank only receives. */
    static Plan broadcast(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        int lanes = ch.count();
        return Tiles.perLane(Algorithm.RING, Collective.BROADCAST, call, lanes, maxMessage, (b, c, ps, pl) -> {
            Ring ring = ch.ring(c);
            int rootPos = ring.positionOf(call.root());
            Region in = Region.input(ps, pl);
            Region out = Region.output(ps, pl);
            for (int p = 0; p < n; p++) {
                int rank = ring.at(p);
                int d = Math.floorMod(p - rootPos, n);
                Link prev = new Link(ring.at(p - 1), c);
                List<Link> next = List.of(new Link(ring.at(p + 1), c));
                if (n == 1) {
                    b.add(rank, c, Step.localCopy(in, out, false));
                } else if (d == 0) {
                    b.add(rank, c, Step.copySend(in, out, next));
                } else if (d < n - 1) {
                    b.add(rank, c, Step.recvCopySend(prev, out, next));
                } else {
                    b.add(rank, c, Step.recv(prev, out));
                }
            }
        });
    }

    /** A pipeline along the ring that starts after the root and ends at it. */
    static Plan reduce(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        int lanes = ch.count();
        return Tiles.perLane(Algorithm.RING, Collective.REDUCE, call, lanes, maxMessage, (b, c, ps, pl) -> {
            Ring ring = ch.ring(c);
            int rootPos = ring.positionOf(call.root());
            Region in = Region.input(ps, pl);
            Region out = Region.output(ps, pl);
            for (int p = 0; p < n; p++) {
                int rank = ring.at(p);
                int d = Math.floorMod(p - rootPos, n);
                List<Link> prev = List.of(new Link(ring.at(p - 1), c));
                Link next = new Link(ring.at(p + 1), c);
                if (n == 1) {
                    b.add(rank, c, Step.localCopy(in, out, true));
                } else if (d == 1) {
                    b.add(rank, c, Step.send(in, next));
                } else if (d != 0) {
                    b.add(rank, c, Step.recvReduceSend(prev, in, List.of(next)));
                } else {
                    b.add(rank, c, Step.recvReduceCopy(prev, in, out, true));
                }
            }
        });
    }
}
