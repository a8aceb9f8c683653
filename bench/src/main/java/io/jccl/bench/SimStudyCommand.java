// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.sim.Calibration;
import io.jccl.sim.CallSimulator;
import io.jccl.sim.ClusterFabric;
import io.jccl.sim.ScaledPrediction;
import io.jccl.sim.SimCosts;
import io.jccl.tune.Choice;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code jccl simstudy}: the scaling study of docs/simulator.md. All-reduce time against the rank
 * count for several algorithms and sizes on a GPU cluster, each point simulated exactly where it
 * is affordable, else predicted from exact runs by {@link ScaledPrediction} (ring, hierarchical
 * ring, 2D torus, tree), else left out; beside NCCL's model for the same call (ring and tree).
 */
final class SimStudyCommand {
    static final String USAGE = """
            usage: jccl simstudy [--nodes LIST] [--sizes LIST] [--algos LIST] [--budget STEPS] [--net NET]
                                 [--plot FILE.svg] [--md FILE]
              All-reduce (float) on nodes of 8 GPUs (NVLink 450 GB/s, a 400 Gbit/s NIC per GPU, NET default
              fat-tree), one call alone, each algorithm in the protocol and on the channels the GPU tuner gives
              it. A point is simulated exactly when it plays at most --budget steps (default 24M); beyond that
              ring, hierring and torus2d are predicted from two exact runs at their bytes per step (the
              largest exact node counts within a quarter of the budget; not where a step moves under one
              element), the tree by its law through its two largest exact points on 2 nodes or more
              (ScaledPrediction); the others are left out ("-"). Beside each ring and tree point, NCCL's
              model's time for the same call (NcclModel). PAT has no all-reduce of its own (as in NCCL):
              its row is its reduce-scatter then its all-gather, at least one element per GPU.
              --nodes default 1,2,4,...,2048 (8 to 16,384 GPUs); --sizes default 8,1M,1G;
              --algos default ring,tree,hierring,torus2d,pat,rhd. Run with JDK_JAVA_OPTIONS=-Xmx10g.""";

    /** One point of the study: {@code steps} those an exact simulation plays (whether or not it was played). */
    record Point(int ranks, long size, Algorithm algorithm, String protocol, int channels, long steps, double micros, String how,
                 double ncclModel) {
    }

    private SimStudyCommand() {
    }

