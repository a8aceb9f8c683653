// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.topo.ServerLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * An emulated two-level fabric on this machine: {@code servers × ranks} network namespaces, one per
 * rank, each with one veth link ({@value #IFACE}) into a bridge namespace of its own (the root
 * namespace's links and routes are not touched). A {@link Placement} says which server each rank
 * is on; the rank of local index {@code i} on server {@code s} has address {@code 10.99.s.(i+1)/16}.
 * Each rank's egress is shaped with tc: an htb qdisc whose class for destinations in its own
 * server's {@code 10.99.s.0/24} runs at the intra-server rate, so the two levels are set
 * independently. Where the inter-server rate applies depends on the {@link Nic}:
 *
 * <pre>
 *  RAIL: one NIC per rank                  SHARED: one NIC per server
 *  s0r0 jf0 ─ p0 ─┐                        s0r0 jf0 ─ p0 ─┐
 *  s0r1 jf0 ─ p1 ─┤                        s0r1 jf0 ─ p1 ─┴ sw0 ─ up0 ═ dn0 ─┐
 *  s1r0 jf0 ─ p2 ─┼ br0                    s1r0 jf0 ─ p2 ─┐                  ├ br0
 *  s1r1 jf0 ─ p3 ─┘                        s1r1 jf0 ─ p3 ─┴ sw1 ─ up1 ═ dn1 ─┘
 *  jf0 egress: own server at intra,        jf0 egress: own server at intra, the rest unshaped;
 *              the rest at inter           up&lt;s&gt; egress (leaving s) and dn&lt;s&gt; egress (entering s)
 *                                          at inter
 * </pre>
 *
 * With {@code SHARED} the bridges {@code sw<s>} (one per server) and {@code br0} (the core) are in
 * the bridge namespace, and the veth pair {@code up<s>}/{@code dn<s>} joining them is the
 * server's NIC: all the server's ranks share its rate each way, and traffic between ranks of one
 * server never crosses it.
 *
 * <pre>{@code
 * try (Fabric f = Fabric.build(2, 4, 1000, 250)) {       // 2 servers x 4 ranks, Mbit/s
 *     Process p = f.start(5, List.of("java", ...), f.rankEnvironment(5, false), true);
 * }                                                       // namespaces removed, also on Ctrl-C
 * try (Fabric f = Fabric.build(2, 4, 1000, 250, Fabric.DEFAULT_BURST_KIB, Placement.INTERLEAVED, Fabric.Nic.SHARED)) {
 *     int server = f.layout().serverOf(5);                // 1
 * }
 * }</pre>
 *
 * <p>Ranks started with {@link #rankEnvironment} meet torchrun-style (rank 0 hosts the bootstrap
 * root on its address) and carry {@code JCCL_HOSTID} = their server, so the topology layer sees
 * the two levels; with {@code JCCL_SHM_DISABLE=1} ranks of one server still talk over their shaped
 * links. Needs root and iproute2 ({@code ip}, {@code tc}). Namespaces are named
 * {@code jn-PID-K-...} (PID: this process); a shutdown hook removes them if {@link #close} was not
 * called, and {@link #build} first removes those of dead processes.
 */
public final class Fabric implements AutoCloseable {
    /** The rank's link inside its namespace (JCCL_SOCKET_IFNAME={@code =jf0}). */
    public static final String IFACE = "jf0";
    private static final String PREFIX = "jn-";
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final long STEP_SECONDS = 60;
    /**
     * KiB a shaped class lets through at the veth's speed after it idled: one GSO packet of the
     * veth (64 KiB), the least that keeps the rate without smaller packets (a ring all-reduce,
     * 16 MiB on 2 × 4 at 800/200 Mbit/s: 191 Mbit/s of busbw, as with 256 KiB). 16 KiB, with
     * packets capped to it, keeps the rate too but costs the cores: hierring and torus2d at 64 MiB
     * took 1.89-2.03 s against 1.31-1.47. A larger burst lends an algorithm
     * that leaves its link idle free bandwidth: with 256 KiB (before session 18) a butterfly
     * all-reduce of 32 KiB took the link's time for its bytes alone, its hops hidden, and torus2d
     * at 64 MiB took 1.11-1.26 s where 64 KiB gave it 1.34-1.42.
     */
    public static final int DEFAULT_BURST_KIB = 64;
    static final int MIN_BURST_KIB = 2;
    static final int MAX_BURST_KIB = 1 << 20;

    /** Where a rank's traffic to other servers is shaped at the inter-server rate. */
    public enum Nic {
        /** Each rank has its own link to the other servers (rail-optimised clusters). */
        RAIL,
        /** Each server has one link to the other servers, shared by its ranks. */
        SHARED;

        /** {@code rail} or {@code shared}; IllegalArgumentException otherwise. */
        public static Nic parse(String text) {
            return switch (text.strip()) {
                case "rail" -> RAIL;
                case "shared" -> SHARED;
                default -> throw new IllegalArgumentException("'" + text + "' is not rail or shared");
            };
        }

        /** As {@link #parse} reads it. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String name;
    private final int servers;
    private final int ranks;
    private final Placement placement;
    private final ServerLayout layout;
    private final Nic nic;
    private final double intraMbit;
    private final double interMbit;
    private final int burstKib;
    private final String secret;
    private final Thread hook;
    private final List<Process> processes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private Fabric(String name, int servers, int ranks, double intraMbit, double interMbit, int burstKib, Placement placement,
            Nic nic) {
        this.name = name;
        this.servers = servers;
        this.ranks = ranks;
        this.placement = placement;
        this.layout = placement.layout(servers, ranks);
        this.nic = nic;
        this.intraMbit = intraMbit;
        this.interMbit = interMbit;
        this.burstKib = burstKib;
        byte[] s = new byte[16];
        new SecureRandom().nextBytes(s);
        this.secret = HexFormat.of().formatHex(s);
        this.hook = new Thread(this::remove, "jccl-fabric-teardown");
    }

    /**
     * Builds {@code servers × ranks} namespaces; a rate of 0 leaves that level unshaped. Throws
     * IOException (with what {@code ip} or {@code tc} said) if a step fails, after removing what it built.
     */
    public static Fabric build(int servers, int ranks, double intraMbit, double interMbit) throws IOException {
        return build(servers, ranks, intraMbit, interMbit, DEFAULT_BURST_KIB);
    }

    /**
     * The same with each shaped class letting {@code burstKib} KiB through at the veth's own speed
     * after it idled (htb's burst and cburst); a burst below 64 KiB also caps the veth's GSO packets
     * at the burst, since htb lets a whole packet through however small its burst.
     */
    public static Fabric build(int servers, int ranks, double intraMbit, double interMbit, int burstKib) throws IOException {
        return build(servers, ranks, intraMbit, interMbit, burstKib, Placement.CONTIGUOUS, Nic.RAIL);
    }

    /** The same with the ranks placed on servers by {@code placement} and the inter-server rate applied per {@code nic}. */
    public static Fabric build(int servers, int ranks, double intraMbit, double interMbit, int burstKib, Placement placement, Nic nic)
            throws IOException {
        if (placement == null || nic == null) {
            throw new IllegalArgumentException("a fabric needs a placement and a nic");
        }
        if (servers < 1 || ranks < 1 || servers > 250 || ranks > 250) {
            throw new IllegalArgumentException("servers and ranks must be 1..250, were " + servers + " and " + ranks);
        }
        if (intraMbit < 0 || interMbit < 0) {
            throw new IllegalArgumentException("rates must be >= 0 Mbit/s");
        }
        if (burstKib < MIN_BURST_KIB || burstKib > MAX_BURST_KIB) {
            throw new IllegalArgumentException("burst must be " + MIN_BURST_KIB + ".." + MAX_BURST_KIB + " KiB, was " + burstKib);
        }
        removeStale();
        Fabric f = new Fabric(PREFIX + ProcessHandle.current().pid() + "-" + COUNT.incrementAndGet(), servers, ranks, intraMbit,
                interMbit, burstKib, placement, nic);
        Runtime.getRuntime().addShutdownHook(f.hook);
        try {
            f.sh(f.script());
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    public int servers() {
        return servers;
    }

    public int ranksPerServer() {
        return ranks;
    }

    public int size() {
        return servers * ranks;
    }

    public Placement placement() {
        return placement;
    }

    public Nic nic() {
        return nic;
    }

    /** Which server each rank is on, and its index there (servers numbered in order of their lowest rank). */
    public ServerLayout layout() {
        return layout;
    }

    /** The namespace of global rank {@code rank}: {@code ...-s<server>r<local index>}. */
    public String namespace(int rank) {
        return name + "-s" + layout.serverOf(rank) + "r" + layout.localIndex(rank);
    }

    /** The address of global rank {@code rank}. */
    public String address(int rank) {
        return "10.99." + layout.serverOf(rank) + "." + (layout.localIndex(rank) + 1);
    }

    /** The ranks of each server, as {@code server 0: ranks 0 2; server 1: ranks 1 3}. */
    public String ranksByServer() {
        StringBuilder b = new StringBuilder();
        for (int s = 0; s < layout.servers(); s++) {
            b.append(s == 0 ? "" : "; ").append("server ").append(s).append(": ranks");
            for (int i = 0; i < layout.localSize(s); i++) {
                b.append(' ').append(layout.rank(s, i));
            }
        }
        return b.toString();
    }

    private String bridge() {
        return name + "-br";
    }

    private static String rate(double mbit) {
        return mbit == 0 ? "100gbit" : String.format(Locale.ROOT, "%.0fkbit", mbit * 1000);
    }

    /** The shell commands that build the fabric (stop at the first failure). */
    private String script() {
        StringBuilder b = new StringBuilder("set -e\n");
        String br = bridge();
        b.append("ip netns add ").append(br).append('\n');
        b.append("ip -n ").append(br).append(" link add br0 type bridge\n");
        b.append("ip -n ").append(br).append(" link set br0 up\n");
        if (nic == Nic.SHARED) {
            for (int s = 0; s < servers; s++) {
                b.append("ip -n ").append(br).append(" link add sw").append(s).append(" type bridge\n");
                b.append("ip -n ").append(br).append(" link set sw").append(s).append(" up\n");
                b.append("ip -n ").append(br).append(" link add up").append(s).append(" type veth peer name dn").append(s).append('\n');
                b.append("ip -n ").append(br).append(" link set up").append(s).append(" master sw").append(s).append(" up\n");
                b.append("ip -n ").append(br).append(" link set dn").append(s).append(" master br0 up\n");
                if (interMbit > 0) {
                    htb(b, br, "up" + s, interMbit);
                    htb(b, br, "dn" + s, interMbit);
                }
            }
        }
        // With a shared NIC a rank's traffic to other servers is shaped on its server's link only.
        double rankInter = nic == Nic.RAIL ? interMbit : 0;
        for (int g = 0; g < size(); g++) {
            String ns = namespace(g);
            String port = "p" + g;
            b.append("ip netns add ").append(ns).append('\n');
            b.append("ip link add ").append(IFACE).append(" netns ").append(ns).append(" type veth peer name ").append(port)
                    .append(" netns ").append(br).append('\n');
            b.append("ip -n ").append(br).append(" link set ").append(port).append(" master ")
                    .append(nic == Nic.SHARED ? "sw" + layout.serverOf(g) : "br0").append(" up\n");
            b.append("ip -n ").append(ns).append(" addr add ").append(address(g)).append("/16 dev ").append(IFACE).append('\n');
            // A shaped class passes one packet whatever its burst; a GSO packet no larger than the
            // burst keeps a small burst from letting more through at once.
            b.append("ip -n ").append(ns).append(" link set dev ").append(IFACE).append(" gso_max_size ")
                    .append(gsoMaxSize()).append('\n');
            b.append("ip -n ").append(ns).append(" link set ").append(IFACE).append(" up\n");
            b.append("ip -n ").append(ns).append(" link set lo up\n");
            if (intraMbit > 0 || rankInter > 0) {
                htb(b, ns, IFACE, rankInter);
                String tc = "ip netns exec " + ns + " tc ";
                b.append(tc).append("class add dev ").append(IFACE).append(" parent 1: classid 1:10 htb rate ").append(rate(intraMbit))
                        .append(burst());
                b.append(tc).append("filter add dev ").append(IFACE).append(" parent 1: protocol ip prio 1 u32 match ip dst 10.99.")
                        .append(layout.serverOf(g)).append(".0/24 flowid 1:10\n");
            }
        }
        return b.toString();
    }

    /** An htb qdisc on {@code dev} in namespace {@code ns} whose default class, 1:20, runs at {@code mbit} (0: unshaped). */
    private void htb(StringBuilder b, String ns, String dev, double mbit) {
        String tc = "ip netns exec " + ns + " tc ";
        b.append(tc).append("qdisc add dev ").append(dev).append(" root handle 1: htb default 20\n");
        b.append(tc).append("class add dev ").append(dev).append(" parent 1: classid 1:20 htb rate ").append(rate(mbit)).append(burst());
    }

    /** Runs a shell script, failing with its output if it fails. */
    private void sh(String script) throws IOException {
        Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(STEP_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("building the fabric took over " + STEP_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while building the fabric");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.exitValue() != 0) {
            throw new IOException("cannot build the emulated fabric (needs root and iproute2's ip and tc): " + out);
        }
    }

    /**
     * The environment of global rank {@code rank}: torchrun's variables ({@code LOCAL_RANK}: its
     * index on its server; rank 0 hosts the root at its address, port 29500 + 1), a secret of this
     * fabric, {@code JCCL_HOSTID} = its server,
     * the link as socket interface, and {@code JCCL_SHM_DISABLE=1} unless {@code shm}.
     */
    public Map<String, String> rankEnvironment(int rank, boolean shm) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("RANK", Integer.toString(rank));
        env.put("WORLD_SIZE", Integer.toString(size()));
        env.put("LOCAL_RANK", Integer.toString(layout.localIndex(rank)));
        env.put("LOCAL_WORLD_SIZE", Integer.toString(ranks));
        env.put("MASTER_ADDR", address(0));
        env.put("MASTER_PORT", "29500");
        env.put("JCCL_COMM_SECRET", secret);
        env.put("JCCL_HOSTID", "fabric-" + name + "-server" + layout.serverOf(rank));
        env.put("JCCL_SOCKET_IFNAME", "=" + IFACE);
        if (!shm) {
            env.put("JCCL_SHM_DISABLE", "1");
        }
        return env;
    }

    /**
     * Starts {@code command} in rank {@code rank}'s namespace with this environment added to a
     * clean copy of this process's (other launchers' variables removed).
     */
    public ProcessBuilder processBuilder(int rank, List<String> command, Map<String, String> env) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace(rank)));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("OMPI_") || k.startsWith("PMIX_") || k.startsWith("SLURM_")
                || k.equals("RANK") || k.equals("WORLD_SIZE") || k.startsWith("LOCAL_") || k.startsWith("MASTER_")
                || k.equals("JCCL_RANK") || k.equals("JCCL_NRANKS") || k.equals("JCCL_COMM_ID") || k.equals("JCCL_HOSTID")
                || k.equals("JCCL_SOCKET_IFNAME") || k.equals("JCCL_SHM_DISABLE"));
        pb.environment().putAll(env);
        return pb;
    }

    /**
     * Starts {@code command} in rank {@code rank}'s namespace ({@link #processBuilder}), merging
     * its standard error into its output when {@code mergeErrors}; the process is killed when the
     * fabric is removed (also by the shutdown hook, so a killed or interrupted run leaves none).
     */
    public Process start(int rank, List<String> command, Map<String, String> env, boolean mergeErrors) throws IOException {
        Process p = processBuilder(rank, command, env).redirectErrorStream(mergeErrors).start();
        processes.add(p);
        return p;
    }

    /** Removes the namespaces (their links go with them); idempotent, bounded in time. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook is running or ran
        }
    }

    private synchronized void remove() {
        if (closed) {
            return;
        }
        closed = true;
        processes.forEach(Process::destroyForcibly);
        for (Process p : processes) {
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        StringBuilder b = new StringBuilder();
        for (int g = 0; g < size(); g++) {
            b.append("ip netns del ").append(namespace(g)).append(" 2>/dev/null\n");
        }
        b.append("ip netns del ").append(bridge()).append(" 2>/dev/null\n");
        try {
            sh(b + "true\n");
        } catch (IOException e) {
            System.err.println("jccl fabric: could not remove every namespace of " + name + ": " + e.getMessage());
        }
    }

    /** Removes fabrics whose process is gone (killed before it could tear down). */
    static void removeStale() {
        Path dir = Path.of("/run/netns");
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<String> stale = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(PREFIX)).forEach(n -> {
                String[] parts = n.split("-");
                try {
                    long pid = Long.parseLong(parts[1]);
                    if (ProcessHandle.of(pid).isEmpty()) {
                        stale.add(n);
                    }
                } catch (RuntimeException e) {
                    // not one of ours
                }
            });
        } catch (IOException e) {
            return;
        }
        for (String n : stale) {
            try {
                Process p = new ProcessBuilder("ip", "netns", "del", n).redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Bytes of the veth's largest GSO packet: the burst, at most the veth's own 64 KiB. */
    private int gsoMaxSize() {
        return Math.min(65536, burstKib * 1024);
    }

    private String burst() {
        return " burst " + burstKib + "k cburst " + burstKib + "k\n";
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d servers x %d ranks (placement %s, nic %s), intra %s, inter %s%s", servers, ranks,
                placement, nic,
                intraMbit == 0 ? "unshaped" : String.format(Locale.ROOT, "%.0f Mbit/s", intraMbit),
                interMbit == 0 ? "unshaped" : String.format(Locale.ROOT, "%.0f Mbit/s", interMbit),
                intraMbit == 0 && interMbit == 0 ? "" : ", burst " + burstKib + " KiB");
    }
}
