package io.jccl;

import io.jccl.proto.Simple;

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
 * <tr><td>JCCL_TOPO_FILE</td><td>a topology file in NCCL's XML format, used instead of detecting the machine</td></tr>
 * <tr><td>JCCL_TOPO_DUMP_FILE</td><td>where to write the topology used, in NCCL's XML format</td></tr>
 * </table>
 */
public final class Config {
    private static final Set<String> ALGORITHMS = Set.of("ring", "tree", "splittree", "direct");

    private final long buffSize;
    private final Duration timeout;
    private final Set<String> algorithms;
    private final int minChannels;
    private final int maxChannels;
    private final String topoFile;
    private final String topoDumpFile;

    private Config(long buffSize, Duration timeout, Set<String> algorithms, int minChannels, int maxChannels,
                   String topoFile, String topoDumpFile) {
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
        this.topoFile = blankToNull(topoFile);
        this.topoDumpFile = blankToNull(topoDumpFile);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** Built-in defaults, whatever the environment says. */
    public static Config defaults() {
        int cores = Runtime.getRuntime().availableProcessors();
        return new Config(Simple.DEFAULT_BUFFSIZE, Duration.ofSeconds(300), ALGORITHMS, 1, Math.max(1, Math.min(cores, 16)),
                null, null);
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
        return c.withChannels(min, max)
                .withTopoFile(env.get("JCCL_TOPO_FILE"))
                .withTopoDumpFile(env.get("JCCL_TOPO_DUMP_FILE"));
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
        return new Config(bytes, timeout, algorithms, minChannels, maxChannels, topoFile, topoDumpFile);
    }

    public Config withTimeout(Duration t) {
        return new Config(buffSize, t, algorithms, minChannels, maxChannels, topoFile, topoDumpFile);
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
        return new Config(buffSize, timeout, allowed, minChannels, maxChannels, topoFile, topoDumpFile);
    }

    public Config withChannels(int min, int max) {
        return new Config(buffSize, timeout, algorithms, min, max, topoFile, topoDumpFile);
    }

    /** Reads the topology from this NCCL-format file instead of detecting it (JCCL_TOPO_FILE); null or blank: detect. */
    public Config withTopoFile(String file) {
        return new Config(buffSize, timeout, algorithms, minChannels, maxChannels, file, topoDumpFile);
    }

    /** Writes the topology used to this file (JCCL_TOPO_DUMP_FILE); null or blank: do not. */
    public Config withTopoDumpFile(String file) {
        return new Config(buffSize, timeout, algorithms, minChannels, maxChannels, topoFile, file);
    }

    /** The topology file to read (JCCL_TOPO_FILE), if any. */
    public Optional<String> topoFile() {
        return Optional.ofNullable(topoFile);
    }

    /** The file to write the topology to (JCCL_TOPO_DUMP_FILE), if any. */
    public Optional<String> topoDumpFile() {
        return Optional.ofNullable(topoDumpFile);
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
                + (topoFile != null ? ", topoFile=" + topoFile : "") + (topoDumpFile != null ? ", topoDumpFile=" + topoDumpFile : "") + "]";
    }
}
