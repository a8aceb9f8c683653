// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.topo.Channels;
import io.jccl.topo.GpuProbe;
import io.jccl.topo.Layout;
import io.jccl.topo.NodeType;
import io.jccl.topo.NumaPlacement;
import io.jccl.topo.SysfsDetector;
import io.jccl.topo.TopoGraph;
import io.jccl.topo.TopoNode;
import io.jccl.topo.TopoPath;
import io.jccl.topo.TopoRanks;
import io.jccl.topo.TopoSystem;
import io.jccl.topo.TreeNode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * {@code jccl topo}: loads or detects the system graph and prints it, the paths between its GPUs,
 * NICs and CPUs, the searched graphs and the channels they make across the job's nodes; draws it
 * all as SVG on request. On a node without GPUs, prints where the ranks go by NUMA domain.
 */
public final class TopoCommand {
    private TopoCommand() {
    }

    public static int run(TopoOptions o, PrintStream out) {
        Config config = Config.fromEnvironment();
        if (o.file() != null) {
            config = config.withTopoFile(o.file());
        }
        if (o.dump() != null) {
            config = config.withTopoDumpFile(o.dump());
        }
        TopoSystem system;
        String source;
        if (!o.sysfs().equals("/")) {
            system = TopoSystem.fromXml(new SysfsDetector(Path.of(o.sysfs()), GpuProbe.NONE).detect());
            config.topoDumpFile().ifPresent(f -> system.dump(Path.of(f)));
            source = "detected from sysfs under " + o.sysfs();
        } else {
            // The running machine's GPUs and NVLinks where a CUDA driver answers (NVML optional).
            boolean cuda = config.topoFile().isEmpty() && io.jccl.CudaDevice.available();
            system = TopoSystem.of(config, cuda ? io.jccl.cuda.CudaGpuProbe.of() : GpuProbe.NONE);
            source = config.topoFile().map(f -> "file " + f).orElse(cuda ? "detected from sysfs, the CUDA driver and NVML"
                    : "detected from sysfs (GPUs: no CUDA driver)");
        }
        out.println("# jccl topo: " + source);
        config.topoDumpFile().ifPresent(f -> out.println("# dumped to " + f));
        out.println("# system: " + system.summary());
        out.print(system.describe());
        printPaths(system, out);

        Layout layout = null;
        NumaPlacement placement = null;
        if (system.nodes(NodeType.GPU).isEmpty()) {
            placement = NumaPlacement.of(system, o.ranks());
            printPlacement(placement, out);
        } else {
            layout = Layout.of(system, o.nodes(), o.tree());
            printLayout(layout, out);
        }
        if (o.svg() != null) {
            String svg = TopoSvg.draw(system, layout, placement).write();
            try {
                Files.writeString(Path.of(o.svg()), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg);
            } catch (IOException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "--svg", "cannot write " + o.svg() + ": " + e.getMessage());
            }
            out.println("# picture: " + o.svg());
        }
        out.flush();
        return 0;
    }

    /** The path type and bandwidth from each GPU, NIC port and CPU (rows) to each (columns). */
    private static void printPaths(TopoSystem s, PrintStream out) {
        List<TopoNode> ends = new ArrayList<>(s.nodes(NodeType.GPU));
        ends.addAll(s.nodes(NodeType.NET));
        ends.addAll(s.nodes(NodeType.CPU));
        out.println("# paths: type/GB/s from the row to the column");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-8s", ""));
        for (TopoNode b : ends) {
            head.append(String.format(Locale.ROOT, " %10s", b.name()));
        }
        out.println(head.toString().stripTrailing());
        for (TopoNode a : ends) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-8s", a.name()));
            for (TopoNode b : ends) {
                TopoPath p = s.path(a, b);
                row.append(String.format(Locale.ROOT, " %10s", a == b ? "-" : p.toString()));
            }
            out.println(row);
        }
    }

    private static void printPlacement(NumaPlacement p, PrintStream out) {
        out.println("# no GPU: " + p.nranks() + " host ranks by NUMA domain (rings and trees: Channels.flat over these ranks)");
        for (int d = 0; d < p.domains().size(); d++) {
            List<Integer> ranks = p.ranksOf(d);
            out.println(String.format(Locale.ROOT, "%s: ranks %s on cpus %s", p.domains().get(d).name(),
                    ranks.isEmpty() ? "none" : ranks.getFirst() + "-" + ranks.getLast(),
                    p.cpus(d).count() == 0 ? "unknown" : p.cpus(d).toCpulist()));
        }
    }

    private static void printLayout(Layout l, PrintStream out) {
        TopoGraph ring = l.ringGraph(0);
        TopoGraph tree = l.treeGraph(0);
        out.println("# ring graph: " + ring.summary());
        for (int c = 0; c < ring.nChannels(); c++) {
            out.println(String.format(Locale.ROOT, "ring %2d : %s", c, ring.channel(c)));
        }
        out.println("# tree graph: " + tree.summary());
        for (int c = 0; c < tree.nChannels(); c++) {
            out.println(String.format(Locale.ROOT, "tree %2d : %s", c, tree.channel(c)));
        }
        int k = l.nChannels();
        Channels ch = l.channels();
        out.println(String.format(Locale.ROOT, "# channels: %d node%s x %d ranks, %d channel%s and %s duplicate%s; tree depth estimate %d",
                l.nNodes(), l.nNodes() == 1 ? "" : "s", l.localRanks(0), k, k == 1 ? "" : "s", k == 1 ? "its" : "their " + k,
                k == 1 ? "" : "s", l.treeDepthEstimate()));
        for (int n = 0; n < l.nNodes(); n++) {
            TopoRanks r = l.ranks(n);
            out.println(String.format(Locale.ROOT, "node %d: ringRecv %s ringSend %s treeToParent %s treeToChild0 %s treeToChild1 %s",
                    n, r.ringRecv(), r.ringSend(), r.treeToParent(), r.treeToChild0(), r.treeToChild1()));
        }
        for (int c = 0; c < 2 * k; c++) {
            StringJoiner ringText = new StringJoiner(" ");
            for (int r : ch.ring(c).order()) {
                ringText.add(Integer.toString(r));
            }
            out.println(String.format(Locale.ROOT, "channel %2d ring : %s", c, ringText));
            out.println(String.format(Locale.ROOT, "channel %2d tree : %s (%s tree)", c, treeText(ch.tree(c, 2 * k)),
                    c < k ? "first" : "second"));
        }
    }

    /** "root 0; 0->1,16 1->2 ...": the root, then each rank with children and its children. */
    static String treeText(TreeNode[] t) {
        StringJoiner j = new StringJoiner(" ");
        for (TreeNode n : t) {
            if (n.isRoot()) {
                j.add("root " + n.rank() + ";");
            }
        }
        for (TreeNode n : t) {
            if (!n.isLeaf()) {
                StringJoiner kids = new StringJoiner(",");
                n.children().forEach(c -> kids.add(Integer.toString(c)));
                j.add(n.rank() + "->" + kids);
            }
        }
        return j.toString();
    }
}
