// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The path between every pair of nodes, computed as NCCL computes them: a breadth-first search
 * from each node keeps, for every other node, the route with the best bottleneck bandwidth among
 * the shortest ones, never routing through a GPU except for one NVLink hop (NVB); then GPU pairs
 * that cannot use peer-to-peer go through the CPU, GPUs that have a faster way to a NIC through an
 * NVLink peer use it (PXN), and GPU-NIC paths without GPUDirect RDMA go through the CPU.
 */
final class Paths {
    private final List<TopoNode> all;
    private final List<TopoNode> gpus;
    private final List<TopoNode> cpus;
    private final List<TopoNode> nets;
    /** {@code paths[a][b]}: from node a to node b, by {@link TopoNode#ordinal()}. */
    private final TopoPath[][] paths;

    private Paths(TopoSystem system) {
        this.all = system.nodes();
        this.gpus = system.nodes(NodeType.GPU);
        this.cpus = system.nodes(NodeType.CPU);
        this.nets = system.nodes(NodeType.NET);
        this.paths = new TopoPath[all.size()][all.size()];
        for (TopoPath[] row : paths) {
            Arrays.fill(row, TopoPath.DISCONNECTED);
        }
    }

    static TopoPath[][] compute(TopoSystem system) {
        Paths p = new Paths(system);
        for (TopoNode base : p.all) {
            p.search(base);
        }
        p.gpuPairsWithoutP2pThroughCpu();
        p.c2cNics();
        p.nicPaths();
        return p.paths;
    }

    private TopoPath get(TopoNode from, TopoNode to) {
        return paths[from.ordinal()][to.ordinal()];
    }

    private void set(TopoNode from, TopoNode to, TopoPath p) {
        paths[from.ordinal()][to.ordinal()] = p;
    }

    /** Paths from every node to {@code base}, breadth first. */
    private void search(TopoNode base) {
        set(base, base, TopoPath.LOCAL);
        List<TopoNode> frontier = List.of(base);
        while (!frontier.isEmpty()) {
            Set<TopoNode> next = new LinkedHashSet<>();
            for (TopoNode node : frontier) {
                TopoPath path = get(node, base);
                for (TopoLink link : node.links()) {
                    TopoNode rem = link.to();
                    // Never through a GPU, but for a GPU one NVLink away from a GPU next to base.
                    if (node != base && node.type() == NodeType.GPU
                            && (link.type() != LinkType.NVL || rem.type() != NodeType.GPU || path.hops() > 1)) {
                        continue;
                    }
                    TopoPath remPath = get(rem, base);
                    double bw = Math.min(path.bw(), link.bw());
                    if (!((remPath.bw() == 0 || remPath.hops() > path.hops()) && remPath.bw() < bw)) {
                        continue;
                    }
                    TopoLink back = rem.link(node, link.type());
                    if (back == null) {
                        continue; // an NVLink listed by one end only
                    }
                    List<TopoLink> links = new ArrayList<>(path.hops() + 1);
                    links.add(back);
                    links.addAll(path.links());
                    PathType type = link.type() == LinkType.NET ? PathType.LOC : link.type().pathType();
                    if (node.type() == NodeType.PCI && rem.type() == NodeType.PCI) {
                        type = PathType.PXB;
                    }
                    if (link.type() == LinkType.PCI && (node.type() == NodeType.CPU || rem.type() == NodeType.CPU)) {
                        type = PathType.PHB;
                    }
                    if (node.type() == NodeType.GPU && path.type() == PathType.NVL && type == PathType.NVL && links.size() > 1) {
                        type = PathType.NVB;
                    }
                    set(rem, base, new TopoPath(PathType.max(path.type(), type), bw, links));
                    next.add(rem);
                }
            }
            frontier = new ArrayList<>(next);
        }
    }

    /** The CPU fewest hops from {@code node}, or null in a system without CPUs. */
    static TopoNode localCpu(List<TopoNode> cpus, TopoNode node, BiFunction<TopoNode, TopoNode, TopoPath> path) {
        TopoNode best = null;
        for (TopoNode c : cpus) {
            TopoPath p = path.apply(node, c);
            if (p.type() != PathType.DIS && (best == null || p.hops() < path.apply(node, best).hops())) {
                best = c;
            }
        }
        return best;
    }

    /**
     * The nodes of {@code candidates} nearest {@code from}: the least path type, then the most
     * bandwidth, in their order.
     */
    static List<TopoNode> nearest(List<TopoNode> candidates, TopoNode from, BiFunction<TopoNode, TopoNode, TopoPath> path) {
        List<TopoNode> best = new ArrayList<>();
        for (TopoNode n : candidates) {
            TopoPath p = path.apply(from, n);
            if (n == from || p.type() == PathType.DIS) {
                continue;
            }
            if (!best.isEmpty()) {
                TopoPath b = path.apply(from, best.get(0));
                int c = p.type().compareTo(b.type());
                if (c > 0 || (c == 0 && p.bw() < b.bw())) {
                    continue;
                }
                if (c < 0 || p.bw() > b.bw()) {
                    best.clear();
                }
            }
            best.add(n);
        }
        return best;
    }

