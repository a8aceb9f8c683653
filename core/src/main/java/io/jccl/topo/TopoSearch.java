// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The channel search of one node, after NCCL's: each channel is an order of the node's GPUs (and,
 * across nodes, a network port in and one out) along which every hop is a path no farther than
 * the allowed types and still has the channel's bandwidth left on each of its links; a channel
 * takes that bandwidth from the links it uses, so channels are added while the fabric has room.
 * Bandwidths are tried from the highest of NCCL's ladder for the GPU generation down, path types
 * from the nearest up, and the graph carrying the most bandwidth (channels times per-channel
 * bandwidth) wins; ties go to the one found first, which is the nearer and faster.
 *
 * <p>Within a channel the search is depth first: it tries the GPUs in NCCL's order of preference
 * (the fabric's order first, then the GPUs nearest the port, then by bandwidth, hops and index
 * after the current GPU) and takes the first order that fits. Channels are found one after the
 * other without revisiting earlier ones, within a budget of steps, so the result is deterministic
 * and found in milliseconds, at the price of sometimes fewer channels than a full search.
 *
 * <pre>{@code
 * TopoGraph ring = TopoSearch.search(system, TopoPattern.RING, true);   // across nodes
 * ring.channel(0);                                                     // NET/0 GPU/0 ... GPU/7 NET/7
 * }</pre>
 */
public final class TopoSearch {
    /** NCCL's MAXCHANNELS/2: what one search may return before duplication. */
    public static final int MAX_SEARCH_CHANNELS = 32;
    /** NCCL's MAXCHANNELS. */
    public static final int MAX_CHANNELS = 64;
    /** Steps one attempt may take before it keeps what it has (NCCL's search timeouts). */
    static final int STEP_BUDGET = 1 << 14;
    /** Steps of an attempt that only repeats the first channel. */
    static final int SAME_CHANNELS_BUDGET = 1 << 10;

    private static final double[] SPEEDS_INTRA = {40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
    private static final double[] SPEEDS_INTER = {48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0,
        5.0, 4.0, 3.0, 2.4, 1.2, 0.24, 0.12};
    private static final double[] SM90_SPEEDS_INTRA = {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
    private static final double[] SM90_SPEEDS_INTER = {48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0,
        6.0, 3.0, 2.4, 1.2, 0.24, 0.12};
    private static final double[] SM100_SPEEDS_INTRA = {90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0};
    private static final double[] SM100_SPEEDS_INTER = {96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0,
        17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12};

    private final TopoSystem system;
    private final TopoPattern pattern;
    private final boolean inter;
    private final int maxChannels;
    /** The node's GPUs by rank: channel orders are indices into this list. */
    private final List<TopoNode> gpus;
    private final List<TopoNode> nets;
    private final double[] left;
    private final int[] netChannels;
    private final Map<Integer, int[]> preferences = new HashMap<>();
    private int steps;
    /** The port the last channel laid leaves by (set by {@link #place}). */
    private int exitDev = -1;
    /** For the channel being laid: which GPUs could leave for the network within the allowed type. */
    private boolean[] canExit;

    // One attempt's parameters.
    private double speedIntra;
    private double speedInter;
    private PathType typeIntra;
    private PathType typeInter;
    private boolean crossNic;
    private boolean sameChannels;

    private TopoSearch(TopoSystem system, TopoPattern pattern, boolean inter, int maxChannels) {
        this.system = system;
        this.pattern = pattern;
        this.gpus = gpusByRank(system);
        this.nets = system.nodes(NodeType.NET);
        this.inter = inter;
        this.maxChannels = maxChannels;
        this.left = new double[system.links().size()];
        this.netChannels = new int[nets.size()];
    }

    /** The node's GPUs ordered by their rank attribute: local rank i is element i. */
    public static List<TopoNode> gpusByRank(TopoSystem system) {
        List<TopoNode> l = new ArrayList<>(system.nodes(NodeType.GPU));
        l.sort(Comparator.comparingInt(g -> g.gpu().rank()));
        return l;
    }

    /**
     * Searches {@code pattern} on {@code system}, within the node ({@code inter} false) or with the
     * channels entering and leaving through the network ({@code inter} true, which needs a NIC),
     * then duplicates the channels as NCCL does.
     */
    public static TopoGraph search(TopoSystem system, TopoPattern pattern, boolean inter) {
        return search(system, pattern, inter, MAX_SEARCH_CHANNELS).duplicated(minSm(system), MAX_SEARCH_CHANNELS);
    }

    /** The search alone, at most {@code maxChannels} channels, without duplication. */
    public static TopoGraph search(TopoSystem system, TopoPattern pattern, boolean inter, int maxChannels) {
        if (system.nodes(NodeType.GPU).isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology",
                    "has no GPU to lay channels on (a CPU-only node places its ranks with NumaPlacement)");
        }
        if (inter && system.nodes(NodeType.NET).isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology",
                    "has no network port, so its channels cannot leave the node");
        }
        if (maxChannels < 1) {
            throw new IllegalArgumentException("maxChannels " + maxChannels);
        }
        return new TopoSearch(system, pattern, inter, maxChannels).compute();
    }

