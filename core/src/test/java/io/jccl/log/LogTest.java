// SPDX-License-Identifier: Apache-2.0
package io.jccl.log;

import io.jccl.ChildJvm;
import io.jccl.Config;
import io.jccl.Config.Debug;
import io.jccl.Config.Subsys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JCCL_DEBUG, JCCL_DEBUG_SUBSYS and JCCL_DEBUG_FILE as NCCL reads them, and where lines go: the
 * file, the application's System.LoggerFinder, or standard error (the last two in JVMs of their
 * own, since a process picks its finder once).
 */
class LogTest {
    private static final long PID = ProcessHandle.current().pid();

    /** The lines {@code config}'s Log writes for rank 3 when every subsystem says something at every level. */
    private static List<String> linesOf(Config config, Path file) throws IOException {
        Log log = Log.of(config.withDebugFile(file.toString()), 3);
        for (Subsys s : Subsys.values()) {
            log.warn(s, "w " + s);
            log.info(s, "i " + s);
            log.trace(s, () -> "t " + s);
        }
        return Files.exists(file) ? Files.readAllLines(file).stream().filter(l -> !l.contains("jccl version")
                && !l.contains(" ENV JCCL_")).toList() : List.of();
    }

    /** What those lines say: "LEVEL SUBSYS". */
    private static List<String> said(List<String> lines) {
        return lines.stream().map(l -> l.replaceFirst("^.* jccl (\\w+) (\\w+) \\w (\\w+)$", "$1 $2 $3")).toList();
    }

    private static List<String> expected(Debug level, EnumSet<Subsys> on) {
        List<String> e = new ArrayList<>();
        for (Subsys s : Subsys.values()) {
            if (level.compareTo(Debug.WARN) >= 0) {
                e.add("WARN " + s + " " + s);
            }
            if (level.compareTo(Debug.INFO) >= 0 && on.contains(s)) {
                e.add("INFO " + s + " " + s);
            }
            if (level.compareTo(Debug.TRACE) >= 0 && on.contains(s)) {
                e.add("TRACE " + s + " " + s);
            }
        }
        return e;
    }

    @Test
    void subsystemsSelectInfoLinesAndWarningsPassWhateverTheirSubsystem(@TempDir Path dir) throws IOException {
        Config info = Config.fromVariables(Map.of("JCCL_DEBUG", "INFO", "JCCL_DEBUG_SUBSYS", "NET"));
        assertThat(said(linesOf(info, dir.resolve("net.log")))).isEqualTo(expected(Debug.INFO, EnumSet.of(Subsys.NET)));
        Config notNet = Config.fromVariables(Map.of("JCCL_DEBUG", "INFO", "JCCL_DEBUG_SUBSYS", "^NET"));
        assertThat(said(linesOf(notNet, dir.resolve("not-net.log")))).isEqualTo(expected(Debug.INFO,
                EnumSet.complementOf(EnumSet.of(Subsys.NET))));
        assertThat(said(linesOf(Config.defaults().withDebug(Debug.TRACE), dir.resolve("default.log"))))
                .as("NCCL's default subsystems").isEqualTo(expected(Debug.TRACE, EnumSet.of(Subsys.INIT, Subsys.BOOTSTRAP, Subsys.ENV)));
    }

    @Test
    void eachLevelWritesItsOwnAndTheLevelsBelow(@TempDir Path dir) throws IOException {
        for (Debug level : Debug.values()) {
            Path file = dir.resolve(level + ".log");
            List<String> lines = linesOf(Config.defaults().withDebug(level).withDebugSubsys("ALL"), file);
            assertThat(said(lines)).as(level.toString()).isEqualTo(expected(level, EnumSet.allOf(Subsys.class)));
            Log log = Log.of(Config.defaults().withDebug(level).withDebugSubsys("ALL").withDebugFile(file.toString()), 0);
            for (Debug asked : Debug.values()) {
                boolean on = asked.compareTo(Debug.WARN) >= 0 && asked.compareTo(level) <= 0;
                assertThat(log.on(asked, Subsys.COLL)).as(asked + " under " + level).isEqualTo(on);
            }
        }
    }

    @Test
    void aMessageThatIsNotWrittenIsNotMade(@TempDir Path dir) {
        AtomicInteger made = new AtomicInteger();
        Log log = Log.of(Config.defaults().withDebug(Debug.INFO).withDebugSubsys("INIT").withDebugFile(dir.resolve("l").toString()), 0);
        log.info(Subsys.NET, () -> "net " + made.incrementAndGet());
        log.trace(Subsys.INIT, () -> "trace " + made.incrementAndGet());
        assertThat(made).hasValue(0);
        log.info(Subsys.INIT, () -> "init " + made.incrementAndGet());
        log.warn(Subsys.NET, () -> "warn " + made.incrementAndGet());
        assertThat(made).hasValue(2);
    }

