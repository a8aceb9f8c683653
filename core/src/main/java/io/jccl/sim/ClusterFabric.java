// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.topo.ServerLayout;

import java.util.Locale;

/**
 * A GPU cluster: nodes of {@code gpusPerNode} GPUs joined inside the node by NVLink through
 * NVSwitch (each GPU a port of {@code nvlinkGBps} each way) and across nodes by {@code nicsPerNode}
 * NICs of {@code nicGbit} each way (GPU {@code g} of a node uses NIC {@code g·nics/gpus}), and a
 * network between the NICs:
 * <ul>
 *   <li>{@link Net.Kind#FAT_TREE}: leaf switches of {@code nodesPerLeaf} nodes, non-blocking inside
 *   a leaf; each leaf's uplinks to the spine are a link of {@code nics in the leaf / oversubscription}
 *   ports at the NIC's rate, each way, the spine itself non-blocking;</li>
 *   <li>{@link Net.Kind#RAIL}: rail-optimised, NIC i of every node on rail switch i (non-blocking),
 *   rails joined through a spine as a fat-tree's leaves are.</li>
 * </ul>
 *
 * <pre>{@code
 * SimFabric f = new ClusterFabric(128, 8, 450, 8, 400, ClusterFabric.Net.parse("fat-tree:1"));  // 1,024 GPUs
 * }</pre>
 */
public final class ClusterFabric extends SimFabric {
    /** The network between the nodes' NICs. */
    public record Net(Kind kind, double oversubscription, int nodesPerLeaf) {
        public enum Kind { FAT_TREE, RAIL }

        /** Nodes under one leaf switch unless told: 16 nodes of 8 GPUs, 128 NICs (a 256-port switch's half down). */
        public static final int NODES_PER_LEAF = 16;

        public Net {
            if (!(oversubscription >= 1) || nodesPerLeaf < 1) {
                throw new IllegalArgumentException("oversubscription " + oversubscription + " (at least 1), nodes per leaf "
                        + nodesPerLeaf);
            }
        }

        /** {@code fat-tree[:OVERSUB[:NODES_PER_LEAF]]} or {@code rail[:OVERSUB]}. */
        public static Net parse(String s) {
            String[] p = s.toLowerCase(Locale.ROOT).split(":");
            try {
                double over = p.length > 1 ? Double.parseDouble(p[1]) : 1;
                int leaf = p.length > 2 ? Integer.parseInt(p[2]) : NODES_PER_LEAF;
                return switch (p[0]) {
                    case "fat-tree", "fattree" -> new Net(Kind.FAT_TREE, over, leaf);
                    case "rail" -> new Net(Kind.RAIL, over, leaf);
                    default -> throw new IllegalArgumentException("network '" + s + "': fat-tree[:OVERSUB[:NODES_PER_LEAF]] or rail[:OVERSUB]");
                };
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("network '" + s + "': " + e.getMessage());
            }
        }

        @Override
        public String toString() {
            String over = oversubscription == Math.rint(oversubscription) ? Long.toString((long) oversubscription)
                    : Double.toString(oversubscription);
            return (kind == Kind.FAT_TREE ? "fat-tree:" + over + ":" + nodesPerLeaf : "rail:" + over);
        }
    }

    private final ServerLayout layout;
    private final int gpus;
    private final int nics;
    private final double nvlinkGBps;
    private final double nicGbit;
    private final Net net;
    private final int[] nvOut;
    private final int[] nvIn;
    private final int[] nicOut;
    private final int[] nicIn;
    /** Per leaf (fat-tree) or rail, its uplinks to the spine and its downlinks from it; -1 where one is enough. */
    private final int[] up;
    private final int[] down;

    public ClusterFabric(int nodes, int gpusPerNode, double nvlinkGBps, int nicsPerNode, double nicGbit, Net net) {
        if (nodes < 1 || gpusPerNode < 1 || nicsPerNode < 1 || nicsPerNode > gpusPerNode || !(nvlinkGBps > 0) || !(nicGbit > 0)) {
            throw new IllegalArgumentException(nodes + " nodes of " + gpusPerNode + " GPUs at " + nvlinkGBps + " GB/s, "
                    + nicsPerNode + " NICs of " + nicGbit + " Gbit/s");
        }
        this.layout = ServerLayout.uniform(nodes, gpusPerNode);
        this.gpus = gpusPerNode;
        this.nics = nicsPerNode;
        this.nvlinkGBps = nvlinkGBps;
        this.nicGbit = nicGbit;
        this.net = net;
        int n = layout.nranks();
        nvOut = new int[gpusPerNode > 1 ? n : 0];
        nvIn = new int[nvOut.length];
        for (int r = 0; r < nvOut.length; r++) {
            nvOut[r] = addLink(1, gbytes(nvlinkGBps));
            nvIn[r] = addLink(1, gbytes(nvlinkGBps));
        }
        nicOut = new int[nodes * nicsPerNode];
        nicIn = new int[nicOut.length];
        for (int i = 0; i < nicOut.length; i++) {
            nicOut[i] = addLink(1, gbit(nicGbit));
            nicIn[i] = addLink(1, gbit(nicGbit));
        }
        int groups = groups(nodes);
        up = new int[groups];
        down = new int[groups];
        for (int g = 0; g < groups; g++) {
            int members = net.kind() == Net.Kind.RAIL ? nodes : Math.min(net.nodesPerLeaf(), nodes - g * net.nodesPerLeaf()) * nicsPerNode;
            int ports = Math.max(1, (int) Math.ceil(members / net.oversubscription()));
            boolean needed = net.kind() == Net.Kind.RAIL ? nicsPerNode > 1 : groups > 1;
            up[g] = needed ? addLink(ports, gbit(nicGbit)) : -1;
            down[g] = needed ? addLink(ports, gbit(nicGbit)) : -1;
        }
    }

