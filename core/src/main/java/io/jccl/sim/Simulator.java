// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;
import io.jccl.proto.Protocol;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

import static io.jccl.sim.LanePrograms.BYTES;
import static io.jccl.sim.LanePrograms.COST_DOUBLES;
import static io.jccl.sim.LanePrograms.END_SLOT;
import static io.jccl.sim.LanePrograms.FIRST_SLOT;
import static io.jccl.sim.LanePrograms.MICROS;
import static io.jccl.sim.LanePrograms.RECVS;
import static io.jccl.sim.LanePrograms.RUNS;
import static io.jccl.sim.LanePrograms.STEP_INTS;

/**
 * Plays a plan in simulated time, step by step, as the engines run it: every lane of every rank
 * walks its segments and tiles in order; a step starts once its messages have arrived and every
 * FIFO it sends on has a free slot (a connection holds {@link Protocol#STEPS} messages, twice that
 * over the network, where the proxy's ring at each end holds them), runs for its cost
 * ({@link SimCosts}: on the lane, or on the first free core of its machine where the ranks share
 * cores), then frees the slots it read and sends: each message goes out on its route's links
 * ({@link SimFabric}) for its wire bytes at their rates and arrives the route's latency later. On
 * a GPU fabric it takes each link's first free port in turn, so messages that share a link take it
 * in the order they were ready; where the ranks share cores (the host engine's sockets) every
 * connection on a port gets an equal share of it, as TCP's flows do ({@link FairPorts}). The
 * call's time is its launch cost plus the time the last lane finishes.
 *
 * <p>Nothing is aggregated: a plan of a thousand ranks runs all their steps (docs/simulator.md
 * gives the rates); {@link ScaledPrediction} carries rings and trees to far more ranks from fewer.
 *
 * <pre>{@code
 * Simulator sim = new Simulator(new EmulatedFabric(ServerLayout.uniform(2, 4), 800, 200, EmulatedFabric.Nic.RAIL),
 *         Calibration.bundled().costs("host"));
 * Simulator.Result r = sim.run(plan, Protocol.SIMPLE, 4);   // r.micros(): the predicted time of the call
 * }</pre>
 */
public final class Simulator {
    /**
     * What a run predicts and what it took to play: {@code micros}, the time per call of calls made
     * back to back once they run steadily (what {@code jccl perf} and nccl-tests time), and
     * {@code firstMicros}, the time of the first call alone (launch to the last rank's end).
     */
    public record Result(double micros, double firstMicros, int calls, long steps, long messages, long events) {
    }

    /**
     * Where a run tells each message it plays (the simulator's side of the engine's NET timeline,
     * {@code JCCL_DEBUG=TRACE JCCL_DEBUG_SUBSYS=NET}): message {@code seq} of connection
     * ({@code p}, {@code channel}, {@code from}, {@code to}), counted from the first call, of
     * {@code bytes} on the wire, in the sender's call {@code call} (0 for the first), was sent
     * by its lane at {@code sentUs}, went out on its route's links at {@code wireUs} and arrived
     * at {@code arrivedUs} (µs from the first launch).
     */
    @FunctionalInterface
    public interface Timeline {
        void message(Protocol p, int channel, int from, int to, long seq, double bytes, int call, double sentUs, double wireUs,
                     double arrivedUs);
    }

    /** Calls played back to back for a steady-state time, unless told. */
    public static final int CALLS = 4;

    private final SimFabric fabric;
    private final SimCosts costs;
    /** Told every message, or null. */
    private final Timeline timeline;

    public Simulator(SimFabric fabric, SimCosts costs) {
        this(fabric, costs, null);
    }

    private Simulator(SimFabric fabric, SimCosts costs, Timeline timeline) {
        this.fabric = fabric;
        this.costs = costs;
        this.timeline = timeline;
    }

    /** The same telling {@code timeline} every message it plays (null: none), in the order they are sent. */
    public Simulator withTimeline(Timeline timeline) {
        return new Simulator(fabric, costs, timeline);
    }

    public SimFabric fabric() {
        return fabric;
    }

    public SimCosts costs() {
        return costs;
    }

