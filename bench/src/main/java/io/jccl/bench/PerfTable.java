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

    /**
     * The columns of a row, in nccl-tests' order (size, count, type, redop, root, then time, algbw,
     * busbw, #wrong out of place and again in place), and the one jccl adds after them: the
     * algorithm/protocol it chose, as one word ({@code ring/Simple}), so that a script reading
     * nccl-tests' columns by number reads jccl's alike, as it does nccl-tests' own trailing
     * timestamp column ({@code -S}).
     */
    static final List<String> COLUMNS = List.of("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
            "time", "algbw", "busbw", "#wrong", "algo/proto");
    /** Indexes into a row's words: the out-of-place and in-place halves' time and #wrong, and jccl's column. */
    static final int TIME = 5;
    static final int WRONG = 8;
    static final int IN_PLACE_TIME = 9;
    static final int IN_PLACE_WRONG = 12;
    static final int ALGO_PROTO = 13;

    /** The CSV header: nccl-tests' names, each half's marked (oop: out of place, ip: in place). */
    static final String CSV_HEADER = "size,count,type,redop,root,time_oop,algbw_oop,busbw_oop,wrong_oop,"
            + "time_ip,algbw_ip,busbw_ip,wrong_ip,algo/proto";

    /** The lines above the table. {@code algorithms} holds the library's choice for each size (algorithm/protocol). */
    static String header(PerfOptions o, double memcpyGBps, List<Long> sizes, List<String> algorithms, String config) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "# jccl perf %s: %d rank(s) as %s, host engine%n", o.collective().cliName(),
                o.ranks(), o.processes() == 1 ? "threads of this JVM"
                        : o.processes() + " processes of " + o.threads() + " thread(s)"));
        b.append(String.format(Locale.ROOT,
                "# minBytes %d maxBytes %d step: %s warmup iters: %d iters: %d agg iters: %d validation: %d%n",
                o.minBytes(), o.maxBytes(), o.step(), o.warmup(), o.iters(), o.aggIters(), o.check()));
        b.append(String.format(Locale.ROOT, "# datatype %s, op %s, root %d, time: %s (-a %d), blocking: %d%s; %s%n",
                typeName(o.type()), o.op(), o.root(), AVERAGES.get(o.average()), o.average(), o.blocking(),
                o.register() == 1 ? ", buffers registered" : "", config));
        b.append(String.format(Locale.ROOT, "# memcpy (1 thread, %d B, median of %d): %.2f GB/s%n",
                o.maxBytes(), MemcpyBandwidth.SAMPLES, memcpyGBps));
        b.append("# algorithm/protocol: ").append(algorithmRanges(sizes, algorithms)).append(System.lineSeparator());
        b.append("#").append(System.lineSeparator());
        if (o.csv()) {
            return b.append(CSV_HEADER).append(System.lineSeparator()).toString();
        }
        return b.append(columnHeader(o.cpuTime() ? "cputime" : "time")).toString();
    }

    /** The three lines naming the columns, the time column called {@code time}. */
    static String columnHeader(String time) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place",
                "", "", "", "", "")).append(System.lineSeparator());
        b.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s  %s%n",
                "size", "count", "type", "redop", "root", time, "algbw", "busbw", "#wrong", time, "algbw", "busbw", "#wrong",
                COLUMNS.get(ALGO_PROTO)));
        b.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s%n",
                "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""));
        return b.toString();
    }

    /** What each -a reports, for the header. */
    private static final List<String> AVERAGES = List.of("rank 0's", "the ranks' average", "the fastest rank's",
            "the slowest rank's");

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

    static String row(PerfRow r, boolean csv) {
        if (csv) {
            return String.join(",", Long.toString(r.size()), Long.toString(r.count()), r.type(), r.redop(),
                    Integer.toString(r.root()), csvColumn(r.outOfPlace()), csvColumn(r.inPlace()),
                    r.algorithm() + "/" + r.protocol());
        }
        return String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d", r.size(), r.count(), r.type(), r.redop(), r.root())
                + column(r.outOfPlace()) + column(r.inPlace()) + "  " + r.algorithm() + "/" + r.protocol();
    }

    private static String column(PerfColumn c) {
        if (c == null) {
            return String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", "n/a", "n/a", "n/a", "n/a");
        }
        return String.format(Locale.ROOT, "  %7s  %6.2f  %6.2f  %6s", time(c.timeUs()), c.algbw(), c.busbw(),
                c.wrong() == null ? "N/A" : Long.toString(c.wrong()));
    }

    /** A half as four CSV fields, full precision; empty where the collective has no such half. */
    private static String csvColumn(PerfColumn c) {
        if (c == null) {
            return ",,,";
        }
        return String.format(Locale.ROOT, "%.3f,%.4f,%.4f,%s", c.timeUs(), c.algbw(), c.busbw(),
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
