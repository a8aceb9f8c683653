package io.jccl;

import io.jccl.proto.Simple;

import java.net.StandardProtocolFamily;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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
 * {@code splittree}, {@code direct}), or {@code ^} and a list to exclude</td></tr>
 * <tr><td>JCCL_MIN_NCHANNELS / JCCL_MAX_NCHANNELS</td><td>bounds of the channels a call may use</td></tr>
 * <tr><td>JCCL_SOCKET_IFNAME</td><td>interfaces for sockets, NCCL's grammar: prefixes {@code eth,ib}, {@code ^}
 * to exclude, {@code =} for exact names (default: NCCL's order, see docs/bootstrap.md)</td></tr>
 * <tr><td>JCCL_SOCKET_FAMILY</td><td>{@code AF_INET} or {@code AF_INET6} (default: either, IPv4 first)</td></tr>
 * <tr><td>JCCL_BOOTSTRAP_TIMEOUT</td><td>seconds the bootstrap waits for the root, the missing ranks and any
 * bootstrap exchange (default: JCCL_TIMEOUT)</td></tr>
 * <tr><td>JCCL_HOSTID</td><td>this process's host identity, replacing the detected one (boot id and network
 * namespace)</td></tr>
 * </table>
 */
public final class Config {
    private static final Set<String> ALGORITHMS = Set.of("ring", "tree", "splittree", "direct");

    private final long buffSize;
    private final Duration timeout;
    private final Set<String> algorithms;
    private final int minChannels;
    private final int maxChannels;
    private final Network network;

    /** The bootstrap's and the socket transports' settings; {@code null} fields mean the default. */
    private record Network(String socketIfname, StandardProtocolFamily socketFamily, Duration bootstrapTimeout,
                           String hostId) {
        static final Network DEFAULT = new Network(null, null, null, null);
    }