    @Test
    void theDebugFileNamesTheHostAndTheProcessAndIsAppendedTo(@TempDir Path dir) throws IOException {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip().split("\\.")[0];
        Config c = Config.fromVariables(Map.of("JCCL_DEBUG", "INFO", "JCCL_DEBUG_SUBSYS", "NET,P2P",
                "JCCL_DEBUG_FILE", dir + "/jccl-%h-%p-100%%.log"));
        Path file = dir.resolve("jccl-" + host + "-" + PID + "-100%.log");
        Log.of(c, 3).info(Subsys.NET, "first");
        Log.of(c, Log.NO_RANK).info(Subsys.P2P, "second");
        assertThat(file).exists();
        List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.contains("jccl version")).toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches(Pattern.quote(host + ":" + PID + ":" + Thread.currentThread().threadId())
                + " \\[3\\] jccl INFO NET first");
        assertThat(lines.get(1)).endsWith(" [-] jccl INFO P2P second");
        assertThat(Log.fileName("a%hb%pc%%d")).isEqualTo("a" + host + "b" + PID + "c%d");
    }

    @Test
    void aDebugFileThatCannotBeOpenedFallsBackToStandardError(@TempDir Path dir) {
        Log log = Log.of(Config.defaults().withDebugFile(dir.resolve("no/such/dir/x.log").toString()), 0);
        log.warn(Subsys.INIT, "still said");
        assertThat(dir.resolve("no")).doesNotExist();
    }

    /** A JVM of its own running {@link LogChild}: its standard output and standard error. */
    private static String[] child(Path classPathExtra, Map<String, String> env) throws Exception {
        List<String> cmd = ChildJvm.command("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
        int cp = cmd.indexOf("-cp") + 1;
        if (classPathExtra != null) {
            cmd.set(cp, classPathExtra + java.io.File.pathSeparator + cmd.get(cp));
        }
        cmd.add(LogChild.class.getName());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("JCCL_"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile("jccl-log-child", ".out");
        Path err = Files.createTempFile("jccl-log-child", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the child ends").isTrue();
            String[] both = {Files.readString(out), Files.readString(err)};
            assertThat(p.exitValue()).as("the child's output:%n%s%n%s", both[0], both[1]).isZero();
            return both;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void anApplicationsLoggerFinderReceivesJcclsRecords(@TempDir Path dir) throws Exception {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve("java.lang.System$LoggerFinder"), RecordingFinder.class.getName() + "\n");
        String[] outErr = child(dir, Map.of("JCCL_DEBUG", "INFO", "JCCL_DEBUG_SUBSYS", "INIT,COLL,ENV"));
        List<String> records = outErr[0].lines().filter(l -> l.startsWith("RECORD ")).toList();
        assertThat(records).contains("RECORD io.jccl.init INFO [0] init complete: rank 0 of 2 on the host engine",
                "RECORD io.jccl.init INFO [1] init complete: rank 1 of 2 on the host engine",
                "RECORD io.jccl.env INFO [-] JCCL_DEBUG set to INFO");
        assertThat(records).anyMatch(r -> r.matches("RECORD io\\.jccl\\.init INFO \\[-\\] jccl version \\S+ \\(Java .*"));
        assertThat(records).anyMatch(r -> r.startsWith("RECORD io.jccl.coll INFO [1] allreduce: count 256 FLOAT32 sum root 0 "));
        assertThat(outErr[1]).as("nothing of jccl's on standard error").doesNotContain(" jccl ");
    }

    @Test
    void withoutOneLinesGoToStandardErrorAsNcclsDo() throws Exception {
        String[] outErr = child(null, Map.of("JCCL_DEBUG", "INFO", "JCCL_DEBUG_SUBSYS", "INIT,COLL"));
        assertThat(outErr[0]).doesNotContain("RECORD");
        List<String> lines = outErr[1].lines().filter(l -> l.contains(" jccl ")).toList();
        assertThat(lines).allMatch(l -> l.matches("[^:\\s]+:\\d+:\\d+ \\[[-0-9]+\\] jccl ((WARN|INFO|TRACE) [A-Z0-9]+|VERSION) .+"));
        assertThat(lines).filteredOn(l -> l.contains(" jccl VERSION jccl version ")).as("the version line, with no subsystem").hasSize(1);
        assertThat(lines).anyMatch(l -> l.endsWith(" [1] jccl INFO INIT init complete: rank 1 of 2 on the host engine"));
        assertThat(lines).anyMatch(l -> l.contains(" [0] jccl INFO COLL allreduce: count 256 FLOAT32 sum root 0 "));
        assertThat(lines).noneMatch(l -> l.contains(" ENV "));
    }
}