    static int minSm(TopoSystem system) {
        return system.nodes(NodeType.GPU).stream().mapToInt(g -> g.gpu().sm()).min().orElse(0);
    }

    private double[] ladder() {
        int sm = minSm(system);
        if (sm >= 100) {
            return inter ? SM100_SPEEDS_INTER : SM100_SPEEDS_INTRA;
        }
        if (sm >= 90) {
            return inter ? SM90_SPEEDS_INTER : SM90_SPEEDS_INTRA;
        }
        return inter ? SPEEDS_INTER : SPEEDS_INTRA;
    }

    /** The fastest path a GPU has to another GPU (or, across nodes, to a port): no channel can beat it. */
    private double maxBw() {
        if (!inter && gpus.size() == 1) {
            return Bandwidth.LOC;
        }
        double max = 0;
        for (TopoNode g : gpus) {
            for (TopoNode t : inter ? nets : gpus) {
                TopoPath p = system.path(g, t);
                if (p.hops() > 0) {
                    max = Math.max(max, p.bw());
                }
            }
        }
        return max;
    }

    /** What a GPU can move at most: the sum of its NVLinks, or its PCI link. */
    private double totalBw() {
        double total = 0;
        for (TopoNode g : gpus) {
            double nvl = 0;
            double pci = 0;
            for (TopoLink l : g.links()) {
                if (l.type() == LinkType.NVL) {
                    nvl += l.bw();
                } else if (l.type() == LinkType.PCI) {
                    pci = Math.max(pci, l.bw());
                }
            }
            total = Math.max(total, Math.max(nvl, pci));
        }
        return total;
    }

    private List<PathType> types(boolean toNet) {
        Set<PathType> s = new TreeSet<>();
        for (TopoNode g : gpus) {
            for (TopoNode t : toNet ? nets : gpus) {
                if (t == g) {
                    continue;
                }
                s.add(system.path(g, t).type());
                s.add(system.path(t, g).type());
            }
        }
        s.remove(PathType.DIS);
        if (s.isEmpty()) {
            s.add(PathType.LOC);
        }
        return new ArrayList<>(s);
    }

    private TopoGraph compute() {
        double[] speeds = ladder();
        double maxBw = maxBw();
        double totalBw = totalBw();
        List<PathType> intraTypes = types(false);
        List<PathType> interTypes = inter ? types(true) : List.of(PathType.LOC);
        boolean mayCross = inter && nets.size() > 1 && pattern != TopoPattern.TREE;

        int first = 0;
        while (first < speeds.length - 1 && speeds[first] > maxBw) {
            first++;
        }
        TopoGraph best = null;
        search:
        for (int i = first; i < speeds.length; i++) {
            // Farther path types are tried only while nothing fits at this bandwidth.
            boolean fits = false;
            for (int a = 0; a < interTypes.size() && !fits; a++) {
                for (int b = 0; b < intraTypes.size() && !fits; b++) {
                    for (boolean cross : mayCross ? new boolean[] {false, true} : new boolean[] {false}) {
                        for (boolean same : new boolean[] {true, false}) {
                            TopoGraph g = attempt(speeds[i], speeds[i], intraTypes.get(b), interTypes.get(a), cross, same);
                            fits |= g.nChannels() > 0;
                            if (better(g, best)) {
                                best = g;
                                if (g.nChannels() == maxChannels || g.nChannels() * g.bwIntra() >= totalBw) {
                                    break search;
                                }
                            }
                        }
                    }
                }
            }
            // Slower channels are worth trying only while they could add up to more.
            if (best != null && (i + 1 == speeds.length || speeds[i + 1] / best.bwInter() <= 0.49)) {
                break;
            }
        }
        if (best == null) {
            return fallback();
        }
        return pattern.isTree() ? fasterIntra(best, speeds) : best;
    }

