// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.json.JsonWriter;
import io.jccl.proto.Protocol;
import io.jccl.sim.Calibration;
import io.jccl.sim.CallSimulator;
import io.jccl.sim.ClusterFabric;
import io.jccl.sim.EmulatedFabric;
import io.jccl.sim.SimFabric;
import io.jccl.sim.Simulator;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoSystem;
import io.jccl.tune.Choice;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * {@code jccl simulate}: {@code jccl perf}'s table predicted by the simulator (io.jccl.sim) for a
 * fabric no machine here has. Each size is planned as the engine would plan it (the tuner's
 * choice, or what JCCL_ALGO / JCCL_PROTO force) and its plan played step by step, or, past
 * {@code --budget} steps on a GPU cluster, predicted from exact runs on fewer nodes
 * ({@link CallSimulator#estimate}); {@code --all} adds every algorithm and protocol the fabric weighs.
 */
final class SimulateCommand {
    private SimulateCommand() {
    }

    /**
     * One predicted row: which rank count, how it ran, perf's row, and how it was predicted
     * ("exact": played step by step; else from which exact runs).
     */
    record Row(int nranks, boolean tuned, int channels, PerfRow row, String how) {
    }

    static int run(SimulateOptions o, PrintStream out, PrintStream err) {
        Calibration cal;
        try {
            cal = Calibration.readOrBundled(o.calibration());
        } catch (IOException | IllegalArgumentException e) {
            err.println("jccl simulate: calibration: " + e.getMessage());
            return 1;
        }
        Config config = Config.fromEnvironment();
        if (o.topo() != null) {
            config = config.withTopoFile(o.topo().toString());
        }
        List<Row> rows = new ArrayList<>();
        List<String> fabrics = new ArrayList<>();
        StringBuilder timeline = new StringBuilder();
        for (int servers : o.servers()) {
            SimFabric fabric;
            try {
                fabric = fabric(o, servers);
            } catch (IllegalArgumentException e) {
                err.println("jccl simulate: " + e.getMessage());
                return 2;
            }
            CallSimulator sim = simulator(o, cal, config, fabric);
            if (o.timeline() != null) {
                sim = sim.withTimeline(lines(timeline));
            }
            // the exact runs that calls past the budget are predicted from, made once per node count
            Map<Integer, CallSimulator> probes = new HashMap<>();
            Config cfg = config;
            IntFunction<CallSimulator> probe = n -> probes.computeIfAbsent(n, k -> simulator(o, cal, cfg, fabric(o, k)));
            fabrics.add(fabric.describe());
            out.printf(Locale.ROOT, "# jccl simulate %s: %d ranks on %s%n", o.collective().cliName(), fabric.nranks(), fabric.describe());
            out.printf(Locale.ROOT, "# calibration: %s; datatype %s; predicted, not measured (docs/simulator.md)%n", cal.source(),
                    PerfTable.typeName(o.type()));
            out.print(PerfTable.columnHeader("time"));
            List<Algorithm> weighed = Algorithms.weighed(o.collective(), fabric.layout());
            for (long bytes = o.minBytes(); bytes <= o.maxBytes(); bytes = next(bytes, o.factor())) {
                PerfSizes sizes = PerfSizes.of(o.collective(), o.type(), fabric.nranks(), bytes);
                if (sizes.count() == 0) {
                    Collective c = o.collective();
                    boolean whole = c == Collective.ALL_REDUCE || c == Collective.BROADCAST || c == Collective.REDUCE;
                    out.printf(Locale.ROOT, "# %d B: not simulated, %s%n", bytes, whole ? "under one " + PerfTable.typeName(o.type())
                            + " element" : "under 16 B a rank's block on " + fabric.nranks() + " ranks (perf rounds blocks down to 16 B)");
                    continue;
                }
                try {
                    emit(row(sim, probe, o, sizes, null, null, true), rows, out);
                } catch (NotSimulated e) {
                    err.println("jccl simulate: " + e.getMessage());
                    return 2;
                }
                if (o.all()) {
                    for (Algorithm a : weighed) {
                        for (Protocol p : Protocol.allowed(config, o.collective())) {
                            try {
                                emit(row(sim, probe, o, sizes, a, p, false), rows, out);
                            } catch (NotSimulated e) {
                                out.println("# " + e.getMessage());
                            }
                        }
                    }
                }
            }
            out.println("#");
        }
        try {
            if (o.json() != null) {
                Files.writeString(o.json(), json(o, fabrics, rows));
            }
            if (o.plot() != null) {
                Files.writeString(o.plot(), SimPlot.svg(o, fabrics, rows));
            }
            if (o.timeline() != null) {
                Files.writeString(o.timeline(), timeline);
            }
        } catch (IOException e) {
            err.println("jccl simulate: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /**
     * A timeline that writes each message as the engine's NET timeline does ({@code NetTrace}),
     * its times in µs from the first launch: when its lane sent it ({@code isend}), when it went
     * out on its links ({@code wire}, the simulator's alone) and when it arrived.
     */
    static Simulator.Timeline lines(StringBuilder out) {
        return (p, channel, from, to, seq, bytes, call, sent, wire, arrived) -> {
            String conn = " " + p.id() + " ch" + channel + " " + from + "->" + to + " #" + seq + " " + Math.round(bytes) + " call "
                    + call + "\n";
            out.append(String.format(Locale.ROOT, "timeline %.1f isend", sent)).append(conn);
            out.append(String.format(Locale.ROOT, "timeline %.1f wire", wire)).append(conn);
            out.append(String.format(Locale.ROOT, "timeline %.1f arrived", arrived)).append(conn);
        };
    }

    /** A call that is neither played (past the budget) nor predicted from exact runs. */
    static final class NotSimulated extends Exception {
        NotSimulated(String message) {
            super(message, null, false, false);
        }
    }

    private static void emit(Row r, List<Row> rows, PrintStream out) {
        rows.add(r);
        out.println(PerfTable.row(r.row(), false));
        if (!r.how().equals(CallSimulator.Estimate.EXACT)) {
            out.printf(Locale.ROOT, "#   %d ranks, %d B, %s/%s: %s%n", r.nranks(), r.row().size(), r.row().algorithm(),
                    r.row().protocol(), r.how());
        }
    }

    private static CallSimulator simulator(SimulateOptions o, Calibration cal, Config config, SimFabric fabric) {
        return o.gpus() ? CallSimulator.gpu((ClusterFabric) fabric, cal.costs("gpu"), config)
                : CallSimulator.host(fabric, cal.costs("host"), config);
    }

    private static long next(long bytes, int factor) {
        return bytes > Long.MAX_VALUE / factor ? Long.MAX_VALUE : bytes * factor;
    }

    static SimFabric fabric(SimulateOptions o, int servers) {
        if (o.topo() != null) {
            return ClusterFabric.of(TopoSystem.load(o.topo()), servers, o.net());
        }
        if (o.gpus()) {
            return new ClusterFabric(servers, o.perServer(), o.nvlinkGBps(), o.nics(), o.nicGbit(), o.net());
        }
        return new EmulatedFabric(ServerLayout.uniform(servers, o.perServer()), o.intraMbit(), o.interMbit(), o.nic());
    }

    /**
     * The row of one size, by the tuner's choice ({@code a} null) or by {@code a} in {@code p}:
     * played step by step within the budget; past it, on a GPU cluster, predicted from exact runs
     * on fewer nodes ({@link CallSimulator#estimate}, by {@code probe} of a node count).
     */
    private static Row row(CallSimulator sim, IntFunction<CallSimulator> probe, SimulateOptions o, PerfSizes sizes,
                           Algorithm a, Protocol p, boolean tuned) throws NotSimulated {
        Collective c = o.collective();
        int n = sim.simulator().fabric().nranks();
        CallSimulator.Estimate est;
        try {
            est = sim.estimate(c, sizes.count(), o.type(), a, p, o.budget(), o.gpus() && o.timeline() == null ? probe : null);
        } catch (IllegalArgumentException e) {
            String why = o.timeline() != null ? "; a timeline needs every message played"
                    : !o.gpus() ? "; the emulated fabric's ranks share one machine's cores, so fewer do not stand for more" : "";
            throw new NotSimulated(e.getMessage() + why + "; not simulated (a --budget of the call's steps plays it step by step)");
        }
        Choice choice = est.choice();
        double micros = est.micros();
        String how = est.how();
        long size = sizes.bytes();
        double algbw = BusBandwidth.gbps(size, micros);
        PerfColumn col = new PerfColumn(micros, algbw, algbw * BusBandwidth.factor(c, n), null);
        PerfRow row = new PerfRow(size, sizes.count(), PerfTable.typeName(o.type()), c.reduces() ? "sum" : "none",
                c.rooted() ? 0 : -1, choice.algorithm().id(), choice.protocol().id(), col,
                c == Collective.ALL_REDUCE || c == Collective.ALL_GATHER || c == Collective.REDUCE_SCATTER
                        || c == Collective.BROADCAST || c == Collective.REDUCE ? col : null);
        return new Row(n, tuned, choice.channels(), row, how);
    }

    private static String json(SimulateOptions o, List<String> fabrics, List<Row> rows) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("collective").value(o.collective().cliName());
        w.name("datatype").value(PerfTable.typeName(o.type()));
        w.name("fabrics").beginArray();
        for (String f : fabrics) {
            w.value(f);
        }
        w.endArray();
        w.name("rows").beginArray();
        for (Row r : rows) {
            PerfRow p = r.row();
            w.beginObject().name("ranks").value(r.nranks()).name("size").value(p.size()).name("count").value(p.count())
                    .name("algorithm").value(p.algorithm()).name("protocol").value(p.protocol()).name("channels").value(r.channels())
                    .name("tuned").value(r.tuned() ? "yes" : "no").name("how").value(r.how()).name("time_us").value(p.outOfPlace().timeUs())
                    .name("algbw").value(p.outOfPlace().algbw()).name("busbw").value(p.outOfPlace().busbw()).endObject();
        }
        w.endArray();
        return w.endObject().toString();
    }
}
