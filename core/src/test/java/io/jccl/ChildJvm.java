package io.jccl;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The start of a command line for a JVM a test starts itself (a rank in another process): this
 * JVM's {@code java}, native access granted, and everything this JVM can load on one class path
 * (Surefire puts the modules under test on the module path and the test libraries on the class
 * path; the child needs both, bindings included).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** {@code java --enable-native-access=ALL-UNNAMED [jvmOptions] -cp PATH}; append the main class and its arguments. */
    public static List<String> command(String... jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(List.of(jvmOptions));
        cmd.add("-cp");
        cmd.add(classPath());
        return cmd;
    }

    /** This JVM's module path and class path as one class path. */
    public static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
            String v = System.getProperty(property);
            if (v != null && !v.isBlank()) {
                entries.addAll(List.of(v.split(File.pathSeparator)));
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
