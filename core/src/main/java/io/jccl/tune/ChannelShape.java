// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.topo.Channels;
import io.jccl.topo.Layout;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoGraph;
import io.jccl.topo.TreeNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the cost model reads of the channels a call runs on: how often each channel's ring crosses
 * between nodes and how many channels share each link between nodes, and the depth of the trees
 * inside and between nodes. A link between nodes is the NIC port a searched channel leaves or
 * enters its node by where the node's graph names one (channels of one NIC share it), else the
 * rank's own (a NIC per rank, the emulated fabric's rails): the library cannot tell a shared NIC
 * it was not told of. Each direction of a link is counted apart (links are full duplex).
 *
 * @param ringCrossings the most edges between nodes any channel's ring has
 * @param ringShare     per channel, the most ring edges of all channels sharing one of its links
 *                      between nodes (0: the ring stays in one node)
 * @param treeDepths    the trees' deepest paths to their roots as (edges inside nodes, edges
 *                      between nodes), each pair one no other exceeds on both counts
 * @param treeLinks     how many links' worth of bandwidth the trees' lanes get between nodes:
 *                      the lanes over the most tree edges (both directions, all lanes) sharing a
 *                      link; infinite when no tree crosses nodes
 */
record ChannelShape(int nNodes, int ringCrossings, int[] ringShare, List<int[]> treeDepths, double treeLinks) {

    /**
     * The shape NCCL's flat formulas assume: rings crossing once per node, sharing one link, and
     * a tree of {@code treeDepth} of which ceil(log2 nodes) between nodes.
     */
    static ChannelShape uniform(int nNodes, int channels, int treeDepth) {
        int[] share = new int[channels];
        int crossings = nNodes > 1 ? nNodes : 0;
        java.util.Arrays.fill(share, nNodes > 1 ? channels : 0);
        int inter = nNodes <= 1 ? 0 : ScheduleFormulas.log2Ceil(nNodes);
        return new ChannelShape(nNodes, crossings, share, List.of(new int[] {Math.max(0, treeDepth - inter), inter}),
                nNodes > 1 ? 1 : Double.POSITIVE_INFINITY);
    }

    /**
     * The shape of {@code channels} (rings) and of the {@code treeLanes} tree lanes laid on them,
     * over ranks placed as {@code hosts} says; {@code topology} (or null) names the NIC ports its
     * searched channels leave and enter nodes by.
     */
    static ChannelShape of(Channels channels, int treeLanes, ServerLayout hosts, Layout topology) {
        int n = channels.nranks();
        Links links = new Links(hosts, topology);
        int count = channels.count();
        List<long[]> edges = new ArrayList<>(); // per channel: out link, in link of each crossing
        int crossings = 0;
        for (int c = 0; c < count; c++) {
            int[] order = channels.ring(c).order();
            List<Long> e = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int u = order[i];
                int v = order[(i + 1) % n];
                if (n > 1 && hosts.serverOf(u) != hosts.serverOf(v)) {
                    e.add(links.out(u, c, true));
                    e.add(links.in(v, c, true));
                }
            }
            crossings = Math.max(crossings, e.size() / 2);
            edges.add(e.stream().mapToLong(Long::longValue).toArray());
        }
        Map<Long, Integer> use = new HashMap<>();
        for (long[] e : edges) {
            for (long l : e) {
                use.merge(l, 1, Integer::sum);
            }
        }
        int[] share = new int[count];
        for (int c = 0; c < count; c++) {
            for (long l : edges.get(c)) {
                share[c] = Math.max(share[c], use.get(l));
            }
        }
        List<int[]> depths = new ArrayList<>();
        Map<Long, Integer> treeUse = new HashMap<>();
        for (int lane = 0; lane < treeLanes; lane++) {
            TreeNode[] tree = channels.tree(lane, treeLanes);
            int searched = channels.treePair(lane, treeLanes);
            for (int[] d : depths(tree, hosts)) {
                addPareto(depths, d);
            }
            for (TreeNode t : tree) {
                int u = t.rank();
                int p = t.parent();
                if (p >= 0 && hosts.serverOf(u) != hosts.serverOf(p)) {
                    // Up from the child and down from the parent, at once in a pipelined tree.
                    treeUse.merge(links.out(u, searched, false), 1, Integer::sum);
                    treeUse.merge(links.in(p, searched, false), 1, Integer::sum);
                    treeUse.merge(links.out(p, searched, false), 1, Integer::sum);
                    treeUse.merge(links.in(u, searched, false), 1, Integer::sum);
                }
            }
        }
        int most = treeUse.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return new ChannelShape(hosts.servers(), crossings, share, List.copyOf(depths),
                most == 0 ? Double.POSITIVE_INFINITY : treeLanes / (double) most);
    }

    /** The (inside, between) edge counts of every rank's path to the root, Pareto-maximal ones only. */
    private static List<int[]> depths(TreeNode[] tree, ServerLayout hosts) {
        int n = tree.length;
        int[] intra = new int[n];
        int[] inter = new int[n];
        boolean[] done = new boolean[n];
        List<int[]> out = new ArrayList<>();
        int[] path = new int[n + 1];
        for (int r = 0; r < n; r++) {
            // Walk up to a rank already done (or the root), then fill the path back down.
            int k = 0;
            int x = r;
            while (!done[x] && !tree[x].isRoot() && k <= n) {
                path[k++] = x;
                x = tree[x].parent();
            }
            if (!done[x]) {
                done[x] = true; // the root: (0, 0)
            }
            for (int i = k - 1; i >= 0; i--) {
                int y = path[i];
                int p = tree[y].parent();
                boolean across = hosts.serverOf(y) != hosts.serverOf(p);
                intra[y] = intra[p] + (across ? 0 : 1);
                inter[y] = inter[p] + (across ? 1 : 0);
                done[y] = true;
            }
        }
        for (int r = 0; r < n; r++) {
            addPareto(out, new int[] {intra[r], inter[r]});
        }
        return out;
    }

    private static void addPareto(List<int[]> set, int[] d) {
        for (int[] s : set) {
            if (s[0] >= d[0] && s[1] >= d[1]) {
                return;
            }
        }
        set.removeIf(s -> d[0] >= s[0] && d[1] >= s[1]);
        set.add(d);
    }

    /** µs of the trees' deepest path at {@code intra} per edge inside a node and {@code inter} between. */
    double treeDepth(double intra, double inter) {
        double most = 0;
        for (int[] d : treeDepths) {
            most = Math.max(most, d[0] * intra + d[1] * inter);
        }
        return most;
    }

    /** The links between nodes: a node's NIC port where its graph names one, else the rank's own. */
    private record Links(ServerLayout hosts, Layout topology) {
        long out(int rank, int channel, boolean ring) {
            return key(rank, channel, ring, true);
        }

        long in(int rank, int channel, boolean ring) {
            return key(rank, channel, ring, false);
        }

        private long key(int rank, int channel, boolean ring, boolean out) {
            long direction = out ? 0 : 1;
            if (topology != null) {
                int node = hosts.serverOf(rank);
                TopoGraph g = ring ? topology.ringGraph(node) : topology.treeGraph(node);
                TopoGraph.Channel ch = g.channel(channel % topology.nChannels());
                int port = out ? ch.netOut() : ch.netIn();
                if (port >= 0) {
                    return -(((long) node << 20 | port) << 1 | direction) - 1;
                }
            }
            return (long) rank << 1 | direction;
        }
    }
}