    static int run(List<String> args, PrintStream out) {
        ArgReader r = new ArgReader("simstudy", args);
        List<Integer> nodes = new ArrayList<>();
        for (int n = 1; n <= 2048; n *= 2) {
            nodes.add(n);
        }
        List<Long> sizes = List.of(8L, 1L << 20, 1L << 30);
        List<Algorithm> algos = List.of(Algorithm.RING, Algorithm.TREE, Algorithm.HIER_RING, Algorithm.TORUS_2D, Algorithm.PAT,
                Algorithm.RHD);
        long budget = 24_000_000L;
        ClusterFabric.Net net = ClusterFabric.Net.parse("fat-tree");
        Path plot = null;
        Path md = null;
        while (r.hasNext()) {
            String o = r.option("");
            switch (o) {
                case "--nodes" -> nodes = r.intListValue(o, 1, 1 << 16);
                case "--sizes" -> sizes = r.longListValue(o);
                case "--algos" -> algos = r.algorithmListValue(o);
                case "--budget" -> budget = r.bytesValue(o);
                case "--net" -> {
                    try {
                        net = ClusterFabric.Net.parse(r.value(o));
                    } catch (IllegalArgumentException e) {
                        throw r.error("option --net: " + e.getMessage());
                    }
                }
                case "--plot" -> plot = Path.of(r.value(o));
                case "--md" -> md = Path.of(r.value(o));
                default -> throw r.unknown(o);
            }
        }
        List<Point> points = study(nodes, sizes, algos, budget, net, out);
        String table = table(points);
        out.print(table);
        try {
            if (md != null) {
                Files.writeString(md, table);
            }
            if (plot != null) {
                Files.writeString(plot, svg(points, sizes, algos, new ClusterFabric(nodes.getLast(), 8, 450, 8, 400, net).describe()));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("writing the study", e);
        }
        return 0;
    }

    /** The study's points, size by size, algorithm by algorithm, nodes ascending; progress on {@code log}. */
    static List<Point> study(List<Integer> nodes, List<Long> sizes, List<Algorithm> algos, long budget, ClusterFabric.Net net,
                             PrintStream log) {
        SimCosts gpu = Calibration.bundled().costs("gpu");
        Map<Integer, CallSimulator> sims = new HashMap<>();
        java.util.function.IntFunction<CallSimulator> sim = n -> sims.computeIfAbsent(n,
                k -> CallSimulator.gpu(new ClusterFabric(k, 8, 450, 8, 400, net), gpu, Config.defaults()).withCalls(1));
        List<Point> points = new ArrayList<>();
        for (long size : sizes) {
            for (Algorithm a : algos) {
                // exact points of this algorithm and size on 2 nodes or more, by protocol: nodes, µs, steps
                Map<Protocol, List<double[]>> exact = new HashMap<>();
                for (int n : nodes) {
                    Point p = point(sim.apply(n), n, size, a, budget, exact, sim);
                    points.add(p);
                    log.printf(Locale.ROOT, "# %d ranks, %d B, %s: %s%n", p.ranks(), size, a.id(), p.how());
                    log.flush();
                }
            }
        }
        return points;
    }

    private static Point point(CallSimulator s, int nodes, long size, Algorithm a, long budget, Map<Protocol, List<double[]>> exact,
                               java.util.function.IntFunction<CallSimulator> sim) {
        int ranks = nodes * 8;
        long count = size / DataType.FLOAT32.size();
        boolean pat = a == Algorithm.PAT;
        Collective first = pat ? Collective.REDUCE_SCATTER : Collective.ALL_REDUCE;
        long firstCount = pat ? Math.max(1, count / ranks) : count;
        Choice choice;
        long steps;
        try {
            choice = s.choice(first, firstCount, DataType.FLOAT32, a);
            steps = s.steps(first, firstCount, DataType.FLOAT32, a) * (pat ? 2 : 1);
        } catch (RuntimeException e) {
            return new Point(ranks, size, a, "-", 0, 0, Double.NaN, "not planned: " + e.getMessage(), Double.NaN);
        }
        double model = a == Algorithm.RING || a == Algorithm.TREE ? choice.predictedMicros() : Double.NaN;
        String proto = choice.protocol().id();
        if (steps <= budget) {
            double us = s.predict(first, firstCount, DataType.FLOAT32, a).micros();
            if (pat) {
                us += s.predict(Collective.ALL_GATHER, firstCount, DataType.FLOAT32, a).micros();
            }
            if (nodes >= 2) {
                exact.computeIfAbsent(choice.protocol(), k -> new ArrayList<>()).add(new double[] {nodes, us, steps});
            }
            return new Point(ranks, size, a, proto, choice.channels(), steps, us, String.format(Locale.ROOT, "exact, %,d steps", steps), model);
        }
        if (!ScaledPrediction.scales(Collective.ALL_REDUCE, a)) {
            return new Point(ranks, size, a, proto, choice.channels(), steps, Double.NaN,
                    String.format(Locale.ROOT, "not simulated: %,d steps", steps), model);
        }
        if (ScaledPrediction.atItsStep(a)) {
            // The probes play as many steps as the exact runs on as many nodes: the two largest of
            // those (any protocol: the probes run in the target's) within a quarter of the budget.
            List<double[]> cheap = exact.values().stream().flatMap(List::stream).filter(k -> (long) k[2] * 4 <= budget)
                    .sorted(java.util.Comparator.comparingDouble(k -> k[0])).toList();
            if (cheap.size() < 2) {
                return new Point(ranks, size, a, proto, choice.channels(), steps, Double.NaN,
                        "not simulated: fewer than two exact points within a quarter of the budget", model);
            }
            int n1 = (int) cheap.get(cheap.size() - 2)[0];
            int n2 = (int) cheap.get(cheap.size() - 1)[0];
            double us;
            try {
                us = new ScaledPrediction(sim, n1, n2).micros(nodes, Collective.ALL_REDUCE, size, DataType.FLOAT32, a,
                        choice.protocol());
            } catch (IllegalArgumentException e) {
                return new Point(ranks, size, a, proto, choice.channels(), steps, Double.NaN, "not simulated: " + e.getMessage(), model);
            }
            return new Point(ranks, size, a, proto, choice.channels(), steps, us,
                    String.format(Locale.ROOT, "at its step from %d and %d ranks", n1 * 8, n2 * 8), model);
        }
        List<double[]> known = exact.getOrDefault(choice.protocol(), List.of());
        if (known.size() < 2) {
            return new Point(ranks, size, a, proto, choice.channels(), steps, Double.NaN,
                    "not simulated: fewer than two exact points in " + proto, model);
        }
        double[] p1 = known.get(known.size() - 2);
        double[] p2 = known.get(known.size() - 1);
        double us = new ScaledPrediction.Fit(a, 8, (int) p1[0], p1[1], (int) p2[0], p2[1]).at(nodes);
        return new Point(ranks, size, a, proto, choice.channels(), steps, us,
                String.format(Locale.ROOT, "law from %d and %d ranks", (int) p1[0] * 8, (int) p2[0] * 8), model);
    }

    static String table(List<Point> points) {
        StringBuilder b = new StringBuilder();
        b.append("| ranks | size | algorithm | protocol | channels | simulated µs | how | NCCL's model µs |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        for (Point p : points) {
            b.append(String.format(Locale.ROOT, "| %d | %sB | %s | %s | %d | %s | %s | %s |%n", p.ranks(), PerfPlot.sizeLabel(p.size()),
                    p.algorithm().id(), p.protocol(), p.channels(), micros(p.micros()), p.how(), micros(p.ncclModel())));
        }
        return b.toString();
    }

    private static String micros(double us) {
        return Double.isNaN(us) ? "-" : us >= 100 ? String.format(Locale.ROOT, "%,.0f", us) : String.format(Locale.ROOT, "%.1f", us);
    }

    /** Time against ranks, a panel per size: a line per algorithm, NCCL's model dashed. */
    static String svg(List<Point> points, List<Long> sizes, List<Algorithm> algos, String fabric) {
        int w = 760;
        int h = 420;
        List<String> panels = new ArrayList<>();
        int i = 0;
        for (long size : sizes) {
            SvgChart chart = new SvgChart("all-reduce of " + PerfPlot.sizeLabel(size) + "B: time against ranks", "ranks", "time (µs)",
                    true, true);
            for (Algorithm a : algos) {
                Map<String, List<double[]>> lines = new LinkedHashMap<>();
                for (Point p : points) {
                    if (p.size() == size && p.algorithm() == a) {
                        if (!Double.isNaN(p.micros())) {
                            lines.computeIfAbsent(a.id(), k -> new ArrayList<>()).add(new double[] {p.ranks(), p.micros()});
                        }
                        if (!Double.isNaN(p.ncclModel())) {
                            lines.computeIfAbsent(a.id() + " (NCCL's model)", k -> new ArrayList<>()).add(new double[] {p.ranks(),
                                p.ncclModel()});
                        }
                    }
                }
                for (Map.Entry<String, List<double[]>> e : lines.entrySet()) {
                    double[] x = e.getValue().stream().mapToDouble(v -> v[0]).toArray();
                    double[] y = e.getValue().stream().mapToDouble(v -> v[1]).toArray();
                    chart.line(new SvgChart.Series(e.getKey(), x, y, e.getKey().endsWith("model)")));
                }
            }
            panels.add(chart.svg((i % 2) * w, (i / 2) * h, w, h));
            i++;
        }
        int rows = (sizes.size() + 1) / 2;
        panels.add(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-size=\"11\">%s</text>%n", rows * h + 16,
                SvgChart.escape("jccl simstudy: " + fabric + "; solid: simulated (exact, or the scaling law past the budget); dashed: NCCL's model")));
        return SvgChart.document(2 * w, rows * h + 24, panels);
    }
}
