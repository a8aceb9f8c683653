// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.bench.jmh.CollectiveBench;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.tune.Choice;
import io.jccl.tune.Tuner;
import io.jccl.tune.TuningTable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code jccl calibrate}: runs {@link CollectiveBench} through JMH's Runner for every cell of the grid
 * (collective × rank count × size × algorithm × protocol, each forced through the configuration),
 * printing a progress line per cell, and writes the tuning table. With {@code --against} it also
 * judges a table and the untuned model on the cells just measured: for each cell, the time of the
 * choice they make over the best time measured.
 */
final class CalibrateCommand {
    /** Calibration runs its ranks as threads of this process: one server, where the flat algorithms are weighed. */
    private static final io.jccl.topo.ServerLayout ONE_HOST = io.jccl.topo.ServerLayout.single(1);

    /** Sizes up to this are timed in batches of {@link CollectiveBench#BATCH} calls, larger ones one by one. */
    static final long BATCHED_MAX_BYTES = 256 << 10;

    /** Smallest size at which a slow combination counts towards being dropped. */
    static final long DROP_MIN_BYTES = 64 << 10;

    private final CalibrateOptions o;
    private final PrintStream out;
    private final PrintStream progress;
    private final Map<Integer, Tuner[]> judges = new HashMap<>();

    private CalibrateCommand(CalibrateOptions o, PrintStream out, PrintStream progress) {
        this.o = o;
        this.out = out;
        this.progress = progress;
    }

    static int run(CalibrateOptions o, PrintStream out, PrintStream err) {
        return new CalibrateCommand(o, out, err).calibrate();
    }

    private record Cell(Collective collective, int ranks, long bytes) {
    }

    private int calibrate() {
        Config base = Config.fromEnvironment().withTuningFile(null);
        boolean judging = o.against() != null;
        if (judging) {
            judges(base, o.ranks().getFirst()); // a bad table fails before the measuring starts
        }
        int total = 0;
        for (Collective c : o.collectives()) {
            total += o.ranks().size() * o.sizes().size() * Algorithms.weighed(c, ONE_HOST).size() * Protocol.values().length;
        }
        warmUp();
        List<TuningTable.Entry> entries = new ArrayList<>();
        Map<Cell, Map<String, Double>> measured = new LinkedHashMap<>();
        int done = 0;
        long started = System.nanoTime();
        for (Collective c : o.collectives()) {
            for (int n : o.ranks()) {
                Map<String, Integer> slowStreak = new HashMap<>();
                for (long bytes : o.sizes()) {
                    PerfSizes size = PerfSizes.of(c, o.type(), n, bytes);
                    if (size.count() == 0) {
                        done += Algorithms.weighed(c, ONE_HOST).size() * Protocol.values().length;
                        continue;
                    }
                    Cell cell = new Cell(c, n, size.bytes());
                    List<String> mustMeasure = !judging ? List.of()
                            : List.of(key(choice(judges(base, n)[0], c, size)), key(choice(judges(base, n)[1], c, size)));
                    List<TuningTable.Result> results = new ArrayList<>();
                    Map<String, Double> times = new LinkedHashMap<>();
                    for (Algorithm a : Algorithms.weighed(c, ONE_HOST)) {
                        for (Protocol p : Protocol.values()) {
                            done++;
                            String k = a.id() + "/" + p.id();
                            if (slowStreak.getOrDefault(k, 0) >= 2 && !mustMeasure.contains(k)) {
                                progress.printf(Locale.ROOT, "calibrate [%d/%d] %s %d ranks %d B %s: dropped%n", done, total,
                                        c.cliName(), n, size.bytes(), k);
                                continue;
                            }
                            Config forced = base.withAlgorithms(a.id()).withProtocols(p.id());
                            double us = measure(c, a, p, n, size.bytes());
                            int channels = Tuner.create(forced, n, 1).channels(size.bytes(), p);
                            results.add(new TuningTable.Result(a, p, channels, us));
                            times.put(k, us);
                            progress.printf(Locale.ROOT, "calibrate [%d/%d] %s %d ranks %d B %s: %.2f us (%s elapsed)%n",
                                    done, total, c.cliName(), n, size.bytes(), k, us, elapsed(started));
                        }
                    }
                    double best = times.values().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
                    // Small calls are all latency and their times scatter; only calls large enough to
                    // be bandwidth-bound count towards dropping a combination, twice in a row.
                    if (o.dropFactor() > 0 && size.bytes() >= DROP_MIN_BYTES) {
                        times.forEach((k, t) -> slowStreak.put(k, t > o.dropFactor() * best ? slowStreak.getOrDefault(k, 0) + 1 : 0));
                    }
                    entries.add(new TuningTable.Entry(c, n, size.bytes(), results));
                    measured.put(cell, times);
                }
            }
        }
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("created", Instant.now().toString());
        about.put("engine", "host");
        about.put("cores", (long) Runtime.getRuntime().availableProcessors());
        about.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        about.put("type", PerfTable.typeName(o.type()));
        about.put("command", "jccl calibrate " + describe());
        TuningTable table = new TuningTable(about, entries);
        try {
            Files.writeString(o.output(), table.toJson());
        } catch (IOException e) {
            progress.println("jccl calibrate: cannot write " + o.output() + ": " + e.getMessage());
            return 1;
        }
        out.printf(Locale.ROOT, "# tuning table: %s (%d entries, %s)%n", o.output(), entries.size(), elapsed(started));
        printBest(table);
        if (judging) {
            judge(base, measured);
        }
        return 0;
    }

