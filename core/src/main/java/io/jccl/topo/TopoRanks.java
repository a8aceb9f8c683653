// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * What one node tells the others about its channels (NCCL's {@code ncclTopoRanks}), as global
 * ranks, indexed by channel: the rank that receives the ring from the previous node and the one
 * that sends it to the next, the rank that talks to the parent node in the tree and the ranks that
 * receive from the first and second child nodes.
 */
public record TopoRanks(List<Integer> ringRecv, List<Integer> ringSend, List<Integer> treeToParent,
                        List<Integer> treeToChild0, List<Integer> treeToChild1) {
    public TopoRanks {
        ringRecv = List.copyOf(ringRecv);
        ringSend = List.copyOf(ringSend);
        treeToParent = List.copyOf(treeToParent);
        treeToChild0 = List.copyOf(treeToChild0);
        treeToChild1 = List.copyOf(treeToChild1);
    }

    /** NCCL's preset step for a node whose local rank i is global rank {@code global.applyAsInt(i)}. */
    static TopoRanks of(TopoGraph ring, TopoGraph tree, int nChannels, IntUnaryOperator global) {
        List<Integer> recv = new ArrayList<>();
        List<Integer> send = new ArrayList<>();
        List<Integer> up = new ArrayList<>();
        List<Integer> c0 = new ArrayList<>();
        List<Integer> c1 = new ArrayList<>();
        for (int c = 0; c < nChannels; c++) {
            TopoGraph.Channel r = ring.channel(c);
            TopoGraph.Channel t = tree.channel(c);
            recv.add(global.applyAsInt(r.gpu(0)));
            send.add(global.applyAsInt(r.gpu(r.size() - 1)));
            up.add(global.applyAsInt(t.gpu(0)));
            // A node of one GPU has no second GPU to spread the children over.
            c0.add(global.applyAsInt(t.gpu(Math.min(tree.pattern().child0Index(), t.size() - 1))));
            c1.add(global.applyAsInt(t.gpu(Math.min(tree.pattern().child1Index(), t.size() - 1))));
        }
        return new TopoRanks(recv, send, up, c0, c1);
    }
}
