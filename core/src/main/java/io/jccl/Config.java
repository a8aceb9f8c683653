// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.config.Setting;
import io.jccl.config.Settings;
import io.jccl.config.Values;
import io.jccl.log.Log;
import io.jccl.proto.Protocol;

import java.net.StandardProtocolFamily;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The settings of a communicator: the {@code JCCL_*} variables of docs/user-guide.md ("Environment
 * variables" lists each one with its default and meaning; "Logging" tells about the JCCL_DEBUG
 * ones), NCCL's names with a J and NCCL's grammar. {@link #fromEnvironment()} reads them,
 * {@link #defaults()} ignores them. Immutable: the {@code with} methods return changed copies, and
 * check a value as its variable is checked (a {@link JcclException} naming the variable, the value
 * and what is allowed).
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="config"}
 */
public final class Config {
    /** What jccl logs (JCCL_DEBUG), as NCCL_DEBUG: each level also logs what the ones before it do. */
    public enum Debug {
        NONE, VERSION, WARN, INFO, TRACE
    }

    /** The parts of jccl whose INFO and TRACE lines JCCL_DEBUG_SUBSYS selects (NCCL's subsystems). */
    public enum Subsys {
        INIT, COLL, P2P, SHM, NET, GRAPH, TUNING, ENV, ALLOC, PROXY, BOOTSTRAP
    }

    /** NCCL's bounds: at most 16 threads and 64 sockets per connection (net_socket.cc's MAX_THREADS, MAX_SOCKETS). */
    public static final int MAX_SOCKET_THREADS = 16;
    public static final int MAX_SOCKETS = 64;

    static {
        Values.bind(c -> c.values, Config::new);
    }

    private final Values values;

    private Config(Values values) {
        this.values = values;
    }

    /** Built-in defaults, whatever the environment says. */
    public static Config defaults() {
        return new Config(Values.defaults());
    }

    /** The defaults overridden by the process environment's {@code JCCL_*} variables. */
    public static Config fromEnvironment() {
        return fromVariables(System.getenv());
    }

    /** The defaults overridden by the {@code JCCL_*} entries of {@code env}; a blank entry counts as unset. */
    public static Config fromVariables(Map<String, String> env) {
        Config c = new Config(Values.fromVariables(env));
        boolean minGiven = c.values.given(Settings.MIN_NCHANNELS);
        boolean maxGiven = c.values.given(Settings.MAX_NCHANNELS);
        if (minGiven || maxGiven) {
            // One bound given moves the other rather than contradict it (JCCL_MIN_NCHANNELS=20 on 8 cores: 20..20).
            int min = c.minChannels();
            int max = c.maxChannels();
            c = c.withChannels(maxGiven ? Math.min(min, max) : min, maxGiven ? max : Math.max(min, max));
        }
        if (c.values.given(Settings.SOCKET_NTHREADS) || c.values.given(Settings.NSOCKS_PERTHREAD)) {
            c = c.withSockets(c.socketThreads(), c.socksPerThread());
        }
        return c;
    }

    /** Parses 8, 64K, 4M, 1G (binary multiples), as nccl-tests does; {@code name} is the variable or option, for errors. */
    public static long parseBytes(String name, String v) {
        try {
            return Settings.bytes(v);
        } catch (IllegalArgumentException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, name, "is not a size (like 8, 64K, 4M, 1G): " + v);
        }
    }

    private <T> T get(Setting<T> s) {
        return values.get(s);
    }

    private <T> Config with(Setting<T> s, T value) {
        return new Config(values.with(s, value));
    }

    /** {@code s} read from {@code text} as from its variable; null or blank: its default. */
    private Config withText(Setting<?> s, String text) {
        return new Config(values.withText(s, text));
    }

    private static Setting<Long> buffSizeOf(Protocol p) {
        return switch (p) {
            case SIMPLE -> Settings.BUFFSIZE;
            case LL -> Settings.LL_BUFFSIZE;
            case LL128 -> Settings.LL128_BUFFSIZE;
        };
    }

    private static Protocol protocol(String name) {
        try {
            return Protocol.parse(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "protocol", "is '" + name + "', not LL, LL128 or Simple");
        }
    }

    /** The Simple protocol's buffer per connection (JCCL_BUFFSIZE). */
    public Config withBuffSize(long bytes) {
        return with(Settings.BUFFSIZE, bytes);
    }

    /**
     * One protocol's buffer per connection (JCCL_BUFFSIZE, JCCL_LL_BUFFSIZE, JCCL_LL128_BUFFSIZE),
     * the protocol named as JCCL_PROTO names it: {@code LL}, {@code LL128}, {@code Simple}.
     */
    public Config withBuffSize(String protocol, long bytes) {
        return with(buffSizeOf(protocol(protocol)), bytes);
    }

    /** How long any single wait may last (JCCL_TIMEOUT). */
    public Config withTimeout(Duration t) {
        return with(Settings.TIMEOUT, t);
    }

    /**
     * Restricts the algorithms with NCCL's grammar: {@code "ring"}, {@code "ring,tree"}, {@code "^tree"}, and
     * per collective {@code "ring;allreduce:tree,ring;broadcast:^ring"}.
     */
    public Config withAlgorithms(String spec) {
        return withText(Settings.ALGO, spec);
    }

    /** Restricts the protocols with NCCL's grammar: {@code "LL"}, {@code "LL,LL128"}, {@code "^LL"}, {@code "Simple;allreduce:LL"}. */
    public Config withProtocols(String spec) {
        return withText(Settings.PROTO, spec);
    }

    /** The channels a call may use (JCCL_MIN_NCHANNELS, JCCL_MAX_NCHANNELS). */
    public Config withChannels(int min, int max) {
        return channels(min, max, true);
    }

    /**
     * As {@link #withChannels}, but the bounds count as defaults ({@link #channelBoundsGiven} false):
     * rank 0's default bounds handed to the ranks of other processes, so that the CUDA engine still
     * sizes channels to the GPU.
     */
    public Config withDefaultChannels(int min, int max) {
        return channels(min, max, false);
    }

    private Config channels(int min, int max, boolean given) {
        if (min < 1 || max < min || max > 64) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_MIN_NCHANNELS/JCCL_MAX_NCHANNELS",
                    "need 1 <= min <= max <= 64, were " + min + " and " + max);
        }
        return new Config(values.with(Settings.MIN_NCHANNELS, min, given).with(Settings.MAX_NCHANNELS, max, given));
    }

    /** A tuning table to load at init (JCCL_TUNING_FILE); null for none. */
    public Config withTuningFile(Path file) {
        return with(Settings.TUNING_FILE, file);
    }

    /** What jccl logs (JCCL_DEBUG). */
    public Config withDebug(Debug level) {
        return with(Settings.DEBUG, level);
    }

    /** The subsystems whose INFO and TRACE lines are logged (JCCL_DEBUG_SUBSYS): {@code "INIT,NET"}, {@code "^COLL"}, {@code "ALL"}. */
    public Config withDebugSubsys(String spec) {
        return withText(Settings.DEBUG_SUBSYS, spec);
    }

    /** Logs to this file instead of standard error (JCCL_DEBUG_FILE; %h: host name, %p: process id); null or blank: do not. */
    public Config withDebugFile(String file) {
        return withText(Settings.DEBUG_FILE, file);
    }

    /** Interfaces for sockets (JCCL_SOCKET_IFNAME); blank means NCCL's default order. */
    public Config withSocketIfname(String spec) {
        return withText(Settings.SOCKET_IFNAME, spec);
    }

    /** Address family for sockets (JCCL_SOCKET_FAMILY); {@code null} allows both, IPv4 first. */
    public Config withSocketFamily(StandardProtocolFamily family) {
        return with(Settings.SOCKET_FAMILY, family);
    }

    /** How long the bootstrap waits (JCCL_BOOTSTRAP_TIMEOUT); {@code null} follows {@link #timeout()}. */
    public Config withBootstrapTimeout(Duration t) {
        return with(Settings.BOOTSTRAP_TIMEOUT, t);
    }

    /**
     * What a rank has to other servers, for the tuner's model on several servers
     * (JCCL_INTER_BW in GB/s, JCCL_INTER_LATENCY in µs per hop between servers); NaN keeps the
     * model's own. Like JCCL_ALGO, rank 0's values are used by every rank.
     */
    public Config withInterServer(double gbPerSecond, double latencyMicros) {
        return with(Settings.INTER_BW, orNull(gbPerSecond)).with(Settings.INTER_LATENCY, orNull(latencyMicros));
    }

    /**
     * What a rank has to the other ranks of its own server, for the tuner's model (JCCL_INTRA_BW in
     * GB/s, JCCL_INTRA_LATENCY in µs per hop); NaN keeps the model's own (shared memory on the host
     * engine). Set it where a server's ranks do not talk through shared memory: ranks of an
     * emulated server in separate network namespaces, or {@code JCCL_SHM_DISABLE}. Like JCCL_ALGO,
     * rank 0's values are used by every rank.
     *
     * <pre>{@code
     * // 2 x 4 emulated servers: 800 Mbit/s and about 200 us per hop inside, 200 Mbit/s between
     * Config c = Config.fromEnvironment().withIntraServer(0.1, 200).withInterServer(0.025, 200);
     * }</pre>
     */
    public Config withIntraServer(double gbPerSecond, double latencyMicros) {
        return with(Settings.INTRA_BW, orNull(gbPerSecond)).with(Settings.INTRA_LATENCY, orNull(latencyMicros));
    }

    private static Double orNull(double d) {
        return Double.isNaN(d) ? null : d;
    }

    private double orNaN(Setting<Double> s) {
        Double d = get(s);
        return d == null ? Double.NaN : d;
    }

    /** GB/s a rank moves to the other ranks of its server (JCCL_INTRA_BW), NaN when not set. */
    public double intraBandwidth() {
        return orNaN(Settings.INTRA_BW);
    }

    /** µs per hop inside a server (JCCL_INTRA_LATENCY), NaN when not set. */
    public double intraLatency() {
        return orNaN(Settings.INTRA_LATENCY);
    }

    /** GB/s a rank moves to other servers (JCCL_INTER_BW), NaN when not set. */
    public double interBandwidth() {
        return orNaN(Settings.INTER_BW);
    }

    /** µs per hop between servers (JCCL_INTER_LATENCY), NaN when not set. */
    public double interLatency() {
        return orNaN(Settings.INTER_LATENCY);
    }

    /** Host identity replacing the detected one (JCCL_HOSTID); blank means detect. */
    public Config withHostId(String id) {
        return withText(Settings.HOSTID, id);
    }

    /**
     * The socket transport's proxy threads per direction (JCCL_SOCKET_NTHREADS) and sockets per
     * thread per connection (JCCL_NSOCKS_PERTHREAD). As NCCL: threads above 16 become 16, and when
     * threads × sockets exceeds 64 the sockets per thread become 64 / threads (both with a warning).
     */
    public Config withSockets(int threads, int socksPerThread) {
        int t = Settings.SOCKET_NTHREADS.check(threads);
        int s = Settings.NSOCKS_PERTHREAD.check(socksPerThread);
        if (t > MAX_SOCKET_THREADS) {
            Log.of(this, Log.NO_RANK).warn(Subsys.NET, "JCCL_SOCKET_NTHREADS " + t + " is above " + MAX_SOCKET_THREADS
                    + "; using " + MAX_SOCKET_THREADS);
            t = MAX_SOCKET_THREADS;
        }
        if ((long) t * s > MAX_SOCKETS) {
            s = MAX_SOCKETS / t;
            Log.of(this, Log.NO_RANK).warn(Subsys.NET, "JCCL_SOCKET_NTHREADS x JCCL_NSOCKS_PERTHREAD is above "
                    + MAX_SOCKETS + " sockets; using " + s + " sockets per thread");
        }
        return with(Settings.SOCKET_NTHREADS, t).with(Settings.NSOCKS_PERTHREAD, s);
    }

    /** Whether the ranks check that they make the same calls (JCCL_CHECK_CALLS, on by default); rank 0's value counts. */
    public Config withCheckCalls(boolean on) {
        return with(Settings.CHECK_CALLS, on);
    }

    /** Whether the ranks check that they make the same calls ({@link #withCheckCalls}). */
    public boolean checkCalls() {
        return get(Settings.CHECK_CALLS);
    }

    /**
     * The time between the heartbeats of ranks in different processes (JCCL_KEEPALIVE_MS, 1 s by
     * default; rank 0's value counts); {@link Duration#ZERO} for none.
     */
    public Config withKeepAlive(Duration interval) {
        if (interval == null || interval.isNegative() || interval.toMillis() > Integer.MAX_VALUE) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "interval", "must be zero (none) or a positive duration "
                    + "of whole milliseconds, was " + interval);
        }
        return with(Settings.KEEPALIVE_MS, (int) interval.toMillis());
    }

    /** The time between heartbeats (JCCL_KEEPALIVE_MS); zero when there are none. */
    public Duration keepAlive() {
        return Duration.ofMillis(get(Settings.KEEPALIVE_MS));
    }

    /**
     * Whether {@code init} returns only once the communicator is ready (JCCL_COMM_BLOCKING, the
     * default) or at once, joining in the background ({@code false}, NCCL's {@code blocking=0}).
     */
    public Config withBlocking(boolean blocking) {
        return with(Settings.COMM_BLOCKING, blocking);
    }

    /** Whether {@code init} blocks until the communicator is ready ({@link #withBlocking}). */
    public boolean blocking() {
        return get(Settings.COMM_BLOCKING);
    }

    /** JCCL_P2P_DISABLE: ranks of one process talk through shared memory (or sockets) instead of in-process FIFOs. */
    public Config withP2pDisable(boolean off) {
        return with(Settings.P2P_DISABLE, off);
    }

    /** JCCL_SHM_DISABLE: ranks of one host in different processes talk through sockets instead of /dev/shm. */
    public Config withShmDisable(boolean off) {
        return with(Settings.SHM_DISABLE, off);
    }

    /** Proxy threads per direction of the socket transport (JCCL_SOCKET_NTHREADS). */
    public int socketThreads() {
        return get(Settings.SOCKET_NTHREADS);
    }

    /** Sockets per proxy thread per connection (JCCL_NSOCKS_PERTHREAD). */
    public int socksPerThread() {
        return get(Settings.NSOCKS_PERTHREAD);
    }

    /** Whether the tuner prices its candidates by simulating them (JCCL_TUNER_SIM). */
    public boolean tunerSimulates() {
        return get(Settings.TUNER_SIM);
    }

    /** Prices the tuner's candidates by simulation (JCCL_TUNER_SIM), or by the model. */
    public Config withTunerSimulates(boolean on) {
        return with(Settings.TUNER_SIM, on);
    }

    /** JCCL_P2P_DISABLE. */
    public boolean p2pDisable() {
        return get(Settings.P2P_DISABLE);
    }

    /** JCCL_SHM_DISABLE. */
    public boolean shmDisable() {
        return get(Settings.SHM_DISABLE);
    }

    /** Reads the topology from this NCCL-format file instead of detecting it (JCCL_TOPO_FILE); null or blank: detect. */
    public Config withTopoFile(String file) {
        return withText(Settings.TOPO_FILE, file);
    }

    /** Writes the topology used to this file (JCCL_TOPO_DUMP_FILE); null or blank: do not. */
    public Config withTopoDumpFile(String file) {
        return withText(Settings.TOPO_DUMP_FILE, file);
    }

    /**
     * Whether large Simple messages between processes of one host may go by single copy, the
     * receiver reading the sender's buffer with cross-memory attach (default; JCCL_CMA_DISABLE=1
     * turns it off: every message is copied through the shared-memory slot).
     */
    public Config withCrossMemory(boolean enabled) {
        return with(Settings.CMA_DISABLE, !enabled);
    }

    /** Whether single-copy transfers between processes are allowed ({@link #withCrossMemory}). */
    public boolean crossMemory() {
        return !get(Settings.CMA_DISABLE);
    }

    /** Reads this node's graphs from this NCCL graph XML file instead of searching (JCCL_GRAPH_FILE); null or blank: search. */
    public Config withGraphFile(String file) {
        return withText(Settings.GRAPH_FILE, file);
    }

    /** Rank 0 writes its node's graphs to this file (JCCL_GRAPH_DUMP_FILE); null or blank: it does not. */
    public Config withGraphDumpFile(String file) {
        return withText(Settings.GRAPH_DUMP_FILE, file);
    }

    /** The graph file to read (JCCL_GRAPH_FILE), if any. */
    public Optional<String> graphFile() {
        return Optional.ofNullable(get(Settings.GRAPH_FILE));
    }

    /** The file to write the graphs to (JCCL_GRAPH_DUMP_FILE), if any. */
    public Optional<String> graphDumpFile() {
        return Optional.ofNullable(get(Settings.GRAPH_DUMP_FILE));
    }

    /**
     * Whether the host engine pins each rank's threads to cores of its NUMA domain (JCCL_CPU_PINNING,
     * the default) or leaves them where the scheduler puts them ({@code false}).
     */
    public Config withCpuPinning(boolean pin) {
        return with(Settings.CPU_PINNING, pin);
    }

    /** JCCL_CPU_PINNING ({@link #withCpuPinning}). */
    public boolean cpuPinning() {
        return get(Settings.CPU_PINNING);
    }

    /**
     * Whether the host engine places ranks' threads over every online CPU (JCCL_IGNORE_CPU_AFFINITY=1)
     * instead of the CPUs the initializing thread may run on (the default, as NCCL's).
     */
    public Config withIgnoreCpuAffinity(boolean ignore) {
        return with(Settings.IGNORE_CPU_AFFINITY, ignore);
    }

    /** JCCL_IGNORE_CPU_AFFINITY ({@link #withIgnoreCpuAffinity}). */
    public boolean ignoreCpuAffinity() {
        return get(Settings.IGNORE_CPU_AFFINITY);
    }

    /** The topology file to read (JCCL_TOPO_FILE), if any. */
    public Optional<String> topoFile() {
        return Optional.ofNullable(get(Settings.TOPO_FILE));
    }

    /** The file to write the topology to (JCCL_TOPO_DUMP_FILE), if any. */
    public Optional<String> topoDumpFile() {
        return Optional.ofNullable(get(Settings.TOPO_DUMP_FILE));
    }

    /** JCCL_SOCKET_IFNAME, if set. */
    public Optional<String> socketIfname() {
        return Optional.ofNullable(get(Settings.SOCKET_IFNAME));
    }

    /** JCCL_SOCKET_FAMILY, if set. */
    public Optional<StandardProtocolFamily> socketFamily() {
        return Optional.ofNullable(get(Settings.SOCKET_FAMILY));
    }

    /** How long the bootstrap waits: JCCL_BOOTSTRAP_TIMEOUT, else {@link #timeout()}. */
    public Duration bootstrapTimeout() {
        Duration t = get(Settings.BOOTSTRAP_TIMEOUT);
        return t != null ? t : timeout();
    }

    /** JCCL_HOSTID, if set. */
    public Optional<String> hostId() {
        return Optional.ofNullable(get(Settings.HOSTID));
    }

    /** Bytes of each connection's Simple buffer (JCCL_BUFFSIZE). */
    public long buffSize() {
        return get(Settings.BUFFSIZE);
    }

    /** Bytes of each connection's buffer for the protocol JCCL_PROTO names {@code protocol} ({@code LL}, {@code LL128}, {@code Simple}). */
    public long buffSize(String protocol) {
        return get(buffSizeOf(protocol(protocol)));
    }

    /** How long any single wait may last (JCCL_TIMEOUT). */
    public Duration timeout() {
        return get(Settings.TIMEOUT);
    }

    /**
     * The algorithms calls of collectives that {@code JCCL_ALGO} does not name may use, by name
     * (all of them where it names no plain list).
     */
    public Set<String> algorithms() {
        return get(Settings.ALGO).fallback();
    }

    /**
     * The algorithms calls of {@code c} may use, by {@code JCCL_ALGO} name: its own list where the
     * variable names it ({@code allreduce:tree}), else {@link #algorithms()}.
     *
     * <pre>{@code
     * Config c = Config.defaults().withAlgorithms("ring;allreduce:tree");
     * assert c.algorithms(Collective.ALL_REDUCE).equals(Set.of("tree"));
     * assert c.algorithms(Collective.BROADCAST).equals(Set.of("ring"));
     * }</pre>
     */
    public Set<String> algorithms(Collective c) {
        return get(Settings.ALGO).of(c);
    }

    /** The protocols calls of collectives that {@code JCCL_PROTO} does not name may use: {@code LL}, {@code LL128}, {@code Simple}. */
    public Set<String> protocols() {
        return protocolNames(get(Settings.PROTO).fallback());
    }

    /** The protocols calls of {@code c} may use (JCCL_PROTO), by name, as {@link #algorithms(Collective)} for algorithms. */
    public Set<String> protocols(Collective c) {
        return protocolNames(get(Settings.PROTO).of(c));
    }

    private static Set<String> protocolNames(Set<Protocol> protocols) {
        Set<String> names = new java.util.TreeSet<>();
        for (Protocol p : protocols) {
            names.add(p.id());
        }
        return java.util.Collections.unmodifiableSet(names);
    }

    /** The fewest channels a call uses (JCCL_MIN_NCHANNELS). */
    public int minChannels() {
        return get(Settings.MIN_NCHANNELS);
    }

    /** The most channels a call uses (JCCL_MAX_NCHANNELS). */
    public int maxChannels() {
        return get(Settings.MAX_NCHANNELS);
    }

    /**
     * Whether the channel bounds were given ({@code JCCL_MIN_NCHANNELS}, {@code JCCL_MAX_NCHANNELS},
     * {@link #withChannels}) rather than left at their defaults. The CUDA engine keeps given bounds;
     * without them it sizes channels to the GPU (docs/gpu.md), whose blocks the host's core-count
     * default knows nothing about.
     */
    public boolean channelBoundsGiven() {
        return values.given(Settings.MIN_NCHANNELS) || values.given(Settings.MAX_NCHANNELS);
    }

    /** The tuning table file (JCCL_TUNING_FILE), or null. */
    public Path tuningFile() {
        return get(Settings.TUNING_FILE);
    }

    /** What jccl logs (JCCL_DEBUG). */
    public Debug debug() {
        return get(Settings.DEBUG);
    }

    /** The subsystems whose INFO and TRACE lines are logged (JCCL_DEBUG_SUBSYS). */
    public Set<Subsys> debugSubsys() {
        return get(Settings.DEBUG_SUBSYS);
    }

    /** The file to log to (JCCL_DEBUG_FILE), as given: %h and %p not yet replaced. */
    public Optional<String> debugFile() {
        return Optional.ofNullable(get(Settings.DEBUG_FILE));
    }

    /** Every setting that has a value, as {@code JCCL_NAME=value} in the variables' own grammar. */
    @Override
    public String toString() {
        return "Config[" + values + "]";
    }
}
