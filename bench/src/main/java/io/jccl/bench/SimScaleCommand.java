// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.proto.Protocol;
import io.jccl.sim.Calibration;
import io.jccl.sim.CallSimulator;
import io.jccl.sim.ClusterFabric;
import io.jccl.sim.ScaledPrediction;
import io.jccl.sim.SimCosts;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code jccl simscale}: the simulator's benchmark at scale. An all-reduce by ring and by tree on a
 * GPU cluster (8 GPUs per node, 400 Gbit/s per GPU, fat-tree), played exactly at {@code --exact}
 * nodes (wall time, peak heap, steps and events), then predicted at the same size from exact runs
 * on an eighth and a quarter of those nodes ({@link ScaledPrediction}) and set beside the exact
 * time, then predicted at {@code --scaled} nodes the same way, with its wall time.
 */
final class SimScaleCommand {
    static final String USAGE = """
            usage: jccl simscale [--exact NODES] [--scaled NODES] [--from NODES,NODES] [--size BYTES] [--net NET]
                                 [--algos LIST] [--collective C]
              C (default allreduce; float, Simple) by each of --algos (default ring,tree) on NODES x 8 GPUs (400
              Gbit/s NIC per GPU, NVLink 450 GB/s, NET default fat-tree): played exactly on --exact nodes
              (default 128: 1,024 ranks), wall time and peak heap; predicted from exact runs on --from
              nodes and compared; then predicted on --scaled nodes (default 2048: 16,384 ranks) the same
              way, wall time. ScaledPrediction's methods: a ring at the target's bytes per step, from an
              eighth and a quarter of --exact unless --from; a tree by its law at the call's size, from a
              quarter and a half of --exact unless --from (probes of at least two leaves, whose messages
              cross the spine as the target's do).
              One call alone each (no back-to-back calls). Run with JDK_JAVA_OPTIONS=-Xmx4g to hold it
              to 4 GiB. --size default 1G (perf's size column: for all-gather and reduce-scatter, a
              rank's block times the ranks).""";

    private SimScaleCommand() {
    }