    private Config(long buffSize, Duration timeout, Set<String> algorithms, int minChannels, int maxChannels,
                   Network network) {
        if (buffSize < Simple.MIN_BUFFSIZE || buffSize % Simple.STEPS != 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_BUFFSIZE",
                    "must be a multiple of " + Simple.STEPS + " and at least " + Simple.MIN_BUFFSIZE + ", was " + buffSize);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_TIMEOUT", "must be positive, was " + timeout);
        }
        if (minChannels < 1 || maxChannels < minChannels || maxChannels > 64) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_MIN_NCHANNELS/JCCL_MAX_NCHANNELS",
                    "need 1 <= min <= max <= 64, were " + minChannels + " and " + maxChannels);
        }
        this.buffSize = buffSize;
        this.timeout = timeout;
        this.algorithms = Set.copyOf(algorithms);
        this.minChannels = minChannels;
        this.maxChannels = maxChannels;
        this.network = network;
    }

    /** Built-in defaults, whatever the environment says. */
    public static Config defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new Config(Simple.DEFAULT_BUFFSIZE, Duration.ofSeconds(300), ALGORITHMS, 1, Math.max(1, Math.min(cores, 16)),
                Network.DEFAULT);
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
        int min = c.minChannels;
        int max = c.maxChannels;
        if ((v = env.get("JCCL_MIN_NCHANNELS")) != null) {
            min = parseInt("JCCL_MIN_NCHANNELS", v);
            max = Math.max(max, min);
        }
        if ((v = env.get("JCCL_MAX_NCHANNELS")) != null) {
            max = parseInt("JCCL_MAX_NCHANNELS", v);
            min = Math.min(min, max);
        }
        c = c.withChannels(min, max);
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
        return c;
    }

    private static StandardProtocolFamily parseFamily(String v) {
        return switch (v.trim().toUpperCase(Locale.ROOT)) {
            case "AF_INET", "INET", "IPV4" -> StandardProtocolFamily.INET;
            case "AF_INET6", "INET6", "IPV6" -> StandardProtocolFamily.INET6;
            default -> throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_FAMILY",
                    "is '" + v + "', not AF_INET or AF_INET6");
        };
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

    public Config withBuffSize(long bytes) {
        return new Config(bytes, timeout, algorithms, minChannels, maxChannels, network);
    }

    public Config withTimeout(Duration t) {
        return new Config(buffSize, t, algorithms, minChannels, maxChannels, network);
    }

    /** Restricts the algorithms with NCCL's grammar: {@code "ring"}, {@code "ring,tree"}, {@code "^tree"}. */
    public Config withAlgorithms(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        boolean exclude = s.startsWith("^");
        Set<String> named = new TreeSet<>();
        for (String part : (exclude ? s.substring(1) : s).split(",")) {
            String a = part.trim().replace("_", "").replace("-", "");
            if (!ALGORITHMS.contains(a)) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_ALGO",
                        "names '" + part.trim() + "', not one of " + new TreeSet<>(ALGORITHMS));
            }
            named.add(a);
        }
        Set<String> allowed = new TreeSet<>(exclude ? ALGORITHMS : named);
        if (exclude) {
            allowed.removeAll(named);
        }
        if (allowed.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_ALGO", "'" + spec + "' leaves no algorithm");
        }
        return new Config(buffSize, timeout, allowed, minChannels, maxChannels, network);
    }

    public Config withChannels(int min, int max) {
        return new Config(buffSize, timeout, algorithms, min, max, network);
    }

    /** Interfaces for sockets (JCCL_SOCKET_IFNAME); blank means NCCL's default order. */
    public Config withSocketIfname(String spec) {
        String s = spec == null || spec.isBlank() ? null : spec.trim();
        return withNetwork(new Network(s, network.socketFamily, network.bootstrapTimeout, network.hostId));
    }

    /** Address family for sockets (JCCL_SOCKET_FAMILY); {@code null} allows both, IPv4 first. */
    public Config withSocketFamily(StandardProtocolFamily family) {
        if (family != null && family != StandardProtocolFamily.INET && family != StandardProtocolFamily.INET6) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_FAMILY", "must be INET or INET6, was " + family);
        }
        return withNetwork(new Network(network.socketIfname, family, network.bootstrapTimeout, network.hostId));
    }

    /** How long the bootstrap waits (JCCL_BOOTSTRAP_TIMEOUT); {@code null} follows {@link #timeout()}. */
    public Config withBootstrapTimeout(Duration t) {
        if (t != null && (t.isNegative() || t.isZero())) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_BOOTSTRAP_TIMEOUT", "must be positive, was " + t);
        }
        return withNetwork(new Network(network.socketIfname, network.socketFamily, t, network.hostId));
    }

    /** Host identity replacing the detected one (JCCL_HOSTID); blank means detect. */
    public Config withHostId(String hostId) {
        String h = hostId == null || hostId.isBlank() ? null : hostId.trim();
        if (h != null && h.length() > 200) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_HOSTID", "is longer than 200 characters");
        }
        return withNetwork(new Network(network.socketIfname, network.socketFamily, network.bootstrapTimeout, h));
    }

    private Config withNetwork(Network n) {
        return new Config(buffSize, timeout, algorithms, minChannels, maxChannels, n);
    }

    /** JCCL_SOCKET_IFNAME, if set. */
    public Optional<String> socketIfname() {
        return Optional.ofNullable(network.socketIfname);
    }

    /** JCCL_SOCKET_FAMILY, if set. */
    public Optional<StandardProtocolFamily> socketFamily() {
        return Optional.ofNullable(network.socketFamily);
    }

    /** How long the bootstrap waits: JCCL_BOOTSTRAP_TIMEOUT, else {@link #timeout()}. */
    public Duration bootstrapTimeout() {
        return network.bootstrapTimeout != null ? network.bootstrapTimeout : timeout;
    }

    /** JCCL_HOSTID, if set. */
    public Optional<String> hostId() {
        return Optional.ofNullable(network.hostId);
    }

    /** Bytes of each connection's buffer (JCCL_BUFFSIZE). */
    public long buffSize() {
        return buffSize;
    }

    /** How long any single wait may last (JCCL_TIMEOUT). */
    public Duration timeout() {
        return timeout;
    }

    /** The algorithms calls may use, by {@code JCCL_ALGO} name. */
    public Set<String> algorithms() {
        return algorithms;
    }

    public int minChannels() {
        return minChannels;
    }

    public int maxChannels() {
        return maxChannels;
    }

    @Override
    public String toString() {
        return "Config[buffSize=" + buffSize + ", timeout=" + timeout + ", algorithms=" + new TreeSet<>(algorithms)
                + ", channels=" + minChannels + ".." + maxChannels
                + (network.equals(Network.DEFAULT) ? "" : ", " + network) + "]";
    }
}