    /**
     * Trees across nodes: the channel count found, see whether the links inside the node carry
     * more than the network part (up to twice), as NCCL's second pass does.
     */
    private TopoGraph fasterIntra(TopoGraph best, double[] speeds) {
        if (!inter) {
            return best;
        }
        TopoGraph result = best;
        for (int i = speeds.length - 1; i >= 0; i--) {
            double s = speeds[i];
            if (s <= result.bwIntra() || s > 2 * best.bwInter()) {
                continue;
            }
            TopoGraph g = attempt(s, best.bwInter(), best.typeIntra(), best.typeInter(), best.crossNic(), best.sameChannels());
            if (g.nChannels() >= best.nChannels()) {
                result = g;
            } else {
                break;
            }
        }
        return result;
    }

    /** NCCL's last resort: one channel in rank order at a token bandwidth. */
    private TopoGraph fallback() {
        int[] order = new int[gpus.size()];
        Arrays.setAll(order, i -> i);
        int net = inter ? nets.get(0).net().dev() : -1;
        return new TopoGraph(pattern, List.of(new TopoGraph.Channel(net, order, net)), 0.1, 0.1,
                PathType.SYS, PathType.SYS, false, true);
    }

    private static boolean better(TopoGraph g, TopoGraph ref) {
        if (g.nChannels() == 0) {
            return false;
        }
        if (ref == null) {
            return true;
        }
        double a = g.nChannels() * g.bwIntra();
        double b = ref.nChannels() * ref.bwIntra();
        return a > b + 1e-9;
    }

    /** Finds channels one after the other with the given bandwidths and path types. */
    private TopoGraph attempt(double bwIntra, double bwInter, PathType ti, PathType te, boolean cross, boolean same) {
        speedIntra = bwIntra;
        speedInter = bwInter;
        typeIntra = ti;
        typeInter = te;
        crossNic = cross;
        sameChannels = same;
        for (TopoLink l : system.links()) {
            left[l.id()] = l.bw();
        }
        Arrays.fill(netChannels, 0);
        steps = same ? SAME_CHANNELS_BUDGET : STEP_BUDGET;
        List<TopoGraph.Channel> found = new ArrayList<>();
        while (found.size() < maxChannels) {
            TopoGraph.Channel c = inter ? nextInterChannel(found) : nextIntraChannel(found);
            if (c == null) {
                break;
            }
            found.add(c);
            if (!inter && gpus.size() == 1) {
                break; // a lone GPU's channel uses no link: more of them would add nothing
            }
        }
        return new TopoGraph(pattern, found, bwIntra, inter ? bwInter : bwIntra, ti, inter ? te : ti, cross, same);
    }

    /** The next channel inside the node: the GPUs in index order (then the first channel's order), then any. */
    private TopoGraph.Channel nextIntraChannel(List<TopoGraph.Channel> found) {
        int[] r = dfs(-1, found.isEmpty() ? identity() : found.get(0).gpus(), false);
        if (r != null) {
            return new TopoGraph.Channel(-1, r, -1);
        }
        if (sameChannels && !found.isEmpty()) {
            return null;
        }
        for (int g = 0; g < gpus.size(); g++) {
            r = dfs(-1, new int[] {g}, true);
            if (r != null) {
                return new TopoGraph.Channel(-1, r, -1);
            }
        }
        return null;
    }

    /**
     * The next channel through the network: from the first port with room, the first channel's
     * order, or (first channel, or different channels allowed) the fabric's order when there is no
     * NVSwitch, then from each GPU nearest the port.
     */
    private TopoGraph.Channel nextInterChannel(List<TopoGraph.Channel> found) {
        for (int n = 0; n < nets.size(); n++) {
            TopoNode net = nets.get(n);
            if (netChannels[n] >= net.net().maxChannels()) {
                continue;
            }
            List<Start> starts = new ArrayList<>();
            if (!found.isEmpty()) {
                starts.add(new Start(found.get(0).gpus(), false));
            }
            if (found.isEmpty() || !sameChannels) {
                if (found.isEmpty() && system.nodes(NodeType.NVS).isEmpty()) {
                    starts.add(new Start(identity(), false));
                }
                for (TopoNode g : system.nearest(net, NodeType.GPU)) {
                    starts.add(new Start(new int[] {gpus.indexOf(g)}, true));
                }
            }
            for (Start st : starts) {
                int[] r = dfs(n, st.prefix(), st.free());
                if (r != null) {
                    netChannels[n]++;
                    return new TopoGraph.Channel(net.net().dev(), r, exitDev);
                }
            }
        }
        return null;
    }