    /**
     * In one JVM (no forks) the first cells would otherwise time the interpreter and the JIT at
     * work: every combination of the grid runs briefly at a few small sizes first, results unused.
     */
    private void warmUp() {
        if (o.jitWarmupMillis() == 0 || o.forks() > 0) {
            return;
        }
        long started = System.nanoTime();
        for (Collective c : o.collectives()) {
            for (int n : o.ranks()) {
                for (Algorithm a : Algorithms.weighed(c, ONE_HOST)) {
                    for (Protocol p : Protocol.values()) {
                        for (long bytes : new long[] {64L * n, 4096L * n, 65536L * n}) {
                            measure(c, a, p, n, PerfSizes.of(c, o.type(), n, bytes).bytes(), 0, 1, o.jitWarmupMillis());
                        }
                    }
                }
            }
        }
        progress.printf(Locale.ROOT, "calibrate: JIT warm-up over every combination took %s%n", elapsed(started));
    }

    private String describe() {
        return "-c " + String.join(",", o.collectives().stream().map(Collective::cliName).toList()) + " -t "
                + String.join(",", o.ranks().stream().map(String::valueOf).toList()) + " -b " + o.sizes().getFirst() + " -e "
                + o.sizes().getLast() + " -d " + PerfTable.typeName(o.type()) + " -w " + o.warmups() + " -n " + o.iterations()
                + " --time " + o.millis() + " --forks " + o.forks();
    }

    private static String elapsed(long started) {
        long s = (System.nanoTime() - started) / 1_000_000_000L;
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    private static String key(Choice c) {
        return c.algorithm().id() + "/" + c.protocol().id();
    }

    /** For {@code n} ranks: the tuner of the judged table and the untuned model's, each made once. */
    private Tuner[] judges(Config base, int n) {
        return judges.computeIfAbsent(n, k -> new Tuner[] {Tuner.create(base.withTuningFile(o.against()), k, 1),
            Tuner.create(base, k, 1)});
    }

    private Choice choice(Tuner t, Collective c, PerfSizes size) {
        return t.choose(c, size.count(), o.type().size(), 0);
    }

    private void printBest(TuningTable t) {
        out.println("# best measured per cell");
        out.printf(Locale.ROOT, "# %13s %6s %12s  %-16s %10s%n", "collective", "ranks", "size (B)", "best", "time (us)");
        for (TuningTable.Entry e : t.entries()) {
            TuningTable.Result b = e.best();
            if (b != null) {
                out.printf(Locale.ROOT, "  %13s %6d %12d  %-16s %10.2f%n", e.collective().cliName(), e.ranks(), e.bytes(),
                        b.algorithm().id() + "/" + b.protocol().id(), b.micros());
            }
        }
    }

    /** For every cell: the judged table's choice and the model's, as times over the best measured. */
    private void judge(Config base, Map<Cell, Map<String, Double>> measured) {
        out.println("# --against " + o.against() + ": time of each choice / best time measured now");
        out.printf(Locale.ROOT, "# %13s %6s %12s  %-16s %-16s %7s  %-16s %7s%n", "collective", "ranks", "size (B)", "best",
                "table's choice", "ratio", "model's choice", "ratio");
        double worstTable = 1;
        double worstModel = 1;
        for (Map.Entry<Cell, Map<String, Double>> e : measured.entrySet()) {
            Cell cell = e.getKey();
            Map<String, Double> times = e.getValue();
            PerfSizes size = PerfSizes.of(cell.collective(), o.type(), cell.ranks(), cell.bytes());
            String bestKey = null;
            for (Map.Entry<String, Double> t : times.entrySet()) {
                if (bestKey == null || t.getValue() < times.get(bestKey)) {
                    bestKey = t.getKey();
                }
            }
            String tk = key(choice(judges(base, cell.ranks())[0], cell.collective(), size));
            String mk = key(choice(judges(base, cell.ranks())[1], cell.collective(), size));
            double tr = times.get(tk) / times.get(bestKey);
            double mr = times.get(mk) / times.get(bestKey);
            worstTable = Math.max(worstTable, tr);
            worstModel = Math.max(worstModel, mr);
            out.printf(Locale.ROOT, "  %13s %6d %12d  %-16s %-16s %7.3f  %-16s %7.3f%n", cell.collective().cliName(), cell.ranks(),
                    cell.bytes(), bestKey, tk, tr, mk, mr);
        }
        out.printf(Locale.ROOT, "# worst ratio: table %.3f, model %.3f%n", worstTable, worstModel);
    }

    private double measure(Collective c, Algorithm a, Protocol p, int n, long bytes) {
        return measure(c, a, p, n, bytes, o.warmups(), o.iterations(), o.millis());
    }

    private double measure(Collective c, Algorithm a, Protocol p, int n, long bytes, int warmups, int iterations, int millis) {
        String method = bytes <= BATCHED_MAX_BYTES ? "batched" : "single";
        Options opt = new OptionsBuilder()
                .include(java.util.regex.Pattern.quote(CollectiveBench.class.getName() + "." + method) + "$")
                .param("collective", c.cliName()).param("algorithm", a.id()).param("protocol", p.id())
                .param("ranks", Integer.toString(n)).param("bytes", Long.toString(bytes))
                .param("type", PerfTable.typeName(o.type()))
                .forks(o.forks()).warmupIterations(warmups).warmupTime(TimeValue.milliseconds(millis))
                .measurementIterations(iterations).measurementTime(TimeValue.milliseconds(millis))
                .shouldFailOnError(true).verbosity(VerboseMode.SILENT).build();
        try {
            RunResult r = new Runner(opt).runSingle();
            return r.getPrimaryResult().getScore();
        } catch (RunnerException e) {
            throw new IllegalStateException("JMH failed on " + c.cliName() + " " + a.id() + "/" + p.id() + " " + n + " ranks "
                    + bytes + " B: " + e.getMessage(), e);
        }
    }
}
