// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of {@code jccl perf}: nccl-tests' layout (a commented header, one row per size with an
 * out-of-place and an in-place half, the average bus bandwidth at the end), so that tools and eyes
 * used to nccl-tests read it as they read those.
 */
final class PerfTable {
    private PerfTable() {
    }

    /** The type names nccl-tests prints where it has one; jccl's own parseable name otherwise. */
    static String typeName(DataType t) {
        return switch (t) {
            case INT8 -> "int8";
            case UINT8 -> "uint8";
            case INT32 -> "int32";
            case UINT32 -> "uint32";
            case INT64 -> "int64";
            case UINT64 -> "uint64";
            case FLOAT16 -> "half";
            case FLOAT32 -> "float";
            case FLOAT64 -> "double";
            case BFLOAT16 -> "bfloat16";
            case FLOAT8_E4M3 -> "fp8e4m3";
            case FLOAT8_E5M2 -> "fp8e5m2";
        };
    }

    /** The lines above the table. {@code algorithms} holds the library's choice for each size (algorithm/protocol). */
    static String header(PerfOptions o, double memcpyGBps, List<Long> sizes, List<String> algorithms, String config) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "# jccl perf %s: %d rank(s) as %s, host engine%n", o.collective().cliName(),
                o.ranks(), o.processes() == 1 ? "threads of this JVM"
                        : o.processes() + " processes of " + o.threads() + " thread(s)"));
        b.append(String.format(Locale.ROOT,
                "# minBytes %d maxBytes %d step: %d(factor) warmup iters: %d iters: %d validation: %d%n",
                o.minBytes(), o.maxBytes(), o.stepFactor(), o.warmup(), o.iters(), o.check()));
        b.append(String.format(Locale.ROOT, "# datatype %s, op %s, root %d; %s%n", typeName(o.type()), o.op(), o.root(), config));
        b.append(String.format(Locale.ROOT, "# memcpy (1 thread, %d B, median of %d): %.2f GB/s%n",
                o.maxBytes(), MemcpyBandwidth.SAMPLES, memcpyGBps));
        b.append("# algorithm/protocol: ").append(algorithmRanges(sizes, algorithms)).append(System.lineSeparator());
        b.append("#").append(System.lineSeparator());
        b.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %9s  %6s           out-of-place                       in-place",
                "", "", "", "", "", "", "")).append(System.lineSeparator());
        b.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %9s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s%n",
                "size", "count", "type", "redop", "root", "algo", "proto", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                "busbw", "#wrong"));
        b.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %9s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s",
                "(B)", "(elements)", "", "", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)"))
                .append(System.lineSeparator());
        return b.toString();
    }

    /** "tree (8..65536 B), ring (131072..67108864 B)": runs of sizes with the same choice. */
    static String algorithmRanges(List<Long> sizes, List<String> algorithms) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= sizes.size(); i++) {
            if (i == sizes.size() || !algorithms.get(i).equals(algorithms.get(start))) {
                long lo = sizes.get(start);
                long hi = sizes.get(i - 1);
                parts.add(algorithms.get(start) + " (" + (lo == hi ? lo : lo + ".." + hi) + " B)");
                start = i;
            }
        }
        return String.join(", ", parts);
    }

    static String row(PerfRow r) {
        return String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %9s  %6s", r.size(), r.count(), r.type(), r.redop(),
                r.root(), r.algorithm(), r.protocol())
                + column(r.outOfPlace()) + column(r.inPlace());
    }

    private static String column(PerfColumn c) {
        if (c == null) {
            return String.format(Locale.ROOT, "  %7s  %6s  %6s  %5s", "n/a", "n/a", "n/a", "n/a");
        }
        return String.format(Locale.ROOT, "  %7s  %6.2f  %6.2f  %5s", time(c.timeUs()), c.algbw(), c.busbw(),
                c.wrong() == null ? "N/A" : Long.toString(c.wrong()));
    }

    /** Fewer decimals as the time grows, as nccl-tests prints it. */
    static String time(double us) {
        String f = us >= 10000 ? "%7.0f" : us >= 100 ? "%7.1f" : "%7.2f";
        return String.format(Locale.ROOT, f, us);
    }

    static String footer(PerfReport report) {
        long wrong = report.outOfBounds();
        return String.format(Locale.ROOT, "# Avg bus bandwidth : %.3f%n# Out of bounds values : %d %s%n#%n",
                report.avgBusbw(), wrong, wrong == 0 ? "OK" : "FAILED");
    }
}