    private int[] identity() {
        int[] o = new int[gpus.size()];
        Arrays.setAll(o, i -> i);
        return o;
    }

    /** Where a channel's search starts: GPUs in a given order, then (when free) in any order. */
    private record Start(int[] prefix, boolean free) {
    }

    /**
     * Lays one channel: from port {@code net} (or none), the GPUs in the order {@code prefix}
     * gives and, when {@code free}, any order after it. Returns the order, its bandwidth taken,
     * or null with everything given back.
     */
    private int[] dfs(int net, int[] prefix, boolean free) {
        int n = gpus.size();
        if (prefix.length != n && !free) {
            return null;
        }
        int[] order = new int[n];
        boolean[] used = new boolean[n];
        order[0] = prefix[0];
        List<Taken> taken = new ArrayList<>();
        if (net >= 0) {
            canExit = new boolean[n];
            boolean any = false;
            for (int g = 0; g < n; g++) {
                for (int m : exitCandidates(net)) {
                    canExit[g] |= system.path(gpus.get(g), nets.get(m)).type().atMost(typeInter);
                }
                any |= canExit[g] && (g != order[0] || backToNet() == 0);
            }
            if (!any) {
                return null; // no GPU could take this channel back to the network
            }
            TopoPath in = system.path(nets.get(net), gpus.get(order[0]));
            if (!take(in, speedInter, typeInter, taken)) {
                return null;
            }
        }
        used[order[0]] = true;
        if (place(net, order, used, 0, prefix, free, taken)) {
            return order;
        }
        giveBack(taken, 0);
        return null;
    }

    /** Where the channel leaves for the network: the last GPU (ring), the first (tree), the second (split tree). */
    private int backToNet() {
        return switch (pattern) {
            case RING -> gpus.size() - 1;
            case SPLIT_TREE -> Math.min(1, gpus.size() - 1);
            case TREE, BALANCED_TREE -> 0;
        };
    }

    /** GPU {@code order[step]} is placed and reached: leave for the network if it is time, then go on. */
    private boolean place(int net, int[] order, boolean[] used, int step, int[] prefix, boolean free, List<Taken> taken) {
        if (--steps < 0) {
            return false;
        }
        int n = gpus.size();
        if (net >= 0 && step == backToNet()) {
            int mark = taken.size();
            for (int m : exitCandidates(net)) {
                if (take(system.path(gpus.get(order[step]), nets.get(m)), speedInter, typeInter, taken)) {
                    if (next(net, order, used, step, prefix, free, taken)) {
                        exitDev = nets.get(m).net().dev();
                        return true;
                    }
                    giveBack(taken, mark);
                }
            }
            return false;
        }
        if (step == n - 1 && net < 0 && pattern == TopoPattern.RING && n > 1) {
            int mark = taken.size();
            if (take(system.path(gpus.get(order[step]), gpus.get(order[0])), speedIntra, typeIntra, taken)) {
                return true;
            }
            giveBack(taken, mark);
            return false;
        }
        return next(net, order, used, step, prefix, free, taken);
    }

    /** Chooses GPU {@code order[step + 1]}, or finishes when every GPU is placed. */
    private boolean next(int net, int[] order, boolean[] used, int step, int[] prefix, boolean free, List<Taken> taken) {
        int n = gpus.size();
        if (step == n - 1) {
            return true;
        }
        int[] candidates = step + 1 < prefix.length
                ? new int[] {prefix[step + 1]}
                : free ? candidates(order[step], used, net >= 0 && step + 1 == backToNet() ? net : -1) : new int[0];
        TopoNode from = gpus.get(order[step]);
        for (int g : candidates) {
            if (used[g] || net >= 0 && !exitStillPossible(used, step + 1, g)) {
                continue;
            }
            int mark = taken.size();
            if (!take(system.path(from, gpus.get(g)), speedIntra, typeIntra, taken)) {
                continue;
            }
            used[g] = true;
            order[step + 1] = g;
            if (place(net, order, used, step + 1, prefix, free, taken)) {
                return true;
            }
            used[g] = false;
            giveBack(taken, mark);
            if (steps < 0) {
                return false;
            }
        }
        return false;
    }

