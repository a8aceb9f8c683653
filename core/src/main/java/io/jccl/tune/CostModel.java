// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

/**
 * NCCL's cost model: time = latency + bytes / algbw. Latency is a base per (algorithm, protocol)
 * plus a per-hop latency times the hops a message crosses (ring: its steps; tree: twice its depth;
 * direct: its n-1 rounds), hops between nodes costing the inter-node latency. Bus bandwidth is the
 * channels' bandwidth in the protocol, capped by what the fabric carries; algbw is busbw times the
 * collective's ratio (ring all-reduce n/(2(n-1)), all-gather and reduce-scatter n/(n-1), tree 1/2,
 * direct n/(n-1), broadcast and reduce 1). All times in µs, bandwidths in GB/s (bytes per ns).
 *
 * <p>The constants are the engine's: {@link #HOST} for the host engine on shared memory. The host
 * has a regime a GPU does not: when the host runs more busy threads than it has cores, a hop
 * costs a hand-over of a core ({@code parkedHopLatency}: the waiting thread yields to the one it
 * waits for) rather than a cache-line transfer.
 *
 * @param baseLatency  per algorithm (by ordinal) and protocol (by ordinal), µs
 * @param hopLatency   per algorithm and protocol, µs per hop inside a node
 * @param interHopLatency per algorithm and protocol, µs per hop between nodes
 * @param parkedHopLatency per protocol, µs per hop and per thread per core when the threads outnumber the cores
 * @param channelBw    per protocol, GB/s one channel moves
 * @param maxBusBw     per protocol, GB/s the fabric carries whatever the channels
 * @param interBusBw   per protocol, GB/s a rank moves to other servers (the slower level of a
 *                     two-level fabric; a ring or tree crossing servers goes no faster)
 * @param reduceBw     GB/s of data one rank combines with a reduction, for the elements an
 *                     algorithm costed from its schedule reduces beyond the ring's
 *                     ({@link ScheduleCost#extraReduced}); infinite where reductions cost nothing
 *                     next to moving the data (a GPU)
 * @param messageCpu   per level (intra-server, inter-server), µs of a core a message sent over that
 *                     level costs beyond its hop latency (LogP's o); 0 where the hop latency
 *                     already covers it (shared memory, a GPU's FIFOs). A level described as a
 *                     network link ({@link #withInterServer}, {@link #withIntraServer}) costs
 *                     {@link #SOCKET_MESSAGE_CPU}: the host engine's socket transport.
 * @param share        the share of the bus bandwidth above an algorithm gets in a protocol
 *                     ({@link Share#WHOLE} but in NCCL's model, whose tree and PAT get less)
 */
