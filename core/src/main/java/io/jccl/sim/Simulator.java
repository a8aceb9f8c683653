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
import java.util.function.IntFunction;

/**
 * Plays a plan in simulated time, step by step, as the engines run it: every lane of every rank
 * walks its segments and tiles in order; a step starts once its messages have arrived and every
 * FIFO it sends on has a free slot (a connection holds {@link Protocol#STEPS} messages, twice that
 * over the network, where the proxy's ring at each end holds them), runs for its cost
 * ({@link SimCosts}: on the lane, or on the first free core of its machine where the ranks share
 * cores), then frees the slots it read and sends: each message goes out on its route's links as soon
 * as a port of each is free ({@link SimFabric}), holds them for its wire bytes at the slowest
 * port's rate and arrives the route's latency later. Events are taken in time order, so messages
 * that share a link take it in the order they were ready. The call's time is its launch cost plus
 * the time the last lane finishes.
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

    /** Calls played back to back for a steady-state time, unless told. */
    public static final int CALLS = 4;

    private final SimFabric fabric;
    private final SimCosts costs;

    public Simulator(SimFabric fabric, SimCosts costs) {
        this.fabric = fabric;
        this.costs = costs;
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
        LaneProgram[] programs = programs(planOf, p, elementSize, conns);
        return new Run(programs, conns, p, calls).play();
    }

    private LaneProgram[] programs(IntFunction<Plan> planOf, Protocol p, int elementSize, Connections conns) {
        int n = fabric.nranks();
        LaneProgram[] all = new LaneProgram[16];
        int count = 0;
        for (int r = 0; r < n; r++) {
            Plan plan = planOf.apply(r);
            if (plan.nranks() != n) {
                throw new IllegalArgumentException("a plan of " + plan.nranks() + " ranks on " + fabric);
            }
            List<Segment> segments = plan.segments(r);
            for (int l = 0; l < plan.lanes(); l++) {
                if (count == all.length) {
                    all = Arrays.copyOf(all, count * 2);
                }
                all[count++] = program(r, l, segments, p, elementSize, conns);
            }
        }
        return Arrays.copyOf(all, count);
    }

    private LaneProgram program(int r, int lane, List<Segment> segments, Protocol p, int elementSize, Connections conns) {
        int total = 0;
        int links = 0;
        for (Segment seg : segments) {
            for (Step st : seg.schedule().stepArray(r, lane)) {
                total++;
                links += st.recv().size() + st.send().size();
            }
        }
        int[] segmentStart = new int[segments.size() + 1];
        long[] repeat = new long[segments.size()];
        double[] micros = new double[total];
        long[] bytes = new long[total];
        byte[] recvs = new byte[total];
        int[] connStart = new int[total + 1];
        int[] connections = new int[links];
        int i = 0;
        int c = 0;
        for (int s = 0; s < segments.size(); s++) {
            Segment seg = segments.get(s);
            segmentStart[s] = i;
            repeat[s] = seg.repeat();
            for (Step st : seg.schedule().stepArray(r, lane)) {
                long b = st.count() * elementSize;
                bytes[i] = b;
                micros[i] = costs.stepMicros(st, b, p);
                recvs[i] = (byte) st.recv().size();
                connStart[i] = c;
                for (Link in : st.recv()) {
                    connections[c++] = conns.id(in.channel(), in.peer(), r);
                }
                for (Link out : st.send()) {
                    connections[c++] = conns.id(out.channel(), r, out.peer());
                }
                i++;
            }
        }
        segmentStart[segments.size()] = i;
        connStart[total] = c;
        return new LaneProgram(r, lane, segmentStart, repeat, micros, bytes, recvs, connStart, connections);
    }

    /** The job's connections (channel, from, to), numbered as steps name them. */
    private static final class Connections {
        private final int n;
        private final Map<Long, Integer> ids = new HashMap<>();
        private int[] from = new int[64];
        private int[] to = new int[64];
        private int count;

        Connections(int n) {
            this.n = n;
        }

        int id(int channel, int src, int dst) {
            long key = ((long) channel * n + src) * n + dst;
            Integer id = ids.get(key);
            if (id == null) {
                if (count == from.length) {
                    from = Arrays.copyOf(from, count * 2);
                    to = Arrays.copyOf(to, count * 2);
                }
                from[count] = src;
                to[count] = dst;
                id = count++;
                ids.put(key, id);
            }
            return id;
        }
    }

    /** One play of the programs: their state as simulated time goes. */
    private final class Run {
        private static final int NONE = -1;

        private final LaneProgram[] programs;
        private final Protocol protocol;
        private final int calls;
        // ranks: their lanes (consecutive in programs), how many finished the call, which call
        private final int[] rankFirst;
        private final int[] rankLanes;
        private final int[] lanesDone;
        private final int[] rankCall;
        private final double[] callEnd;
        private final EventQueue queue = new EventQueue();
        // lanes
        private final int[] segment;
        private final long[] pass;
        private final int[] step;
        private final boolean[] running;
        private final boolean[] done;
        // connections
        private final int nconn;
        private final int[] from;
        private final int[] to;
        private final int[] depth;
        private final long[] sent;
        private final long[] consumed;
        private final double[] arrivals;
        private final int maxDepth;
        private final int[] waitingReceiver;
        private final int[] waitingSender;
        private final double[] latency;
        private final boolean[] network;
        // links: ports' free times
        private final int[] portStart;
        private final double[] portFree;
        /** Per port, the burst bytes it had left when it went idle at {@link #portFree}. */
        private final double[] portCredit;
        private final int[] route;
        private final int[] chosen;
        // cores shared by a machine's ranks
        private final double[][] cores;
        private long steps;
        private long messages;
        private long events;
        private double end;

        Run(LaneProgram[] programs, Connections conns, Protocol protocol, int calls) {
            this.programs = programs;
            this.protocol = protocol;
            this.calls = calls;
            int n = fabric.nranks();
            rankFirst = new int[n];
            rankLanes = new int[n];
            lanesDone = new int[n];
            rankCall = new int[n];
            callEnd = new double[calls];
            Arrays.fill(rankFirst, -1);
            for (int l = 0; l < programs.length; l++) {
                int r = programs[l].rank;
                if (rankFirst[r] < 0) {
                    rankFirst[r] = l;
                }
                rankLanes[r]++;
            }
            int lanes = programs.length;
            segment = new int[lanes];
            pass = new long[lanes];
            step = new int[lanes];
            running = new boolean[lanes];
            done = new boolean[lanes];
            nconn = conns.count;
            from = conns.from;
            to = conns.to;
            depth = new int[nconn];
            latency = new double[nconn];
            network = new boolean[nconn];
            int most = 1;
            int[] ranksOn = new int[fabric.nranks()];
            for (int r = 0; r < fabric.nranks(); r++) {
                ranksOn[fabric.machineOf(r)]++;
            }

            for (int c = 0; c < nconn; c++) {
                network[c] = fabric.overNetwork(from[c], to[c]);
                // a power of two: a message's slot is its number masked
                depth[c] = network[c] ? 2 * Protocol.STEPS : Protocol.STEPS;
                latency[c] = costs.loadedLatency(fabric.sameNode(from[c], to[c]) ? costs.intraLatencyUs() : costs.interLatencyUs(),
                        ranksOn[fabric.machineOf(to[c])]);
                most = Math.max(most, depth[c]);
            }
            maxDepth = most;
            sent = new long[nconn];
            consumed = new long[nconn];
            arrivals = new double[nconn * maxDepth];
            waitingReceiver = new int[nconn];
            waitingSender = new int[nconn];
            Arrays.fill(waitingReceiver, NONE);
            Arrays.fill(waitingSender, NONE);
            int nlinks = fabric.linkCount();
            portStart = new int[nlinks + 1];
            for (int l = 0; l < nlinks; l++) {
                portStart[l + 1] = portStart[l] + fabric.ports(l);
            }
            portFree = new double[portStart[nlinks]];
            // Burst credit starts spent, as in a long run of calls that the rate holds back; a
            // port that idles refills it.
            portCredit = new double[portFree.length];
            route = new int[fabric.maxHops()];
            chosen = new int[fabric.maxHops()];
            if (costs.sharedCores() > 0) {
                int machines = 0;
                for (int r = 0; r < fabric.nranks(); r++) {
                    machines = Math.max(machines, fabric.machineOf(r) + 1);
                }
                cores = new double[machines][costs.sharedCores()];
            } else {
                cores = null;
            }
        }

        Result play() {
            for (int r = 0; r < rankFirst.length; r++) {
                if (rankFirst[r] >= 0) {
                    launch(r, costs.launchUs());
                }
            }
            while (!queue.isEmpty()) {
                double t = queue.peekTime();
                int l = queue.poll();
                events++;
                if (running[l]) {
                    finish(l, t);
                } else {
                    tryStart(l, t);
                }
            }
            for (int l = 0; l < programs.length; l++) {
                if (!done[l] || rankCall[programs[l].rank] < calls) {
                    LaneProgram p = programs[l];
                    throw new IllegalStateException("the plan does not complete: rank " + p.rank + " lane " + p.lane
                            + " waits at step " + step[l] + " of segment " + segment[l] + ", pass " + pass[l]
                            + " of call " + rankCall[p.rank]);
                }
            }
            double first = callEnd[0];
            double perCall = calls == 1 ? first : (callEnd[calls - 1] - callEnd[0]) / (calls - 1);
            return new Result(perCall, first, calls, steps, messages, events);
        }

        /** Starts rank {@code r}'s lanes on its next call at {@code t}; a rank whose lanes have no step finishes it at once. */
        private void launch(int r, double t) {
            lanesDone[r] = 0;
            for (int l = rankFirst[r]; l < rankFirst[r] + rankLanes[r]; l++) {
                done[l] = false;
                segment[l] = 0;
                pass[l] = 0;
                skipEmpty(l);
                if (done[l]) {
                    lanesDone[r]++;
                } else {
                    queue.add(t, l);
                }
            }
            if (lanesDone[r] == rankLanes[r]) {
                callDone(r, t);
            }
        }

        /** Lane {@code l} finished its part of the call at {@code t}. */
        private void laneDone(int l, double t) {
            int r = programs[l].rank;
            if (++lanesDone[r] == rankLanes[r]) {
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
            LaneProgram p = programs[l];
            while (segment[l] < p.segments() && p.segmentStart[segment[l]] == p.segmentStart[segment[l] + 1]) {
                segment[l]++;
            }
            if (segment[l] == p.segments()) {
                done[l] = true;
            } else {
                step[l] = p.segmentStart[segment[l]];
            }
        }

        private void tryStart(int l, double t) {
            LaneProgram p = programs[l];
            int i = step[l];
            int c0 = p.connStart[i];
            int nr = p.recvs[i];
            int c1 = p.connStart[i + 1];
            double ready = t;
            for (int k = c0; k < c0 + nr; k++) {
                int c = p.connections[k];
                if (sent[c] <= consumed[c]) {
                    waitingReceiver[c] = l;
                    return;
                }
                ready = Math.max(ready, arrivals[c * maxDepth + ((int) consumed[c] & (depth[c] - 1))]);
            }
            if (ready > t) {
                queue.add(ready, l);
                return;
            }
            for (int k = c0 + nr; k < c1; k++) {
                int c = p.connections[k];
                if (sent[c] - consumed[c] >= depth[c]) {
                    waitingSender[c] = l;
                    return;
                }
            }
            double finish = cores != null ? onCore(p.rank, t, p.micros[i]) : t + p.micros[i];
            running[l] = true;
            queue.add(finish, l);
        }

        private void finish(int l, double t) {
            LaneProgram p = programs[l];
            int i = step[l];
            int c0 = p.connStart[i];
            int nr = p.recvs[i];
            int c1 = p.connStart[i + 1];
            for (int k = c0; k < c0 + nr; k++) {
                int c = p.connections[k];
                consumed[c]++;
                wake(waitingSender, c, t);
            }
            double wire = costs.wireBytes(p.bytes[i], protocol);
            for (int k = c0 + nr; k < c1; k++) {
                send(p.connections[k], wire, t);
            }
            steps++;
            end = Math.max(end, t);
            running[l] = false;
            // the next step, tile or segment
            if (i + 1 < p.segmentStart[segment[l] + 1]) {
                step[l] = i + 1;
            } else if (pass[l] + 1 < p.segmentRepeat[segment[l]]) {
                pass[l]++;
                step[l] = p.segmentStart[segment[l]];
            } else {
                pass[l] = 0;
                segment[l]++;
                skipEmpty(l);
                if (done[l]) {
                    laneDone(l, t);
                    return;
                }
            }
            tryStart(l, t);
        }

        /** Message number {@code sent[c]} leaves on connection {@code c} at {@code t}. */
        private void send(int c, double wire, double t) {
            int hops = fabric.route(from[c], to[c], route);
            double go = t;
            for (int h = 0; h < hops; h++) {
                int link = route[h];
                int best = earliest(portFree, portStart[link], portStart[link + 1]);
                chosen[h] = best;
                go = Math.max(go, portFree[best]);
            }
            // Where the cores are shared, the proxies' work on a message over the network streams
            // with it: the sender pushing it into the socket, the receiver taking it in.
            double sendCpu = 0;
            double recvCpu = 0;
            if (cores != null && network[c]) {
                sendCpu = costs.netMicros(wire, true);
                recvCpu = costs.netMicros(wire, false);
            }
            // Each port sends what its burst allows at once and the rest at its rate.
            double done = go;
            for (int h = 0; h < hops; h++) {
                int link = route[h];
                int q = chosen[h];
                double rate = fabric.rate(link) * costs.linkEfficiency();
                double credit = Math.min(fabric.burst(link), portCredit[q] + rate * (go - portFree[q]));
                double busy = Math.max(0, wire - credit) / rate;
                portCredit[q] = Math.max(0, credit - wire);
                portFree[q] = go + busy;
                done = Math.max(done, go + busy);
            }
            if (sendCpu > 0) {
                done = Math.max(done, onCore(from[c], go, sendCpu));
                done = Math.max(done, onCore(to[c], go, recvCpu));
            }
            double at = done + latency[c];
            arrivals[c * maxDepth + ((int) sent[c] & (depth[c] - 1))] = at;
            sent[c]++;
            messages++;
            end = Math.max(end, at);
            wake(waitingReceiver, c, t);
        }

        /** Runs {@code micros} of work for rank {@code rank} on its machine's first free core from {@code t}; when it ends. */
        private double onCore(int rank, double t, double micros) {
            double[] machine = cores[fabric.machineOf(rank)];
            int core = earliest(machine, 0, machine.length);
            double end = Math.max(t, machine[core]) + micros;
            machine[core] = end;
            return end;
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

        private void wake(int[] waiting, int c, double t) {
            int w = waiting[c];
            if (w != NONE) {
                waiting[c] = NONE;
                queue.add(t, w);
            }
        }
    }
}