    /** With {@code g} at {@code step}, whether the GPU that leaves for the network can still be one that may. */
    private boolean exitStillPossible(boolean[] used, int step, int g) {
        int exit = backToNet();
        if (step > exit) {
            return true;
        }
        if (step == exit) {
            return canExit[g];
        }
        for (int h = 0; h < used.length; h++) {
            if (h != g && !used[h] && canExit[h]) {
                return true;
            }
        }
        return false;
    }

    /**
     * The GPUs to try after {@code from}, best first: when the next GPU is the one that leaves for
     * port {@code net}, those with the fastest, shortest path to it; then the fastest and
     * shortest path from {@code from}; then the GPUs after {@code from} in index order.
     */
    private int[] candidates(int from, boolean[] used, int net) {
        int[] all = preference(from, net);
        int[] out = new int[all.length];
        int k = 0;
        for (int g : all) {
            if (!used[g]) {
                out[k++] = g;
            }
        }
        return Arrays.copyOf(out, k);
    }

    /** Every other GPU in the order of {@link #candidates}, computed once per (from, net). */
    private int[] preference(int from, int net) {
        int n = gpus.size();
        int key = (net + 1) * n + from;
        int[] cached = preferences.get(key);
        if (cached != null) {
            return cached;
        }
        TopoNode f = gpus.get(from);
        List<Integer> c = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            int g = (from + i) % n;
            if (system.path(f, gpus.get(g)).type() != PathType.DIS) {
                c.add(g);
            }
        }
        Comparator<Integer> byIntra = Comparator.<Integer>comparingDouble(g -> -system.path(f, gpus.get(g)).bw())
                .thenComparingInt(g -> system.path(f, gpus.get(g)).hops());
        Comparator<Integer> order = byIntra;
        if (net >= 0) {
            TopoNode port = nets.get(net);
            order = Comparator.<Integer>comparingDouble(g -> -system.path(port, gpus.get(g)).bw())
                    .thenComparingInt(g -> system.path(port, gpus.get(g)).hops())
                    .thenComparing(byIntra);
        }
        c.sort(order); // stable: ties keep index order after "from"
        int[] result = c.stream().mapToInt(Integer::intValue).toArray();
        preferences.put(key, result);
        return result;
    }

    /** The ports a channel that entered by {@code net} may leave by: the same port first. */
    private List<Integer> exitCandidates(int net) {
        Set<Integer> s = new LinkedHashSet<>();
        s.add(net);
        if (crossNic) {
            for (int m = 0; m < nets.size(); m++) {
                s.add(m);
            }
        } else {
            // Ports of the same card and port number are the same wire.
            TopoNode.Net a = nets.get(net).net();
            for (int m = 0; m < nets.size(); m++) {
                TopoNode.Net b = nets.get(m).net();
                if (b.guid() == a.guid() && b.port() == a.port()) {
                    s.add(m);
                }
            }
        }
        return new ArrayList<>(s);
    }

    /** A path a channel uses and what it took from its PCI links and from its other links. */
    private record Taken(TopoPath path, double pciBw, double bw) {
    }

    /**
     * Takes {@code bw} from every link of {@code p} if its type is allowed and every link has it
     * left; a GPU's path through an Intel CPU's root complex costs its PCI links a fifth more.
     */
    private boolean take(TopoPath p, double bw, PathType maxType, List<Taken> taken) {
        if (p.type().compareTo(maxType) > 0 || p.type() == PathType.DIS) {
            return false;
        }
        double pciBw = bw;
        if (p.type() == PathType.PHB && !p.links().isEmpty() && p.links().get(0).from().type() == NodeType.GPU) {
            for (TopoNode node : p.nodes()) {
                if (node.type() == NodeType.CPU && Bandwidth.intelX86(node.cpu())) {
                    pciBw = bw * 6 / 5;
                }
            }
        }
        for (TopoLink l : p.links()) {
            if (left[l.id()] + 1e-9 < (l.type() == LinkType.PCI ? pciBw : bw)) {
                return false;
            }
        }
        for (TopoLink l : p.links()) {
            left[l.id()] -= l.type() == LinkType.PCI ? pciBw : bw;
        }
        taken.add(new Taken(p, pciBw, bw));
        return true;
    }

    /** Gives back the bandwidth of every path taken after position {@code mark}. */
    private void giveBack(List<Taken> taken, int mark) {
        while (taken.size() > mark) {
            Taken t = taken.removeLast();
            for (TopoLink l : t.path().links()) {
                left[l.id()] += l.type() == LinkType.PCI ? t.pciBw() : t.bw();
            }
        }
    }
}
