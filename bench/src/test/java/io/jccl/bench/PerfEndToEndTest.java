// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Whole {@code jccl perf} runs in this JVM, read back from their table and their JSON. */
class PerfEndToEndTest {
    record Run(int status, String out, String err) {
        /** The table's rows, split into their 14 columns (PerfTable.COLUMNS). */
        List<String[]> rows() {
            List<String[]> rows = new ArrayList<>();
            for (String line : out.split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.trim().split("\\s+"));
                }
            }
            return rows;
        }
    }

    /** The algorithm of a row's last column ({@code ring/Simple}). */
    static String algo(String[] row) {
        return row[PerfTable.ALGO_PROTO].split("/")[0];
    }

    /** The protocol of a row's last column. */
    static String proto(String[] row) {
        return row[PerfTable.ALGO_PROTO].split("/")[1];
    }

    /** Runs the command line; perf runs time exactly -n iterations after a short JIT warm-up, to stay fast. */
    static Run run(String... given) {
        String[] args = given;
        if (given.length > 1 && given[0].equals("perf")) {
            args = java.util.Arrays.copyOf(given, given.length + 4);
            System.arraycopy(new String[] {"--min-time", "0", "--jit_warmup", "20"}, 0, args, given.length, 4);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    @Test
    void allReduceOfTwoRanksIsRightAtEverySize(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("perf.json");
        Run r = run("perf", "allreduce", "-t", "2", "-b", "8", "-e", "1M", "-n", "2", "-w", "1", "-c", "1",
                "-J", json.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("# memcpy").contains("# algorithm/protocol: ").contains("# Avg bus bandwidth : ")
                .contains("# Out of bounds values : 0");
        List<String[]> rows = r.rows();
        assertThat(rows).hasSize(18);
        long size = 8;
        for (String[] row : rows) {
            assertThat(row).as(String.join(" ", row)).hasSize(14);
            assertThat(Long.parseLong(row[0])).isEqualTo(size);
            assertThat(Long.parseLong(row[1])).isEqualTo(size / 4);
            assertThat(row[2]).isEqualTo("float");
            assertThat(row[3]).isEqualTo("sum");
            assertThat(row[4]).isEqualTo("-1");
            assertThat(algo(row)).isIn("ring", "tree", "splittree", "butterfly");
            assertThat(proto(row)).isIn("LL", "LL128", "Simple");
            for (int half : new int[] {PerfTable.TIME, PerfTable.IN_PLACE_TIME}) {
                double time = Double.parseDouble(row[half]);
                double algbw = Double.parseDouble(row[half + 1]);
                double busbw = Double.parseDouble(row[half + 2]);
                assertThat(time).isPositive();
                // Two ranks: busbw = algbw * 2(n-1)/n = algbw (as printed, to the hundredth).
                assertThat(busbw).isEqualTo(algbw);
                assertThat(row[half + 3]).isEqualTo("0");
            }
            size *= 2;
        }
        Map<String, Object> report = (Map<String, Object>) io.jccl.json.JsonReader.parse(Files.readString(json));
        assertThat((List<Object>) report.get("rows")).hasSize(18);
        assertThat(report).containsEntry("outOfBounds", 0L).containsEntry("collective", "allreduce");
        assertThat((Double) report.get("memcpyGBps")).isPositive();
    }

    @Test
    void allToAllHasNoInPlaceColumn() {
        Run r = run("perf", "alltoall", "-t", "3", "-b", "1K", "-e", "4K", "-n", "1", "-w", "0", "-d", "int32");
        assertThat(r.status()).as(r.err()).isZero();
        List<String[]> rows = r.rows();
        assertThat(rows).hasSize(3);
        // 1 KiB of int32 over 3 ranks: 256 elements, 85 each, rounded to 4: 84 per block, 1008 bytes.
        assertThat(rows.getFirst()[0]).isEqualTo("1008");
        assertThat(rows.getFirst()[1]).isEqualTo("84");
        assertThat(rows.getFirst()[3]).isEqualTo("none");
        for (String[] row : rows) {
            assertThat(algo(row)).isEqualTo("direct");
            assertThat(row[PerfTable.WRONG]).isEqualTo("0");
            assertThat(List.of(row).subList(PerfTable.IN_PLACE_TIME, PerfTable.IN_PLACE_WRONG + 1)).containsOnly("n/a");
        }
    }

    @Test
    void rootedAndPointToPointCollectivesCheckOut() {
        for (String[] args : List.of(
                new String[] {"perf", "gather", "-t", "3", "-r", "2", "-b", "4K", "-e", "4K", "-n", "1", "-w", "0"},
                new String[] {"perf", "reduce", "-t", "3", "-r", "1", "-b", "4K", "-e", "4K", "-n", "1", "-w", "0", "-o", "max", "-d", "half"},
                new String[] {"perf", "sendrecv", "-t", "1", "-b", "4K", "-e", "4K", "-n", "1", "-w", "0"},
                new String[] {"perf", "reducescatter", "-t", "4", "-b", "4K", "-e", "4K", "-n", "1", "-w", "0", "-o", "avg", "-d", "bf16"})) {
            Run r = run(args);
            assertThat(r.status()).as(String.join(" ", args) + "\n" + r.out() + r.err()).isZero();
            assertThat(r.rows()).hasSize(1);
            assertThat(r.out()).contains("# Out of bounds values : 0");
        }
    }

    @Test
    void withoutTheCheckTheWrongColumnSaysSo() {
        Run r = run("perf", "broadcast", "-t", "2", "-b", "64", "-e", "64", "-n", "1", "-w", "0", "-c", "0");
        assertThat(r.status()).isZero();
        assertThat(r.rows().getFirst()[PerfTable.WRONG]).isEqualTo("N/A");
        assertThat(r.rows().getFirst()[4]).isEqualTo("0");
    }

    @Test
    void forcedProtocolsShowInTheTableAndThePlotDrawsOneLineEach(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("plot.svg");
        Run r = runWithEnvironmentFree("perf", "allgather", "-t", "2", "-b", "64", "-e", "4K", "-f", "8", "-n", "1", "-w", "0",
                "--plot", svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        // allgather has one algorithm (ring): three forced sweeps and the tuned one, 3 sizes each.
        assertThat(r.out()).contains("# --plot: ring/LL forced").contains("# --plot: ring/LL128 forced")
                .contains("# --plot: ring/Simple forced").contains("# --plot: the tuned choice");
        List<String[]> rows = r.rows();
        assertThat(rows).hasSize(12);
        assertThat(rows.subList(0, 3)).allSatisfy(row -> assertThat(proto(row)).isEqualTo("LL"));
        assertThat(rows.subList(3, 6)).allSatisfy(row -> assertThat(proto(row)).isEqualTo("LL128"));
        assertThat(rows.subList(6, 9)).allSatisfy(row -> assertThat(proto(row)).isEqualTo("Simple"));
        String text = Files.readString(svg);
        assertThat(text).startsWith("<svg").endsWith("</svg>\n");
        assertThat(text.split("<polyline", -1)).hasSize(5);
        assertThat(text).contains("<title>ring/LL</title>").contains("<title>tuned</title>").contains("busbw (GB/s)");
        // Every polyline has one point per size.
        for (String line : text.split("\n")) {
            if (line.startsWith("<polyline")) {
                String pts = line.replaceAll(".*points=\"([^\"]*)\".*", "$1");
                assertThat(pts.trim().split(" ")).hasSize(3);
            }
        }
    }

    /** As {@link #run}, for commands whose output must not depend on JCCL_ALGO/JCCL_PROTO set by the caller. */
    static Run runWithEnvironmentFree(String... given) {
        org.assertj.core.api.Assumptions.assumeThat(System.getenv("JCCL_PROTO")).as("JCCL_PROTO is unset").isNull();
        org.assertj.core.api.Assumptions.assumeThat(System.getenv("JCCL_ALGO")).as("JCCL_ALGO is unset").isNull();
        org.assertj.core.api.Assumptions.assumeThat(System.getenv("NCCL_PROTO")).as("NCCL_PROTO is unset").isNull();
        org.assertj.core.api.Assumptions.assumeThat(System.getenv("NCCL_ALGO")).as("NCCL_ALGO is unset").isNull();
        return run(given);
    }

    @Test
    void ncclTestsFlagsRunOnTheHostEngine() {
        // 3 calls a group, each iteration waited for and met, the ranks' average, buffers registered, twice over.
        Run r = run("perf", "allreduce", "-t", "2", "-b", "1K", "-e", "4K", "-f", "4", "-n", "2", "-w", "1", "-m", "3",
                "-z", "1", "-a", "1", "-R", "1", "-N", "2");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("agg iters: 3").contains("time: the ranks' average (-a 1), blocking: 1, buffers registered");
        List<String[]> rows = r.rows();
        assertThat(rows).hasSize(4);
        assertThat(rows.stream().map(row -> row[0])).containsExactly("1024", "4096", "1024", "4096");
        assertThat(rows).allSatisfy(row -> {
            assertThat(row[PerfTable.WRONG]).isEqualTo("0");
            assertThat(row[PerfTable.IN_PLACE_WRONG]).isEqualTo("0");
            assertThat(Double.parseDouble(row[PerfTable.TIME])).isPositive();
        });
        // -z 3 and -C 1: the meeting left out of the time, the time to issue reported.
        Run c = run("perf", "broadcast", "-t", "2", "-b", "256", "-e", "256", "-n", "3", "-w", "0", "-z", "3", "-C", "1", "-i", "8");
        assertThat(c.status()).as(c.out() + c.err()).isZero();
        assertThat(c.out()).contains(" cputime ");
        assertThat(c.rows()).hasSize(1);
    }

    @Test
    void csvPrintsOneHeaderAndCommaSeparatedRows() {
        Run r = run("perf", "allgather", "-t", "2", "-b", "64", "-e", "256", "-f", "4", "-n", "1", "-w", "0", "--csv");
        assertThat(r.status()).as(r.err()).isZero();
        List<String> lines = r.out().lines().filter(l -> !l.startsWith("#")).toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.getFirst()).isEqualTo(PerfTable.CSV_HEADER);
        for (String line : lines.subList(1, 3)) {
            String[] f = line.split(",", -1);
            assertThat(f).as(line).hasSize(14);
            assertThat(f[PerfTable.WRONG]).isEqualTo("0");
            assertThat(f[PerfTable.ALGO_PROTO]).startsWith("ring/");
        }
    }

    @Test
    void theHostEngineRefusesGpusAndTheTimeoutStopsASizeThatRunsOver() {
        Run g = run("perf", "allreduce", "-g", "2");
        assertThat(g.status()).isEqualTo(2);
        assertThat(g.err()).contains("-g 2: the host engine drives no GPUs");
        // 16 MiB a call, 10^6 calls: far more than 3 seconds; -T 3 ends it after them.
        long t0 = System.nanoTime();
        Run t = run("perf", "allreduce", "-t", "2", "-b", "16M", "-e", "16M", "-n", "1000000", "-w", "0", "-c", "0", "-T", "3");
        assertThat(t.status()).isEqualTo(1);
        assertThat(t.err()).contains("-T 3: size 16777216 B took more than 3 s");
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(60);
    }

    @Test
    void badOptionsExitWithTwoAndNameTheOption() {
        Run r = run("perf", "allreduce", "-q", "1");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip()).contains("-q").doesNotContain("\n");
        assertThat(r.out()).isEmpty();
    }
}
