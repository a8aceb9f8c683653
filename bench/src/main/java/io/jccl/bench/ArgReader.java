// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.JcclException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Walks the arguments of one subcommand: options with a value, given as {@code -b 8},
 * {@code -b8}, {@code --minbytes 8} or {@code --minbytes=8}. Every parse failure is a
 * {@link UsageException} that names the option as the user wrote it.
 */
final class ArgReader {
    private final String command;
    private final List<String> args;
    private int next;
    private String pendingValue;

    ArgReader(String command, List<String> args) {
        this.command = command;
        this.args = List.copyOf(args);
    }

    boolean hasNext() {
        return next < args.size();
    }

    /**
     * The next option, normalised to its bare spelling ({@code -b} stays {@code -b},
     * {@code --minbytes=8} becomes {@code --minbytes} with the value kept for {@link #value}).
     * {@code shortWithValue} lists the one-letter options that take a value, so that {@code -b8}
     * splits into {@code -b} and {@code 8}.
     */
    String option(String shortWithValue) {
        String a = args.get(next++);
        pendingValue = null;
        if (a.startsWith("--")) {
            int eq = a.indexOf('=');
            if (eq > 0) {
                pendingValue = a.substring(eq + 1);
                return a.substring(0, eq);
            }
            return a;
        }
        if (a.startsWith("-") && a.length() > 2 && shortWithValue.indexOf(a.charAt(1)) >= 0) {
            pendingValue = a.substring(2);
            return a.substring(0, 2);
        }
        if (!a.startsWith("-") || a.equals("-")) {
            throw error("unexpected argument '" + a + "'");
        }
        return a;
    }

    /** The value of {@code option}: attached to it, or the next argument. */
    String value(String option) {
        if (pendingValue != null) {
            String v = pendingValue;
            pendingValue = null;
            return v;
        }
        if (next >= args.size()) {
            throw error("option " + option + " needs a value");
        }
        return args.get(next++);
    }

    int intValue(String option, int min, int max) {
        String v = value(option);
        try {
            int i = Integer.parseInt(v.trim());
            if (i < min || i > max) {
                throw error("option " + option + " must be in " + min + ".." + max + ", was " + i);
            }
            return i;
        } catch (NumberFormatException e) {
            throw error("option " + option + ": '" + v + "' is not an integer");
        }
    }

    /** A size in bytes: 8, 1K, 64M, 1G (binary multiples, as nccl-tests reads them). */
    long bytesValue(String option) {
        String v = value(option);
        return parseBytes(option, v);
    }

    long parseBytes(String option, String v) {
        try {
            return Config.parseBytes(option, v);
        } catch (JcclException e) {
            throw error("option " + option + ": '" + v + "' is not a size (like 8, 1K, 64M, 1G)");
        }
    }

    /** A data type by any of the names {@link DataType#parse} takes. */
    DataType dataTypeValue(String option) {
        String v = value(option);
        try {
            return DataType.parse(v);
        } catch (JcclException e) {
            throw error("option " + option + ": '" + v + "' is not a data type "
                    + "(int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double e4m3 e5m2)");
        }
    }

    /** A collective by any of the names {@link io.jccl.Collective#parse} takes. */
    io.jccl.Collective collectiveValue(String option) {
        String v = value(option);
        try {
            return io.jccl.Collective.parse(v);
        } catch (IllegalArgumentException e) {
            throw error("option " + option + ": '" + v + "' is not a collective");
        }
    }

    /** An emulated fabric's shape {@code v} given to {@code option}: {servers, ranks per server}, each at least 1. */
    int[] shapeValue(String option, String v) {
        String[] sr = v.trim().toLowerCase(java.util.Locale.ROOT).split("x");
        try {
            if (sr.length == 2 && Integer.parseInt(sr[0]) >= 1 && Integer.parseInt(sr[1]) >= 1) {
                return new int[] {Integer.parseInt(sr[0]), Integer.parseInt(sr[1])};
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw error("option " + option + " takes SERVERSxRANKS (SxR), like 2x4, not '" + v + "'");
    }

    /** Where the emulated fabric's traffic between servers leaves: {@code rail} or {@code shared}. */
    io.jccl.sim.EmulatedFabric.Nic nicValue(String option) {
        try {
            return io.jccl.sim.EmulatedFabric.Nic.parse(value(option));
        } catch (IllegalArgumentException e) {
            throw error("option " + option + ": " + e.getMessage());
        }
    }

    /** A comma list of integers and ranges: {@code 1-16,31,32}. */
    List<Integer> intListValue(String option, int min, int max) {
        String v = value(option);
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String p = part.trim();
            try {
                int dash = p.indexOf('-', 1);
                int lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).trim());
                int hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1).trim());
                if (lo < min || hi > max || lo > hi) {
                    throw error("option " + option + ": '" + p + "' is not within " + min + ".." + max);
                }
                for (int i = lo; i <= hi; i++) {
                    out.add(i);
                }
            } catch (NumberFormatException e) {
                throw error("option " + option + ": '" + p + "' is not an integer or a range like 1-16");
            }
        }
        return out;
    }

    /** A comma list of algorithms by their ids ({@link io.jccl.algo.Algorithm#parse}). */
    List<io.jccl.algo.Algorithm> algorithmListValue(String option) {
        List<io.jccl.algo.Algorithm> out = new ArrayList<>();
        for (String a : value(option).split(",", -1)) {
            try {
                out.add(io.jccl.algo.Algorithm.parse(a.trim()));
            } catch (IllegalArgumentException e) {
                throw error("option " + option + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** A comma list of element counts or sizes (suffixes K, M, G allowed). */
    List<Long> longListValue(String option) {
        String v = value(option);
        List<Long> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            out.add(parseBytes(option, part));
        }
        return out;
    }

    UsageException unknown(String option) {
        return error("unknown option '" + option + "'");
    }

    UsageException error(String message) {
        return new UsageException("jccl " + command + ": " + message);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
