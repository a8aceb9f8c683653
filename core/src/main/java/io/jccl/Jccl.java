// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library as a whole: its version, as NCCL's {@code ncclGetVersion} reports NCCL's.
 *
 * <p>{@link #version()} is the version this jar was built as, the Maven project version
 * ({@code "0.1.0"}, or {@code "0.1.0-SNAPSHOT"} between releases). {@link #versionCode()} is the
 * same version as NCCL's integer code, {@code major * 10000 + minor * 100 + patch} (NCCL's
 * {@code NCCL_VERSION_CODE} since 2.9), so 0.1.0 is {@code 100} and 2.19.3 would be
 * {@code 21903}; a qualifier such as {@code -SNAPSHOT} does not count, and minor and patch must
 * stay below 100 for the code to order versions. {@link #versionCode(int, int, int)} makes the
 * code of a version to compare with, as NCCL's {@code NCCL_VERSION(X, Y, Z)} macro does:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="version"}
 */
public final class Jccl {
    private static final String VERSION = readVersion();
    private static final int VERSION_CODE = parseCode(VERSION);

    private Jccl() {
    }

    /** The version of this jccl, the Maven project version it was built as, e.g. {@code "0.1.0"}. */
    public static String version() {
        return VERSION;
    }

    /**
     * The version of this jccl as NCCL's integer code, {@code major * 10000 + minor * 100 + patch}
     * (a qualifier such as {@code -SNAPSHOT} left out): {@code 100} for 0.1.0.
     */
    public static int versionCode() {
        return VERSION_CODE;
    }

    /**
     * The integer code of version {@code major.minor.patch}, to compare with {@link #versionCode()}
     * as NCCL's {@code NCCL_VERSION(X, Y, Z)} is compared with {@code ncclGetVersion}'s.
     *
     * @throws IllegalArgumentException if a part is negative, or minor or patch is 100 or more
     *     (the code would no longer order versions)
     */
    public static int versionCode(int major, int minor, int patch) {
        if (major < 0 || minor < 0 || minor > 99 || patch < 0 || patch > 99) {
            throw new IllegalArgumentException("version " + major + "." + minor + "." + patch
                    + " has no code: major >= 0, minor and patch 0-99");
        }
        return Math.addExact(Math.multiplyExact(major, 10000), minor * 100 + patch);
    }

    /** The {@code major.minor.patch} at the start of a version string, as its code. */
    static int parseCode(String version) {
        Matcher m = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(?:[-.+].*)?").matcher(version);
        if (!m.matches()) {
            throw new IllegalStateException("jccl's version '" + version + "' is not major.minor.patch[-qualifier]");
        }
        return versionCode(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    private static String readVersion() {
        // Filtered by the build (core/pom.xml); a jar made otherwise has no such resource.
        try (InputStream in = Jccl.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("io/jccl/version.properties is missing from jccl's jar");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version");
            if (v == null || v.isEmpty() || v.startsWith("${")) {
                throw new IllegalStateException("io/jccl/version.properties was not filtered by the build: version=" + v);
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
