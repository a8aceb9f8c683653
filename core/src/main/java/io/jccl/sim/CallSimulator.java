// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.engine.JobChannels;
import io.jccl.engine.Planner;
import io.jccl.engine.cuda.CudaTuning;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.proto.Protocol;
import io.jccl.tune.Choice;
import io.jccl.tune.CostModel;
import io.jccl.tune.Tuner;
import io.jccl.topo.ServerLayout;

import java.util.HashMap;
import java.util.Map;


/**
 * Predicts a collective call on a modelled fabric from the plan an engine would run: the tuner
 * chooses algorithm, protocol and channels as the engine's own does (the same configuration, the
 * channels the topology layer connects for the fabric's nodes, {@code JCCL_ALGO} and
 * {@code JCCL_PROTO} forcing as they force), the planner makes the plan, and the {@link Simulator}
 * plays it. For the host engine the tuner is the host's, with the cores of the machine the
 * calibration ran on; for the GPU engine it prices with {@link NcclModel}.
 *
 * <pre>{@code
 * CallSimulator s = CallSimulator.host(new EmulatedFabric(ServerLayout.uniform(2, 4), 800, 200, EmulatedFabric.Nic.RAIL),
 *         Calibration.bundled().costs("host"), Config.defaults());
 * CallSimulator.Prediction p = s.predict(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32);
 * }</pre>
 */
public final class CallSimulator {
    /** A predicted call: how it would be run, and in how many µs. */
    public record Prediction(Choice choice, double micros, Simulator.Result result) {
    }

    /**
     * Steps {@link #estimate} plays a call exactly unless told (64M): a tree's probes of 1 GiB on
     * 2 and 4 leaves of 16,384 ranks fit, and a call takes at most about a minute on a 2-core VM
     * (docs/simulator.md, Scale).
     */
    public static final long DEFAULT_BUDGET = 1L << 26;

    /** Jobs up to this many ranks are planned at once; larger ones rank by rank. */
    static final int PLANNED_TOGETHER = 64;

    private final Simulator simulator;
    /** The tuner of the calls it predicts; forced to an algorithm and protocol where asked. */
    private final Tuner tuner;
    /** The tuners forced to an algorithm (and protocol), made once: a tuner caches its channels' shapes. */
    private final Map<String, Tuner> forced = new HashMap<>();
    private final int calls;

    private CallSimulator(Simulator simulator, Tuner tuner, int calls) {
        if (!tuner.layout().equals(simulator.fabric().layout())) {
            throw new IllegalArgumentException("a tuner of ranks laid out as " + tuner.layout() + " on a fabric of "
                    + simulator.fabric().layout());
        }
        this.simulator = simulator;
        this.tuner = tuner;
        this.calls = calls;
    }

    /**
     * The calls {@code tuner} chooses for, played on {@code fabric} at {@code costs}: the tuner of
     * a communicator, whose choices (tuning file, channels, forcing) the prediction then follows.
     */
    public static CallSimulator of(Tuner tuner, SimFabric fabric, SimCosts costs) {
        return new CallSimulator(new Simulator(fabric, costs), tuner, Simulator.CALLS);
    }

    /**
     * The same predicting from {@code calls} calls played back to back (the time per call once
     * steady, as perf times it; 1: one call alone, the cheapest to play).
     */
    public CallSimulator withCalls(int calls) {
        if (calls < 1) {
            throw new IllegalArgumentException("calls " + calls);
        }
        return new CallSimulator(simulator, tuner, calls);
    }

    /** The same telling {@code timeline} every message of the calls it plays. */
    public CallSimulator withTimeline(Simulator.Timeline timeline) {
        return new CallSimulator(simulator.withTimeline(timeline), tuner, calls);
    }

    /** The same on exactly {@code channels} channels, whatever the call's size. */
    public CallSimulator withChannels(int channels) {
        if (channels < 1) {
            throw new IllegalArgumentException("channels " + channels);
        }
        return new CallSimulator(simulator, tuner.withChannels(channels, channels), calls);
    }

    /**
     * The host engine's calls (ranks as processes over sockets) on {@code fabric}; with
     * JCCL_TUNER_SIM its tuner prices candidates by playing them here, as the engine's does.
     */
    public static CallSimulator host(SimFabric fabric, SimCosts costs, Config config) {
        return priced(of(hostTuner(fabric.layout(), config, costs.sharedCores() > 0 ? costs.sharedCores() : fabric.nranks()),
                fabric, costs));
    }

    /** {@code sim} whose tuner prices its candidates by {@code sim}'s plays where JCCL_TUNER_SIM is set. */
    private static CallSimulator priced(CallSimulator sim) {
        Tuner t = JobModel.priced(sim.tuner, (tuner, rank) -> sim);
        return t == sim.tuner ? sim : new CallSimulator(sim.simulator, t, sim.calls);
    }

