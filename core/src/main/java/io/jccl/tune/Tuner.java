// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.topo.BinaryTrees;
import io.jccl.topo.Channels;
import io.jccl.topo.Layout;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TreeNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the algorithm, protocol and channel count of each call. Candidates are the algorithms
 * that plan the collective and the protocols, both as the configuration allows ({@code JCCL_ALGO},
 * {@code JCCL_PROTO}); a tuning file decides where it has data (a calibrated table's fastest
 * measurement, or the first matching NCCL tuner rule), otherwise the cost model's fastest
 * prediction wins; the channel count stays within {@code JCCL_MIN_NCHANNELS..JCCL_MAX_NCHANNELS}.
 *
 * <p>Every rank must choose alike, or they run different schedules and hang. So a tuner reads only
 * what all ranks share: the call, and one configuration and tuning file for the whole communicator
 * (rank 0's, given to every rank at init); never a rank's own timings.
 *
 * <pre>{@code
 * Tuner t = Tuner.create(Config.fromEnvironment(), 4, 1);
 * Choice c = t.choose(Collective.ALL_REDUCE, 1024, 4, 0);
 * }</pre>
 */
public final class Tuner {
    private final Config config;
    private final int nranks;
    private final ServerLayout layout;
    private final int nNodes;
    private final int treeDepth;
    private final int cores;
    private final CostModel model;
    private final TuningTable table;
    private final TunerRules rules;
    /** The schedule-derived costs of the algorithms that have no formula of their own. */
    private final ScheduleCost scheduleCost;
    /** The engine's channels, or null for the host engine's ({@link #channels}). */
    private final ChannelRule channelRule;
    /** The channels searched and connected at init, or null for {@link Channels#flat} ones. */
    private final Layout topology;
    /** {@link #shapeOf} by channel count. */
    private final java.util.Map<Integer, ChannelShape> shapes = new java.util.HashMap<>();
    /** {@link #channelsOf} of the flat channels, by count. */
    private final Channels[] flatByCount = new Channels[io.jccl.topo.TopoSearch.MAX_CHANNELS + 1];
    /** Prices the model's candidates instead of the model (JCCL_TUNER_SIM), or null. */
    private final Pricer pricer;

    /**
     * What prices a call run by a given algorithm and protocol in place of the cost model: the
     * simulator playing its plan (JCCL_TUNER_SIM). It must answer alike on every rank.
     */
    public interface Pricer {
        /** Whether it prices this candidate quickly enough; where it does not price one, the model prices them all. */
        boolean affords(Collective c, long count, int elementSize, Algorithm a, Protocol p);

        /** µs the call would take. */
        double micros(Collective c, long count, int elementSize, Algorithm a, Protocol p);
    }

    /**
     * How many channels an engine runs a call of {@code bytes} (as {@link CallSize} counts) in
     * protocol {@code p} on, where it sizes them itself: what the model then prices.
     */
    @FunctionalInterface
    public interface ChannelRule {
        int channels(long bytes, Protocol p);
    }

    private Tuner(Config config, ServerLayout layout, int cores, CostModel model, TuningTable table, TunerRules rules,
                  ChannelRule channelRule) {
        this(config, layout, cores, model, table, rules, channelRule, null, null);
    }

    private Tuner(Config config, ServerLayout layout, int cores, CostModel model, TuningTable table, TunerRules rules,
                  ChannelRule channelRule, Layout topology, Pricer pricer) {
        if (topology != null && !topology.hosts().equals(layout)) {
            throw new IllegalArgumentException("channels over " + topology.hosts() + " for ranks laid out as " + layout);
        }
        this.topology = topology;
        this.pricer = pricer;
        this.config = config;
        this.channelRule = channelRule;
        this.nranks = layout.nranks();
        this.layout = layout;
        this.nNodes = layout.servers();
        this.scheduleCost = new ScheduleCost(layout);
        this.cores = cores;
        this.model = model;
        this.table = table;
        this.rules = rules;
        this.treeDepth = topology != null ? topology.treeDepthEstimate() : depth(BinaryTrees.first(nranks));
    }

    /**
     * The tuner of a communicator of {@code nranks} ranks on {@code nNodes} nodes, from the
     * configuration every rank shares; reads its tuning file if it names one.
     */
    public static Tuner create(Config config, int nranks, int nNodes) {
        return create(config, layoutOf(nranks, nNodes));
    }

    /** Ranks numbered node by node, as even as it can be. */
    private static ServerLayout layoutOf(int nranks, int nNodes) {
        return ServerLayout.blocks(nranks, Math.max(1, Math.min(nNodes, nranks)));
    }

    /** The tuner of ranks laid out on servers as {@code layout} says; reads its tuning file if it names one. */
    public static Tuner create(Config config, ServerLayout layout) {
        return create(config, layout, Runtime.getRuntime().availableProcessors(), tuningText(config));
    }

    /** The contents of the configuration's tuning file, or null when it names none. */
    public static String tuningText(Config config) {
        Path f = config.tuningFile();
        if (f == null) {
            return null;
        }
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_TUNING_FILE", "cannot be read: " + f + ": " + e);
        }
    }

    /** As {@link #create(Config, ServerLayout, int, String)}, the ranks numbered node by node. */
    public static Tuner create(Config config, int nranks, int nNodes, int cores, String tuningText) {
        return create(config, layoutOf(nranks, nNodes), cores, tuningText);
    }

    /**
     * The tuner of ranks in several processes, from what rank 0 gave them all at init: its
     * configuration, its core count and the contents of its tuning file ({@code tuningText}, null
     * for none; {@code config.tuningFile()} names it in messages).
     */
    public static Tuner create(Config config, ServerLayout layout, int cores, String tuningText) {
        CostModel host = CostModel.HOST.withInterServer(config.interBandwidth(), config.interLatency())
                .withIntraServer(config.intraBandwidth(), config.intraLatency());
        return create(config, layout, cores, tuningText, host, null);
    }

    /**
     * As {@link #create(Config, ServerLayout, int, String)} for an engine with a cost model of its
     * own and, unless {@code channelRule} is null, its own channels (the CUDA engine's).
     */
    public static Tuner create(Config config, ServerLayout layout, int cores, String tuningText, CostModel model,
                               ChannelRule channelRule) {
        TuningTable table = null;
        TunerRules rules = null;
        if (tuningText != null) {
            String source = String.valueOf(config.tuningFile());
            try {
                if (tuningText.stripLeading().startsWith("{")) {
                    table = TuningTable.parse(tuningText);
                } else {
                    rules = TunerRules.parse(tuningText, source);
                }
            } catch (IllegalArgumentException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_TUNING_FILE", source + ": " + e.getMessage());
            }
        }
        return new Tuner(config, layout, cores, model, table, rules, channelRule);
    }

    /** A tuner with an explicit model, table and machine (for tests and the calibrator's checks). */
    public static Tuner of(Config config, int nranks, int nNodes, int cores, CostModel model, TuningTable table) {
        return of(config, layoutOf(nranks, nNodes), cores, model, table);
    }

    /** The same on ranks laid out as {@code layout}. */
    public static Tuner of(Config config, ServerLayout layout, int cores, CostModel model, TuningTable table) {
        return new Tuner(config, layout, cores, model, table, null, null);
    }

    /** Which server each rank is on. */
    public ServerLayout layout() {
        return layout;
    }

    /**
     * The same tuner planning on the channels {@code topology} searched and connected (null: the
     * flat ones); its hosts must be this tuner's layout.
     */
    public Tuner withTopology(Layout topology) {
        return new Tuner(config, layout, cores, model, table, rules, channelRule, topology, pricer);
    }

    /**
     * The same tuner with {@code pricer} pricing the candidates where the model would (a tuning
     * file still decides where it has data); null: the model.
     */
    public Tuner withPricer(Pricer pricer) {
        return new Tuner(config, layout, cores, model, table, rules, channelRule, topology, pricer);
    }

    /**
     * The same tuner allowed only {@code a} and, unless null, only protocol {@code p}, as
     * JCCL_ALGO and JCCL_PROTO would force them; it prices by the model.
     */
    public Tuner forcing(Algorithm a, Protocol p) {
        Config forced = config.withAlgorithms(a.id());
        if (p != null) {
            forced = forced.withProtocols(p.id());
        }
        return new Tuner(forced, layout, cores, model, table, rules, channelRule, topology, null);
    }

    /** The same tuner on {@code min..max} channels, as JCCL_MIN/MAX_NCHANNELS bound them (an engine's own channel rule set aside). */
    public Tuner withChannels(int min, int max) {
        return new Tuner(config.withChannels(min, max), layout, cores, model, table, rules, null, topology, pricer);
    }

    /** The cores of a machine it counts (rank 0's, shared by all ranks). */
    public int cores() {
        return cores;
    }

    /** The configuration it chooses by (the communicator's shared one). */
    public Config config() {
        return config;
    }

    /** The searched channels plans are laid on, or null when they are {@link Channels#flat}. */
    public Layout topology() {
        return topology;
    }

    /**
     * The {@code count} channels a plan of that many is laid on: the searched ones, or else the
     * flat ones, made once per count (they are O(ranks) to build, a call shape's plan O(its own steps)).
     */
    public Channels channelsOf(int count) {
        if (topology != null) {
            return topology.channels(count);
        }
        if (count < 1 || count > flatByCount.length - 1) {
            return Channels.flat(layout, count);
        }
        synchronized (flatByCount) {
            Channels c = flatByCount[count];
            if (c == null) {
                c = Channels.flat(layout, count);
                flatByCount[count] = c;
            }
            return c;
        }
    }

    public TuningTable table() {
        return table;
    }

    public TunerRules rules() {
        return rules;
    }

    /**
     * The algorithms the configuration allows for {@code c} that can plan on this layout, in the
     * collective's order of preference.
     */
    public Set<Algorithm> algorithms(Collective c, int rank) {
        Set<Algorithm> s = new LinkedHashSet<>();
        for (Algorithm a : Algorithms.supported(c)) {
            if (config.algorithms(c).contains(a.id())) {
                s.add(a);
            }
        }
        if (s.isEmpty()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "JCCL_ALGO allows " + new java.util.TreeSet<>(config.algorithms(c))
                    + ", none of the algorithms of " + c.cliName() + " " + Algorithms.supported(c).stream().map(Algorithm::id).toList());
        }
        Set<Algorithm> fit = new LinkedHashSet<>(s);
        fit.removeIf(a -> !Algorithms.fits(a, layout));
        if (fit.isEmpty()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "JCCL_ALGO allows only " + s.stream().map(Algorithm::id).toList()
                    + " for " + c.cliName() + ", which need the same number of ranks on every server; the layout is " + layout);
        }
        return fit;
    }

    /** Whether {@code a}'s cost comes from its schedule ({@link ScheduleCost}) rather than NCCL's formulas. */
    static boolean scheduleCosted(Algorithm a) {
        return switch (a) {
            case RING, TREE, SPLIT_TREE, DIRECT -> false;
            default -> true;
        };
    }

    /** The protocols the configuration allows for the collectives JCCL_PROTO does not name, fastest-latency first. */
    public Set<Protocol> protocols() {
        Set<Protocol> s = EnumSet.noneOf(Protocol.class);
        s.addAll(Protocol.allowed(config));
        return s;
    }

    /** The protocols the configuration allows for {@code c}, fastest-latency first. */
    public Set<Protocol> protocols(Collective c) {
        Set<Protocol> s = EnumSet.noneOf(Protocol.class);
        s.addAll(Protocol.allowed(config, c));
        return s;
    }

    /**
     * The channels for {@code bytes} in {@code p}: the engine's {@link ChannelRule} where it gave
     * one; else the host engine's, one per message-sized piece of each rank's share, at most one
     * per core for each rank of this process (more lanes than cores only add switching), within
     * the configured bounds.
     */
    public int channels(long bytes, Protocol p) {
        if (channelRule != null) {
            return channelRule.channels(bytes, p);
        }
        long message = Math.max(1, p.maxMessageBytes(p.buffSize(config)));
        long bySize = Math.max(1, bytes / (message * nranks));
        int byCores = Math.max(1, cores / nranks);
        int max = config.maxChannels();
        if (topology != null && nNodes > 1 && !config.channelBoundsGiven()) {
            // Between nodes the links bound a call, not the cores: a channel for each way out of a node.
            byCores = Math.max(byCores, topology.nChannels());
            max = Math.max(max, topology.nChannels());
        }
        return (int) Math.max(config.minChannels(), Math.min(max, Math.min(bySize, byCores)));
    }

    private int clampChannels(int n) {
        return Math.max(config.minChannels(), Math.min(config.maxChannels(), n));
    }

    /** The choice for a call of {@code count} elements of {@code elementSize} bytes. */
    public Choice choose(Collective c, long count, int elementSize, int rank) {
        long bytes = CallSize.bytes(c, count, elementSize, nranks);
        Set<Algorithm> algos = algorithms(c, rank);
        Set<Protocol> protos = protocols(c);
        if (table != null) {
            Optional<TuningTable.Result> r = table.best(c, nranks, bytes, algos, protos);
            if (r.isPresent()) {
                return new Choice(r.get().algorithm(), r.get().protocol(), clampChannels(r.get().channels()),
                        Choice.Source.TABLE, Double.NaN);
            }
        }
        if (rules != null) {
            Optional<TunerRules.Rule> r = rules.match(c, bytes, nNodes, nranks, algos, protos);
            if (r.isPresent()) {
                int ch = r.get().channels() > 0 ? clampChannels(r.get().channels()) : channels(bytes, r.get().protocol());
                return new Choice(r.get().algorithm(), r.get().protocol(), ch, Choice.Source.RULES, Double.NaN);
            }
        }
        return modelChoice(c, count, elementSize, algos, protos);
    }

    /** The model's fastest allowed choice for a call of {@code count} elements of {@code elementSize} bytes. */
    public Choice modelChoice(Collective c, long count, int elementSize, Set<Algorithm> algos, Set<Protocol> protos) {
        long bytes = CallSize.bytes(c, count, elementSize, nranks);
        Set<Algorithm> weighed = new LinkedHashSet<>(algos);
        weighed.removeIf(a -> !Algorithms.weighs(a, layout));
        if (weighed.isEmpty()) {
            weighed = algos; // forced by JCCL_ALGO
        }
        // one candidate (JCCL_ALGO and JCCL_PROTO force it) needs no pricing
        Choice priced = pricer == null || weighed.size() * protos.size() < 2 ? null
                : pricedChoice(c, count, elementSize, bytes, weighed, protos);
        if (priced != null) {
            return priced;
        }
        Choice best = null;
        for (Algorithm a : weighed) {
            for (Protocol p : protos) {
                int ch = channels(bytes, p);
                int lanes = Algorithms.lanes(a, ch);
                // Each rank's lanes are threads of this host (the host engine's ranks share it).
                double perCore = (double) nranks * lanes / cores;
                long tiles = tiles(c, a, p, bytes, ch, lanes);
                double t = scheduleCosted(a) ? model.scheduleTime(scheduleCost, c, a, p, bytes, nranks, ch, perCore, tiles)
                        : model.time(c, a, p, bytes, nranks, ch, shapeOf(ch), perCore, tiles);
                t += model.messageTime(scheduleCost, c, a, count, perCore, tiles);
                if (best == null || t < best.predictedMicros()) {
                    best = new Choice(a, p, ch, Choice.Source.MODEL, t);
                }
            }
        }
        return best;
    }

    /** The pricer's fastest candidate, or null where it cannot price them all. */
    private Choice pricedChoice(Collective c, long count, int elementSize, long bytes, Set<Algorithm> algos, Set<Protocol> protos) {
        for (Algorithm a : algos) {
            for (Protocol p : protos) {
                if (!pricer.affords(c, count, elementSize, a, p)) {
                    return null;
                }
            }
        }
        Choice best = null;
        for (Algorithm a : algos) {
            for (Protocol p : protos) {
                double t = pricer.micros(c, count, elementSize, a, p);
                if (best == null || t < best.predictedMicros()) {
                    best = new Choice(a, p, channels(bytes, p), Choice.Source.SIMULATED, t);
                }
            }
        }
        return best;
    }

    /**
     * What the model reads of the {@code count} channels a call would run on ({@link ChannelShape}):
     * their rings' and trees' hops inside and between nodes and the links they share. Made once
     * per count; O(ranks x channels) to make.
     */
    ChannelShape shapeOf(int count) {
        synchronized (shapes) {
            return shapes.computeIfAbsent(count,
                    k -> ChannelShape.of(channelsOf(k), Algorithms.lanes(Algorithm.TREE, k), layout, topology));
        }
    }

    /**
     * The messages each lane sends in turn for a call: a ring tile carries one message per rank's
     * block (broadcast and reduce pipelines one message), a tree or direct tile one message; the
     * split tree's lanes are half reducing, half broadcasting.
     */
    long tiles(Collective c, Algorithm a, Protocol p, long bytes, int channels, int lanes) {
        long message = Math.max(1, p.maxMessageBytes(p.buffSize(config)));
        if (p == Protocol.SIMPLE && (a == Algorithm.TREE || a == Algorithm.SPLIT_TREE)) {
            message = treeChunkBytes(message, bytes, channels);
        }
        long perTile = a == Algorithm.RING && c != Collective.BROADCAST && c != Collective.REDUCE
                || a == Algorithm.DIRECT || scheduleCosted(a) ? message * nranks : message;
        if (a == Algorithm.RHD || a == Algorithm.BUTTERFLY) {
            perTile = a == Algorithm.RHD ? 2 * message : message;
        }
        long dataLanes = a == Algorithm.SPLIT_TREE ? lanes / 2 : lanes;
        return Math.max(1, (bytes + dataLanes * perTile - 1) / (dataLanes * perTile));
    }

    /** The depth of the tree: the most edges from a rank up to the root. */
    static int depth(TreeNode[] tree) {
        int max = 0;
        for (TreeNode n : tree) {
            int d = 0;
            for (TreeNode x = n; !x.isRoot() && d <= tree.length; x = tree[x.parent()]) {
                d++;
            }
            max = Math.max(max, d);
        }
        return max;
    }

    /**
     * Tree all-reduce chunking (NCCL's, Simple protocol): halve the message while the pipeline has
     * too few chunks for the tree's depth, so that it fills: below 8 chunks per level above 128 KiB,
     * 4 above 64 KiB, 1 above 32 KiB.
     */
    public long treeChunkBytes(long chunk, long bytes, int channels) {
        long c = chunk;
        while (bytes / ((long) channels * c) < treeDepth * 8L && c > 131072) {
            c /= 2;
        }
        while (bytes / ((long) channels * c) < treeDepth * 4L && c > 65536) {
            c /= 2;
        }
        while (bytes / ((long) channels * c) < treeDepth && c > 32768) {
            c /= 2;
        }
        return c;
    }

    public int treeDepth() {
        return treeDepth;
    }
}
