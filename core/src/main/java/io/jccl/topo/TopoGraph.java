// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a search found in one node (NCCL's {@code ncclTopoGraph}): per channel the order of the
 * node's GPUs and, across nodes, the network port it enters by and the one it leaves by; the
 * bandwidth each channel was given inside the node and on the network, and the farthest path
 * types it was allowed.
 *
 * @param bwIntra      GB/s per channel between GPUs
 * @param bwInter      GB/s per channel between a GPU and the network
 * @param crossNic     whether a channel may leave by another port than it entered
 * @param sameChannels whether every channel repeats the first one's order
 */
public record TopoGraph(TopoPattern pattern, List<Channel> channels, double bwIntra, double bwInter,
                        PathType typeIntra, PathType typeInter, boolean crossNic, boolean sameChannels) {

    /**
     * One channel: the GPUs in order (their indices among the node's GPUs, by rank), and the
     * network ports ({@code dev} numbers) it enters and leaves by, or -1 inside a single node.
     */
    public record Channel(int netIn, int[] gpus, int netOut) {
        public Channel {
            gpus = gpus.clone();
        }

        @Override
        public int[] gpus() {
            return gpus.clone();
        }

        public int gpu(int i) {
            return gpus[i];
        }

        public int size() {
            return gpus.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Channel c && c.netIn == netIn && c.netOut == netOut && Arrays.equals(c.gpus, gpus);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(gpus) + 7 * netIn + netOut;
        }

        /** NCCL's print: {@code NET/0 GPU/0 GPU/1 ... NET/0}. */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            if (netIn >= 0) {
                sb.append("NET/").append(netIn).append(' ');
            }
            for (int g : gpus) {
                sb.append("GPU/").append(g).append(' ');
            }
            if (netOut >= 0) {
                sb.append("NET/").append(netOut).append(' ');
            }
            return sb.toString().strip();
        }
    }

    public TopoGraph {
        channels = List.copyOf(channels);
    }

    public int nChannels() {
        return channels.size();
    }

    public Channel channel(int c) {
        return channels.get(c);
    }

    /**
     * NCCL's duplication of a fast graph: when a channel has at least 25 GB/s inside the node,
     * the channels are repeated (up to {@code maxChannels}) and each gets its share of the
     * bandwidth, so that more SMs drive the same links; not on Hopper and later when channels are
     * many and slower than 50 GB/s.
     */
    public TopoGraph duplicated(int minSm, int maxChannels) {
        int n = channels.size();
        if (n == 0 || bwIntra < 25.0 || (minSm > 80 && bwIntra < 50.0 && n > 4)) {
            return this;
        }
        int dup = Math.min(2 * n, maxChannels);
        if (dup <= n) {
            return this;
        }
        List<Channel> more = new ArrayList<>(channels);
        for (int c = n; c < dup; c++) {
            more.add(channels.get(c - n));
        }
        int div = (dup + n - 1) / n;
        return new TopoGraph(pattern, more, bwIntra / div, bwInter / div, typeIntra, typeInter, crossNic, sameChannels);
    }

    /** A one-line summary, as NCCL logs a graph. */
    public String summary() {
        return String.format(Locale.ROOT, "pattern %s, crossNic %d, nChannels %d, bw %.1f/%.1f GB/s, type %s/%s, sameChannels %d",
                pattern, crossNic ? 1 : 0, channels.size(), bwIntra, bwInter, typeIntra, typeInter, sameChannels ? 1 : 0);
    }
}