    /**
     * The host engine's tuner of ranks laid out as {@code layout} on machines of {@code cores}
     * cores, on the channels the topology layer connects for them: what each rank of such a job
     * chooses by.
     */
    static Tuner hostTuner(ServerLayout layout, Config config, int cores) {
        CostModel m = CostModel.HOST.withInterServer(config.interBandwidth(), config.interLatency())
                .withIntraServer(config.intraBandwidth(), config.intraLatency());
        return Tuner.create(config, layout, cores, Tuner.tuningText(config), m, null).withTopology(JobChannels.of(config, layout));
    }

    /**
     * The CUDA engine's calls on a GPU cluster: algorithm and protocol as NCCL's model would
     * choose them (or, with JCCL_TUNER_SIM, as playing each candidate here prices them), on as
     * many channels as the engine runs on a GPU of an H100's multiprocessors (unless the
     * configuration bounds them, as it bounds the engine's).
     */
    public static CallSimulator gpu(ClusterFabric fabric, SimCosts costs, Config config) {
        CostModel m = NcclModel.of(fabric.nvlinkGBps(), fabric.nicGBpsPerGpu(), costs.copyGBps()[Protocol.SIMPLE.ordinal()]);
        Tuner.ChannelRule channels = config.channelBoundsGiven() ? null : CudaTuning.channelRule(CudaTuning.H100_MULTIPROCESSORS);
        ServerLayout layout = fabric.layout();
        Tuner t = Tuner.create(config, layout, Math.max(costs.sharedCores(), fabric.nranks()), Tuner.tuningText(config), m, channels)
                .withTopology(JobChannels.of(config, layout));
        return priced(of(t, fabric, costs));
    }

    public Simulator simulator() {
        return simulator;
    }

    /**
     * A call predicted within a budget of steps: how it runs, its µs, and how they were had
     * ({@code exact}: played step by step; else from which exact runs on fewer nodes).
     */
    public record Estimate(Choice choice, double micros, String how) {
        /** {@link #how} of a call played step by step. */
        public static final String EXACT = "exact";

        /** Whether the call was played step by step. */
        public boolean exact() {
            return how.equals(EXACT);
        }
    }

