package io.jccl;

import io.jccl.proto.Protocol;

import java.net.StandardProtocolFamily;
import java.nio.file.Path;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The settings of a communicator. {@link #fromEnvironment()} reads the {@code JCCL_*} variables
 * (NCCL's names with a J); {@link #defaults()} ignores them. Immutable; the {@code with} methods
 * return changed copies.
 *
 * <pre>{@code
 * Config c = Config.fromEnvironment().withTimeout(Duration.ofSeconds(30)).withAlgorithms("ring");
 * Communicator[] comms = Communicator.initAll(4, c);
 * }</pre>
 *
 * <table>
 * <caption>Variables</caption>
 * <tr><td>JCCL_BUFFSIZE</td><td>bytes per connection buffer (default 4194304); suffixes K, M, G</td></tr>
 * <tr><td>JCCL_TIMEOUT</td><td>seconds any wait may last before the call fails (default 300)</td></tr>
 * <tr><td>JCCL_ALGO</td><td>algorithms allowed: a comma list ({@code ring}, {@code tree},
 * {@code splittree}, {@code direct}, and the hierarchical ones of docs/hierarchical.md: {@code hierring},
 * {@code torus2d}, {@code rhd}, {@code butterfly}, {@code pipeline}, {@code hier2phase}, {@code pat}),
 * or {@code ^} and a list to exclude</td></tr>
 * <tr><td>JCCL_PROTO</td><td>protocols allowed: a comma list ({@code LL}, {@code LL128},
 * {@code Simple}), or {@code ^} and a list to exclude</td></tr>
 * <tr><td>JCCL_LL_BUFFSIZE / JCCL_LL128_BUFFSIZE</td><td>bytes per connection buffer of LL
 * (default 524288) and LL128 (default 4915200)</td></tr>
 * <tr><td>JCCL_MIN_NCHANNELS / JCCL_MAX_NCHANNELS</td><td>bounds of the channels a call may use</td></tr>
 * <tr><td>JCCL_INTER_BW / JCCL_INTER_LATENCY</td><td>GB/s a rank moves to other servers and µs per hop
 * between servers, for the tuner's model of a two-level fabric (default: the model's own)</td></tr>
 * <tr><td>JCCL_INTRA_BW / JCCL_INTRA_LATENCY</td><td>the same for the ranks of a rank's own server
 * (default: the model's own, shared memory)</td></tr>
 * <tr><td>JCCL_TUNING_FILE</td><td>a tuning table (jccl's JSON from {@code jccl calibrate}, or the
 * CSV rules of NCCL's example tuner plugin) that overrides the tuning model where it has data;
 * rank 0's table decides for every rank</td></tr>
 * <tr><td>JCCL_DEBUG</td><td>{@code WARN} (default), {@code INFO} (also logs each call shape's
 * algorithm, protocol and channels), {@code NONE}</td></tr>
 * <tr><td>JCCL_TOPO_FILE</td><td>a topology file in NCCL's XML format, used instead of detecting the machine</td></tr>
 * <tr><td>JCCL_TOPO_DUMP_FILE</td><td>where to write the topology used, in NCCL's XML format</td></tr>
 * <tr><td>JCCL_SOCKET_IFNAME</td><td>interfaces for sockets, NCCL's grammar: prefixes {@code eth,ib}, {@code ^}
 * to exclude, {@code =} for exact names (default: NCCL's order, see docs/bootstrap.md)</td></tr>
 * <tr><td>JCCL_SOCKET_FAMILY</td><td>{@code AF_INET} or {@code AF_INET6} (default: either, IPv4 first)</td></tr>
 * <tr><td>JCCL_BOOTSTRAP_TIMEOUT</td><td>seconds the bootstrap waits for the root, the missing ranks and any
 * bootstrap exchange (default: JCCL_TIMEOUT)</td></tr>
 * <tr><td>JCCL_HOSTID</td><td>this process's host identity, replacing the detected one (boot id and network
 * namespace)</td></tr>
 * <tr><td>JCCL_CMA_DISABLE</td><td>1: large messages between processes of one host go through the
 * shared-memory slots instead of one cross-memory copy</td></tr>
 * <tr><td>JCCL_SOCKET_NTHREADS</td><td>proxy threads per direction of the socket transport, per process (default 1,
 * at most 16, as NCCL_SOCKET_NTHREADS)</td></tr>
 * <tr><td>JCCL_NSOCKS_PERTHREAD</td><td>sockets per proxy thread per connection (default 1; threads × sockets at
 * most 64, as NCCL_NSOCKS_PERTHREAD)</td></tr>
 * <tr><td>JCCL_P2P_DISABLE / JCCL_SHM_DISABLE</td><td>{@code 1}: ranks of one process talk as if in different
 * processes (shared memory, else sockets) / ranks of one host talk over sockets; rank 0's setting counts</td></tr>
 * </table>
 */
public final class Config {
    private static final Set<String> ALGORITHMS = java.util.Arrays.stream(io.jccl.algo.Algorithm.values())
            .map(io.jccl.algo.Algorithm::id).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** How much jccl says on standard error. */
    public enum Debug {
        NONE, WARN, INFO
    }

    private long buffSize;
    private long llBuffSize;
    private long ll128BuffSize;
    private Duration timeout;
    private Set<String> algorithms;
    private Set<Protocol> protocols;
    private int minChannels;
    private int maxChannels;
    /** Whether the bounds were given (JCCL_MIN/MAX_NCHANNELS, withChannels) rather than defaulted. */
    private boolean channelBoundsGiven;
    private Path tuningFile;
    private Debug debug;
    /** The bootstrap's and the socket transports' settings; null means the default. */
    private String socketIfname;
    private StandardProtocolFamily socketFamily;
    private Duration bootstrapTimeout;
    private String hostId;
    /** What a rank has to other servers (JCCL_INTER_BW, GB/s; JCCL_INTER_LATENCY, µs per hop); NaN: the model's own. */
    private double interBandwidth = Double.NaN;
    private double interLatency = Double.NaN;
    /** What a rank has to the ranks of its own server (JCCL_INTRA_BW, JCCL_INTRA_LATENCY); NaN: the model's own. */
    private double intraBandwidth = Double.NaN;
    private double intraLatency = Double.NaN;
    /** The topology file to read instead of detecting, and where to dump the one used; null: none. */
    private String topoFile;
    private String topoDumpFile;
    /** Whether senders offer single-copy reads of their memory to receivers in other processes. */
    private boolean crossMemory = true;
    /** The socket transport: proxy threads per direction and sockets per thread per connection. */
    private int socketThreads;
    private int socksPerThread;
    /** Transports forced off (the next one of p2p, shm, net is used instead). */
    private boolean p2pDisable;
    private boolean shmDisable;

    /** NCCL's bounds: at most 16 threads and 64 sockets per connection (net_socket.cc's MAX_THREADS, MAX_SOCKETS). */
    public static final int MAX_SOCKET_THREADS = 16;
    public static final int MAX_SOCKETS = 64;

    private Config() {
    }

    private Config copy() {
        Config c = new Config();
        c.buffSize = buffSize;
        c.llBuffSize = llBuffSize;
        c.ll128BuffSize = ll128BuffSize;
        c.timeout = timeout;
        c.algorithms = algorithms;
        c.protocols = protocols;
        c.minChannels = minChannels;
        c.maxChannels = maxChannels;
        c.channelBoundsGiven = channelBoundsGiven;
        c.tuningFile = tuningFile;
        c.debug = debug;
        c.socketIfname = socketIfname;
        c.socketFamily = socketFamily;
        c.bootstrapTimeout = bootstrapTimeout;
        c.hostId = hostId;
        c.interBandwidth = interBandwidth;
        c.interLatency = interLatency;
        c.intraBandwidth = intraBandwidth;
        c.intraLatency = intraLatency;
        c.topoFile = topoFile;
        c.topoDumpFile = topoDumpFile;
        c.crossMemory = crossMemory;
        c.socketThreads = socketThreads;
        c.socksPerThread = socksPerThread;
        c.p2pDisable = p2pDisable;
        c.shmDisable = shmDisable;
        return c;
    }

    private static void checkBuffSize(String name, Protocol p, long bytes) {
        if (!p.validBuffSize(bytes)) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, name, "must be a multiple of "
                    + (long) Protocol.STEPS * Math.max(8, p.lineBytes()) + " and at least " + p.minBuffSize() + ", was " + bytes);
        }
    }

    /** Built-in defaults, whatever the environment says. */
    public static Config defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        Config c = new Config();
        c.buffSize = Protocol.SIMPLE.defaultBuffSize();
        c.llBuffSize = Protocol.LL.defaultBuffSize();
        c.ll128BuffSize = Protocol.LL128.defaultBuffSize();
        c.timeout = Duration.ofSeconds(300);
        c.algorithms = ALGORITHMS;
        c.protocols = Set.copyOf(EnumSet.allOf(Protocol.class));
        c.minChannels = 1;
        c.maxChannels = Math.max(1, Math.min(cores, 16));
        c.debug = Debug.WARN;
        c.socketThreads = 1;
        c.socksPerThread = 1;
        return c;
    }

    /** The defaults overridden by the process environment's {@code JCCL_*} variables. */
    public static Config fromEnvironment() {
        return fromVariables(System.getenv());
    }

    /** The defaults overridden by the {@code JCCL_*} entries of {@code env}. */
    public static Config fromVariables(Map<String, String> env) {
        Config c = defaults();
        String v;
        if ((v = env.get("JCCL_BUFFSIZE")) != null) {
            c = c.withBuffSize(parseBytes("JCCL_BUFFSIZE", v));
        }
        if ((v = env.get("JCCL_LL_BUFFSIZE")) != null) {
            c = c.withBuffSize(Protocol.LL, parseBytes("JCCL_LL_BUFFSIZE", v));
        }
        if ((v = env.get("JCCL_LL128_BUFFSIZE")) != null) {
            c = c.withBuffSize(Protocol.LL128, parseBytes("JCCL_LL128_BUFFSIZE", v));
        }
        if ((v = env.get("JCCL_TIMEOUT")) != null) {
            try {
                c = c.withTimeout(Duration.ofMillis(Math.round(Double.parseDouble(v.trim()) * 1000)));
            } catch (NumberFormatException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_TIMEOUT", "is not a number of seconds: " + v);
            }
        }
        if ((v = env.get("JCCL_ALGO")) != null) {
            c = c.withAlgorithms(v);
        }
        if ((v = env.get("JCCL_PROTO")) != null) {
            c = c.withProtocols(v);
        }
        if ((v = env.get("JCCL_TUNING_FILE")) != null && !v.isBlank()) {
            c = c.withTuningFile(Path.of(v.trim()));
        }
        if ((v = env.get("JCCL_DEBUG")) != null && !v.isBlank()) {
            try {
                c = c.withDebug(Debug.valueOf(v.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_DEBUG", "is not NONE, WARN or INFO: " + v);
            }
        }
        int min = c.minChannels;
        int max = c.maxChannels;
        boolean bounds = false;
        if ((v = env.get("JCCL_MIN_NCHANNELS")) != null) {
            min = parseInt("JCCL_MIN_NCHANNELS", v);
            max = Math.max(max, min);
            bounds = true;
        }
        if ((v = env.get("JCCL_MAX_NCHANNELS")) != null) {
            max = parseInt("JCCL_MAX_NCHANNELS", v);
            min = Math.min(min, max);
            bounds = true;
        }
        if (bounds) {
            c = c.withChannels(min, max);
        }
        if ((v = env.get("JCCL_SOCKET_IFNAME")) != null) {
            c = c.withSocketIfname(v);
        }
        if ((v = env.get("JCCL_SOCKET_FAMILY")) != null) {
            c = c.withSocketFamily(parseFamily(v));
        }
        if ((v = env.get("JCCL_BOOTSTRAP_TIMEOUT")) != null) {
            try {
                c = c.withBootstrapTimeout(Duration.ofMillis(Math.round(Double.parseDouble(v.trim()) * 1000)));
            } catch (NumberFormatException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_BOOTSTRAP_TIMEOUT",
                        "is not a number of seconds: " + v);
            }
        }
        if ((v = env.get("JCCL_HOSTID")) != null) {
            c = c.withHostId(v);
        }
        if ((v = env.get("JCCL_CMA_DISABLE")) != null) {
            c = c.withCrossMemory(parseInt("JCCL_CMA_DISABLE", v) == 0);
        }
        c = c.withInterServer(positiveOrNaN(env, "JCCL_INTER_BW", "GB/s"), positiveOrNaN(env, "JCCL_INTER_LATENCY", "microseconds"));
        c = c.withIntraServer(positiveOrNaN(env, "JCCL_INTRA_BW", "GB/s"), positiveOrNaN(env, "JCCL_INTRA_LATENCY", "microseconds"));
        int threads = (v = env.get("JCCL_SOCKET_NTHREADS")) != null && !v.isBlank() ? parseInt("JCCL_SOCKET_NTHREADS", v) : 1;
        int socks = (v = env.get("JCCL_NSOCKS_PERTHREAD")) != null && !v.isBlank() ? parseInt("JCCL_NSOCKS_PERTHREAD", v) : 1;
        c = c.withSockets(threads, socks);
        c = c.withP2pDisable(flag(env, "JCCL_P2P_DISABLE")).withShmDisable(flag(env, "JCCL_SHM_DISABLE"));
        return c.withTopoFile(env.get("JCCL_TOPO_FILE")).withTopoDumpFile(env.get("JCCL_TOPO_DUMP_FILE"));
    }

    private static StandardProtocolFamily parseFamily(String v) {
        return switch (v.trim().toUpperCase(Locale.ROOT)) {
            case "AF_INET", "INET", "IPV4" -> StandardProtocolFamily.INET;
            case "AF_INET6", "INET6", "IPV6" -> StandardProtocolFamily.INET6;
            default -> throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_FAMILY",
                    "is '" + v + "', not AF_INET or AF_INET6");
        };
    }

    /** NCCL's boolean variables: unset, empty or 0 is off, 1 is on. */
    private static boolean flag(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank() || v.trim().equals("0")) {
            return false;
        }
        if (v.trim().equals("1")) {
            return true;
        }
        throw JcclException.invalidArgument(JcclException.NO_RANK, name, "is '" + v + "', not 0 or 1");
    }

    private static int parseInt(String name, String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, name, "is not an integer: " + v);
        }
    }

    /** Parses 8, 64K, 4M, 1G (binary multiples), as nccl-tests does. */
    public static long parseBytes(String name, String v) {
        String s = v.trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        if (s.endsWith("B")) {
            s = s.substring(0, s.length() - 1);
        }
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> mult = 1L << 10;
                case 'M' -> mult = 1L << 20;
                case 'G' -> mult = 1L << 30;
                default -> mult = 1;
            }
            if (mult != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        try {
            long n = Long.parseLong(s);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, name, "is not a size (like 8, 64K, 4M, 1G): " + v);
        }
    }

    /**
     * NCCL's selection grammar: a comma list of names, or {@code ^} and a list to exclude. Names go
     * through {@code parse}, which throws IllegalArgumentException for an unknown one.
     */
    private static <T> Set<T> select(String variable, String spec, Set<T> all, Function<String, T> parse) {
        String s = spec.trim();
        boolean exclude = s.startsWith("^");
        Set<T> named = new LinkedHashSet<>();
        for (String part : (exclude ? s.substring(1) : s).split(",")) {
            try {
                named.add(parse.apply(part.trim()));
            } catch (IllegalArgumentException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, variable, e.getMessage());
            }
        }
        Set<T> allowed = new LinkedHashSet<>(exclude ? all : named);
        if (exclude) {
            allowed.removeAll(named);
        }
        if (allowed.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, variable, "'" + spec + "' leaves nothing to use");
        }
        return Set.copyOf(allowed);
    }

    /** The Simple protocol's buffer per connection (JCCL_BUFFSIZE). */
    public Config withBuffSize(long bytes) {
        return withBuffSize(Protocol.SIMPLE, bytes);
    }

    /** One protocol's buffer per connection (JCCL_BUFFSIZE, JCCL_LL_BUFFSIZE, JCCL_LL128_BUFFSIZE). */
    public Config withBuffSize(Protocol protocol, long bytes) {
        Config c = copy();
        switch (protocol) {
            case SIMPLE -> {
                checkBuffSize("JCCL_BUFFSIZE", protocol, bytes);
                c.buffSize = bytes;
            }
            case LL -> {
                checkBuffSize("JCCL_LL_BUFFSIZE", protocol, bytes);
                c.llBuffSize = bytes;
            }
            case LL128 -> {
                checkBuffSize("JCCL_LL128_BUFFSIZE", protocol, bytes);
                c.ll128BuffSize = bytes;
            }
        }
        return c;
    }

    public Config withTimeout(Duration t) {
        if (t == null || t.isNegative() || t.isZero()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_TIMEOUT", "must be positive, was " + t);
        }
        Config c = copy();
        c.timeout = t;
        return c;
    }

    /** Restricts the algorithms with NCCL's grammar: {@code "ring"}, {@code "ring,tree"}, {@code "^tree"}. */
    public Config withAlgorithms(String spec) {
        Config c = copy();
        c.algorithms = select("JCCL_ALGO", spec.toLowerCase(Locale.ROOT), ALGORITHMS, part -> {
            String a = part.replace("_", "").replace("-", "");
            if (!ALGORITHMS.contains(a)) {
                throw new IllegalArgumentException("names '" + part + "', not one of " + new TreeSet<>(ALGORITHMS));
            }
            return a;
        });
        return c;
    }

    /** Restricts the protocols with NCCL's grammar: {@code "LL"}, {@code "LL,LL128"}, {@code "^LL"}. */
    public Config withProtocols(String spec) {
        Config c = copy();
        c.protocols = select("JCCL_PROTO", spec, EnumSet.allOf(Protocol.class), part -> {
            try {
                return Protocol.parse(part);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("names '" + part + "', not one of LL, LL128, Simple");
            }
        });
        return c;
    }

    public Config withChannels(int min, int max) {
        if (min < 1 || max < min || max > 64) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_MIN_NCHANNELS/JCCL_MAX_NCHANNELS",
                    "need 1 <= min <= max <= 64, were " + min + " and " + max);
        }
        Config c = copy();
        c.minChannels = min;
        c.maxChannels = max;
        c.channelBoundsGiven = true;
        return c;
    }

    /**
     * As {@link #withChannels}, but the bounds count as defaults ({@link #channelBoundsGiven} false):
     * rank 0's default bounds handed to the ranks of other processes, so that the CUDA engine still
     * sizes channels to the GPU.
     */
    public Config withDefaultChannels(int min, int max) {
        Config c = withChannels(min, max);
        c.channelBoundsGiven = false;
        return c;
    }

    /** A tuning table to load at init (JCCL_TUNING_FILE); null for none. */
    public Config withTuningFile(Path file) {
        Config c = copy();
        c.tuningFile = file;
        return c;
    }

    public Config withDebug(Debug level) {
        if (level == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_DEBUG", "is null");
        }
        Config c = copy();
        c.debug = level;
        return c;
    }

    /** Interfaces for sockets (JCCL_SOCKET_IFNAME); blank means NCCL's default order. */
    public Config withSocketIfname(String spec) {
        Config c = copy();
        c.socketIfname = spec == null || spec.isBlank() ? null : spec.trim();
        return c;
    }

    /** Address family for sockets (JCCL_SOCKET_FAMILY); {@code null} allows both, IPv4 first. */
    public Config withSocketFamily(StandardProtocolFamily family) {
        if (family != null && family != StandardProtocolFamily.INET && family != StandardProtocolFamily.INET6) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_FAMILY", "must be INET or INET6, was " + family);
        }
        Config c = copy();
        c.socketFamily = family;
        return c;
    }

    /** How long the bootstrap waits (JCCL_BOOTSTRAP_TIMEOUT); {@code null} follows {@link #timeout()}. */
    public Config withBootstrapTimeout(Duration t) {
        if (t != null && (t.isNegative() || t.isZero())) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_BOOTSTRAP_TIMEOUT", "must be positive, was " + t);
        }
        Config c = copy();
        c.bootstrapTimeout = t;
        return c;
    }

    /** {@code name}'s positive value from {@code env}, NaN where it is unset or blank. */
    private static double positiveOrNaN(Map<String, String> env, String name, String unit) {
        String v = env.get(name);
        return v == null || v.isBlank() ? Double.NaN : parsePositive(name, v, unit);
    }

    private static double parsePositive(String name, String v, String unit) {
        try {
            double d = Double.parseDouble(v.trim());
            if (d > 0 && Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw JcclException.invalidArgument(JcclException.NO_RANK, name, "is not a positive number of " + unit + ": " + v);
    }

    /**
     * What a rank has to other servers, for the tuner's model on several servers
     * (JCCL_INTER_BW in GB/s, JCCL_INTER_LATENCY in µs per hop between servers); NaN keeps the
     * model's own. Like JCCL_ALGO, rank 0's values are used by every rank.
     */
    public Config withInterServer(double gbPerSecond, double latencyMicros) {
        checkLink("JCCL_INTER_BW", gbPerSecond);
        checkLink("JCCL_INTER_LATENCY", latencyMicros);
        Config c = copy();
        c.interBandwidth = gbPerSecond;
        c.interLatency = latencyMicros;
        return c;
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
        checkLink("JCCL_INTRA_BW", gbPerSecond);
        checkLink("JCCL_INTRA_LATENCY", latencyMicros);
        Config c = copy();
        c.intraBandwidth = gbPerSecond;
        c.intraLatency = latencyMicros;
        return c;
    }

    private static void checkLink(String name, double d) {
        if (!Double.isNaN(d) && !(d > 0 && Double.isFinite(d))) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, name, "must be positive, was " + d);
        }
    }

    /** GB/s a rank moves to the other ranks of its server (JCCL_INTRA_BW), NaN when not set. */
    public double intraBandwidth() {
        return intraBandwidth;
    }

    /** µs per hop inside a server (JCCL_INTRA_LATENCY), NaN when not set. */
    public double intraLatency() {
        return intraLatency;
    }

    /** GB/s a rank moves to other servers (JCCL_INTER_BW), NaN when not set. */
    public double interBandwidth() {
        return interBandwidth;
    }

    /** µs per hop between servers (JCCL_INTER_LATENCY), NaN when not set. */
    public double interLatency() {
        return interLatency;
    }

    /** Host identity replacing the detected one (JCCL_HOSTID); blank means detect. */
    public Config withHostId(String id) {
        String h = id == null || id.isBlank() ? null : id.trim();
        if (h != null && h.length() > 200) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_HOSTID", "is longer than 200 characters");
        }
        Config c = copy();
        c.hostId = h;
        return c;
    }

    /**
     * The socket transport's proxy threads per direction (JCCL_SOCKET_NTHREADS) and sockets per
     * thread per connection (JCCL_NSOCKS_PERTHREAD). As NCCL: threads above 16 become 16, and when
     * threads × sockets exceeds 64 the sockets per thread become 64 / threads (both with a warning).
     */
    public Config withSockets(int threads, int socksPerThread) {
        if (threads < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_NTHREADS", "must be at least 1, was " + threads);
        }
        if (socksPerThread < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_NSOCKS_PERTHREAD", "must be at least 1, was "
                    + socksPerThread);
        }
        int t = threads;
        int s = socksPerThread;
        if (t > MAX_SOCKET_THREADS) {
            System.err.println("jccl WARN: JCCL_SOCKET_NTHREADS " + t + " is above " + MAX_SOCKET_THREADS + "; using " + MAX_SOCKET_THREADS);
            t = MAX_SOCKET_THREADS;
        }
        if ((long) t * s > MAX_SOCKETS) {
            s = MAX_SOCKETS / t;
            System.err.println("jccl WARN: JCCL_SOCKET_NTHREADS x JCCL_NSOCKS_PERTHREAD is above " + MAX_SOCKETS
                    + " sockets; using " + s + " sockets per thread");
        }
        Config c = copy();
        c.socketThreads = t;
        c.socksPerThread = s;
        return c;
    }

    /** JCCL_P2P_DISABLE: ranks of one process talk through shared memory (or sockets) instead of in-process FIFOs. */
    public Config withP2pDisable(boolean off) {
        Config c = copy();
        c.p2pDisable = off;
        return c;
    }

    /** JCCL_SHM_DISABLE: ranks of one host in different processes talk through sockets instead of /dev/shm. */
    public Config withShmDisable(boolean off) {
        Config c = copy();
        c.shmDisable = off;
        return c;
    }

    /** Proxy threads per direction of the socket transport (JCCL_SOCKET_NTHREADS). */
    public int socketThreads() {
        return socketThreads;
    }

    /** Sockets per proxy thread per connection (JCCL_NSOCKS_PERTHREAD). */
    public int socksPerThread() {
        return socksPerThread;
    }

    public boolean p2pDisable() {
        return p2pDisable;
    }

    public boolean shmDisable() {
        return shmDisable;
    }

    /** Reads the topology from this NCCL-format file instead of detecting it (JCCL_TOPO_FILE); null or blank: detect. */
    public Config withTopoFile(String file) {
        Config c = copy();
        c.topoFile = file == null || file.isBlank() ? null : file.strip();
        return c;
    }

    /** Writes the topology used to this file (JCCL_TOPO_DUMP_FILE); null or blank: do not. */
    public Config withTopoDumpFile(String file) {
        Config c = copy();
        c.topoDumpFile = file == null || file.isBlank() ? null : file.strip();
        return c;
    }

    /**
     * Whether large Simple messages between processes of one host may go by single copy, the
     * receiver reading the sender's buffer with cross-memory attach (default; JCCL_CMA_DISABLE=1
     * turns it off: every message is copied through the shared-memory slot).
     */
    public Config withCrossMemory(boolean enabled) {
        Config c = copy();
        c.crossMemory = enabled;
        return c;
    }

    /** Whether single-copy transfers between processes are allowed ({@link #withCrossMemory}). */
    public boolean crossMemory() {
        return crossMemory;
    }

    /** The topology file to read (JCCL_TOPO_FILE), if any. */
    public Optional<String> topoFile() {
        return Optional.ofNullable(topoFile);
    }

    /** The file to write the topology to (JCCL_TOPO_DUMP_FILE), if any. */
    public Optional<String> topoDumpFile() {
        return Optional.ofNullable(topoDumpFile);
    }

    /** JCCL_SOCKET_IFNAME, if set. */
    public Optional<String> socketIfname() {
        return Optional.ofNullable(socketIfname);
    }

    /** JCCL_SOCKET_FAMILY, if set. */
    public Optional<StandardProtocolFamily> socketFamily() {
        return Optional.ofNullable(socketFamily);
    }

    /** How long the bootstrap waits: JCCL_BOOTSTRAP_TIMEOUT, else {@link #timeout()}. */
    public Duration bootstrapTimeout() {
        return bootstrapTimeout != null ? bootstrapTimeout : timeout;
    }

    /** JCCL_HOSTID, if set. */
    public Optional<String> hostId() {
        return Optional.ofNullable(hostId);
    }

    /** Bytes of each connection's Simple buffer (JCCL_BUFFSIZE). */
    public long buffSize() {
        return buffSize;
    }

    /** Bytes of each connection's buffer for {@code protocol}. */
    public long buffSize(Protocol protocol) {
        return switch (protocol) {
            case SIMPLE -> buffSize;
            case LL -> llBuffSize;
            case LL128 -> ll128BuffSize;
        };
    }

    /** How long any single wait may last (JCCL_TIMEOUT). */
    public Duration timeout() {
        return timeout;
    }

    /** The algorithms calls may use, by {@code JCCL_ALGO} name. */
    public Set<String> algorithms() {
        return algorithms;
    }

    /** The protocols calls may use (JCCL_PROTO). */
    public Set<Protocol> protocols() {
        return protocols;
    }

    public int minChannels() {
        return minChannels;
    }

    public int maxChannels() {
        return maxChannels;
    }

    /**
     * Whether the channel bounds were given ({@code JCCL_MIN_NCHANNELS}, {@code JCCL_MAX_NCHANNELS},
     * {@link #withChannels}) rather than left at their defaults. The CUDA engine keeps given bounds;
     * without them it sizes channels to the GPU (docs/gpu.md), whose blocks the host's core-count
     * default knows nothing about.
     */
    public boolean channelBoundsGiven() {
        return channelBoundsGiven;
    }

    /** The tuning table file (JCCL_TUNING_FILE), or null. */
    public Path tuningFile() {
        return tuningFile;
    }

    public Debug debug() {
        return debug;
    }

    @Override
    public String toString() {
        return "Config[buffSize=" + buffSize + ", llBuffSize=" + llBuffSize + ", ll128BuffSize=" + ll128BuffSize
                + ", timeout=" + timeout + ", algorithms=" + new TreeSet<>(algorithms) + ", protocols="
                + EnumSet.copyOf(protocols) + ", channels=" + minChannels + ".." + maxChannels
                + (tuningFile == null ? "" : ", tuningFile=" + tuningFile) + ", debug=" + debug
                + (socketIfname == null ? "" : ", socketIfname=" + socketIfname)
                + (socketFamily == null ? "" : ", socketFamily=" + socketFamily)
                + (bootstrapTimeout == null ? "" : ", bootstrapTimeout=" + bootstrapTimeout)
                + (hostId == null ? "" : ", hostId=" + hostId)
                + (Double.isNaN(interBandwidth) ? "" : ", interBandwidth=" + interBandwidth)
                + (Double.isNaN(interLatency) ? "" : ", interLatency=" + interLatency)
                + (Double.isNaN(intraBandwidth) ? "" : ", intraBandwidth=" + intraBandwidth)
                + (Double.isNaN(intraLatency) ? "" : ", intraLatency=" + intraLatency)
                + (topoFile == null ? "" : ", topoFile=" + topoFile) + (topoDumpFile == null ? "" : ", topoDumpFile=" + topoDumpFile)
                + (socketThreads == 1 && socksPerThread == 1 ? "" : ", sockets=" + socketThreads + "x" + socksPerThread)
                + (p2pDisable ? ", p2pDisable" : "") + (shmDisable ? ", shmDisable" : "")
                + (crossMemory ? "" : ", crossMemory=false") + "]";
    }
}
