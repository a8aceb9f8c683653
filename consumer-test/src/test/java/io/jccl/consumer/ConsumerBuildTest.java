// SPDX-License-Identifier: Apache-2.0
package io.jccl.consumer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * jccl as a user gets it: a Maven project that depends on {@code io.jccl:jccl-core} (the
 * template in src/test/consumer) is built offline from a repository holding what {@code mvn install}
 * puts there (this module's pom installs it), once as a named module ({@code requires io.jccl.core})
 * and once on the class path, with {@code -Xlint:all -Werror}; each then runs a 2-thread all-reduce
 * with the JVM flags the README gives, and must compute it and print no warning but the JDK's
 * line for the incubator module it was asked to add.
 */
class ConsumerBuildTest {
    /** The one warning a run may print: the JDK's, for --add-modules=jdk.incubator.vector. */
    private static final String INCUBATOR_LINE = "WARNING: Using incubator modules: jdk.incubator.vector";
    private static final Path WORK = Path.of("target", "consumer").toAbsolutePath();
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @BeforeAll
    static void buildBothProjects() throws Exception {
        deleteTree(WORK);
        Path template = Path.of("src", "test", "consumer");
        copyProject(template, WORK.resolve("modular"), "consumer-modular", true);
        copyProject(template, WORK.resolve("classpath"), "consumer-classpath", false);
        Files.writeString(WORK.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>org.example</groupId>
                  <artifactId>consumers</artifactId>
                  <version>1.0</version>
                  <packaging>pom</packaging>
                  <modules><module>modular</module><module>classpath</module></modules>
                </project>
                """);
        // Every repository the consumer's Maven would ask (Maven Central) is the build's own local
        // repository, read as a file:// remote: plugins come from there, jccl from the repository
        // this module installed it into, and -o with file allowed keeps it off the network.
        Path repo = Path.of(property("jccl.consumer.repo"));
        Files.writeString(WORK.resolve("settings.xml"), """
                <settings>
                  <localRepository>%s</localRepository>
                  <mirrors><mirror><id>build-repo</id><mirrorOf>*</mirrorOf><url>%s</url></mirror></mirrors>
                </settings>
                """.formatted(repo, Path.of(property("jccl.build.repo")).toUri()));
        String mvn = Path.of(property("jccl.maven.home"), "bin", "mvn").toString();
        Result build = run(WORK, Map.of("JAVA_HOME", System.getProperty("java.home")),
                mvn, "-B", "-q", "-o", "-Daether.offline.protocols=file", "-s", "settings.xml",
                "compile", "org.apache.maven.plugins:maven-dependency-plugin:"
                        + property("jccl.dependency.plugin.version") + ":build-classpath",
                "-Dmdep.outputFile=classpath.txt");
        assertThat(build.code()).as("the consumers' Maven build:\n" + build.output()).isZero();
    }

    @Test
    void namedModuleRequiresIoJcclCore() throws Exception {
        runAndCheck("modular", "module path", "--enable-native-access=io.jccl.core,io.jccl.bindings,io.jccl.kernels",
                "--module-path", "-m", "jccl.consumer/jccl.consumer.Main");
    }

    @Test
    void classPathWithAllUnnamedNativeAccess() throws Exception {
        runAndCheck("classpath", "class path", "--enable-native-access=ALL-UNNAMED", "-cp", "jccl.consumer.Main");
    }

    /** Runs a built project's Main, its classes and dependencies after {@code pathOption}. */
    private static void runAndCheck(String name, String where, String nativeAccess, String pathOption, String... main)
            throws Exception {
        Path project = WORK.resolve(name);
        List<String> command = new ArrayList<>(List.of(JAVA, nativeAccess, "--add-modules=jdk.incubator.vector",
                pathOption, modulePath(project)));
        command.addAll(List.of(main));
        Result run = run(project, Map.of(), command.toArray(String[]::new));
        assertComputedWithoutWarnings(run, where);
    }

    private static void assertComputedWithoutWarnings(Result run, String where) {
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(run.output()).as(run.output())
                .contains("jccl " + property("jccl.version") + " (code ")
                .contains(where + ": all-reduce of 1000 ints on 2 ranks, 0 wrong, rank 0 ends [2994, 2997]");
        List<String> others = run.output().lines()
                .filter(l -> !l.equals(INCUBATOR_LINE) && !l.startsWith("jccl "))
                .toList();
        assertThat(others).as("what the run printed besides its result and the incubator line").isEmpty();
    }

    /** The project's classes and its dependencies, as the dependency plugin listed them. */
    private static String modulePath(Path project) throws IOException {
        String deps = Files.readString(project.resolve("classpath.txt")).strip();
        assertThat(deps).contains("jccl-core-" + property("jccl.version") + ".jar")
                .contains("jccl-bindings-").contains("jccl-kernels-")
                .startsWith(Path.of(property("jccl.consumer.repo")).toString());
        return project.resolve("target/classes") + File.pathSeparator + deps;
    }

    private static void copyProject(Path from, Path to, String artifactId, boolean modular) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path rel = from.relativize(f);
                if (!modular && rel.getFileName().toString().equals("module-info.java")) {
                    continue;
                }
                Path dest = to.resolve(rel.toString());
                Files.createDirectories(dest.getParent());
                String text = Files.readString(f);
                if (rel.toString().equals("pom.xml")) {
                    text = text.replace("@artifactId@", artifactId)
                            .replace("@jccl.version@", property("jccl.version"))
                            .replace("@compiler.plugin.version@", property("jccl.compiler.plugin.version"))
                            .replace("@resources.plugin.version@", property("jccl.resources.plugin.version"))
                            .replace("@dependency.plugin.version@", property("jccl.dependency.plugin.version"));
                    assertThat(text).doesNotContain("@");
                }
                Files.writeString(dest, text);
            }
        }
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        assertThat(v).as("system property " + name + " (consumer-test/pom.xml sets it)").isNotBlank();
        return v;
    }

    private record Result(int code, String output) {
    }

    /** Runs a command in a folder, stdout and stderr together, for at most five minutes. */
    private static Result run(Path dir, Map<String, String> env, String... command) throws Exception {
        Path log = Files.createTempFile("consumer", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " ran more than 5 minutes:\n" + Files.readString(log));
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : new ArrayList<>(files.sorted(Comparator.reverseOrder()).toList())) {
                    Files.delete(f);
                }
            }
        }
    }
}
