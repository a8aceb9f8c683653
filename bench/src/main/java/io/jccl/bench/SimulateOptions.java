// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.DataType;
import io.jccl.sim.ClusterFabric;
import io.jccl.sim.EmulatedFabric;

import java.nio.file.Path;
import java.util.List;

/**
 * The options of {@code jccl simulate}: the collective and sizes as {@code jccl perf} takes them, and
 * the fabric: the emulated one ({@code --fabric SxR --intra --inter --nic}), a GPU cluster
 * ({@code --gpus NODESxGPUS}) or an NCCL topology file per node ({@code --topo FILE --nodes N}),
 * with the network between nodes ({@code --net}).
 *
 * @param servers    nodes, one value per rank count to simulate (several: one table each, and the plot against ranks)
 * @param perServer  ranks (GPUs) per node
 * @param topo       the NCCL topology XML of each node, or null
 * @param gpus       whether the fabric is a GPU cluster (the CUDA engine's costs) rather than the emulated one
 * @param timeline   where to write every message of the one size's calls, or null
 * @param budget     the most steps a call is played exactly; past it, a GPU cluster's call is predicted from exact runs on fewer nodes
 */
record SimulateOptions(Collective collective, DataType type, long minBytes, long maxBytes, int factor, List<Integer> servers,
                       int perServer, double intraMbit, double interMbit, EmulatedFabric.Nic nic, boolean gpus, Path topo,
                       double nvlinkGBps, double nicGbit, int nics, ClusterFabric.Net net, boolean all, Path plot, Path json,
                       Path calibration, Path timeline, long budget) {
    static final String USAGE = """
            usage: jccl simulate COLLECTIVE FABRIC [-b MIN] [-e MAX] [-f F] [-d TYPE] [--all] [--plot FILE.svg] [--json FILE]
                                 [--calibration FILE] [--timeline FILE] [--budget STEPS]
              Predicts the calls jccl perf would time, by playing the plans the engine would run step by
              step on a modelled fabric (io.jccl.sim; docs/simulator.md): the same table as jccl perf, with
              the predicted time, algbw and busbw (#wrong is N/A), one row per size for the algorithm and
              protocol the tuner would choose or JCCL_ALGO / JCCL_PROTO force (JCCL_TUNER_SIM=1: the tuner
              prices its candidates by playing them here, where each fits 400,000 steps).
            FABRIC, one of:
              --fabric SxR --intra MBIT --inter MBIT [--nic rail|shared]
                            the emulated fabric of jccl fabric (host engine over sockets, shared memory off)
              --gpus NxG [--nvlink GBPS] [--nic-gbit G] [--nics K] [--net NET]
                            N nodes of G GPUs (CUDA engine): NVLink GB/s per GPU each way (default 450),
                            K NICs per node (default G) of G Gbit/s (default 400)
              --topo FILE --nodes N [--net NET]
                            N nodes, each the NCCL topology XML FILE (GPUs, NVLink, NICs from the file)
              NET: fat-tree[:OVERSUB[:NODES_PER_LEAF]] (default fat-tree:1:16) or rail[:OVERSUB]
              --nodes and the S of --fabric and the N of --gpus take a comma list: a table per rank count
            options:
              -b, -e, -f    sizes as jccl perf (default 8 B to 64 MiB by 4)
              -d TYPE       data type (default float)
              --all         also a row per algorithm and protocol the fabric weighs, at each size
              --plot FILE   SVG: busbw and time against size (and against ranks, for several rank counts)
              --json FILE   every row, as JSON
              --calibration FILE   the constants (default: the library's, io/jccl/sim/calibration.json)
              --timeline FILE      every message the one size's calls send, as the engine's NET timeline
                            (JCCL_DEBUG=TRACE JCCL_DEBUG_SUBSYS=NET) has them: isend, wire, arrived (needs -b = -e)
              --budget STEPS       play a call step by step up to this many steps (default 64M); past it, on
                            --gpus and --topo, ring, hierring, torus2d, tree, splittree and the pipeline's
                            all-gather and reduce-scatter are predicted from exact runs on fewer nodes (a
                            "# ... from exact runs on" line says which); the
                            others are not simulated: a "# ... not simulated" line says why under --all,
                            and the command stops (exit 2) where the tuner chose one
            example: jccl simulate allreduce --gpus 1,2,4,8x8 --net fat-tree:2 -b 8 -e 1G -f 8 --all""";

    /** Parses the command line after {@code simulate}. */
    static SimulateOptions parse(List<String> args) {
        ArgReader r = new ArgReader("simulate", args);
        if (!r.hasNext()) {
            throw r.error("name a collective (allreduce, allgather, reducescatter, broadcast, reduce, alltoall, gather, scatter)");
        }
        String name = args.get(0);
        Collective c;
        try {
            c = Collective.parse(name);
        } catch (IllegalArgumentException e) {
            throw r.error("'" + name + "' is not a collective");
        }
        if (c == Collective.SEND_RECV) {
            throw r.error("send/recv groups are not simulated; name a collective");
        }
        r = new ArgReader("simulate", args.subList(1, args.size()));
        DataType type = DataType.FLOAT32;
        long min = 8;
        long max = 64L << 20;
        int factor = 4;
        List<Integer> servers = null;
        int perServer = 0;
        double intra = -1;
        double inter = -1;
        EmulatedFabric.Nic nic = EmulatedFabric.Nic.RAIL;
        boolean gpus = false;
        Path topo = null;
        double nvlink = 450;
        double nicGbit = 400;
        int nics = 0;
        ClusterFabric.Net net = ClusterFabric.Net.parse("fat-tree");
        boolean all = false;
        Path plot = null;
        Path json = null;
        Path calibration = null;
        Path timeline = null;
        long budget = io.jccl.sim.CallSimulator.DEFAULT_BUDGET;
        String fabricOption = null;
        while (r.hasNext()) {
            String o = r.option("befd");
            switch (o) {
                case "-b", "--minbytes" -> min = r.bytesValue(o);
                case "-e", "--maxbytes" -> max = r.bytesValue(o);
                case "-f", "--stepfactor" -> factor = r.intValue(o, 2, 1 << 20);
                case "-d", "--datatype" -> type = r.dataTypeValue(o);
                case "--fabric", "--gpus" -> {
                    if (fabricOption != null) {
                        throw r.error("give one fabric: " + fabricOption + " and " + o);
                    }
                    fabricOption = o;
                    gpus = o.equals("--gpus");
                    String v = r.value(o);
                    int x = v.toLowerCase(java.util.Locale.ROOT).lastIndexOf('x');
                    if (x < 1) {
                        throw r.error("option " + o + " takes NODESxRANKS, like 2x4 or 1,2,4x8, not '" + v + "'");
                    }
                    servers = intList(r, o, v.substring(0, x));
                    perServer = intList(r, o, v.substring(x + 1)).getFirst();
                }
                case "--topo" -> {
                    if (fabricOption != null) {
                        throw r.error("give one fabric: " + fabricOption + " and " + o);
                    }
                    fabricOption = o;
                    gpus = true;
                    topo = Path.of(r.value(o));
                }
                case "--nodes" -> servers = r.intListValue(o, 1, 1 << 20);
                case "--intra" -> intra = r.intValue(o, 0, 10_000_000);
                case "--inter" -> inter = r.intValue(o, 0, 10_000_000);
                case "--nic" -> nic = r.nicValue(o);
                case "--nvlink" -> nvlink = r.intValue(o, 1, 1_000_000);
                case "--nic-gbit" -> nicGbit = r.intValue(o, 1, 1_000_000);
                case "--nics" -> nics = r.intValue(o, 1, 64);
                case "--net" -> {
                    try {
                        net = ClusterFabric.Net.parse(r.value(o));
                    } catch (IllegalArgumentException e) {
                        throw r.error("option " + o + ": " + e.getMessage());
                    }
                }
                case "--all" -> all = true;
                case "--plot" -> plot = Path.of(r.value(o));
                case "--json" -> json = Path.of(r.value(o));
                case "--calibration" -> calibration = Path.of(r.value(o));
                case "--timeline" -> timeline = Path.of(r.value(o));
                case "--budget" -> budget = r.bytesValue(o);
                default -> throw r.unknown(o);
            }
        }
        if (fabricOption == null) {
            throw r.error("give a fabric: --fabric SxR --intra MBIT --inter MBIT, --gpus NxG or --topo FILE --nodes N");
        }
        if (fabricOption.equals("--fabric") && (intra < 0 || inter < 0)) {
            throw r.error("--fabric needs --intra MBIT and --inter MBIT (0: unshaped)");
        }
        if (topo != null && servers == null) {
            throw r.error("--topo needs --nodes N");
        }
        if (min < 1 || max < min) {
            throw r.error("-b must be at least 1 and -e at least -b");
        }
        if (timeline != null && (min != max || all || servers.size() != 1)) {
            throw r.error("--timeline plays one call: give one size (-b = -e), one rank count and no --all");
        }
        if (budget < 1) {
            throw r.error("option --budget: at least 1 step");
        }
        if (!gpus && nics != 0) {
            throw r.error("--nics is for --gpus");
        }
        return new SimulateOptions(c, type, min, max, factor, List.copyOf(servers), perServer, intra, inter, nic, gpus, topo, nvlink,
                nicGbit, nics == 0 ? perServer : nics, net, all, plot, json, calibration, timeline, budget);
    }

    private static List<Integer> intList(ArgReader r, String option, String v) {
        List<Integer> out = new java.util.ArrayList<>();
        for (String p : v.split(",", -1)) {
            try {
                int i = Integer.parseInt(p.trim());
                if (i < 1 || i > (1 << 20)) {
                    throw r.error("option " + option + ": " + i + " is not within 1.." + (1 << 20));
                }
                out.add(i);
            } catch (NumberFormatException e) {
                throw r.error("option " + option + ": '" + p + "' is not a count");
            }
        }
        return out;
    }
}