    /** Plays {@code plan} (which holds every rank's steps) in protocol {@code p} on elements of {@code elementSize} bytes. */
    public Result run(Plan plan, Protocol p, int elementSize) {
        return run(r -> plan, p, elementSize, CALLS);
    }

    /**
     * Plays the plans of a job whose ranks each planned their own call: {@code planOf.apply(r)} holds
     * rank r's steps (it may hold others': only r's are read).
     */
    public Result run(IntFunction<Plan> planOf, Protocol p, int elementSize) {
        return run(planOf, p, elementSize, CALLS);
    }

    /**
     * As above, {@code calls} calls one after the other: a rank launches its next call once all its
     * lanes have finished the last (ranks do not wait for each other between calls, as the engines'
     * streams do not); 1 plays one call alone.
     */
    public Result run(IntFunction<Plan> planOf, Protocol p, int elementSize, int calls) {
        if (calls < 1) {
            throw new IllegalArgumentException("calls " + calls);
        }
        int n = fabric.nranks();
        Connections conns = new Connections(n);
        LanePrograms.Builder programs = programs(planOf, p, elementSize, conns);
        return new Run(programs.build(conns.byChannelAndSender()), conns, p, calls).play();
    }

    private LanePrograms.Builder programs(IntFunction<Plan> planOf, Protocol p, int elementSize, Connections conns) {
        int n = fabric.nranks();
        LanePrograms.Builder b = new LanePrograms.Builder();
        // Ranks plan alone, as the engines' ranks do (the planner is safe to share between threads):
        // a second thread plans the next rank while this one reads the last.
        ExecutorService planner = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("jccl-sim-planner").factory());
        try {
            Future<Plan> next = planner.submit(() -> planOf.apply(0));
            for (int r = 0; r < n; r++) {
                Plan plan = planned(next);
                int following = r + 1;
                if (following < n) {
                    next = planner.submit(() -> planOf.apply(following));
                }
                read(plan, r, b, p, elementSize, conns);
            }
        } finally {
            planner.shutdownNow();
        }
        return b;
    }

    private static Plan planned(Future<Plan> plan) {
        try {
            return plan.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error er) {
                throw er;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while planning", e);
        }
    }

    /** Adds rank {@code r}'s lanes of {@code plan} to {@code b}. */
    private void read(Plan plan, int r, LanePrograms.Builder b, Protocol p, int elementSize, Connections conns) {
        if (plan.nranks() != fabric.nranks()) {
            throw new IllegalArgumentException("a plan of " + plan.nranks() + " ranks on " + fabric);
        }
        List<Segment> segments = plan.segments(r);
        int[] ids = new int[8];
        for (int lane = 0; lane < plan.lanes(); lane++) {
            int index = b.lane(r, lane);
            List<Link> recv = null;
            List<Link> send = null;
            for (Segment seg : segments) {
                b.segment(seg.repeat());
                for (Step st : seg.schedule().stepArray(r, lane)) {
                    // consecutive steps mostly name the same links: look their connections up once
                    if (!st.recv().equals(recv) || !st.send().equals(send)) {
                        recv = st.recv();
                        send = st.send();
                        if (recv.size() + send.size() > ids.length) {
                            ids = new int[recv.size() + send.size()];
                        }
                        int c = 0;
                        for (Link in : recv) {
                            ids[c++] = conns.id(in.channel(), in.peer(), r, index, false);
                        }
                        for (Link out : send) {
                            ids[c++] = conns.id(out.channel(), r, out.peer(), index, true);
                        }
                    }
                    long bytes = st.count() * elementSize;
                    b.step(costs.stepMicros(st, bytes, p), bytes, ids, recv.size(), recv.size() + send.size());
                }
            }
        }
    }

    /**
     * The job's connections (channel, from, to), numbered as steps name them, and whether each has
     * one lane sending on it and one taking from it, as a channel's ring or tree has.
     */
    private static final class Connections {
        private final int n;
        private final Map<Long, Integer> ids = new HashMap<>();
        private int[] channel = new int[64];
        private int[] from = new int[64];
        private int[] to = new int[64];
        private int[] sender = new int[64];
        private int[] receiver = new int[64];
        private int count;
        private boolean shared;

        Connections(int n) {
            this.n = n;
        }

        /** The connection's number, lane {@code lane} sending on it or taking from it. */
        int id(int ch, int src, int dst, int lane, boolean sending) {
            long key = ((long) ch * n + src) * n + dst;
            Integer id = ids.get(key);
            if (id == null) {
                if (count == from.length) {
                    channel = Arrays.copyOf(channel, count * 2);
                    from = Arrays.copyOf(from, count * 2);
                    to = Arrays.copyOf(to, count * 2);
                    sender = Arrays.copyOf(sender, count * 2);
                    receiver = Arrays.copyOf(receiver, count * 2);
                }
                channel[count] = ch;
                from[count] = src;
                to[count] = dst;
                sender[count] = -1;
                receiver[count] = -1;
                id = count++;
                ids.put(key, id);
            }
            int[] users = sending ? sender : receiver;
            if (users[id] >= 0 && users[id] != lane) {
                shared = true;
            }
            users[id] = lane;
            return id;
        }

        /**
         * Renumbers the connections by channel, then sender, then receiver; what each number was
         * becomes ({@code [old] = new}). The steps' numbers must be mapped through it.
         */
        int[] byChannelAndSender() {
            Integer[] order = new Integer[count];
            for (int c = 0; c < count; c++) {
                order[c] = c;
            }
            Arrays.sort(order, (x, y) -> channel[x] != channel[y] ? Integer.compare(channel[x], channel[y])
                    : from[x] != from[y] ? Integer.compare(from[x], from[y]) : Integer.compare(to[x], to[y]));
            int[] number = new int[count];
            int[] ch = new int[count];
            int[] f = new int[count];
            int[] t = new int[count];
            for (int k = 0; k < count; k++) {
                number[order[k]] = k;
                ch[k] = channel[order[k]];
                f[k] = from[order[k]];
                t[k] = to[order[k]];
            }
            channel = ch;
            from = f;
            to = t;
            return number;
        }
    }

    /** One play of the programs: their state as simulated time goes. */
    private final class Run {
        private static final int NONE = -1;
        private static final int LANE_INTS = 4;
        private static final int STEP = 0;
        private static final int RERUN = 1;
        private static final int SEGMENT = 2;
        private static final int STATE = 3;
        private static final int IDLE = 0;
        private static final int RUNNING = 1;
        private static final int DONE = 2;
        private static final int SENT = 0;
        private static final int CONSUMED = 1;
        private static final int DEPTH = 2;
        private static final int WAIT_RECEIVER = 3;
        private static final int WAIT_SENDER = 4;
        private static final int LATENCY = 5;
        private static final int HOPS = 6;
        private static final int ROUTE = 7;

        private final LanePrograms prog;
        private final Protocol protocol;
        private final int calls;
        // ranks: their lanes (rankLane[rankFirst[r] .. rankFirst[r+1])), how many finished the call, which call
        private final int[] rankFirst;
        private final int[] rankLane;
        private final int[] lanesDone;
        private final int[] rankCall;
        private final double[] callEnd;
        private final EventQueue queue = new EventQueue();
        /**
         * Lanes: {@code lanes[LANE_INTS·l ..]} | STEP it is at | RERUN: times it ran that step already, in
         * the step's run | SEGMENT | STATE: IDLE, RUNNING, DONE |; the tile of its segment in {@code pass[l]}.
         */
        private final int[] lanes;
        private final long[] pass;
        /**
         * Connections: {@code conn[c·connStride ..]} | SENT messages | CONSUMED | DEPTH slots (a
         * power of two: a message's slot is its number masked) | WAIT_RECEIVER lane | WAIT_SENDER
         * lane | LATENCY's bits | HOPS | ROUTE: the links crossed, maxHops of them | then at
         * {@code arrivals}, a time's bits per slot |: what a step looks at, side by side.
         */
        private final long[] conn;
        private final int connStride;
        private final int arrivals;
        private final int nconn;
        private final int[] channel;
        private final int[] from;
        private final int[] to;
        private final boolean[] network;
        // links: ports' free times
        private final int[] portStart;
        private final double[] portFree;
        /** Per port, the burst bytes it had left when it went idle at {@link #portFree}. */
        private final double[] portCredit;
        /** Per link of several ports, a tournament over them: who is free first (the lower port on a tie), found at once. */
        private final int[] treeStart;
        private final int[] treeLeaves;
        private final int[] winners;
        private final int[] chosen;
        // cores shared by a machine's ranks
        private final double[][] cores;
        /**
         * Whether a lane's step may be started ahead, at the arrival of messages already sent: each
         * connection has one lane sending and one taking, so nothing can take a message or a slot
         * from the lane in between, and no cores are shared, so a start need not wait its turn on one.
         */
        private final boolean ahead;
        /**
         * Where the cores are shared (the host engine's sockets), the links' ports shared fairly among
         * the connections on them, as TCP's flows share a link; else null, and a port serves its
         * messages first come first served. Fair sharing moves the arrivals of messages in flight
         * later as others join, which steps started {@link #ahead} could not take back.
         */
        private final FairPorts fair;
        /** Per message in flight on {@link #fair}: its connection, number on it, core's end, wire bytes, sender's call, send time. */
        private int[] flightConn = new int[0];
        private long[] flightSeq = new long[0];
        private double[] flightCoreDone = new double[0];
        private double[] flightWire = new double[0];
        private int[] flightCall = new int[0];
        private double[] flightSent = new double[0];
        private long steps;
        private long messages;
        private long events;
        private double end;

        Run(LanePrograms prog, Connections conns, Protocol protocol, int calls) {
            this.prog = prog;
            this.protocol = protocol;
            this.calls = calls;
            int n = fabric.nranks();
            rankFirst = new int[n + 1];
            rankLane = new int[prog.lanes()];
            lanesDone = new int[n];
            rankCall = new int[n];
            callEnd = new double[calls];
            for (int l = 0; l < prog.lanes(); l++) {
                rankFirst[prog.rank[l] + 1]++;
            }
            for (int r = 0; r < n; r++) {
                rankFirst[r + 1] += rankFirst[r];
            }
            int[] filled = Arrays.copyOf(rankFirst, n);
            for (int l = 0; l < prog.lanes(); l++) {
                rankLane[filled[prog.rank[l]]++] = l;
            }
            lanes = new int[prog.lanes() * LANE_INTS];
            pass = new long[prog.lanes()];
            nconn = conns.count;
            from = conns.from;
            to = conns.to;
            channel = conns.channel;
            network = new boolean[nconn];
            int most = Protocol.STEPS;
            for (int c = 0; c < nconn; c++) {
                network[c] = fabric.overNetwork(from[c], to[c]);
                if (network[c]) {
                    most = 2 * Protocol.STEPS;
                }
            }
            int[] ranksOn = new int[fabric.nranks()];
            for (int r = 0; r < fabric.nranks(); r++) {
                ranksOn[fabric.machineOf(r)]++;
            }
            int maxHops = fabric.maxHops();
            arrivals = ROUTE + maxHops;
            connStride = arrivals + most;
            conn = new long[nconn * connStride];
            int[] route = new int[maxHops];
            for (int c = 0; c < nconn; c++) {
                int o = c * connStride;
                // a power of two: a message's slot is its number masked
                conn[o + DEPTH] = network[c] ? 2 * Protocol.STEPS : Protocol.STEPS;
                conn[o + WAIT_RECEIVER] = NONE;
                conn[o + WAIT_SENDER] = NONE;
                double latency = fabric.sameNode(from[c], to[c]) ? costs.intraLatencyUs() : costs.interLatencyUs();
                conn[o + LATENCY] = Double.doubleToRawLongBits(costs.loadedLatency(latency, ranksOn[fabric.machineOf(to[c])]));
                int hops = fabric.route(from[c], to[c], route);
                conn[o + HOPS] = hops;
                for (int h = 0; h < hops; h++) {
                    conn[o + ROUTE + h] = route[h];
                }
            }
            int nlinks = fabric.linkCount();
            portStart = new int[nlinks + 1];
            for (int l = 0; l < nlinks; l++) {
                portStart[l + 1] = portStart[l] + fabric.ports(l);
            }
            portFree = new double[portStart[nlinks]];
            // Burst credit starts spent, as in a long run of calls that the rate holds back; a
            // port that idles refills it.
            portCredit = new double[portFree.length];
            treeStart = new int[nlinks];
            treeLeaves = new int[nlinks];
            int trees = 0;
            for (int l = 0; l < nlinks; l++) {
                int ports = fabric.ports(l);
                if (ports > 1) {
                    treeLeaves[l] = Integer.highestOneBit(ports - 1) << 1;
                    treeStart[l] = trees;
                    trees += 2 * treeLeaves[l];
                }
            }
            winners = new int[trees];
            Arrays.fill(winners, NONE);
            for (int l = 0; l < nlinks; l++) {
                for (int q = portStart[l]; q < portStart[l + 1] && treeLeaves[l] > 0; q++) {
                    portChanged(l, q);
                }
            }
            chosen = new int[maxHops];
            if (costs.sharedCores() > 0) {
                int machines = 0;
                for (int r = 0; r < fabric.nranks(); r++) {
                    machines = Math.max(machines, fabric.machineOf(r) + 1);
                }
                cores = new double[machines][costs.sharedCores()];
            } else {
                cores = null;
            }
            ahead = cores == null && !conns.shared;
            if (cores != null && portFree.length > 0) {
                double[] rate = new double[portFree.length];
                double[] burst = new double[portFree.length];
                for (int l = 0; l < nlinks; l++) {
                    for (int q = portStart[l]; q < portStart[l + 1]; q++) {
                        rate[q] = fabric.rate(l) * costs.linkEfficiency();
                        burst[q] = fabric.burst(l);
                    }
                }
                fair = new FairPorts(rate, burst, maxHops, new FairPorts.Listener() {
                    @Override
                    public void moved(int m, double doneUs) {
                        arrives(m, doneUs);
                    }

                    @Override
                    public void finished(int m, double doneUs) {
                        told(m, doneUs);
                    }
                });
            } else {
                fair = null;
            }
        }

        Result play() {
            for (int r = 0; r < rankFirst.length - 1; r++) {
                if (rankFirst[r] < rankFirst[r + 1]) {
                    launch(r, costs.launchUs());
                }
            }
            while (!queue.isEmpty()) {
                double t = queue.peekTime();
                int l = queue.poll();
                events++;
                if (lanes[LANE_INTS * l + STATE] == RUNNING) {
                    finish(l, t);
                } else {
                    tryStart(l, t);
                }
            }
            for (int l = 0; l < prog.lanes(); l++) {
                if (lanes[LANE_INTS * l + STATE] != DONE || rankCall[prog.rank[l]] < calls) {
                    throw new IllegalStateException("the plan does not complete: rank " + prog.rank[l] + " lane " + prog.lane[l]
                            + " waits at step " + (lanes[LANE_INTS * l + STEP] - prog.segmentStart[lanes[LANE_INTS * l + SEGMENT]]) + " (run "
                            + lanes[LANE_INTS * l + RERUN] + ") of segment " + (lanes[LANE_INTS * l + SEGMENT] - prog.firstSegment(l)) + ", pass " + pass[l]
                            + " of call " + rankCall[prog.rank[l]]);
                }
            }
            if (fair != null) {
                fair.drain();
            }
            double first = callEnd[0];
            double perCall = calls == 1 ? first : (callEnd[calls - 1] - callEnd[0]) / (calls - 1);
            return new Result(perCall, first, calls, steps, messages, events);
        }

        /** Starts rank {@code r}'s lanes on its next call at {@code t}; a rank whose lanes have no step finishes it at once. */
        private void launch(int r, double t) {
            lanesDone[r] = 0;
            for (int k = rankFirst[r]; k < rankFirst[r + 1]; k++) {
                int l = rankLane[k];
                lanes[LANE_INTS * l + STATE] = IDLE;
                lanes[LANE_INTS * l + SEGMENT] = prog.firstSegment(l);
                lanes[LANE_INTS * l + RERUN] = 0;
                pass[l] = 0;
                skipEmpty(l);
                if (lanes[LANE_INTS * l + STATE] == DONE) {
                    lanesDone[r]++;
                } else {
                    queue.add(t, l);
                }
            }
            if (lanesDone[r] == rankFirst[r + 1] - rankFirst[r]) {
                callDone(r, t);
            }
        }

        /** Lane {@code l} finished its part of the call at {@code t}. */
        private void laneDone(int l, double t) {
            int r = prog.rank[l];
            if (++lanesDone[r] == rankFirst[r + 1] - rankFirst[r]) {
                callDone(r, t);
            }
        }

        private void callDone(int r, double t) {
            int k = rankCall[r]++;
            callEnd[k] = Math.max(callEnd[k], t);
            if (k + 1 < calls) {
                launch(r, t + costs.launchUs());
            }
        }

        /** Moves lane {@code l} past segments without steps; marks it done at the end. */
        private void skipEmpty(int l) {
            int last = prog.endSegment(l);
            int g = lanes[LANE_INTS * l + SEGMENT];
            while (g < last && prog.segmentStart[g] == prog.segmentStart[g + 1]) {
                g++;
            }
            lanes[LANE_INTS * l + SEGMENT] = g;
            if (g == last) {
                lanes[LANE_INTS * l + STATE] = DONE;
            } else {
                lanes[LANE_INTS * l + STEP] = prog.segmentStart[g];
            }
        }

        /**
         * Looks at lane {@code l}'s step at {@code t}: it waits on a connection without a message for
         * it, or without a free slot; otherwise it starts once its messages are in. A start in the
         * future is queued to look again then, unless it may be started {@link #ahead}.
         */
        private void tryStart(int l, double t) {
            int i = lanes[LANE_INTS * l + STEP];
            int[] program = prog.steps;
            int c0 = program[i * STEP_INTS + FIRST_SLOT];
            int nr = program[i * STEP_INTS + RECVS];
            int c1 = program[i * STEP_INTS + END_SLOT];
            double ready = t;
            for (int k = c0; k < c0 + nr; k++) {
                int o = prog.connection(l, k) * connStride;
                long consumed = conn[o + CONSUMED];
                if (conn[o + SENT] <= consumed) {
                    conn[o + WAIT_RECEIVER] = l;
                    return;
                }
                ready = Math.max(ready, Double.longBitsToDouble(conn[o + arrivals + (int) (consumed & (conn[o + DEPTH] - 1))]));
            }
            if (ready > t && !ahead) {
                queue.add(ready, l);
                return;
            }
            for (int k = c0 + nr; k < c1; k++) {
                int o = prog.connection(l, k) * connStride;
                if (conn[o + SENT] - conn[o + CONSUMED] >= conn[o + DEPTH]) {
                    // a slot freed before the messages are in is seen then
                    if (ready > t) {
                        queue.add(ready, l);
                    } else {
                        conn[o + WAIT_SENDER] = l;
                    }
                    return;
                }
            }
            double micros = prog.costs[i * COST_DOUBLES + MICROS];
            double finish = cores != null ? onCore(prog.rank[l], ready, micros) : ready + micros;
            lanes[LANE_INTS * l + STATE] = RUNNING;
            queue.add(finish, l);
        }

        private void finish(int l, double t) {
            int i = lanes[LANE_INTS * l + STEP];
            int[] program = prog.steps;
            int c0 = program[i * STEP_INTS + FIRST_SLOT];
            int nr = program[i * STEP_INTS + RECVS];
            int c1 = program[i * STEP_INTS + END_SLOT];
            for (int k = c0; k < c0 + nr; k++) {
                int c = prog.connection(l, k);
                conn[c * connStride + CONSUMED]++;
                wake(WAIT_SENDER, c, t);
            }
            double wire = costs.wireBytes((long) prog.costs[i * COST_DOUBLES + BYTES], protocol);
            for (int k = c0 + nr; k < c1; k++) {
                send(prog.connection(l, k), wire, t);
            }
            steps++;
            end = Math.max(end, t);
            lanes[LANE_INTS * l + STATE] = IDLE;
            // the step again, or the next step, tile or segment
            if (++lanes[LANE_INTS * l + RERUN] < program[i * STEP_INTS + RUNS]) {
                tryStart(l, t);
                return;
            }
            lanes[LANE_INTS * l + RERUN] = 0;
            int g = lanes[LANE_INTS * l + SEGMENT];
            if (i + 1 < prog.segmentStart[g + 1]) {
                lanes[LANE_INTS * l + STEP] = i + 1;
            } else if (pass[l] + 1 < prog.segmentRepeat[g]) {
                pass[l]++;
                lanes[LANE_INTS * l + STEP] = prog.segmentStart[g];
            } else {
                pass[l] = 0;
                lanes[LANE_INTS * l + SEGMENT] = g + 1;
                skipEmpty(l);
                if (lanes[LANE_INTS * l + STATE] == DONE) {
                    laneDone(l, t);
                    return;
                }
            }
            tryStart(l, t);
        }

        /** Message number SENT of connection {@code c} leaves on connection {@code c} at {@code t}. */
        private void send(int c, double wire, double t) {
            int o = c * connStride;
            int hopCount = (int) conn[o + HOPS];
            int route = o + ROUTE;
            if (fair != null) {
                sendFair(c, wire, t);
                return;
            }
            for (int h = 0; h < hopCount; h++) {
                chosen[h] = firstFree((int) conn[route + h]);
            }
            double proxies = proxiesDone(c, wire, t);
            // Each port takes the message when it frees, no earlier than the port before it did
            // (cut through), and sends what its burst allows at once and the rest at its rate.
            // A port is not held while the message waits for the next one: a switch buffers it,
            // so a sender's link serves its other messages meanwhile.
            double done = t;
            double start = t;
            double go = t;
            for (int h = 0; h < hopCount; h++) {
                int link = (int) conn[route + h];
                int q = chosen[h];
                start = Math.max(start, portFree[q]);
                if (h == 0) {
                    go = start;
                }
                double rate = fabric.rate(link) * costs.linkEfficiency();
                double credit = Math.min(fabric.burst(link), portCredit[q] + rate * (start - portFree[q]));
                double busy = Math.max(0, wire - credit) / rate;
                portCredit[q] = Math.max(0, credit - wire);
                double end = Math.max(start + busy, done);
                portFree[q] = end;
                portChanged(link, q);
                done = end;
            }
            double at = Math.max(done, proxies) + Double.longBitsToDouble(conn[o + LATENCY]);
            long sent = conn[o + SENT]++;
            if (timeline != null) {
                timeline.message(protocol, channel[c], from[c], to[c], sent, wire, rankCall[from[c]], t, go, at);
            }
            conn[o + arrivals + (int) (sent & (conn[o + DEPTH] - 1))] = Double.doubleToRawLongBits(at);
            messages++;
            end = Math.max(end, at);
            wake(WAIT_RECEIVER, c, t);
        }

        /**
         * Message number SENT of connection {@code c} joins its route's ports at {@code t}, each shared
         * fairly among the connections on it ({@link FairPorts}); its arrival is projected now and
         * moved later as other connections join its ports.
         */
        private void sendFair(int c, double wire, double t) {
            int o = c * connStride;
            int hopCount = (int) conn[o + HOPS];
            double coreDone = proxiesDone(c, wire, t);
            long seq = conn[o + SENT]++;
            int m = fair.open(c, hopCount);
            if (m >= flightConn.length) {
                int n = Math.max(64, 2 * (m + 1));
                flightConn = Arrays.copyOf(flightConn, n);
                flightSeq = Arrays.copyOf(flightSeq, n);
                flightCoreDone = Arrays.copyOf(flightCoreDone, n);
                flightWire = Arrays.copyOf(flightWire, n);
                flightCall = Arrays.copyOf(flightCall, n);
                flightSent = Arrays.copyOf(flightSent, n);
            }
            flightConn[m] = c;
            flightSeq[m] = seq;
            flightCoreDone[m] = coreDone;
            flightWire[m] = wire;
            flightCall[m] = rankCall[from[c]];
            flightSent[m] = t;
            for (int h = 0; h < hopCount; h++) {
                int link = (int) conn[o + ROUTE + h];
                chosen[h] = fairPort(link);
                fair.join(m, h, chosen[h], wire, t);
            }
            double done = fair.settle(m, chosen, t);
            if (!Double.isNaN(done)) {
                // its burst carried it on every port at once
                arrives(m, done);
                told(m, done);
            }
            messages++;
            wake(WAIT_RECEIVER, c, t);
        }

        /** The port of {@code link} that fair sharing projects idle first (a link of one port: that one). */
        private int fairPort(int link) {
            int best = portStart[link];
            for (int q = best + 1; q < portStart[link + 1]; q++) {
                if (fair.freeAt(q) < fair.freeAt(best)) {
                    best = q;
                }
            }
            return best;
        }

        /** When message {@code m} on {@link #fair}, done on its links at {@code doneUs}, arrives. */
        private double arrival(int m, double doneUs) {
            return Math.max(doneUs, flightCoreDone[m]) + Double.longBitsToDouble(conn[flightConn[m] * connStride + LATENCY]);
        }

        /** Message {@code m} on {@link #fair} is (now projected) done on its links at {@code doneUs}: its slot says when it arrives. */
        private void arrives(int m, double doneUs) {
            int o = flightConn[m] * connStride;
            double at = arrival(m, doneUs);
            conn[o + arrivals + (int) (flightSeq[m] & (conn[o + DEPTH] - 1))] = Double.doubleToRawLongBits(at);
            end = Math.max(end, at);
        }

        /** Tells the timeline of message {@code m} on {@link #fair}, done on its links at {@code doneUs}. */
        private void told(int m, double doneUs) {
            if (timeline == null) {
                return;
            }
            int c = flightConn[m];
            timeline.message(protocol, channel[c], from[c], to[c], flightSeq[m], flightWire[m], flightCall[m], flightSent[m],
                    flightSent[m], arrival(m, doneUs));
        }

        /**
         * Where the cores are shared, the proxies' work on a message over the network streams with it:
         * the sender pushing it into the socket, the receiver taking it in. It is booked when the
         * message is handed to the net, not when its link frees: a core's one free time cannot keep a
         * gap open before a booking in the future, so a message queued for a busy NIC would hold the
         * machine's cores idle meanwhile. When that work ends ({@code t} where there is none).
         */
        private double proxiesDone(int c, double wire, double t) {
            if (cores == null || !network[c]) {
                return t;
            }
            double done = onCore(from[c], t, costs.netMicros(wire, true, protocol));
            return Math.max(done, onCore(to[c], t, costs.netMicros(wire, false, protocol)));
        }

        /** Runs {@code micros} of work for rank {@code rank} on its machine's first free core from {@code t}; when it ends. */
        private double onCore(int rank, double t, double micros) {
            double[] machine = cores[fabric.machineOf(rank)];
            int core = earliest(machine, 0, machine.length);
            double end = Math.max(t, machine[core]) + micros;
            machine[core] = end;
            return end;
        }

        /** The port of link {@code link} free first, the lower one where several are. */
        private int firstFree(int link) {
            return treeLeaves[link] == 0 ? portStart[link] : winners[treeStart[link] + 1];
        }

        /** Port {@code q} of link {@code link} has a new free time: its tournament's winners above it again. */
        private void portChanged(int link, int q) {
            int leaves = treeLeaves[link];
            if (leaves == 0) {
                return;
            }
            int base = treeStart[link];
            int node = leaves + q - portStart[link];
            winners[base + node] = q;
            for (node >>>= 1; node >= 1; node >>>= 1) {
                int a = winners[base + 2 * node];
                int b = winners[base + 2 * node + 1];
                winners[base + node] = b == NONE || (a != NONE && portFree[a] <= portFree[b]) ? a : b;
            }
        }

        /** The index in [{@code from}, {@code to}) of the earliest of {@code free}'s times: the first port or core free. */
        private static int earliest(double[] free, int from, int to) {
            int best = from;
            for (int q = from + 1; q < to; q++) {
                if (free[q] < free[best]) {
                    best = q;
                }
            }
            return best;
        }

        /** Lane waiting on connection {@code c} as its receiver or sender ({@code field}), if one is, looks again at {@code t}. */
        private void wake(int field, int c, double t) {
            int o = c * connStride + field;
            int w = (int) conn[o];
            if (w != NONE) {
                conn[o] = NONE;
                if (ahead) {
                    tryStart(w, t);
                } else {
                    queue.add(t, w);
                }
            }
        }
    }
}
