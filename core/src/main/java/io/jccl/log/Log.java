// SPDX-License-Identifier: Apache-2.0
package io.jccl.log;

import io.jccl.Config;
import io.jccl.Config.Debug;
import io.jccl.Config.Subsys;
import io.jccl.config.Setting;
import io.jccl.config.Settings;
import io.jccl.config.Values;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * jccl's one logger: every line the library writes goes through it, as NCCL's INFO/WARN/TRACE
 * macros. A Log belongs to one rank and reads JCCL_DEBUG (the level), JCCL_DEBUG_SUBSYS (which
 * subsystems log at INFO and TRACE; warnings always do, as NCCL's) and JCCL_DEBUG_FILE from that
 * rank's {@link Config}. {@link #on} costs two comparisons, so a caller whose message is dear
 * tests it first or passes a {@link Supplier}, which is called only when the line is written.
 *
 * <p>Where lines go: to JCCL_DEBUG_FILE if it is set ({@code %h} the host name, {@code %p} the
 * process id; opened once per process and appended to); else, when the application has
 * installed its own {@link System.LoggerFinder} (SLF4J's, log4j's, ...), to
 * {@code System.getLogger("io.jccl." + subsystem)} at the matching level, so that the application's
 * configuration decides; else to standard error as NCCL's lines,
 * {@code host:pid:tid [rank] jccl INFO NET message}. The JDK's own finders (java.base's default,
 * and java.logging's) are told apart from an application's by their module: a finder whose class
 * lives in a {@code java.*} or {@code jdk.*} module is the JDK's (looked at once per process, at
 * the first Log without a file). Standard error is written through
 * a stream of this class over {@link FileDescriptor#err}, one write per line, never through
 * {@code System.err}.
 *
 * <pre>{@code
 * Log log = Log.of(config, rank);                       // once, where the rank is set up
 * log.info(Subsys.NET, "listening at " + address);      // a cheap message
 * log.info(Subsys.COLL, () -> describe(call));          // built only when written
 * if (log.on(Debug.TRACE, Subsys.P2P)) {                // several lines, or work to find them
 *     steps.forEach(s -> log.trace(Subsys.P2P, s.toString()));
 * }
 * log.warn(Subsys.INIT, "JCCL_ALGO leaves only ring for all-gather");
 * }</pre>
 */
public final class Log {
    /** A rank for lines of no rank (a bootstrap root, a Config). */
    public static final int NO_RANK = -1;

    private static final long PID = ProcessHandle.current().pid();
    private static final String HOST = shortName(hostname());
    private static final AtomicBoolean VERSION_SHOWN = new AtomicBoolean();
    private static final AtomicBoolean ENV_SHOWN = new AtomicBoolean();
    private static final AtomicBoolean UNKNOWN_NCCL_SHOWN = new AtomicBoolean();
    private static final Map<Path, Sink> FILES = new ConcurrentHashMap<>();

    private final int level;
    private final long subsystems;
    private final int rank;
    private final Sink sink;

    private Log(int level, long subsystems, int rank, Sink sink) {
        this.level = level;
        this.subsystems = subsystems;
        this.rank = rank;
        this.sink = sink;
    }

    /**
     * The log of rank {@code rank} ({@link #NO_RANK} where there is none) under {@code config}'s
     * JCCL_DEBUG settings. The first Log of a process at VERSION or above writes jccl's version
     * (at WARN only when JCCL_DEBUG says WARN: WARN is jccl's default, where NCCL's is NONE); the
     * first at INFO with ENV writes the settings that were given (and which came from {@code NCCL_}
     * names), the first at WARN the {@code NCCL_*} variables jccl does not read.
     */
    public static Log of(Config config, int rank) {
        long mask = 0;
        for (Subsys s : config.debugSubsys()) {
            mask |= 1L << s.ordinal();
        }
        Log log = new Log(config.debug().ordinal(), mask, rank, sink(config.debugFile()));
        Values values = Values.of(config);
        Debug d = config.debug();
        boolean version = d == Debug.VERSION || d.compareTo(Debug.INFO) >= 0 || (d == Debug.WARN && values.given(Settings.DEBUG));
        if (version && !VERSION_SHOWN.getAndSet(true)) {
            log.sink.write(rank, Debug.VERSION, Subsys.INIT, "jccl version " + version() + " (Java " + Runtime.version() + ", "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")");
        }
        if (log.on(Debug.INFO, Subsys.ENV) && !ENV_SHOWN.getAndSet(true)) {
            values.notes().info().forEach(line -> log.info(Subsys.ENV, line));
            for (Setting<?> s : Settings.ALL) {
                if (values.given(s)) {
                    log.info(Subsys.ENV, s.name() + " set to " + values.text(s));
                }
            }
        }
        String unknown = values.notes().unknownWarning();
        if (unknown != null && log.on(Debug.WARN, Subsys.ENV) && !UNKNOWN_NCCL_SHOWN.getAndSet(true)) {
            log.warn(Subsys.ENV, unknown);
        }
        return log;
    }

    /** Whether a line of {@code level} and {@code subsystem} is written: warnings whatever their subsystem. */
    public boolean on(Debug level, Subsys subsystem) {
        int l = level.ordinal();
        return l <= this.level && l >= Debug.WARN.ordinal()
                && (l == Debug.WARN.ordinal() || (subsystems & 1L << subsystem.ordinal()) != 0);
    }

    /** A warning: written at WARN and above, whatever JCCL_DEBUG_SUBSYS says. */
    public void warn(Subsys subsystem, String message) {
        log(Debug.WARN, subsystem, message);
    }

    /** A warning made by {@code message} only when it is written. */
    public void warn(Subsys subsystem, Supplier<String> message) {
        log(Debug.WARN, subsystem, message);
    }

    /** What jccl decided: written at INFO and TRACE when JCCL_DEBUG_SUBSYS names {@code subsystem}. */
    public void info(Subsys subsystem, String message) {
        log(Debug.INFO, subsystem, message);
    }

    /** As {@link #info(Subsys, String)}, the message made only when it is written. */
    public void info(Subsys subsystem, Supplier<String> message) {
        log(Debug.INFO, subsystem, message);
    }

    /** A step worth tracing: written at TRACE when JCCL_DEBUG_SUBSYS names {@code subsystem}. */
    public void trace(Subsys subsystem, String message) {
        log(Debug.TRACE, subsystem, message);
    }

    /** As {@link #trace(Subsys, String)}, the message made only when it is written. */
    public void trace(Subsys subsystem, Supplier<String> message) {
        log(Debug.TRACE, subsystem, message);
    }

    /**
     * Where a component that takes a line consumer (the planner, the FIFOs) writes this log's INFO
     * lines of {@code subsystem}; null when they are off, so that it builds no message.
     */
    public java.util.function.Consumer<String> infoLines(Subsys subsystem) {
        return on(Debug.INFO, subsystem) ? m -> sink.write(rank, Debug.INFO, subsystem, m) : null;
    }

    private void log(Debug l, Subsys s, String message) {
        if (on(l, s)) {
            sink.write(rank, l, s, message);
        }
    }

    private void log(Debug l, Subsys s, Supplier<String> message) {
        if (on(l, s)) {
            sink.write(rank, l, s, message.get());
        }
    }

    /** Where a process's lines go. */
    private interface Sink {
        void write(int rank, Debug level, Subsys subsystem, String message);
    }

    /** NCCL's lines on a stream (standard error, or JCCL_DEBUG_FILE's file), one write each. */
    private record Lines(OutputStream out) implements Sink {
        static final Lines STDERR = new Lines(new FileOutputStream(FileDescriptor.err));

        @Override
        public void write(int rank, Debug level, Subsys subsystem, String message) {
            String line = HOST + ":" + PID + ":" + Thread.currentThread().threadId() + " [" + (rank < 0 ? "-" : rank)
                    + "] jccl " + level + " " + (level == Debug.VERSION ? "" : subsystem + " ") + message + "\n";
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            synchronized (out) {
                try {
                    out.write(b);
                    out.flush();
                } catch (IOException e) {
                    // A log that cannot be written (a full disk, a closed pipe) must not fail the collective.
                }
            }
        }
    }

    /** The application's System.LoggerFinder: one logger per subsystem, levels mapped. */
    private static final class Loggers implements Sink {
        static final Loggers INSTANCE = new Loggers();
        private final System.Logger[] loggers = Arrays.stream(Subsys.values())
                .map(s -> System.getLogger("io.jccl." + s.name().toLowerCase(Locale.ROOT))).toArray(System.Logger[]::new);

        @Override
        public void write(int rank, Debug level, Subsys subsystem, String message) {
            System.Logger l = loggers[subsystem.ordinal()];
            System.Logger.Level to = switch (level) {
                case WARN -> System.Logger.Level.WARNING;
                case TRACE -> System.Logger.Level.TRACE;
                default -> System.Logger.Level.INFO;
            };
            if (l.isLoggable(to)) {
                l.log(to, "[" + (rank < 0 ? "-" : rank) + "] " + message);
            }
        }
    }

    /** Whether the application installed a System.LoggerFinder: the JDK's own are in java.* and jdk.* modules. */
    private static final class Finder {
        static final boolean APPLICATION = application();

        private static boolean application() {
            Module m = System.LoggerFinder.getLoggerFinder().getClass().getModule();
            return !(m.isNamed() && (m.getName().startsWith("java.") || m.getName().startsWith("jdk.")));
        }
    }

    private static Sink sink(Optional<String> file) {
        if (file.isEmpty()) {
            return Finder.APPLICATION ? Loggers.INSTANCE : Lines.STDERR;
        }
        Path p = Path.of(fileName(file.get()));
        return FILES.computeIfAbsent(p.toAbsolutePath(), Log::open);
    }

    private static Sink open(Path p) {
        try {
            return new Lines(new FileOutputStream(p.toFile(), true));
        } catch (IOException | SecurityException e) {
            Lines.STDERR.write(NO_RANK, Debug.WARN, Subsys.ENV, "JCCL_DEBUG_FILE " + p + " cannot be opened (" + e.getMessage()
                    + "); logging to standard error");
            return Lines.STDERR;
        }
    }

    /** JCCL_DEBUG_FILE's {@code pattern} with {@code %h} the host name, {@code %p} the process id and {@code %%} a {@code %}. */
    public static String fileName(String pattern) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '%' && i + 1 < pattern.length()) {
                char e = pattern.charAt(++i);
                b.append(e == 'h' ? HOST : e == 'p' ? Long.toString(PID) : String.valueOf(e));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** This host's name as the kernel knows it (no DNS lookup), at most 200 characters. */
    public static String hostname() {
        String h = null;
        try {
            h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException | SecurityException e) {
            // not Linux: the variable, then the resolver
        }
        if (h == null || h.isEmpty()) {
            h = System.getenv("HOSTNAME");
        }
        if (h == null || h.isEmpty()) {
            try {
                h = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                h = "unknown";
            }
        }
        return h.length() > 200 ? h.substring(0, 200) : h;
    }

    /** The host name up to its first dot, as NCCL's lines show it. */
    private static String shortName(String host) {
        int dot = host.indexOf('.');
        return dot > 0 ? host.substring(0, dot) : host;
    }

    /** This jccl's version, as {@link io.jccl.Jccl#version()} reads it from the jar. */
    static String version() {
        return io.jccl.Jccl.version();
    }
}
