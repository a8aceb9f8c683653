// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.topo.TopoPattern;

import java.util.List;

/**
 * The options of {@code jccl topo}.
 *
 * @param file    a topology file in NCCL's format, or null to use JCCL_TOPO_FILE or detect the machine
 * @param sysfs   the root to read sysfs and procfs under when detecting ("/" normally)
 * @param nodes   how many nodes like this one the job spans
 * @param tree    the tree pattern to search
 * @param ranks   for a node without GPUs, the ranks to place over its NUMA domains
 * @param svg     where to draw the picture, or null
 * @param dump    where to write the topology in NCCL's format, or null (else JCCL_TOPO_DUMP_FILE)
 */
public record TopoOptions(String file, String sysfs, int nodes, TopoPattern tree, int ranks, String svg, String dump) {
    static final String USAGE = """
            usage: jccl topo [options]
              -f, --file F      topology file in NCCL's XML format (default: JCCL_TOPO_FILE, else detect this machine)
                  --sysfs DIR   detect from sysfs and procfs under DIR instead of / (a copied tree)
              -N, --nodes N     nodes like this one in the job (default 1): channels then go through the network
                  --tree P      tree pattern: tree, splittree or balancedtree (default balancedtree, NCCL's)
              -r, --ranks N     without GPUs: ranks placed over the NUMA domains (default: this JVM's processors)
                  --svg FILE    draw the machine with each channel's ring and tree, one colour per channel
                  --dump FILE   write the topology in NCCL's XML format (default: JCCL_TOPO_DUMP_FILE)
            Prints the system graph (links with type and GB/s), the path type and bandwidth between GPUs,
            NICs and CPUs, the searched ring and tree graphs, and each channel's ring and trees over the
            job's ranks (channel c + n carries the second tree of the double binary tree).""";

    public static TopoOptions parse(List<String> args) {
        ArgReader r = new ArgReader("topo", args);
        String file = null;
        String sysfs = "/";
        int nodes = 1;
        TopoPattern tree = TopoPattern.BALANCED_TREE;
        int ranks = Runtime.getRuntime().availableProcessors();
        String svg = null;
        String dump = null;
        while (r.hasNext()) {
            String o = r.option("fNr");
            switch (o) {
                case "-f", "--file" -> file = r.value(o);
                case "--sysfs" -> sysfs = r.value(o);
                case "-N", "--nodes" -> nodes = r.intValue(o, 1, 4096);
                case "--tree" -> {
                    String v = r.value(o);
                    try {
                        tree = TopoPattern.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw r.error("option " + o + ": " + e.getMessage());
                    }
                    if (!tree.isTree()) {
                        throw r.error("option " + o + ": '" + v + "' is not a tree pattern (tree, splittree, balancedtree)");
                    }
                }
                case "-r", "--ranks" -> ranks = r.intValue(o, 1, 1 << 16);
                case "--svg" -> svg = r.value(o);
                case "--dump" -> dump = r.value(o);
                default -> throw r.unknown(o);
            }
        }
        if (file != null && !sysfs.equals("/")) {
            throw r.error("--file and --sysfs are two sources of the topology: give one");
        }
        return new TopoOptions(file, sysfs, nodes, tree, ranks, svg, dump);
    }
}
