// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.sim.Calibration;
import io.jccl.sim.EmulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimCheckCommandTest {
    @Test
    void aMeasuredRowReadsBackAsWritten() {
        SimCheckCommand.Measured m = new SimCheckCommand.Measured(2, 4, EmulatedFabric.Nic.SHARED, 800, 200, Collective.ALL_GATHER,
                "pipeline", 1 << 20, 2, 15341.5, "pipeline/Simple");
        assertThat(SimCheckCommand.Measured.parse(m.line())).isEqualTo(m);
    }

    @Test
    void theTableTakesEachSizesMedianAndTheBandsErrors(@TempDir Path dir) throws Exception {
        // three rounds of one size: the median is the middle one, whatever their order
        List<SimCheckCommand.Measured> rows = List.of(
                new SimCheckCommand.Measured(2, 1, EmulatedFabric.Nic.RAIL, 800, 200, Collective.ALL_REDUCE, "ring", 1 << 20, 0, 50000, "ring/Simple"),
                new SimCheckCommand.Measured(2, 1, EmulatedFabric.Nic.RAIL, 800, 200, Collective.ALL_REDUCE, "ring", 1 << 20, 1, 43900, "ring/Simple"),
                new SimCheckCommand.Measured(2, 1, EmulatedFabric.Nic.RAIL, 800, 200, Collective.ALL_REDUCE, "ring", 1 << 20, 2, 40000, "ring/Simple"));
        String table = SimCheckCommand.compare(rows, Calibration.bundled());
        assertThat(table).contains("| 2x1 | rail | allreduce | ring | 1M | ring/Simple | 43900 (3; 40000-50000) |")
                .contains("# 256 KiB to 64 MiB: 1 sizes, mean absolute error").doesNotContain("below 256 KiB");
        Path saved = dir.resolve("m.tsv");
        Files.writeString(saved, "# a comment\n" + rows.get(0).line() + "\n");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("simcheck", "--from", saved.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("| 2x1 | rail | allreduce | ring | 1M | ring/Simple | 50000 (1; 50000-50000) |");
    }

    @Test
    void bothBandsAreTimedUntilTwoRoundsAgreeTheLargeAfterAStepBelowThem() {
        SimCheckCommand.Options o = SimCheckCommand.parse(List.of("--small", "16K..1M", "--large", "4M..64M"));
        assertThat(SimCheckCommand.perfCommand(Collective.ALL_GATHER, true, o)).containsExactly("perf", "allgather",
                "-b", "16384", "-e", "1048576", "-f", "4", "-c", "1", "--jit_warmup", "500", "-n", "1", "-w", "20",
                "--min-time", "300");
        // A large size timed once, after one warm-up call, caught the JIT compiling its paths.
        assertThat(SimCheckCommand.perfCommand(Collective.ALL_REDUCE, false, o)).containsExactly("perf", "allreduce",
                "-b", "1048576", "-e", "67108864", "-f", "4", "-c", "1", "--jit_warmup", "500", "-n", "1", "-w", "1",
                "--min-time", "1000");
    }

    @Test
    void anotherRunsMediansAreSetBesideTheFirstsWithTheirDifference(@TempDir Path dir) throws Exception {
        List<SimCheckCommand.Measured> first = List.of(
                measured(1 << 20, 0, 50000), measured(1 << 20, 1, 43900), measured(1 << 20, 2, 40000),
                measured(16 << 10, 0, 1000),
                measured(4 << 20, 0, 170000)); // not measured again: left out
        List<SimCheckCommand.Measured> again = List.of(measured(16 << 10, 0, 1300), measured(1 << 20, 0, 41705));
        String table = SimCheckCommand.reproduce(first, again);
        assertThat(table).contains("| 2x1 | rail | allreduce | ring | 1M | 43900 (3; 40000-50000) | 41705 (1; 41705-41705) | -5.0% |")
                .contains("| 2x1 | rail | allreduce | ring | 16K | 1000 (1; 1000-1000) | 1300 (1; 1300-1300) | +30.0% |")
                .doesNotContain("| 4M |")
                .contains("# below 256 KiB: 1 sizes, mean absolute difference 30.0%, largest 30.0%, over 10%: 1")
                .contains("# 256 KiB to 64 MiB: 1 sizes, mean absolute difference 5.0%, largest 5.0%, over 10%: 0");
        assertThat(SimCheckCommand.reproduce(first, List.of(measured(64 << 20, 0, 1)))).contains("no case and size measured in both");

        Path a = dir.resolve("a.tsv");
        Path b = dir.resolve("b.tsv");
        Files.writeString(a, first.get(3).line() + "\n");
        Files.writeString(b, "# another day\n" + again.get(0).line() + "\n");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("simcheck", "--from", a.toString(), "--again", b.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("| 16K | 1000 (1; 1000-1000) | 1300 (1; 1300-1300) | +30.0% |").doesNotContain("predicted");
    }

    private static SimCheckCommand.Measured measured(long size, int round, double micros) {
        return new SimCheckCommand.Measured(2, 1, EmulatedFabric.Nic.RAIL, 800, 200, Collective.ALL_REDUCE, "ring", size, round, micros,
                "ring/Simple");
    }

    @Test
    void badCasesAndFabricsAreRefused() {
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--again", "b.tsv"))).hasMessageContaining("--from");
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--from", "a.tsv", "--again", "b.tsv", "--calibration", "c.json")))
                .hasMessageContaining("--calibration");
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--cases", "allgather:tree"))).hasMessageContaining("case 'allgather:tree'");
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--fabrics", "2by4"))).hasMessageContaining("SxR");
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--small", "16K-1M"))).hasMessageContaining("MIN..MAX");
        assertThat(SimCheckCommand.parse(List.of()).cases()).isEqualTo(SimCheckCommand.DEFAULT_CASES);
    }
}
