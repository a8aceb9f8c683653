// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The table's layout: nccl-tests' columns, in nccl-tests' order, jccl's choice after them; and CSV. */
class PerfTableTest {
    private static final PerfRow ROW = new PerfRow(1048576, 262144, "float", "sum", -1, "ring", "Simple",
            new PerfColumn(123.456, 8.49, 8.49, 0L), new PerfColumn(120.5, 8.70, 8.70, null));

    private static PerfOptions options(String... args) {
        List<String> a = new java.util.ArrayList<>(List.of("allreduce"));
        a.addAll(List.of(args));
        return PerfOptions.parse(a, Map.of());
    }

    private static String header(PerfOptions o) {
        return PerfTable.header(o, 10.0, List.of(8L, 16L), List.of("ring/LL", "ring/LL"), "config");
    }

    /** The header line that names the columns, without its '#'. */
    private static List<String> names(String header) {
        String line = header.lines().filter(l -> l.startsWith("#") && l.contains("redop")).findFirst().orElseThrow();
        return Arrays.asList(line.substring(1).trim().split("\\s+"));
    }

    @Test
    void theColumnsAreNcclTestsInItsOrderAndTheChoiceComesLast() {
        List<String> names = names(header(options()));
        // nccl-tests' writeResultHeader: the first 13, as its scripts read them by number.
        assertThat(names.subList(0, 13)).containsExactly("size", "count", "type", "redop", "root", "time", "algbw", "busbw",
                "#wrong", "time", "algbw", "busbw", "#wrong");
        assertThat(names).isEqualTo(PerfTable.COLUMNS).hasSize(14).last().isEqualTo("algo/proto");
        assertThat(names.get(PerfTable.TIME)).isEqualTo("time");
        assertThat(names.get(PerfTable.WRONG)).isEqualTo("#wrong");
        assertThat(names.get(PerfTable.IN_PLACE_TIME)).isEqualTo("time");
        assertThat(names.get(PerfTable.IN_PLACE_WRONG)).isEqualTo("#wrong");
        // -C names the time columns as nccl-tests does.
        assertThat(names(header(options("-C", "1")))).containsSubsequence("cputime", "busbw", "#wrong", "cputime");
    }

    @Test
    void aRowHasAWordUnderEveryColumn() {
        String[] words = PerfTable.row(ROW, false).trim().split("\\s+");
        assertThat(words).hasSize(PerfTable.COLUMNS.size());
        assertThat(words).containsExactly("1048576", "262144", "float", "sum", "-1", "123.5", "8.49", "8.49", "0", "120.5",
                "8.70", "8.70", "N/A", "ring/Simple");
        // A collective without an in-place form: n/a under each of its columns, the choice still last.
        String[] alltoall = PerfTable.row(new PerfRow(1008, 84, "int32", "none", -1, "direct", "LL",
                new PerfColumn(5, 0.2, 0.1, 0L), null), false).trim().split("\\s+");
        assertThat(alltoall).hasSize(14);
        assertThat(Arrays.asList(alltoall).subList(PerfTable.IN_PLACE_TIME, PerfTable.IN_PLACE_WRONG + 1)).containsOnly("n/a");
        assertThat(alltoall[PerfTable.ALGO_PROTO]).isEqualTo("direct/LL");
    }

    @Test
    void csvHasAHeaderRowAndOneLineOfFieldsPerSize() {
        String header = header(options("--csv"));
        String last = header.lines().reduce((a, b) -> b).orElseThrow();
        assertThat(last).isEqualTo(PerfTable.CSV_HEADER);
        assertThat(header.lines().filter(l -> !l.startsWith("#"))).containsExactly(PerfTable.CSV_HEADER);
        assertThat(last.split(",")).hasSize(PerfTable.COLUMNS.size());
        assertThat(PerfTable.row(ROW, true)).isEqualTo("1048576,262144,float,sum,-1,123.456,8.4900,8.4900,0,120.500,8.7000,"
                + "8.7000,N/A,ring/Simple");
        assertThat(PerfTable.row(new PerfRow(8, 2, "float", "none", 0, "ring", "LL", new PerfColumn(1, 0.01, 0.01, 0L), null),
                true).split(",", -1)).hasSize(14).endsWith("", "", "", "", "ring/LL");
    }

    @Test
    void theHeaderSaysTheStepAndHowTheRanksTimesCombine() {
        assertThat(header(options("-i", "1K", "-b", "1K", "-e", "2K", "-a", "1", "-m", "2")))
                .contains("step: 1024(bytes)").contains("agg iters: 2").contains("time: the ranks' average (-a 1)");
        assertThat(header(options())).contains("step: 2(factor)").contains("time: the slowest rank's (-a 3)");
    }
}