public record CostModel(double[][] baseLatency, double[][] hopLatency, double[][] interHopLatency,
                        double[] parkedHopLatency, double[] channelBw, double[] maxBusBw, double[] interBusBw,
                        double reduceBw, double[] messageCpu, Share share) {

    /**
     * The share of its bus bandwidth an algorithm gets in a protocol, beyond the protocol's own
     * share of the channels and links ({@link #channelBw}, {@link #maxBusBw}, {@link #interBusBw}).
     */
    @FunctionalInterface
    public interface Share {
        /** Every algorithm its whole bandwidth. */
        Share WHOLE = (c, a, p, nNodes) -> 1.0;

        /** The share for {@code c} by {@code a} in {@code p} over {@code nNodes} nodes, in (0, 1]. */
        double of(Collective c, Algorithm a, Protocol p, int nNodes);
    }

    /** Every algorithm its whole bandwidth. */
    public CostModel(double[][] baseLatency, double[][] hopLatency, double[][] interHopLatency,
                     double[] parkedHopLatency, double[] channelBw, double[] maxBusBw, double[] interBusBw,
                     double reduceBw, double[] messageCpu) {
        this(baseLatency, hopLatency, interHopLatency, parkedHopLatency, channelBw, maxBusBw, interBusBw, reduceBw, messageCpu,
                Share.WHOLE);
    }

    /** No per-message cost beyond the hop latency. */
    public CostModel(double[][] baseLatency, double[][] hopLatency, double[][] interHopLatency,
                     double[] parkedHopLatency, double[] channelBw, double[] maxBusBw, double[] interBusBw, double reduceBw) {
        this(baseLatency, hopLatency, interHopLatency, parkedHopLatency, channelBw, maxBusBw, interBusBw, reduceBw, new double[2]);
    }

    /** Reductions free next to moving data. */
    public CostModel(double[][] baseLatency, double[][] hopLatency, double[][] interHopLatency,
                     double[] parkedHopLatency, double[] channelBw, double[] maxBusBw, double[] interBusBw) {
        this(baseLatency, hopLatency, interHopLatency, parkedHopLatency, channelBw, maxBusBw, interBusBw, Double.POSITIVE_INFINITY);
    }

    /** Index of the intra-server level in {@link #messageCpu}. */
    static final int INTRA = 0;
    /** Index of the inter-server level in {@link #messageCpu}. */
    static final int INTER = 1;

    /**
     * µs of a core one message costs the host engine's socket transport: the rank's hand-off to its
     * proxy thread, the proxy's system calls at both ends and the wake-up of the receiving rank.
     * Fitted on the emulated fabric and loopback sockets (docs/hierarchical.md, "What the model
     * weighs").
     */
    public static final double SOCKET_MESSAGE_CPU = 39;

    /** One level of bandwidth: servers are joined as fast as ranks within one; reductions free. */
    public CostModel(double[][] baseLatency, double[][] hopLatency, double[][] interHopLatency,
                     double[] parkedHopLatency, double[] channelBw, double[] maxBusBw) {
        this(baseLatency, hopLatency, interHopLatency, parkedHopLatency, channelBw, maxBusBw, maxBusBw);
    }

    private static final int LL = Protocol.LL.ordinal();
    private static final int LL128 = Protocol.LL128.ordinal();
    private static final int SIMPLE = Protocol.SIMPLE.ordinal();

    /**
     * The host engine: ranks are threads (or processes) exchanging through shared-memory FIFOs.
     * Fitted to {@code jccl calibrate} and {@code jccl perf} on a 2-core machine (docs/tuning.md has
     * the commands, docs/results.md "Numbers behind the code" the figures). LL moves 8 data bytes per
     * 16-byte line with two atomic stores and the receiver unpacks them, so its bandwidth is the
     * lowest and its base latency the lowest. With 4 ranks on 2 cores a hop is a hand-over of a core.
     */
    public static final CostModel HOST = host();

    private static CostModel host() {
        int na = Algorithm.values().length;
        int np = Protocol.values().length;
        double[][] base = new double[na][np];
        double[][] hop = new double[na][np];
        for (int a = 0; a < na; a++) {
            base[a][LL] = 1.1;
            base[a][LL128] = 1.4;
            base[a][SIMPLE] = 1.25;
            hop[a][LL] = 0.2;
            hop[a][LL128] = 0.22;
            hop[a][SIMPLE] = 0.2;
        }
        double[] parked = new double[np];
        // Threads that outnumber the cores yield to the one waited for (transport.Wait): a hop then
        // costs about a microsecond per thread per core (docs/results.md, "Numbers behind the code").
        java.util.Arrays.fill(parked, 1.0);
        double[] bw = new double[np];
        bw[LL] = 0.68;
        bw[LL128] = 1.5;
        bw[SIMPLE] = 3.0;
        double[] max = new double[np];
        max[LL] = 0.68;
        max[LL128] = 1.5;
        max[SIMPLE] = 3.0;
        // A rank's reduction loop, float sum, from the butterfly's extra reductions against the ring's
        // (docs/results.md, "Numbers behind the code").
        return new CostModel(base, hop, hop, parked, bw, max, max, 6.0);
    }

    /**
     * Predicted µs for a call of {@code bytes} (as {@link CallSize} counts) on {@code nranks} ranks
     * over {@code nNodes} nodes, {@code channels} channels, a tree of depth {@code treeDepth};
     * {@code threadsPerCore} the busy threads of the host per core: above 1, each of the
     * {@code tiles} messages a lane sends in turn pays a hand-over of a core at every hop, longer the more
     * threads share a core.
     */
    public double time(Collective c, Algorithm a, Protocol p, long bytes, int nranks, int nNodes, int channels,
                       int treeDepth, double threadsPerCore, long tiles) {
        return time(c, a, p, bytes, nranks, channels, ChannelShape.uniform(nNodes, channels, treeDepth), threadsPerCore, tiles);
    }

    /**
     * As above on channels of the given shape ({@link ChannelShape}): a ring's hops between nodes
     * are those its channels cross, its bandwidth each channel's at its most shared link between
     * nodes (a link of {@link #interBusBw} shared by the ring edges that leave or enter by it),
     * summed; a tree's depth inside and between nodes is its own, its bandwidth between nodes as
     * many links as its lanes have over the link they share most.
     */
    double time(Collective c, Algorithm a, Protocol p, long bytes, int nranks, int channels, ChannelShape shape,
                double threadsPerCore, long tiles) {
        if (nranks == 1) {
            return baseLatency[a.ordinal()][p.ordinal()];
        }
        int ai = a.ordinal();
        int pi = p.ordinal();
        double cap = maxBusBw[pi] * 1000.0; // bytes per µs
        double perChannel = channelBw[pi] * 1000.0;
        double link = interBusBw[pi] * 1000.0;
        double intra = intraHop(ai, pi, threadsPerCore, tiles);
        double inter = interHopLatency[ai][pi];
        double busBw = Math.min(cap, channels * perChannel);
        double latency;
        double ratio;
        switch (a) {
            case RING -> {
                double hops = switch (c) {
                    case ALL_REDUCE -> 2.0 * (nranks - 1);
                    default -> nranks - 1;
                };
                // A message goes round all but one edge of its ring, so it crosses all but one of
                // the ring's edges between nodes (each of them once per pass).
                double interHops = shape.ringCrossings() == 0 ? 0
                        : (c == Collective.ALL_REDUCE ? 2.0 : 1.0) * (shape.ringCrossings() - 1);
                double sum = 0;
                for (int ch = 0; ch < channels; ch++) {
                    int share = ch < shape.ringShare().length ? shape.ringShare()[ch] : 0;
                    sum += share == 0 ? perChannel : Math.min(perChannel, link / share);
                }
                busBw = Math.min(cap, sum);
                latency = baseLatency[ai][pi] + (hops - interHops) * intra + interHops * inter;
                ratio = switch (c) {
                    case ALL_REDUCE -> nranks / (2.0 * (nranks - 1));
                    case ALL_GATHER, REDUCE_SCATTER -> nranks / (double) (nranks - 1);
                    default -> 1.0;
                };
            }
            case TREE, SPLIT_TREE -> {
                busBw = Math.min(busBw, shape.treeLinks() * link);
                latency = baseLatency[ai][pi] + 2 * shape.treeDepth(intra, inter);
                ratio = 0.5;
            }
            case DIRECT -> {
                if (shape.nNodes() > 1) {
                    busBw = Math.min(busBw, link);
                }
                latency = baseLatency[ai][pi] + (nranks - 1) * intra;
                ratio = nranks / (double) (nranks - 1);
            }
            default -> throw new IllegalArgumentException(a + " is costed from its schedule (ScheduleCost)");
        }
        // Pipelined tiles hide each other's hop latency, unless every hop is a hand-over; those
        // wait longer the more threads share each core (intraHop).
        return latency + bytes / (busBw * share.of(c, a, p, shape.nNodes()) * ratio);
    }

    /**
     * This model with links between servers of {@code gbPerSecond} (Simple's; the other protocols
     * get their share, see {@link #linkCaps}) and {@code latencyMicros} per hop for every algorithm and protocol
     * (JCCL_INTER_BW, JCCL_INTER_LATENCY); NaN keeps the model's own.
     */
    public CostModel withInterServer(double gbPerSecond, double latencyMicros) {
        double[] inter = Double.isNaN(gbPerSecond) ? interBusBw : linkCaps(gbPerSecond);
        return new CostModel(baseLatency, hopLatency, everyEntry(interHopLatency, latencyMicros), parkedHopLatency, channelBw,
                maxBusBw, inter, reduceBw, socketLevel(INTER, gbPerSecond, latencyMicros), share);
    }

    /**
     * This model with links inside a server of {@code gbPerSecond} (Simple's; the other protocols
     * get their share, see {@link #linkCaps}) and {@code latencyMicros} per hop for every algorithm and protocol (JCCL_INTRA_BW,
     * JCCL_INTRA_LATENCY); NaN keeps the model's own. A hop is then never cheaper than that, even
     * where the threads outnumber the cores and a hop is priced as a hand-over of a core.
     */
    public CostModel withIntraServer(double gbPerSecond, double latencyMicros) {
        double[] max = Double.isNaN(gbPerSecond) ? maxBusBw : linkCaps(gbPerSecond);
        return new CostModel(baseLatency, everyEntry(hopLatency, latencyMicros), interHopLatency, parkedHopLatency, channelBw,
                max, interBusBw, reduceBw, socketLevel(INTRA, gbPerSecond, latencyMicros), share);
    }

    /** {@link #messageCpu} with {@code level} a socket where its link is described (either value not NaN). */
    private double[] socketLevel(int level, double gbPerSecond, double latencyMicros) {
        double[] cpu = messageCpu.clone();
        if (!Double.isNaN(gbPerSecond) || !Double.isNaN(latencyMicros)) {
            cpu[level] = SOCKET_MESSAGE_CPU;
        }
        return cpu;
    }

    /**
     * µs of core time the messages of a call of {@code count} elements in {@code tiles} tiles by
     * {@code a} cost, {@link #messageCpu} per message sent on each level (counted from the
     * algorithm's schedule): each rank sends its own in turn, so at least the busiest rank's;
     * where the busy threads outnumber the cores ({@code threadsPerCore} above 1) every rank's
     * messages share the cores, the mean rank's times the threads per core. A schedule that leaves
     * ranks idle (recursive halving of fewer elements than ranks) costs less there than its busiest
     * rank times the threads. 0 where no level has a per-message cost.
     */
    public double messageTime(ScheduleCost cost, Collective c, Algorithm a, long count, double threadsPerCore, long tiles) {
        if (messageCpu[INTRA] == 0 && messageCpu[INTER] == 0) {
            return 0;
        }
        ScheduleCost.Sends s = cost.sends(c, a, count, messageCpu[INTRA], messageCpu[INTER]);
        return tiles * Math.max(s.busiest(), s.mean() * threadsPerCore);
    }

    /**
     * Each protocol's bandwidth over a link that moves {@code gbPerSecond} of Simple's data: the
     * share of it the protocol gets of the host's own ({@link #maxBusBw}), at most that. A socket
     * carries only data whatever the protocol (the proxy packs and unpacks LL's and LL128's
     * lines), so what slows LL there is its per-byte work at each end, as on the host
     * (docs/hierarchical.md).
     */
    private double[] linkCaps(double gbPerSecond) {
        int simple = Protocol.SIMPLE.ordinal();
        double[] caps = new double[maxBusBw.length];
        for (int p = 0; p < caps.length; p++) {
            caps[p] = Math.min(maxBusBw[p], gbPerSecond * maxBusBw[p] / maxBusBw[simple]);
        }
        return caps;
    }

    /** A copy of {@code table} with {@code value} in every entry, or unchanged where it is NaN. */
    private static double[][] everyEntry(double[][] table, double value) {
        double[][] t = new double[table.length][];
        for (int a = 0; a < t.length; a++) {
            t[a] = table[a].clone();
            if (!Double.isNaN(value)) {
                java.util.Arrays.fill(t[a], value);
            }
        }
        return t;
    }

    /** µs of one hop inside a server: a hand-over of a core when the threads outnumber the cores, at least the link's latency. */
    private double intraHop(int ai, int pi, double threadsPerCore, long tiles) {
        double link = hopLatency[ai][pi];
        return threadsPerCore > 1 ? Math.max(link, parkedHopLatency[pi] * threadsPerCore * Math.max(1, tiles)) : link;
    }

    /**
     * Predicted µs for a call by an algorithm costed from its schedule ({@link ScheduleCost}): the
     * ring's base latency and hop latencies (intra-server hops as hand-overs when the threads
     * outnumber the cores, as in {@link #time}), each level's bandwidth its cap or the channels',
     * and the reductions it makes beyond the ring's at {@link #reduceBw}.
     */
    public double scheduleTime(ScheduleCost cost, Collective c, Algorithm a, Protocol p, long bytes, int nranks,
                               int channels, double threadsPerCore, long tiles) {
        int ri = Algorithm.RING.ordinal();
        int pi = p.ordinal();
        if (nranks == 1) {
            return baseLatency[ri][pi];
        }
        double intra = intraHop(ri, pi, threadsPerCore, tiles);
        double of = share.of(c, a, p, cost.layout().servers());
        double bwIntra = Math.min(maxBusBw[pi], channels * channelBw[pi]) * 1000.0 * of;
        double bwInter = Math.min(interBusBw[pi], channels * channelBw[pi]) * 1000.0 * of;
        return baseLatency[ri][pi] + cost.time(c, a, bytes, intra, interHopLatency[ri][pi], bwIntra, bwInter)
                + cost.extraReduced(c, a) * bytes / (reduceBw * 1000.0);
    }
}