    /**
     * {@code nodes} nodes, each the machine {@code node} describes (an NCCL topology XML): its GPUs,
     * their bandwidth inside the node as NCCL's ring search finds it (the searched channels'
     * bandwidth summed over the channels the search kept, before duplication), and its network
     * ports with their speeds.
     */
    public static ClusterFabric of(io.jccl.topo.TopoSystem node, int nodes, Net net) {
        java.util.List<io.jccl.topo.TopoNode> gpuNodes = node.nodes(io.jccl.topo.NodeType.GPU);
        java.util.List<io.jccl.topo.TopoNode> ports = node.nodes(io.jccl.topo.NodeType.NET);
        if (gpuNodes.isEmpty() || (nodes > 1 && ports.isEmpty())) {
            // Hand-written files (a cloud's, for NCCL_TOPO_FILE) often list devices by PCI class
            // alone and leave their details to NCCL's probe of the machine; there is none here.
            throw new IllegalArgumentException("the topology has " + gpuNodes.size() + " GPUs and " + ports.size()
                    + " network ports; a node needs a GPU, and a network port where there are several nodes: each a"
                    + " <gpu> or <nic><net> element inside its <pci>, as NCCL_TOPO_DUMP_FILE writes them (a <pci> of a"
                    + " GPU's or NIC's class alone leaves them to NCCL's probe of the machine, which a simulation has not)");
        }
        double intra = Double.POSITIVE_INFINITY;
        if (gpuNodes.size() > 1) {
            io.jccl.topo.TopoGraph ring = io.jccl.topo.TopoSearch.search(node, io.jccl.topo.TopoPattern.RING, false,
                    io.jccl.topo.TopoSearch.MAX_SEARCH_CHANNELS);
            intra = ring.bwIntra() * ring.nChannels();
        }
        double nicGBps = ports.isEmpty() ? 50 : ports.stream().mapToDouble(n -> n.net().bw()).min().orElseThrow();
        int nics = Math.max(1, Math.min(ports.size(), gpuNodes.size()));
        return new ClusterFabric(nodes, gpuNodes.size(), Double.isInfinite(intra) ? 1e6 : intra, nics, nicGBps * 8, net);
    }

    /** The network between the nodes. */
    public Net net() {
        return net;
    }

    /** GB/s a GPU moves over NVLink each way. */
    public double nvlinkGBps() {
        return nvlinkGBps;
    }

    /** GB/s of NIC a GPU has each way (a NIC shared by several GPUs gives each its share). */
    public double nicGBpsPerGpu() {
        return nicGbit / 8 * nics / gpus;
    }

    /** Leaves (fat-tree) or rails. */
    private int groups(int nodes) {
        return net.kind() == Net.Kind.RAIL ? nics : (nodes + net.nodesPerLeaf() - 1) / net.nodesPerLeaf();
    }

    private int nicOf(int rank) {
        return layout.serverOf(rank) * nics + layout.localIndex(rank) * nics / gpus;
    }

    private int groupOf(int rank) {
        return net.kind() == Net.Kind.RAIL ? layout.localIndex(rank) * nics / gpus : layout.serverOf(rank) / net.nodesPerLeaf();
    }

    @Override
    public ServerLayout layout() {
        return layout;
    }

    @Override
    int route(int from, int to, int[] into) {
        if (sameNode(from, to)) {
            into[0] = nvOut[from];
            into[1] = nvIn[to];
            return 2;
        }
        int k = 0;
        into[k++] = nicOut[nicOf(from)];
        int gf = groupOf(from);
        int gt = groupOf(to);
        if (gf != gt && up[gf] >= 0) {
            into[k++] = up[gf];
            into[k++] = down[gt];
        }
        into[k++] = nicIn[nicOf(to)];
        return k;
    }

    @Override
    int maxHops() {
        return 4;
    }

    @Override
    boolean overNetwork(int from, int to) {
        return !sameNode(from, to);
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "%d nodes x %d GPUs (%.0f GB/s per GPU inside a node), %d NICs of %.0f Gbit/s per node, %s",
                layout.servers(), gpus, nvlinkGBps, nics, nicGbit, net);
    }
}