    static int run(List<String> args, PrintStream out) {
        ArgReader r = new ArgReader("simscale", args);
        int exact = 128;
        int scaled = 2048;
        List<Integer> from = null;
        List<Algorithm> algos = List.of(Algorithm.RING, Algorithm.TREE);
        long size = 1L << 30;
        ClusterFabric.Net net = ClusterFabric.Net.parse("fat-tree");
        Collective c = Collective.ALL_REDUCE;
        while (r.hasNext()) {
            String o = r.option("");
            switch (o) {
                case "--exact" -> exact = r.intValue(o, 8, 1 << 16);
                case "--scaled" -> scaled = r.intValue(o, 8, 1 << 20);
                case "--size" -> size = r.bytesValue(o);
                case "--collective" -> c = r.collectiveValue(o);
                case "--algos" -> algos = r.algorithmListValue(o);
                case "--from" -> {
                    from = r.intListValue(o, 2, 1 << 16);
                    if (from.size() != 2 || from.get(1) < 2 * from.get(0)) {
                        throw r.error("option --from: two node counts, the second at least twice the first");
                    }
                }
                case "--net" -> {
                    try {
                        net = ClusterFabric.Net.parse(r.value(o));
                    } catch (IllegalArgumentException e) {
                        throw r.error("option --net: " + e.getMessage());
                    }
                }
                default -> throw r.unknown(o);
            }
        }
        if (from == null && exact % 8 != 0) {
            throw r.error("--exact must be a multiple of 8 (it is predicted from an eighth, a quarter or a half of it) unless --from is given");
        }
        SimCosts gpu = Calibration.bundled().costs("gpu");
        ClusterFabric.Net n = net;
        java.util.function.IntFunction<CallSimulator> sim = nodes -> CallSimulator.gpu(new ClusterFabric(nodes, 8, 450, 8, 400, n), gpu,
                Config.defaults()).withCalls(1);
        HeapPeak peak = new HeapPeak();
        for (Algorithm a : algos) {
            if (!Algorithms.supported(c).contains(a)) {
                throw r.error("option --algos: " + a.id() + " does not run " + c.cliName());
            }
            if (!ScaledPrediction.scales(c, a)) {
                throw r.error("option --algos: " + a.id() + " has no scaled prediction of " + c.cliName() + " (" + ScaledPrediction.LAWS + ")");
            }
        }
        out.printf(Locale.ROOT, "# jccl simscale: %s of %d B, float, Simple, on nodes of 8 GPUs (%s); max heap %d MiB%n", c.cliName(), size,
                new ClusterFabric(exact, 8, 450, 8, 400, net).describe(), Runtime.getRuntime().maxMemory() >> 20);
        out.println("| algorithm | ranks | how | predicted µs | wall s | peak heap MiB | steps | events |");
        out.println("|---|---|---|---|---|---|---|---|");
        for (Algorithm a : algos) {
            List<Integer> probes = from != null ? from
                    : ScaledPrediction.atItsStep(a) ? List.of(exact / 8, exact / 4) : List.of(exact / 4, exact / 2);
            int small = probes.get(0);
            int large = probes.get(1);
            peak.reset();
            long t0 = System.nanoTime();
            long count = PerfSizes.of(c, DataType.FLOAT32, exact * 8, size).count();
            CallSimulator.Prediction p = sim.apply(exact).predict(c, count, DataType.FLOAT32, a, Protocol.SIMPLE);
            double wall = (System.nanoTime() - t0) / 1e9;
            out.printf(Locale.ROOT, "| %s | %d | exact | %.1f | %.1f | %d | %d | %d |%n", a.id(), exact * 8, p.micros(), wall,
                    peak.mib(), p.result().steps(), p.result().events());
            out.flush();
            ScaledPrediction law = new ScaledPrediction(sim, small, large);
            String how = "from " + small * 8 + " and " + large * 8 + (ScaledPrediction.atItsStep(a) ? " at its step" : "");
            peak.reset();
            t0 = System.nanoTime();
            double check = law.micros(exact, c, size, DataType.FLOAT32, a, Protocol.SIMPLE);
            wall = (System.nanoTime() - t0) / 1e9;
            out.printf(Locale.ROOT, "| %s | %d | %s: %+.2f%% of exact | %.1f | %.1f | %d | | |%n", a.id(), exact * 8, how,
                    100 * (check - p.micros()) / p.micros(), check, wall, peak.mib());
            out.flush();
            peak.reset();
            t0 = System.nanoTime();
            double far = law.micros(scaled, c, size, DataType.FLOAT32, a, Protocol.SIMPLE);
            wall = (System.nanoTime() - t0) / 1e9;
            out.printf(Locale.ROOT, "| %s | %d | %s | %.1f | %.1f | %d | | |%n", a.id(), scaled * 8, how, far, wall, peak.mib());
            out.flush();
        }
        peak.stop();
        return 0;
    }

    /** The most heap in use, sampled every 20 ms after a collection at the start. */
    private static final class HeapPeak {
        private final AtomicLong most = new AtomicLong();
        private final Thread sampler;
        private volatile boolean running = true;

        HeapPeak() {
            sampler = Thread.ofPlatform().daemon().name("heap-peak").start(() -> {
                while (running) {
                    Runtime rt = Runtime.getRuntime();
                    most.accumulateAndGet(rt.totalMemory() - rt.freeMemory(), Math::max);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        void reset() {
            System.gc();
            Runtime rt = Runtime.getRuntime();
            most.set(rt.totalMemory() - rt.freeMemory());
        }

        long mib() {
            return most.get() >> 20;
        }

        void stop() {
            running = false;
            sampler.interrupt();
        }
    }
}
