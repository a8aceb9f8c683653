// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.log.Log;
import io.jccl.topo.GpuProbe;
import io.jccl.topo.Layout;
import io.jccl.topo.NodeGraphs;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.SysfsDetector;
import io.jccl.topo.TopoSearch;
import io.jccl.topo.TopoSystem;
import io.jccl.topo.XmlElement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The channels a communicator plans on, made at init as NCCL's connect step makes them: each node
 * offers the graphs its graph file holds ({@code JCCL_GRAPH_FILE}) or its topology file's search
 * found ({@code JCCL_TOPO_FILE}: on the CUDA engine each rank stands for the file's GPU of its
 * device's PCI bus id, else the file's GPUs stand for the ranks in rank order), every
 * rank gathers every node's offer, and the nodes are joined
 * ({@link Layout#connect}). A node without a file, in a job of several nodes, lays its ranks out
 * as {@link NodeGraphs#ofRanks} does (each rank a way out of the node); a job on one node without
 * a file keeps the flat channels ({@code null} here), except on the CUDA engine, which gives its
 * ranks' GPUs ({@link Gpus}): a node of several GPUs is then detected (sysfs, the CUDA driver,
 * NVML) and searched, each rank standing for the GPU of its device's PCI bus id.
 *
 * <pre>{@code
 * Layout l = JobChannels.of(config, ServerLayout.uniform(2, 4));   // threads standing for 2 nodes
 * List<String> rings = l.describeRings();                          // Channel 00/08 : 0 1 2 3 4 5 6 7
 * }</pre>
 */
public final class JobChannels {
    /** First byte of an offer that failed: the rest is why. */
    private static final byte FAILED = '!';

    private JobChannels() {
    }

    /**
     * The GPUs of a job's ranks on the CUDA engine: {@code busIds.get(r)} is the PCI bus id of rank
     * r's device (null where unknown), {@code probe} lists the GPUs of this machine with their
     * NVLinks. A node whose ranks are each on a GPU of their own is detected and searched with them.
     *
     * <pre>{@code
     * var gpus = new JobChannels.Gpus(CudaGpuProbe.of(), List.of("0000:18:00.0", "0000:2a:00.0"));
     * Layout l = JobChannels.of(config, ServerLayout.single(2), gpus);   // searched over NVLink/PCI
     * }</pre>
     */
    public record Gpus(GpuProbe probe, List<String> busIds) {
        public Gpus {
            java.util.Objects.requireNonNull(probe, "probe");
            busIds = java.util.Collections.unmodifiableList(new ArrayList<>(busIds));
        }
    }

    /**
     * The graphs rank {@code rank} offers for its node: its graph file's ({@code JCCL_GRAPH_FILE}),
     * else its topology file's search, else null (none: the ranks alone decide).
     */
    public static NodeGraphs offered(Config config, ServerLayout hosts, int rank) {
        return offered(config, hosts, rank, null);
    }

    /**
     * As {@link #offered(Config, ServerLayout, int)}, and without a file, where {@code gpus} is given
     * and the node's ranks are on as many distinct GPUs (more than one), the search of the detected
     * node: the lowest rank of the node detects it (the offer the job takes); the others offer
     * nothing. A node whose GPUs the probe does not list (another process's, hidden from this one)
     * keeps the ranks' own layout.
     */
    public static NodeGraphs offered(Config config, ServerLayout hosts, int rank, Gpus gpus) {
        int local = hosts.localSize(hosts.serverOf(rank));
        if (config.graphFile().isPresent()) {
            String file = config.graphFile().get();
            try {
                NodeGraphs g = NodeGraphs.fromXml(XmlElement.read(Path.of(file)));
                if (g.localRanks() != local) {
                    throw new IllegalArgumentException("its channels are over " + g.localRanks() + " GPUs for the " + local
                            + " ranks of this node");
                }
                return g;
            } catch (IllegalArgumentException | JcclException e) {
                throw JcclException.invalidArgument(rank, "JCCL_GRAPH_FILE", file + ": " + e.getMessage());
            }
        }
        if (config.topoFile().isEmpty()) {
            return gpus == null ? null : detected(config, hosts, rank, gpus);
        }
        String file = config.topoFile().get();
        try {
            XmlElement xml = XmlElement.read(Path.of(file));
            if (gpus != null) {
                matchFileGpus(config, hosts, rank, gpus, xml);
            }
            TopoSystem system = TopoSystem.fromXml(xml);
            config.topoDumpFile().ifPresent(f -> system.dump(Path.of(f)));
            return NodeGraphs.search(system, local, hosts.servers() > 1);
        } catch (IllegalArgumentException e) {
            throw JcclException.invalidArgument(rank, "JCCL_TOPO_FILE", file + ": " + e.getMessage());
        }
    }

    /** The detected node's search, or null where there is nothing to search or its GPUs are not all listed. */
    private static NodeGraphs detected(Config config, ServerLayout hosts, int rank, Gpus gpus) {
        int node = hosts.serverOf(rank);
        int local = hosts.localSize(node);
        if (local < 2 || hosts.rank(node, 0) != rank) {
            return null;
        }
        List<String> mine = localBusIds(hosts, rank, gpus);
        if (mine == null) {
            return null;
        }
        Log log = Log.of(config, rank);
        if (new java.util.HashSet<>(mine).size() != local) {
            // Ranks sharing a GPU are not GPUs of a graph: their own layout.
            log.info(Config.Subsys.GRAPH, "ranks share GPUs: no topology search");
            return null;
        }
        XmlElement xml = new SysfsDetector(Path.of("/"), gpus.probe()).detect();
        List<String> missing = rankGpusByBusId(xml, mine);
        if (!missing.isEmpty()) {
            log.info(Config.Subsys.GRAPH, "GPUs " + missing + " are not among those the CUDA driver lists here: no topology search");
            return null;
        }
        TopoSystem system = TopoSystem.fromXml(xml);
        config.topoDumpFile().ifPresent(f -> system.dump(Path.of(f)));
        log.info(Config.Subsys.GRAPH, () -> "detected " + system.summary());
        try {
            return NodeGraphs.search(system, local, hosts.servers() > 1);
        } catch (IllegalArgumentException e) {
            // Nothing the user gave is wrong (a node without a port to search through, say):
            // the ranks' own layout, as without detection.
            log.info(Config.Subsys.GRAPH, "the detected node has no channels: " + e.getMessage());
            return null;
        }
    }

    /**
     * The PCI bus ids of the GPUs of the ranks of {@code rank}'s node, in local rank order, in
     * NCCL's form; null where one is unknown.
     */
    private static List<String> localBusIds(ServerLayout hosts, int rank, Gpus gpus) {
        if (gpus.busIds().size() != hosts.nranks()) {
            throw JcclException.invalidArgument(rank, "GPU bus ids", gpus.busIds().size() + " for the " + hosts.nranks() + " ranks");
        }
        int node = hosts.serverOf(rank);
        int local = hosts.localSize(node);
        List<String> mine = new ArrayList<>(local);
        for (int i = 0; i < local; i++) {
            String id = gpus.busIds().get(hosts.rank(node, i));
            if (id == null) {
                return null;
            }
            try {
                mine.add(io.jccl.cuda.CudaGpuProbe.busId(id));
            } catch (JcclException e) {
                throw JcclException.invalidArgument(hosts.rank(node, i), "PCI bus id", "'" + id + "' of its GPU is not domain:bus:device.function");
            }
        }
        return mine;
    }

    /**
     * Gives each GPU of {@code xml} the local rank whose GPU has its bus id ({@code mine}), as
     * NCCL matches ranks to GPU nodes, and takes the rank from the GPUs no rank uses (left out of
     * the graph); where {@code xml} lacks some of {@code mine}, changes nothing and returns those.
     */
    private static List<String> rankGpusByBusId(XmlElement xml, List<String> mine) {
        List<XmlElement> pcis = new ArrayList<>();
        List<String> missing = new ArrayList<>(mine);
        for (XmlElement pci : xml.descendants()) {
            if (pci.name().equals("pci") && !pci.children("gpu").isEmpty()) {
                pcis.add(pci);
                missing.remove(pci.attr("busid").orElse("").toLowerCase(java.util.Locale.ROOT));
            }
        }
        if (!missing.isEmpty()) {
            return missing;
        }
        for (XmlElement pci : pcis) {
            int i = mine.indexOf(pci.attr("busid").orElse("").toLowerCase(java.util.Locale.ROOT));
            for (XmlElement gpu : pci.children("gpu")) {
                if (i >= 0) {
                    gpu.set("rank", i);
                } else {
                    gpu.remove("rank");
                }
            }
        }
        return missing;
    }

    /**
     * A topology file on the CUDA engine: each rank stands for the file's GPU of its device's bus
     * id, so that a file listing GPUs in another order than the ranks' devices still routes the
     * rings over the right links. Where the ranks share GPUs or their GPUs are not all in the file
     * (a file written on another machine, kept as a model), its GPUs stand for the ranks in the
     * order of their {@code rank} attributes, as without GPUs; the INFO/WARN line says which.
     */
    private static void matchFileGpus(Config config, ServerLayout hosts, int rank, Gpus gpus, XmlElement xml) {
        List<String> mine = localBusIds(hosts, rank, gpus);
        Log log = Log.of(config, rank);
        if (mine == null || new java.util.HashSet<>(mine).size() != mine.size()) {
            log.info(Config.Subsys.GRAPH, "JCCL_TOPO_FILE: ranks share GPUs or a bus id is unknown; the file's GPUs stand for the"
                    + " ranks in rank order");
            return;
        }
        List<String> missing = rankGpusByBusId(xml, mine);
        if (!missing.isEmpty()) {
            log.warn(Config.Subsys.GRAPH, "JCCL_TOPO_FILE has no GPU of bus id " + String.join(", ", missing)
                    + " (this node's ranks' GPUs); its GPUs stand for the ranks in rank order");
            return;
        }
        log.info(Config.Subsys.GRAPH, "JCCL_TOPO_FILE: ranks matched to the file's GPUs by PCI bus id " + mine);
    }

    /** JCCL_GRAPH_DUMP_FILE on rank 0: its node's graphs, as NCCL dumps them, whether searched or laid over the ranks. */
    private static void dump(Config config, Layout layout, int rank) {
        if (rank != 0 || layout == null || config.graphDumpFile().isEmpty()) {
            return;
        }
        String file = config.graphDumpFile().get();
        NodeGraphs mine = new NodeGraphs(layout.ringGraph(0), layout.treeGraph(0));
        try {
            Files.writeString(Path.of(file), mine.toXml().write());
        } catch (IOException e) {
            throw JcclException.invalidArgument(rank, "JCCL_GRAPH_DUMP_FILE", "cannot be written: " + file + ": " + e);
        }
    }

    /**
     * The channels of rank {@code bootstrap.rank()} of a job in several processes: its node's offer
     * all-gathered over the bootstrap (collective: every rank calls it). A rank whose topology file
     * fails still takes part, so that every rank fails naming it rather than waiting for it.
     */
    public static Layout gather(Bootstrap bootstrap, Config config, ServerLayout hosts) {
        return gather(bootstrap, config, hosts, null);
    }

    /** As {@link #gather(Bootstrap, Config, ServerLayout)}, nodes without a file detected with {@code gpus} (may be null). */
    public static Layout gather(Bootstrap bootstrap, Config config, ServerLayout hosts, Gpus gpus) {
        int rank = bootstrap.rank();
        byte[] mine;
        JcclException failed = null;
        try {
            NodeGraphs offer = offered(config, hosts, rank, gpus);
            mine = offer == null ? new byte[0] : offer.encode();
        } catch (JcclException e) {
            failed = e;
            mine = (FAILED + e.getMessage()).getBytes(StandardCharsets.UTF_8);
        }
        byte[][] all = bootstrap.allGather(mine);
        if (failed != null) {
            throw failed;
        }
        for (int r = 0; r < all.length; r++) {
            if (all[r].length > 0 && all[r][0] == FAILED) {
                throw JcclException.invalidArgument(rank, "JCCL_TOPO_FILE", "rank " + r + "'s: "
                        + new String(all[r], 1, all[r].length - 1, StandardCharsets.UTF_8));
            }
        }
        Layout layout = connect(Arrays.asList(all), hosts);
        dump(config, layout, rank);
        return layout;
    }

    /**
     * The channels from what every rank offered ({@code offers.get(r)}: rank r's encoded graphs,
     * empty for none): each node's graphs are its lowest rank's; null for flat channels.
     */
    static Layout connect(List<byte[]> offers, ServerLayout hosts) {
        return connect(hosts, node -> {
            byte[] b = offers.get(hosts.rank(node, 0));
            try {
                return b.length == 0 ? null : NodeGraphs.decode(b);
            } catch (IllegalArgumentException e) {
                throw JcclException.invalidArgument(hosts.rank(node, 0), "node graphs", e.getMessage());
            }
        });
    }

    /** The channels of ranks that are threads of one process, all taking {@code config}'s topology file. */
    public static Layout of(Config config, ServerLayout hosts) {
        return of(config, hosts, null);
    }

    /** As {@link #of(Config, ServerLayout)}, nodes without a file detected with {@code gpus} (may be null). */
    public static Layout of(Config config, ServerLayout hosts, Gpus gpus) {
        NodeGraphs[] byNode = new NodeGraphs[hosts.servers()];
        Layout layout = connect(hosts, node -> {
            if (byNode[node] == null) {
                byNode[node] = offered(config, hosts, hosts.rank(node, 0), gpus);
            }
            return byNode[node];
        });
        dump(config, layout, 0);
        return layout;
    }

    private static Layout connect(ServerLayout hosts, Function<Integer, NodeGraphs> offerOf) {
        List<NodeGraphs> nodes = new ArrayList<>(hosts.servers());
        boolean anyFile = false;
        int widest = 1;
        for (int i = 0; i < hosts.servers(); i++) {
            widest = Math.max(widest, hosts.localSize(i));
        }
        int channels = Math.min(widest, TopoSearch.MAX_CHANNELS / 2);
        for (int i = 0; i < hosts.servers(); i++) {
            NodeGraphs g = offerOf.apply(i);
            anyFile |= g != null;
            nodes.add(g != null ? g : NodeGraphs.ofRanks(hosts.localSize(i), channels));
        }
        if (!anyFile && hosts.servers() == 1) {
            return null;
        }
        try {
            return Layout.connect(nodes, hosts);
        } catch (IllegalArgumentException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology", "the nodes' channels do not connect: "
                    + e.getMessage());
        }
    }

    /** JCCL_DEBUG=INFO, subsystem GRAPH: the rings and this rank's trees, as NCCL prints them. */
    public static void log(Log log, Layout layout, int rank) {
        if (!log.on(Config.Debug.INFO, Config.Subsys.GRAPH)) {
            return;
        }
        if (layout == null) {
            log.info(Config.Subsys.GRAPH, "one node, no topology file: flat channels (ring 0 1 .. n-1, double binary tree over ranks)");
            return;
        }
        log.info(Config.Subsys.GRAPH, layout.nNodes() + " node(s) " + layout.hosts() + ", " + layout.nChannels()
                + " channel(s) searched, tree pattern " + layout.treeGraph(layout.hosts().serverOf(rank)).pattern());
        for (String line : layout.describeRings()) {
            log.info(Config.Subsys.GRAPH, line);
        }
        log.info(Config.Subsys.GRAPH, layout.describeTrees(rank));
    }
}
