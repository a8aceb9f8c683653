// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;

/**
 * Direct exchanges: every rank talks to each peer over their own connection. Each channel takes an
 * equal share of every block; a tile holds {@code maxMessage} elements per block per channel.
 *
 * <p>Not planned per rank: every rank is laid out and the planned ranks' steps kept
 * ({@link Tiles}), so a plan is correct for any ranks but costs the whole job's steps.
 */
final class DirectGenerators {
    private DirectGenerators() {
    }

    /**
     * In round s rank r sends to r+s and receives from r-s (pairwise exchange): in every round
     * each connection carries one message, so no round waits on a later one.
     */
    static Plan allToAll(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        int lanes = ch.count();
        long count = call.count();
        return Tiles.perLane(Algorithm.DIRECT, Collective.ALL_TO_ALL, call, lanes, maxMessage, (b, c, ps, pl) -> {
            for (int r = 0; r < n; r++) {
                b.add(r, c, Step.localCopy(Region.input(r * count + ps, pl), Region.output(r * count + ps, pl), false));
                for (int s = 1; s < n; s++) {
                    int to = (r + s) % n;
                    int from = (r - s + n) % n;
                    b.add(r, c, Step.send(Region.input(to * count + ps, pl), new Link(to, c)));
                    b.add(r, c, Step.recv(new Link(from, c), Region.output(from * count + ps, pl)));
                }
            }
        });
    }

    /** Every rank sends its block to the root, which receives them in rank order after its own. */
    static Plan gather(Call call, Channels ch, long maxMessage) {
        return rooted(Collective.GATHER, call, ch, maxMessage);
    }

    /** The root sends each rank its block, in rank order after its own. */
    static Plan scatter(Call call, Channels ch, long maxMessage) {
        return rooted(Collective.SCATTER, call, ch, maxMessage);
    }

    /** Gather (blocks to the root) or scatter (blocks from it): the root's own block is a local copy. */
    private static Plan rooted(Collective collective, Call call, Channels ch, long maxMessage) {
        boolean toRoot = collective == Collective.GATHER;
        int n = call.nranks();
        int root = call.root();
        long count = call.count();
        return Tiles.perLane(Algorithm.DIRECT, collective, call, ch.count(), maxMessage, (b, c, ps, pl) -> {
            Region rootBlock = toRoot ? Region.output(root * count + ps, pl) : Region.input(root * count + ps, pl);
            if (toRoot) {
                b.add(root, c, Step.localCopy(Region.input(ps, pl), rootBlock, false));
            }
            for (int s = 1; s < n; s++) {
                int peer = (root + s) % n;
                if (toRoot) {
                    b.add(peer, c, Step.send(Region.input(ps, pl), new Link(root, c)));
                    b.add(root, c, Step.recv(new Link(peer, c), Region.output(peer * count + ps, pl)));
                } else {
                    b.add(root, c, Step.send(Region.input(peer * count + ps, pl), new Link(peer, c)));
                    b.add(peer, c, Step.recv(new Link(root, c), Region.output(ps, pl)));
                }
            }
            if (!toRoot) {
                b.add(root, c, Step.localCopy(rootBlock, Region.output(ps, pl), false));
            }
        });
    }
}