    /**
     * The call by the tuner's choice ({@code a} null) or by {@code a} in {@code p}: played step
     * by step where that takes at most {@code budget} steps ({@link #steps}); past it predicted by
     * {@link ScaledPrediction#within} from exact runs on fewer nodes, each the simulator
     * {@code fewerNodes} makes for a node count (null: no smaller job stands for this one).
     *
     * @throws IllegalArgumentException past the budget where nothing on fewer nodes predicts it, saying why
     */
    public Estimate estimate(Collective c, long count, DataType type, Algorithm a, Protocol p, long budget,
                             java.util.function.IntFunction<CallSimulator> fewerNodes) {
        Choice choice = a == null ? choice(c, count, type) : choice(c, count, type, a, p);
        long steps = steps(c, count, type, choice.algorithm(), choice.protocol());
        if (steps <= budget) {
            Prediction pr = a == null ? predict(c, count, type) : predict(c, count, type, a, p);
            return new Estimate(pr.choice(), pr.micros(), Estimate.EXACT);
        }
        int n = simulator.fabric().nranks();
        int nodes = simulator.fabric().layout().servers();
        long bytes = ScaledPrediction.bytes(c, count, type, n);
        String what = String.format(java.util.Locale.ROOT, "%d ranks, %d B, %s/%s: %,d steps, over the budget of %,d", n, bytes,
                choice.algorithm().id(), choice.protocol().id(), steps, budget);
        if (fewerNodes == null) {
            throw new IllegalArgumentException(what + "; no smaller job stands for this one");
        }
        java.util.function.IntFunction<CallSimulator> probe = k -> k == nodes ? this : fewerNodes.apply(k);
        try {
            ScaledPrediction s = ScaledPrediction.within(probe, nodes, c, bytes, type, choice.algorithm(), choice.protocol(), budget);
            double micros = s.micros(nodes, c, bytes, type, choice.algorithm(), choice.protocol());
            int perNode = n / nodes;
            return new Estimate(choice, micros, String.format(java.util.Locale.ROOT, "from exact runs on %d and %d ranks%s (%,d steps exactly)",
                    s.smallNodes() * perNode, s.largeNodes() * perNode,
                    ScaledPrediction.atItsStep(choice.algorithm()) ? " at its step" : ", by the tree's law", steps));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + "; " + e.getMessage(), e);
        }
    }

    /** The call as the tuner (or JCCL_ALGO / JCCL_PROTO) would run it. */
    public Prediction predict(Collective c, long count, DataType type) {
        return predict(c, count, type, tuner);
    }

    /** The call run by {@code a} in {@code p}, the tuner choosing its channels. */
    public Prediction predict(Collective c, long count, DataType type, Algorithm a, Protocol p) {
        return predict(c, count, type, tunerFor(a, p));
    }

    /** The call run by {@code a}, the tuner choosing its protocol and channels. */
    public Prediction predict(Collective c, long count, DataType type, Algorithm a) {
        return predict(c, count, type, tunerFor(a));
    }

    /**
     * How the tuner (or {@code JCCL_ALGO} / {@code JCCL_PROTO}) would run the call, without
     * simulating it.
     */
    public Choice choice(Collective c, long count, DataType type) {
        return tuner.choose(c, count, type.size(), 0);
    }

    /** How the tuner would run the call by {@code a} in {@code p} (its channels), without simulating it. */
    public Choice choice(Collective c, long count, DataType type, Algorithm a, Protocol p) {
        return tunerFor(a, p).choose(c, count, type.size(), 0);
    }

    /**
     * How the tuner would run the call by {@code a} and what its model predicts
     * ({@link Choice#predictedMicros}, NaN where a tuning table chose), without simulating it.
     */
    public Choice choice(Collective c, long count, DataType type, Algorithm a) {
        return tunerFor(a).choose(c, count, type.size(), 0);
    }

    /**
     * The steps a simulation of the call by {@code a} would play: rank 0's, times the ranks. Ranks
     * make as many steps as each other where every rank has data in every step; where most
     * chunks are empty (a few elements on many ranks) ranks skip different steps and this is an
     * estimate. It plans rank 0 only, so it tells cheaply whether a simulation is affordable.
     */
    public long steps(Collective c, long count, DataType type, Algorithm a) {
        return steps(c, count, type.size(), tunerFor(a));
    }

    /** The same for the call by {@code a} in {@code p}. */
    public long steps(Collective c, long count, DataType type, Algorithm a, Protocol p) {
        return steps(c, count, type.size(), a, p);
    }

    /** The same for the call by {@code a} in {@code p}, of elements of {@code elementSize} bytes. */
    long steps(Collective c, long count, int elementSize, Algorithm a, Protocol p) {
        return steps(c, count, elementSize, tunerFor(a, p));
    }

    private long steps(Collective c, long count, int elementSize, Tuner t) {
        int n = simulator.fabric().nranks();
        Planner.CallKey key = new Planner.CallKey(c, count, elementSize, 0);
        Plan plan = Planner.make(t, t.config(), RankSet.of(n, 0), Planner.THREADS, key, 0).plan();
        long steps = 0;
        for (io.jccl.plan.Segment seg : plan.segments(0)) {
            for (int l = 0; l < plan.lanes(); l++) {
                steps += (long) seg.schedule().stepArray(0, l).length * seg.repeat();
            }
        }
        return steps * n * calls;
    }

    /** µs of the call by {@code a} in {@code p}, of elements of {@code elementSize} bytes. */
    double micros(Collective c, long count, int elementSize, Algorithm a, Protocol p) {
        return predict(c, count, elementSize, tunerFor(a, p)).micros();
    }

    private Prediction predict(Collective c, long count, DataType type, Tuner tuner) {
        return predict(c, count, type.size(), tuner);
    }

    private Prediction predict(Collective c, long count, int elementSize, Tuner tuner) {
        if (count < 0) {
            throw new IllegalArgumentException("count " + count);
        }
        int n = simulator.fabric().nranks();
        Planner.CallKey key = new Planner.CallKey(c, count, elementSize, 0);
        if (n <= PLANNED_TOGETHER) {
            Planner.Planned planned = Planner.make(tuner, tuner.config(), RankSet.all(n), Planner.THREADS, key, 0);
            Plan plan = planned.plan();
            Simulator.Result r = simulator.run(rank -> plan, planned.choice().protocol(), elementSize, calls);
            return new Prediction(planned.choice(), r.micros(), r);
        }
        // Each rank planned alone, as each rank of the job plans its own steps: the steps of all
        // of them as objects at once would not fit in memory at a thousand ranks.
        Planner.Planned first = Planner.make(tuner, tuner.config(), RankSet.of(n, 0), Planner.THREADS, key, 0);
        Simulator.Result r = simulator.run(rank -> rank == 0 ? first.plan()
                : Planner.make(tuner, tuner.config(), RankSet.of(n, rank), Planner.THREADS, key, rank).plan(),
                first.choice().protocol(), elementSize, calls);
        return new Prediction(first.choice(), r.micros(), r);
    }

    /** The tuner that plans calls forced to {@code a}, choosing the protocol. */
    Tuner tunerFor(Algorithm a) {
        return tunerFor(a, null);
    }

    /** The tuner that plans calls forced to {@code a} in {@code p} (null: the tuner chooses it). */
    synchronized Tuner tunerFor(Algorithm a, Protocol p) {
        return forced.computeIfAbsent(a.id() + "/" + (p == null ? "" : p.id()), k -> tuner.forcing(a, p));
    }
}
