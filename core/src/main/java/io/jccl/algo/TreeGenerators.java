// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.RankSet;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;
import io.jccl.topo.TreeNode;

import java.util.ArrayList;
import java.util.List;

/**
 * All-reduce on the double binary tree. Tree lanes come in pairs: the first half of the lanes run
 * the first tree, the second half the second, so each tree carries half of the data. Planned per
 * rank: a planned rank's steps come from its own node (parent and children) in each tree.
 */
final class TreeGenerators {
    private TreeGenerators() {
    }

    /** Lanes a tree algorithm uses for a channel count: at least two, an even number. */
    static int treeLanes(int channels) {
        return Math.max(2, channels + (channels & 1));
    }

    private static TreeNode node(Channels ch, int lane, int lanes, int rank) {
        return ch.treeNode(lane, lanes, rank);
    }

    private static List<Link> links(List<Integer> ranks, int channel) {
        List<Link> l = new ArrayList<>(ranks.size());
        for (int r : ranks) {
            l.add(new Link(r, channel));
        }
        return l;
    }

    /**
     * The whole buffer goes up the tree (reduce), then the whole buffer comes down (broadcast): two
     * segments of tiles, as NCCL's up/down tree runs its reduce loop before its broadcast loop.
     */
    static Plan upDown(Call call, Channels ch, long maxMessage) {
        RankSet ranks = call.ranks();
        int lanes = treeLanes(ch.count());
        Plan up = Tiles.perLane(Algorithm.TREE, Collective.ALL_REDUCE, call, lanes, maxMessage, (b, c, ps, pl) -> {
            Region in = Region.input(ps, pl);
            Region out = Region.output(ps, pl);
            for (int i = 0; i < ranks.size(); i++) {
                int r = ranks.rank(i);
                TreeNode t = node(ch, c, lanes, r);
                List<Link> children = links(t.children(), c);
                if (t.isRoot()) {
                    b.add(r, c, children.isEmpty() ? Step.localCopy(in, out, true)
                            : Step.recvReduceCopy(children, in, out, true));
                } else if (t.isLeaf()) {
                    b.add(r, c, Step.send(in, new Link(t.parent(), c)));
                } else {
                    b.add(r, c, Step.recvReduceSend(children, in, List.of(new Link(t.parent(), c))));
                }
            }
        });
        Plan down = Tiles.perLane(Algorithm.TREE, Collective.ALL_REDUCE, call, lanes, maxMessage, (b, c, ps, pl) -> {
            Region out = Region.output(ps, pl);
            for (int i = 0; i < ranks.size(); i++) {
                int r = ranks.rank(i);
                TreeNode t = node(ch, c, lanes, r);
                List<Link> children = links(t.children(), c);
                if (t.isRoot()) {
                    if (!children.isEmpty()) {
                        b.add(r, c, Step.send(out, children.toArray(Link[]::new)));
                    }
                } else if (t.isLeaf()) {
                    b.add(r, c, Step.recv(new Link(t.parent(), c), out));
                } else {
                    b.add(r, c, Step.recvCopySend(new Link(t.parent(), c), out, children));
                }
            }
        });
        return up.then(down);
    }

    /**
     * Reduce and broadcast at once: lane c reduces up its tree, lane c + L (L tree lanes) carries
     * the result down; the root's reducing lane starts the way down on the broadcast lane's channel.
     */
    static Plan split(Call call, Channels ch, long maxMessage) {
        RankSet ranks = call.ranks();
        int half = treeLanes(ch.count());
        long tile = Math.multiplyExact(maxMessage, (long) half);
        return Tiles.plan(Algorithm.SPLIT_TREE, Collective.ALL_REDUCE, call, 2 * half, half, tile, (b, c, ps, pl) -> {
            int downLane = half + c;
            Region in = Region.input(ps, pl);
            Region out = Region.output(ps, pl);
            for (int i = 0; i < ranks.size(); i++) {
                int r = ranks.rank(i);
                TreeNode t = node(ch, c, half, r);
                List<Link> upChildren = links(t.children(), c);
                List<Link> downChildren = links(t.children(), downLane);
                if (t.isRoot()) {
                    b.add(r, c, upChildren.isEmpty() ? Step.localCopy(in, out, true)
                            : Step.recvReduceCopySend(upChildren, in, out, downChildren, true));
                } else if (t.isLeaf()) {
                    b.add(r, c, Step.send(in, new Link(t.parent(), c)));
                    b.add(r, downLane, Step.recv(new Link(t.parent(), downLane), out));
                } else {
                    b.add(r, c, Step.recvReduceSend(upChildren, in, List.of(new Link(t.parent(), c))));
                    b.add(r, downLane, Step.recvCopySend(new Link(t.parent(), downLane), out, downChildren));
                }
            }
        });
    }
}
