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
    void badCasesAndFabricsAreRefused() {
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--cases", "allgather:tree"))).hasMessageContaining("case 'allgather:tree'");
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--fabrics", "2by4"))).hasMessageContaining("SxR");
        assertThatThrownBy(() -> SimCheckCommand.parse(List.of("--small", "16K-1M"))).hasMessageContaining("MIN..MAX");
        assertThat(SimCheckCommand.parse(List.of()).cases()).isEqualTo(SimCheckCommand.DEFAULT_CASES);
    }
}
