// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.sim.Calibration;
import io.jccl.sim.CallSimulator;
import io.jccl.sim.EmulatedFabric;
import io.jccl.topo.ServerLayout;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code jccl simcheck}: the simulator against measured runs. For each emulated fabric (servers ×
 * ranks, rail or shared NIC) it times {@code jccl perf} of each (collective, algorithm) on the
 * fabric ({@code jccl fabric}'s namespaces and tc shaping, the algorithm forced with JCCL_ALGO) in
 * several rounds, takes each size's median, and sets the simulator's prediction for the same call
 * beside it: the table of docs/simulator.md. Measurements go to a file as they are made
 * ({@code --save}) and a table can be made again from one ({@code --from}) with another
 * calibration, without measuring.
 */
final class SimCheckCommand {
    static final String USAGE = """
            usage: jccl simcheck [--fabrics 2x2,2x4,4x2] [--nics rail,shared] [--intra MBIT] [--inter MBIT] [--rounds N]
                                 [--cases COLL:ALGO,...] [--small 16K..1M] [--large 4M..64M] [--save FILE] [--from FILE]
                                 [--calibration FILE] [--again FILE]
              Times jccl perf on each emulated fabric (jccl fabric; root and iproute2) for each case, --rounds
              times (default 3), and prints each size's median beside the simulator's prediction, the error,
              and per band of sizes the mean absolute error and the largest: the validation of
              docs/simulator.md. Each size is checked once first (its connections made); sizes from --small
              are timed after 500 JIT warm-up calls and 20 warm-up calls for at least 300 ms, those of
              --large after 500 JIT warm-up calls and 1 warm-up call for at least 1000 ms; either is
              timed again until two rounds agree within 10% (perf's --min-time). The large sweep starts a
              size below --large's first and drops it (defaults 16K..1M and 4M..64M, by 4).
              --intra/--inter default 800 and 200 Mbit/s. --cases default: allreduce with ring, tree, hierring,
              torus2d and rhd; allgather and reducescatter with ring and pipeline.
              --save FILE appends every measured row to FILE (tab-separated) as it comes;
              --from FILE measures nothing and compares FILE's rows.
              --again FILE (with --from) sets FILE's medians (another run of the same cases) beside --from's
              instead of the prediction: how far the measurement reproduces itself.""";

    static final List<String> DEFAULT_CASES = List.of("allreduce:ring", "allreduce:tree", "allreduce:hierring", "allreduce:torus2d",
            "allreduce:rhd", "allgather:ring", "allgather:pipeline", "reducescatter:ring", "reducescatter:pipeline");

    /**
     * The large sizes' --min-time. Timed once after one warm-up call, a large size's first calls
     * still ran code the JIT was compiling again, since perf's JIT warm-up stops at 1 MiB
     * (docs/simulator.md, "Steady state at the large sizes").
     */
    static final long LARGE_MIN_MILLIS = 1000;

    private SimCheckCommand() {
    }

    record Options(List<int[]> fabrics, List<EmulatedFabric.Nic> nics, double intra, double inter, int rounds, List<String> cases,
                   long smallMin, long smallMax, long largeMin, long largeMax, Path save, Path from, Path calibration,
                   Path again) {
    }

    /** One measured time: which fabric, case and size, which round, and how perf ran it. */
    record Measured(int servers, int perServer, EmulatedFabric.Nic nic, double intra, double inter, Collective collective,
                    String algorithm, long size, int round, double micros, String ran) {
        String line() {
            return String.join("\t", servers + "x" + perServer, nic.name().toLowerCase(Locale.ROOT), fmt(intra), fmt(inter),
                    collective.cliName(), algorithm, Long.toString(size), Integer.toString(round), fmt(micros), ran);
        }

        static Measured parse(String line) {
            String[] f = line.split("\t");
            String[] sr = f[0].split("x");
            return new Measured(Integer.parseInt(sr[0]), Integer.parseInt(sr[1]), EmulatedFabric.Nic.parse(f[1]),
                    Double.parseDouble(f[2]), Double.parseDouble(f[3]), Collective.parse(f[4]), f[5], Long.parseLong(f[6]),
                    Integer.parseInt(f[7]), Double.parseDouble(f[8]), f[9]);
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    static Options parse(List<String> args) {
        ArgReader r = new ArgReader("simcheck", args);
        List<int[]> fabrics = new ArrayList<>(List.of(new int[] {2, 2}, new int[] {2, 4}, new int[] {4, 2}));
        List<EmulatedFabric.Nic> nics = new ArrayList<>(List.of(EmulatedFabric.Nic.RAIL, EmulatedFabric.Nic.SHARED));
        double intra = 800;
        double inter = 200;
        int rounds = 3;
        List<String> cases = DEFAULT_CASES;
        long[] small = {16 << 10, 1 << 20};
        long[] large = {4 << 20, 64 << 20};
        Path save = null;
        Path from = null;
        Path calibration = null;
        Path again = null;
        while (r.hasNext()) {
            String o = r.option("");
            switch (o) {
                case "--fabrics" -> {
                    fabrics = new ArrayList<>();
                    for (String f : r.value(o).split(",")) {
                        fabrics.add(r.shapeValue(o, f));
                    }
                }
                case "--nics" -> {
                    nics = new ArrayList<>();
                    for (String n : r.value(o).split(",")) {
                        try {
                            nics.add(EmulatedFabric.Nic.parse(n.trim()));
                        } catch (IllegalArgumentException e) {
                            throw r.error("option --nics: " + e.getMessage());
                        }
                    }
                }
                case "--intra" -> intra = r.intValue(o, 1, 100_000);
                case "--inter" -> inter = r.intValue(o, 1, 100_000);
                case "--rounds" -> rounds = r.intValue(o, 1, 100);
                case "--cases" -> cases = List.of(r.value(o).split(","));
                case "--small" -> small = range(r, o);
                case "--large" -> large = range(r, o);
                case "--save" -> save = Path.of(r.value(o));
                case "--from" -> from = Path.of(r.value(o));
                case "--calibration" -> calibration = Path.of(r.value(o));
                case "--again" -> again = Path.of(r.value(o));
                default -> throw r.unknown(o);
            }
        }
        for (String c : cases) {
            String[] p = c.split(":");
            try {
                Collective col = Collective.parse(p[0]);
                Algorithm a = Algorithm.parse(p[1]);
                io.jccl.algo.Algorithms.generator(col, a);
            } catch (RuntimeException e) {
                throw r.error("case '" + c + "' is not COLLECTIVE:ALGORITHM that jccl plans: " + e.getMessage());
            }
        }
        if (again != null && from == null) {
            throw r.error("option --again compares with --from's rows: give --from FILE too");
        }
        if (again != null && calibration != null) {
            throw r.error("option --again compares two measurements, no prediction: --calibration has no use with it");
        }
        return new Options(fabrics, nics, intra, inter, rounds, cases, small[0], small[1], large[0], large[1], save, from, calibration,
                again);
    }

    private static long[] range(ArgReader r, String o) {
        String v = r.value(o);
        String[] p = v.split("\\.\\.");
        if (p.length != 2) {
            throw r.error("option " + o + " takes MIN..MAX, like 16K..1M");
        }
        return new long[] {r.parseBytes(o, p[0]), r.parseBytes(o, p[1])};
    }

    static int run(Options o, PrintStream out, PrintStream err) {
        List<Measured> measured = new ArrayList<>();
        try {
            if (o.again() != null) {
                out.print(reproduce(read(o.from()), read(o.again())));
                return 0;
            }
            if (o.from() != null) {
                measured.addAll(read(o.from()));
            } else if (measure(o, measured, out, err) != 0) {
                return 1;
            }
        } catch (IOException | RuntimeException e) {
            err.println("jccl simcheck: " + e.getMessage());
            return 1;
        }
        Calibration cal;
        try {
            cal = Calibration.readOrBundled(o.calibration());
        } catch (IOException | IllegalArgumentException e) {
            err.println("jccl simcheck: calibration: " + e.getMessage());
            return 1;
        }
        out.print(compare(measured, cal));
        return 0;
    }

    /** The rows of a file that {@code --save} wrote, its comments and blank lines left out. */
    private static List<Measured> read(Path file) throws IOException {
        List<Measured> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                rows.add(Measured.parse(line));
            }
        }
        return rows;
    }

    private static int measure(Options o, List<Measured> measured, PrintStream out, PrintStream err) throws IOException {
        for (int[] sr : o.fabrics()) {
            for (EmulatedFabric.Nic nic : o.nics()) {
                Fabric.Nic fnic = nic == EmulatedFabric.Nic.RAIL ? Fabric.Nic.RAIL : Fabric.Nic.SHARED;
                try (Fabric f = Fabric.build(sr[0], sr[1], o.intra(), o.inter(), Fabric.DEFAULT_BURST_KIB, Placement.CONTIGUOUS, fnic)) {
                    for (String c : o.cases()) {
                        String[] p = c.split(":");
                        Collective col = Collective.parse(p[0]);
                        for (int round = 0; round < o.rounds(); round++) {
                            for (boolean small : new boolean[] {true, false}) {
                                List<String> perf = perfCommand(col, small, o);
                                String text = FabricCommand.capture(f, perf, Map.of("JCCL_ALGO", p[1]), 1800, err);
                                if (text == null) {
                                    return 1;
                                }
                                for (String line : text.split("\n")) {
                                    String[] w = line.trim().split("\\s+");
                                    if (line.startsWith("#") || w.length <= PerfTable.ALGO_PROTO) {
                                        continue;
                                    }
                                    long size = Long.parseLong(w[0]);
                                    if (!small && size < o.largeMin()) {
                                        continue; // the large sweep's first size, run to warm it up
                                    }
                                    Measured m = new Measured(sr[0], sr[1], nic, o.intra(), o.inter(), col, p[1], size,
                                            round, Double.parseDouble(w[PerfTable.TIME]), w[PerfTable.ALGO_PROTO]);
                                    measured.add(m);
                                    out.println("# measured " + m.line().replace('\t', ' '));
                                    out.flush();
                                    if (o.save() != null) {
                                        Files.writeString(o.save(), m.line() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return 0;
    }

    /**
     * The perf command of one band of one case: the small sizes, or the large ones after a sweep
     * step below them (dropped from the rows).
     */
    static List<String> perfCommand(Collective col, boolean small, Options o) {
        return new ArrayList<>(List.of("perf", col.cliName(),
                "-b", Long.toString(small ? o.smallMin() : o.largeMin() / 4),
                "-e", Long.toString(small ? o.smallMax() : o.largeMax()), "-f", "4", "-c", "1",
                "--jit_warmup", "500", "-n", "1", "-w", small ? "20" : "1",
                "--min-time", small ? "300" : Long.toString(LARGE_MIN_MILLIS)));
    }

    /** The table: per fabric, case and size, the median measured and the prediction; then the bands' errors. */
    static String compare(List<Measured> measured, Calibration cal) {
        Map<String, List<Measured>> groups = groups(measured);
        StringBuilder b = new StringBuilder();
        b.append("| fabric | NIC | collective | algorithm | size | ran | measured µs (median of n; min-max) | predicted µs | error |\n");
        b.append("|---|---|---|---|---|---|---|---|---|\n");
        Map<String, CallSimulator> sims = new LinkedHashMap<>();
        List<double[]> bySize = new ArrayList<>();
        Map<String, List<Double>> byCase = new LinkedHashMap<>();
        for (List<Measured> g : groups.values()) {
            Measured m = g.getFirst();
            double[] t = times(g);
            double median = median(t);
            String key = m.servers() + "x" + m.perServer() + "/" + m.nic() + "/" + m.intra() + "/" + m.inter() + "/" + m.algorithm();
            CallSimulator sim = sims.computeIfAbsent(key, k -> CallSimulator.host(
                    new EmulatedFabric(ServerLayout.uniform(m.servers(), m.perServer()), m.intra(), m.inter(), m.nic()),
                    cal.costs("host"), Config.defaults().withAlgorithms(m.algorithm())));
            PerfSizes sizes = PerfSizes.of(m.collective(), DataType.FLOAT32, m.servers() * m.perServer(), m.size());
            CallSimulator.Prediction p = sim.predict(m.collective(), sizes.count(), DataType.FLOAT32);
            String predictedRan = p.choice().algorithm().id() + "/" + p.choice().protocol().id();
            double error = (p.micros() - median) / median;
            bySize.add(new double[] {m.size(), Math.abs(error)});
            if (m.size() >= 256 << 10) {
                byCase.computeIfAbsent(String.format(Locale.ROOT, "| %dx%d | %s | %s | %s |", m.servers(), m.perServer(),
                        m.nic().name().toLowerCase(Locale.ROOT), m.collective().cliName(), m.algorithm()), k -> new ArrayList<>()).add(error);
            }
            b.append(String.format(Locale.ROOT, "| %dx%d | %s | %s | %s | %s | %s | %.0f (%d; %.0f-%.0f) | %.0f%s | %+.1f%% |%n",
                    m.servers(), m.perServer(), m.nic().name().toLowerCase(Locale.ROOT), m.collective().cliName(), m.algorithm(),
                    PerfPlot.sizeLabel(m.size()), m.ran(), median, t.length, t[0], t[t.length - 1], p.micros(),
                    predictedRan.equals(m.ran()) ? "" : " (" + predictedRan + ")", 100 * error));
        }
        b.append('\n');
        b.append("| fabric | NIC | collective | algorithm | sizes from 256 KiB | mean absolute error | largest | signed mean |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Double>> e : byCase.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            b.append(String.format(Locale.ROOT, "%s %d | %.1f%% | %.1f%% | %+.1f%% |%n", e.getKey(), v.length,
                    100 * Arrays.stream(v).map(Math::abs).average().orElse(0), 100 * Arrays.stream(v).map(Math::abs).max().orElse(0),
                    100 * Arrays.stream(v).average().orElse(0)));
        }
        b.append('\n');
        band(b, bySize, "below 256 KiB", 0, 256 << 10, "error");
        band(b, bySize, "256 KiB to 64 MiB", 256 << 10, (64L << 20) + 1, "error");
        return b.toString();
    }

    /**
     * Two runs of the same cases set side by side, size by size: each one's median and the second's
     * difference from the first, then per band of sizes the mean absolute difference, the largest
     * and how many differ by more than 10 %. A model between two medians errs against one of them
     * by at least half their difference.
     */
    static String reproduce(List<Measured> first, List<Measured> second) {
        Map<String, List<Measured>> again = groups(second);
        StringBuilder b = new StringBuilder();
        b.append("| fabric | NIC | collective | algorithm | size | first: µs (median of n; min-max) | again | difference |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        List<double[]> bySize = new ArrayList<>();
        for (Map.Entry<String, List<Measured>> e : groups(first).entrySet()) {
            List<Measured> g2 = again.get(e.getKey());
            if (g2 == null) {
                continue;
            }
            Measured m = e.getValue().getFirst();
            double[] t1 = times(e.getValue());
            double[] t2 = times(g2);
            double m1 = median(t1);
            double m2 = median(t2);
            double d = (m2 - m1) / m1;
            bySize.add(new double[] {m.size(), Math.abs(d)});
            b.append(String.format(Locale.ROOT, "| %dx%d | %s | %s | %s | %s | %.0f (%d; %.0f-%.0f) | %.0f (%d; %.0f-%.0f) | %+.1f%% |%n",
                    m.servers(), m.perServer(), m.nic().name().toLowerCase(Locale.ROOT), m.collective().cliName(), m.algorithm(),
                    PerfPlot.sizeLabel(m.size()), m1, t1.length, t1[0], t1[t1.length - 1], m2, t2.length, t2[0],
                    t2[t2.length - 1], 100 * d));
        }
        if (bySize.isEmpty()) {
            b.append("# no case and size measured in both\n");
            return b.toString();
        }
        b.append('\n');
        band(b, bySize, "below 256 KiB", 0, 256 << 10, "difference");
        band(b, bySize, "256 KiB to 64 MiB", 256 << 10, (64L << 20) + 1, "difference");
        return b.toString();
    }

    /** Rows by fabric, case and size, in the order first seen. */
    private static Map<String, List<Measured>> groups(List<Measured> measured) {
        Map<String, List<Measured>> groups = new LinkedHashMap<>();
        for (Measured m : measured) {
            groups.computeIfAbsent(m.servers() + "x" + m.perServer() + "/" + m.nic() + "/" + m.intra() + "/" + m.inter() + "/"
                    + m.collective() + "/" + m.algorithm() + "/" + m.size(), k -> new ArrayList<>()).add(m);
        }
        return groups;
    }

    private static double[] times(List<Measured> g) {
        return g.stream().mapToDouble(Measured::micros).sorted().toArray();
    }

    /** The median of sorted times: the middle one, or the mean of the middle two. */
    private static double median(double[] t) {
        return t.length % 2 == 1 ? t[t.length / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;
    }

    /** Per band of sizes: how many, the mean absolute {@code what} (error or difference), the largest, how many over 10 %. */
    private static void band(StringBuilder b, List<double[]> bySize, String name, long lo, long hi, String what) {
        double[] e = bySize.stream().filter(x -> x[0] >= lo && x[0] < hi).mapToDouble(x -> x[1]).toArray();
        if (e.length == 0) {
            return;
        }
        b.append(String.format(Locale.ROOT, "# %s: %d sizes, mean absolute %s %.1f%%, largest %.1f%%, over 10%%: %d%n", name, e.length,
                what, 100 * Arrays.stream(e).average().orElse(0), 100 * Arrays.stream(e).max().orElse(0),
                Arrays.stream(e).filter(x -> x > 0.10).count()));
    }
}
