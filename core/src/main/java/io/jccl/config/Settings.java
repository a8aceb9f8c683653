// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import io.jccl.Config.Debug;
import io.jccl.Config.Subsys;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.transport.net.IbHcaFilter;

import java.math.BigDecimal;
import java.net.StandardProtocolFamily;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The settings table: every {@code JCCL_*} variable of {@link io.jccl.Config}, one row each. It
 * drives reading the environment, checking values, rank 0's shared settings, {@code Config}'s
 * {@code toString}, and the table of docs/user-guide.md (a test compares the two: edit a row's
 * {@code doc} here and the guide's line together).
 */
public final class Settings {
    private static final Set<String> ALGORITHMS = Arrays.stream(Algorithm.values()).map(Algorithm::id)
            .collect(Collectors.toUnmodifiableSet());
    private static final Set<Protocol> PROTOCOLS = Set.copyOf(EnumSet.allOf(Protocol.class));
    private static final String SECONDS = "must be positive: seconds, fractions allowed";
    private static final String LIST = "must be a comma list of names, or ^ and a list to exclude";
    private static final String PER_COLLECTIVE = LIST + "; per collective: list;collective:list";

    public static final Setting<Long> BUFFSIZE = buffSize("JCCL_BUFFSIZE", Protocol.SIMPLE).doc("bytes of each "
            + "connection's Simple buffer: 8 slots of an eighth each; one message fills at most one slot");
    public static final Setting<Long> LL_BUFFSIZE = buffSize("JCCL_LL_BUFFSIZE", Protocol.LL)
            .doc("the same for LL (16-byte lines, half of them flags)");
    public static final Setting<Long> LL128_BUFFSIZE = buffSize("JCCL_LL128_BUFFSIZE", Protocol.LL128)
            .doc("the same for LL128 (128-byte lines, 120 bytes of data each)");
    public static final Setting<Duration> TIMEOUT = seconds("JCCL_TIMEOUT").initial(() -> Duration.ofSeconds(300))
            .doc("seconds any single wait may last");
    public static final Setting<Selection<String>> ALGO = new Setting<Selection<String>>("JCCL_ALGO",
            t -> Selection.parse(t.toLowerCase(Locale.ROOT), ALGORITHMS, l -> select(l, ALGORITHMS, Settings::algorithm)),
            v -> v.format(a -> String.join(",", new TreeSet<>(a))), PER_COLLECTIVE)
            .initial(() -> Selection.everyCollective(ALGORITHMS)).defaultDoc("all").shared().doc("algorithms allowed, "
                    + "NCCL's grammar: `ring`, `ring,tree`, `^tree`, and per collective `ring;allreduce:tree,ring;broadcast:^ring` "
                    + "(a collective no part names takes the plain list, else all) (`ring`, `tree`, `splittree`, `direct`, "
                    + "`butterfly`; on servers: `hierring`, `torus2d`, `rhd`, `pipeline`, `hier2phase`, `pat`, see hierarchical.md)");
    public static final Setting<Selection<Protocol>> PROTO = new Setting<Selection<Protocol>>("JCCL_PROTO",
            t -> Selection.parse(t, PROTOCOLS, l -> select(l, PROTOCOLS, Settings::protocol)), v -> v.format(Settings::protocols),
            PER_COLLECTIVE)
            .initial(() -> Selection.everyCollective(PROTOCOLS)).defaultDoc("all").shared()
            .doc("protocols allowed, NCCL's grammar: `LL`, `LL,LL128`, `^LL`, and per collective as `JCCL_ALGO` "
                    + "(`LL`, `LL128`, `Simple`). The CUDA engine "
                    + "leaves LL128 out where a connection crosses PCIe (sockets, or between two GPUs) and refuses it at init "
                    + "when it is all that is allowed (gpu.md)");
    public static final Setting<Integer> MIN_NCHANNELS = channels("JCCL_MIN_NCHANNELS").initial(() -> 1)
            .doc("fewest channels (lanes) a collective uses; also the lanes of a send/recv group");
    public static final Setting<Integer> MAX_NCHANNELS = channels("JCCL_MAX_NCHANNELS")
            .initial(() -> Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), 16))).defaultDoc("cores, at most 16")
            .doc("most channels a collective uses. On the CUDA engine, with neither variable set, channels are sized to "
                    + "the GPU instead (up to 64, and up to the blocks every rank sharing it can keep resident; [gpu.md](gpu.md))");
    public static final Setting<Double> INTER_BW = positive("JCCL_INTER_BW", "GB/s").shared()
            .doc("GB/s a rank moves to other servers, for the tuner's model on several servers (hierarchical.md)");
    public static final Setting<Double> INTER_LATENCY = positive("JCCL_INTER_LATENCY", "microseconds").shared()
            .doc("µs per hop between servers, for the same model");
    public static final Setting<Double> INTRA_BW = positive("JCCL_INTRA_BW", "GB/s").shared()
            .doc("the same as `JCCL_INTER_BW` for the other ranks of a rank's own server, where they do not talk through "
                    + "shared memory (each rank in its own network namespace, or `JCCL_SHM_DISABLE`); unset, the model's "
                    + "shared-memory figures. A level given either value is a socket: each message over it also costs its "
                    + "sender 39 µs of a core, so the latency is the wire's part of a hop");
    public static final Setting<Double> INTRA_LATENCY = positive("JCCL_INTRA_LATENCY", "microseconds").shared()
            .doc("µs per hop inside a server, for the same model");
    public static final Setting<Path> TUNING_FILE = new Setting<Path>("JCCL_TUNING_FILE", Path::of, Path::toString,
            "must be a file name").shared().doc("a tuning table from `jccl calibrate` (JSON) or NCCL tuner-plugin rules "
                    + "(CSV); rank 0's contents travel to every rank at init");
    public static final Setting<Boolean> TUNER_SIM = flag("JCCL_TUNER_SIM").shared().doc("`1`: where no tuning file decides, "
            + "the tuner prices each candidate algorithm and protocol by simulating its plan on the job's links (`JCCL_INTER_BW`, "
            + "`JCCL_INTRA_BW`; on GPUs the node of `JCCL_TOPO_FILE`; in `jccl simulate` the fabric simulated) instead of by its model, once per call shape; the model "
            + "still prices shapes too large to simulate quickly. Over sockets on the host engine its choice can be slower than the model's: 1.33x at 16 MiB on the 2x4 emulated fabric (simulator.md)");
    public static final Setting<Boolean> P2P_DISABLE = flag("JCCL_P2P_DISABLE").shared().doc("`1`: ranks of one process "
            + "talk through shared memory (else sockets) instead of in-process FIFOs; on the CUDA engine, processes of one "
            + "host meet in pinned host memory instead of CUDA IPC, and so do the ranks of `initAllCuda` on different GPUs "
            + "instead of peer access");
    public static final Setting<Boolean> SHM_DISABLE = flag("JCCL_SHM_DISABLE").shared().doc("`1`: ranks of one host in "
            + "different processes talk over sockets instead of `/dev/shm`; on the CUDA engine, with `JCCL_P2P_DISABLE` "
            + "too, every rank goes through the socket proxy (gpu.md, \"Ranks behind sockets\")");
    public static final Setting<Boolean> CMA_DISABLE = flag("JCCL_CMA_DISABLE").doc("`1`: Simple messages of 64 KiB and "
            + "more between processes of one host are copied through the shared-memory slots instead of read once out of "
            + "the sender (cross-memory attach; docs/processes.md)");
    public static final Setting<Boolean> CPU_PINNING = flag("JCCL_CPU_PINNING").initial(() -> true).doc("`0`: the host "
            + "engine leaves its threads where the scheduler puts them. Otherwise each rank's lane threads run on cores of its "
            + "NUMA domain, a core each while they fit, the ranks of a host (in any process) on different cores, and its proxy "
            + "threads on the domain (user-guide.md, \"Threads and cores\")");
    public static final Setting<Boolean> IGNORE_CPU_AFFINITY = flag("JCCL_IGNORE_CPU_AFFINITY").doc("`1`: threads are "
            + "placed over every online CPU, as `NCCL_IGNORE_CPU_AFFINITY`, instead of only the CPUs the initializing thread "
            + "may run on (`taskset`, `numactl`, MPI's binding); an application's thread that runs a rank's calls is then "
            + "pinned even where the application placed it");
    public static final Setting<Boolean> CHECK_CALLS = flag("JCCL_CHECK_CALLS").initial(() -> true).shared().doc("`0`: the host engine's messages do not carry the stamp of the call that sent them (collective, count, type, op, root, sequence number), which every receiver checks against its own call so that ranks making different calls fail naming both instead of returning wrong data (reliability.md)");
    public static final Setting<Integer> KEEPALIVE_MS = new Setting<Integer>("JCCL_KEEPALIVE_MS", Integer::valueOf,
            String::valueOf, "must be a whole number of milliseconds, 0 for none").valid(n -> n >= 0).initial(() -> 1000).shared()
            .doc("milliseconds between the heartbeats of ranks in different processes; a rank silent for 2 of them (stopped, "
                    + "paused, unreachable) or gone without a goodbye is declared lost and every rank fails naming it "
                    + "(reliability.md); `0`: none");
    public static final Setting<Boolean> COMM_BLOCKING = flag("JCCL_COMM_BLOCKING").initial(() -> true).doc("`0`: `init` "
            + "returns at once and the communicator joins in the background, as NCCL's `blocking=0`; "
            + "`Communicator.state()` says when it is ready or why it failed");
    public static final Setting<Integer> SOCKET_NTHREADS = atLeastOne("JCCL_SOCKET_NTHREADS")
            .doc("socket transport: proxy threads per direction per process (at most 16)");
    public static final Setting<Integer> NSOCKS_PERTHREAD = atLeastOne("JCCL_NSOCKS_PERTHREAD")
            .doc("socket transport: sockets per proxy thread per connection (threads × sockets at most 64)");
    public static final Setting<String> SOCKET_IFNAME = text("JCCL_SOCKET_IFNAME", 4096).doc("interfaces for sockets, "
            + "NCCL's grammar: prefixes `eth,ib`, `^` to exclude, `=` for exact names; unset, NCCL's order (bootstrap.md)");
    public static final Setting<StandardProtocolFamily> SOCKET_FAMILY = new Setting<>("JCCL_SOCKET_FAMILY",
            Settings::family, f -> f == StandardProtocolFamily.INET ? "AF_INET" : "AF_INET6", "must be AF_INET or AF_INET6")
            .valid(f -> f == StandardProtocolFamily.INET || f == StandardProtocolFamily.INET6)
            .doc("`AF_INET` or `AF_INET6`; unset, either, IPv4 first");
    public static final Setting<String> NET = new Setting<String>("JCCL_NET", Settings::net, t -> t,
            "must be IB or Socket").defaultDoc("IB where usable, else Socket").doc("the network between processes, as "
                    + "`NCCL_NET`: `IB` (ibverbs: InfiniBand or RoCE; init fails when no active RDMA port is usable) or "
                    + "`Socket`; unset, IB where libibverbs loads and an active port passes `JCCL_IB_HCA`, else sockets");
    public static final Setting<IbHcaFilter> IB_HCA = new Setting<IbHcaFilter>("JCCL_IB_HCA", IbHcaFilter::parse,
            IbHcaFilter::toString, "must be a comma list of devices, each with an optional :port; ^ to exclude, = for exact names")
            .doc("RDMA devices and ports for the IB net, NCCL's grammar: `mlx5_0:1,mlx5_1` (prefixes of device names, an "
                    + "optional port), `=` first for exact names, `^` first to exclude; unset, every active port");
    public static final Setting<Integer> IB_GID_INDEX = new Setting<Integer>("JCCL_IB_GID_INDEX", Integer::valueOf,
            String::valueOf, "must be a GID index from 0 to 255, or -1").valid(n -> n >= -1 && n <= 255).initial(() -> -1)
            .doc("RoCE: the GID index of the local port; `-1`: the first RoCE v2 GID holding an IPv4 address (else RoCE v2, "
                    + "else index 0)");
    public static final Setting<Integer> IB_TC = range("JCCL_IB_TC", 0, 255, 0)
            .doc("RoCE: the traffic class of the IB net's packets");
    public static final Setting<Integer> IB_SL = range("JCCL_IB_SL", 0, 15, 0)
            .doc("the service level of the IB net's queue pairs");
    public static final Setting<Integer> IB_TIMEOUT = range("JCCL_IB_TIMEOUT", 1, 31, 20)
            .doc("the IB net's ack timeout: 4.096 µs × 2^value per try");
    public static final Setting<Integer> IB_RETRY_CNT = range("JCCL_IB_RETRY_CNT", 0, 7, 7)
            .doc("how often the IB net's queue pairs retry before a connection fails");
    public static final Setting<Integer> IB_QPS_PER_CONNECTION = range("JCCL_IB_QPS_PER_CONNECTION", 1, 128, 1)
            .doc("queue pairs per connection of the IB net; messages take them in turn");
    public static final Setting<Duration> BOOTSTRAP_TIMEOUT = seconds("JCCL_BOOTSTRAP_TIMEOUT").defaultDoc("`JCCL_TIMEOUT`")
            .doc("seconds the bootstrap waits for the root, the missing ranks and any bootstrap exchange");
    public static final Setting<String> HOSTID = text("JCCL_HOSTID", 200).doc("this process's host identity, replacing "
            + "the detected one (boot id and network namespace)");
    public static final Setting<String> TOPO_FILE = text("JCCL_TOPO_FILE", 4096).doc("a topology file in NCCL's XML "
            + "format (what `NCCL_TOPO_DUMP_FILE` writes), used instead of detecting the machine");
    public static final Setting<String> TOPO_DUMP_FILE = text("JCCL_TOPO_DUMP_FILE", 4096)
            .doc("where to write the topology in use, in NCCL's XML format");
    public static final Setting<String> GRAPH_FILE = text("JCCL_GRAPH_FILE", 4096).doc("this node's ring and tree graphs "
            + "in NCCL's graph XML format (what `JCCL_GRAPH_DUMP_FILE` or `NCCL_GRAPH_DUMP_FILE` writes), used instead of "
            + "searching the topology");
    public static final Setting<String> GRAPH_DUMP_FILE = text("JCCL_GRAPH_DUMP_FILE", 4096)
            .doc("where rank 0 writes its node's ring and tree graphs, in NCCL's graph XML format");
    public static final Setting<Debug> DEBUG = new Setting<Debug>("JCCL_DEBUG", t -> Debug.valueOf(t.toUpperCase(Locale.ROOT)),
            Debug::name, "must be NONE, VERSION, WARN, INFO or TRACE").initial(() -> Debug.WARN).doc("what jccl logs, as "
                    + "`NCCL_DEBUG`: `NONE`; `VERSION` (jccl's version once per process); `WARN` (also warnings); `INFO` "
                    + "(also what it decides, for the subsystems of `JCCL_DEBUG_SUBSYS`); `TRACE` (also every step worth "
                    + "tracing). See Logging below");
    public static final Setting<Set<Subsys>> DEBUG_SUBSYS = new Setting<Set<Subsys>>("JCCL_DEBUG_SUBSYS",
            t -> select(withAllSpelledOut(t.toUpperCase(Locale.ROOT)), EnumSet.allOf(Subsys.class), Settings::subsys),
            Settings::subsystems, LIST).initial(() -> Set.copyOf(EnumSet.of(Subsys.INIT, Subsys.BOOTSTRAP, Subsys.ENV)))
            .defaultDoc("INIT,BOOTSTRAP,ENV")
            .doc("the subsystems whose `INFO` and `TRACE` lines are logged, as `NCCL_DEBUG_SUBSYS` (whose default this is): "
                    + "a comma list of `INIT`, `COLL`, `P2P`, `SHM`, `NET`, `GRAPH`, `TUNING`, `ENV`, `ALLOC`, `PROXY`, "
                    + "`BOOTSTRAP`, or `ALL`; `^` and a list to exclude. Warnings are logged whatever their subsystem");
    public static final Setting<String> DEBUG_FILE = new Setting<String>("JCCL_DEBUG_FILE", Settings::debugFile, s -> s,
            "must be a file name").doc("a file to log to instead of standard error, as `NCCL_DEBUG_FILE`: `%h` stands for the host name, `%p` "
                    + "for the process id (`%%` for `%`); opened once per process, appended to");

    /** Every row, in the user guide's order. */
    public static final List<Setting<?>> ALL = List.of(BUFFSIZE, LL_BUFFSIZE, LL128_BUFFSIZE, TIMEOUT, ALGO, PROTO,
            MIN_NCHANNELS, MAX_NCHANNELS, INTER_BW, INTER_LATENCY, INTRA_BW, INTRA_LATENCY, TUNING_FILE, TUNER_SIM, P2P_DISABLE,
            SHM_DISABLE, CMA_DISABLE, CPU_PINNING, IGNORE_CPU_AFFINITY, CHECK_CALLS, KEEPALIVE_MS, COMM_BLOCKING, SOCKET_NTHREADS, NSOCKS_PERTHREAD, SOCKET_IFNAME, SOCKET_FAMILY, NET, IB_HCA,
            IB_GID_INDEX, IB_TC, IB_SL, IB_TIMEOUT, IB_RETRY_CNT, IB_QPS_PER_CONNECTION, BOOTSTRAP_TIMEOUT,
            HOSTID, TOPO_FILE, TOPO_DUMP_FILE, GRAPH_FILE, GRAPH_DUMP_FILE, DEBUG, DEBUG_SUBSYS, DEBUG_FILE);

    static {
        for (int i = 0; i < ALL.size(); i++) {
            ALL.get(i).index(i);
        }
    }

    private Settings() {
    }

    /** The row of {@code variable}, or null. */
    public static Setting<?> named(String variable) {
        return ALL.stream().filter(s -> s.name().equals(variable)).findFirst().orElse(null);
    }

    /** The rows of docs/user-guide.md's table, one line each: variable, default, shared, meaning. */
    public static List<String> markdownRows() {
        return ALL.stream().map(s -> "| `" + s.name() + "` | " + s.defaultText() + " | " + (s.isShared() ? "yes" : "no")
                + " | " + s.doc() + " |").toList();
    }

    private static Setting<Long> buffSize(String name, Protocol p) {
        long unit = (long) Protocol.STEPS * Math.max(8, p.lineBytes());
        return new Setting<Long>(name, Settings::bytes, Settings::bytesText, "must be a multiple of " + unit
                + " and at least " + p.minBuffSize()).valid(p::validBuffSize).initial(p::defaultBuffSize).shared();
    }

    private static Setting<Duration> seconds(String name) {
        return new Setting<Duration>(name, t -> Duration.ofMillis(Math.round(Double.parseDouble(t) * 1000)),
                d -> BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString(), SECONDS)
                .valid(d -> d.isPositive());
    }

    private static Setting<Integer> channels(String name) {
        return new Setting<Integer>(name, Integer::valueOf, String::valueOf, "must be a whole number from 1 to 64")
                .valid(n -> n >= 1 && n <= 64).shared();
    }

    private static Setting<Integer> atLeastOne(String name) {
        return new Setting<Integer>(name, Integer::valueOf, String::valueOf, "must be a whole number of at least 1")
                .valid(n -> n >= 1).initial(() -> 1);
    }

    private static Setting<Integer> range(String name, int min, int max, int initial) {
        return new Setting<Integer>(name, Integer::valueOf, String::valueOf, "must be a whole number from " + min + " to " + max)
                .valid(n -> n >= min && n <= max).initial(() -> initial);
    }

    private static Setting<Double> positive(String name, String unit) {
        return new Setting<Double>(name, Double::valueOf, String::valueOf, "must be a positive number of " + unit)
                .valid(d -> d > 0 && Double.isFinite(d));
    }

    /** NCCL's boolean variables: 0 is off, 1 is on (unset or empty: the default, off). */
    private static Setting<Boolean> flag(String name) {
        return new Setting<Boolean>(name, t -> switch (t) {
            case "0" -> false;
            case "1" -> true;
            default -> throw new IllegalArgumentException();
        }, b -> b ? "1" : "0", "must be 0 or 1").initial(() -> false);
    }

    private static Setting<String> text(String name, int maxLength) {
        return new Setting<String>(name, t -> t, t -> t, "must be at most " + maxLength + " characters")
                .valid(t -> t.length() <= maxLength && !t.isBlank());
    }

    /** Parses 8, 64K, 4M, 1G (binary multiples, an optional B), as nccl-tests does. */
    public static long bytes(String text) {
        String s = text.strip().toUpperCase(Locale.ROOT);
        s = s.endsWith("B") ? s.substring(0, s.length() - 1) : s;
        int shift = s.isEmpty() ? 0 : "KMG".indexOf(s.charAt(s.length() - 1)) * 10 + 10;
        try {
            long n = Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1));
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, 1L << shift);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new Setting.Problem("must be a size like 8, 64K, 4M or 1G");
        }
    }

    /** {@code n} bytes in the largest of G, M, K that divides it (4194304: 4M). */
    static String bytesText(long n) {
        for (int shift = 30; shift > 0; shift -= 10) {
            if (n != 0 && n % (1L << shift) == 0) {
                return (n >> shift) + "GMK".substring(3 - shift / 10, 4 - shift / 10);
            }
        }
        return Long.toString(n);
    }

    /**
     * NCCL's selection grammar: a comma list of names, or {@code ^} and a list to exclude. Names go
     * through {@code parse}, which throws a {@link Setting.Problem} for an unknown one.
     */
    private static <T> Set<T> select(String spec, Set<T> all, Function<String, T> parse) {
        boolean exclude = spec.startsWith("^");
        Set<T> named = new LinkedHashSet<>();
        for (String part : (exclude ? spec.substring(1) : spec).split(",")) {
            named.add(parse.apply(part.strip()));
        }
        Set<T> allowed = new LinkedHashSet<>(exclude ? all : named);
        if (exclude) {
            allowed.removeAll(named);
        }
        if (allowed.isEmpty()) {
            throw new Setting.Problem("leaves nothing to use");
        }
        return Set.copyOf(allowed);
    }

    private static String algorithm(String part) {
        String a = part.replace("_", "").replace("-", "");
        if (!ALGORITHMS.contains(a)) {
            throw new Setting.Problem("names '" + part + "', not one of " + new TreeSet<>(ALGORITHMS));
        }
        return a;
    }

    private static Protocol protocol(String part) {
        try {
            return Protocol.parse(part);
        } catch (IllegalArgumentException e) {
            throw new Setting.Problem("names '" + part + "', not one of LL, LL128, Simple");
        }
    }

    private static String protocols(Set<Protocol> v) {
        return EnumSet.copyOf(v).stream().map(Protocol::id).collect(Collectors.joining(","));
    }

    /** {@code spec} with each {@code ALL} written out as every subsystem, so that {@code ^ALL} or {@code NET,ALL} is a list of names. */
    private static String withAllSpelledOut(String spec) {
        String every = Arrays.stream(Subsys.values()).map(Subsys::name).collect(Collectors.joining(","));
        boolean exclude = spec.startsWith("^");
        return (exclude ? "^" : "") + Arrays.stream((exclude ? spec.substring(1) : spec).split(",", -1))
                .map(p -> p.strip().equals("ALL") ? every : p).collect(Collectors.joining(","));
    }

    private static Subsys subsys(String part) {
        try {
            return Subsys.valueOf(part);
        } catch (IllegalArgumentException e) {
            throw new Setting.Problem("names '" + part + "', not one of " + Arrays.toString(Subsys.values()) + " or ALL");
        }
    }

    private static String subsystems(Set<Subsys> v) {
        return v.size() == Subsys.values().length ? "ALL"
                : EnumSet.copyOf(v).stream().map(Subsys::name).collect(Collectors.joining(","));
    }

    /** NCCL_NET's names, any case: IB or Socket. */
    private static String net(String t) {
        return switch (t.toUpperCase(Locale.ROOT)) {
            case "IB" -> "IB";
            case "SOCKET" -> "Socket";
            default -> throw new IllegalArgumentException();
        };
    }

    private static StandardProtocolFamily family(String t) {
        return switch (t.toUpperCase(Locale.ROOT)) {
            case "AF_INET", "INET", "IPV4" -> StandardProtocolFamily.INET;
            case "AF_INET6", "INET6", "IPV6" -> StandardProtocolFamily.INET6;
            default -> throw new IllegalArgumentException();
        };
    }

    /** A debug file's name: {@code %h}, {@code %p} and {@code %%} are the only escapes (a stray one is a mistake). */
    private static String debugFile(String t) {
        Path.of(t.replace("%", "")); // an InvalidPathException (a NUL): refused now, not when a rank opens it
        for (int i = t.indexOf('%'); i >= 0; i = t.indexOf('%', i + 2)) {
            if (i + 1 >= t.length() || "hp%".indexOf(t.charAt(i + 1)) < 0) {
                throw new Setting.Problem("must be a file name in which % is followed by h (the host name), "
                        + "p (the process id) or % (a %)");
            }
        }
        return t;
    }
}