    private TopoNode localCpu(TopoNode node) {
        return localCpu(cpus, node, this::get);
    }

    /** NCCL's merge of the two halves of a path through the CPU: C2C then PCI is P2C. */
    private static PathType merge(PathType a, PathType b) {
        PathType max = PathType.max(a, b);
        PathType min = a.compareTo(b) <= 0 ? a : b;
        return max == PathType.PHB && min == PathType.C2C ? PathType.P2C : max;
    }

    /** Replaces the path from {@code from} to {@code to} by the route through {@code via}. */
    private void through(TopoNode via, TopoNode from, TopoNode to, boolean pxn) {
        TopoPath first = get(from, via);
        TopoPath second = get(via, to);
        set(from, to, first.then(second, pxn ? PathType.PXN : merge(first.type(), second.type())));
    }

    /**
     * Peer-to-peer between two GPUs is used up to PXB (not through a CPU); on AMD CPUs with two
     * GPUs at most, at any distance.
     */
    static PathType p2pLevel(List<TopoNode> cpus, int ngpus) {
        boolean amd = !cpus.isEmpty() && cpus.get(0).cpu().arch().equals("x86_64")
                && cpus.get(0).cpu().vendor().strip().equals("AuthenticAMD");
        return amd && ngpus <= 2 ? PathType.SYS : PathType.PXB;
    }

    private void gpuPairsWithoutP2pThroughCpu() {
        PathType level = p2pLevel(cpus, gpus.size());
        for (TopoNode g : gpus) {
            TopoNode cpu = localCpu(g);
            for (TopoNode p : gpus) {
                if (p != g && cpu != null && !get(p, g).type().atMost(level)) {
                    through(cpu, p, g, false);
                }
            }
        }
    }

    /** On C2C systems a GPU reaches a NIC of its CPU through C2C then PCI: P2C, not PHB. */
    private void c2cNics() {
        for (TopoNode g : gpus) {
            TopoNode c = localCpu(g);
            if (c == null) {
                continue;
            }
            for (TopoNode n : nearest(nets, g, this::get)) {
                if (merge(get(g, c).type(), get(n, c).type()) == PathType.P2C) {
                    retype(g, n, PathType.P2C);
                    retype(n, g, PathType.P2C);
                }
            }
        }
    }

    private void retype(TopoNode from, TopoNode to, PathType atMost) {
        TopoPath p = get(from, to);
        if (!p.type().atMost(atMost)) {
            set(from, to, new TopoPath(atMost, p.bw(), p.links()));
        }
    }

    /** The GPU nearest a NIC (the first of the nearest), or null: the relay of PXN paths to it. */
    private TopoNode localGpu(TopoNode net) {
        List<TopoNode> l = nearest(gpus, net, this::get);
        return l.isEmpty() ? null : l.get(0);
    }

    /**
     * Whether GPUDirect RDMA may be used between a GPU and a NIC: both support it, the GPU is near
     * enough (P2C at most, judged from the relay GPU for a PXN path), and for sends (reads) from a
     * GPU older than Ampere only when it has an NVLink peer, so as not to compete with other PCI
     * traffic.
     */
    boolean gdr(TopoNode gpu, TopoNode net, boolean read) {
        if (!net.net().gdr() || !gpu.gpu().gdr()) {
            return false;
        }
        if (read && gpu.gpu().sm() < 80) {
            boolean nvlink = gpus.size() == 1;
            for (TopoNode p : gpus) {
                if (p != gpu && get(gpu, p).type() == PathType.NVL) {
                    nvlink = true;
                }
            }
            if (!nvlink) {
                return false;
            }
        }
        TopoPath p = get(gpu, net);
        TopoNode judged = gpu;
        if (p.type() == PathType.PXN) {
            // The relay GPU is the one the path enters from the NVLink fabric.
            for (TopoNode n : p.nodes()) {
                if (n.type() == NodeType.GPU) {
                    judged = n;
                    break;
                }
            }
        }
        return get(judged, net).type().atMost(PathType.P2C);
    }

    private void nicPaths() {
        for (TopoNode n : nets) {
            TopoNode local = localGpu(n);
            for (TopoNode g : gpus) {
                if (local != null && local != g) {
                    TopoPath peerToNet = get(local, n);
                    TopoPath own = get(g, n);
                    if (peerToNet.type().atMost(PathType.P2C) && gdr(local, n, true)
                            && get(local, g).type().atMost(PathType.NVL)
                            && (peerToNet.bw() > own.bw() || own.type().compareTo(PathType.PXN) > 0)) {
                        // Sends go through the NVLink peer next to the NIC; receives stay local.
                        through(local, g, n, true);
                    }
                }
                if (get(g, n).type().compareTo(PathType.PHB) < 0 && !gdr(g, n, false)) {
                    TopoNode cpu = localCpu(g);
                    if (cpu != null) {
                        through(cpu, n, g, false);
                        through(cpu, g, n, false);
                    }
                }
            }
        }
    }
}
