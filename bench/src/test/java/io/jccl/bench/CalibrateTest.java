// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.tune.TuningTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code jccl calibrate} end to end in this JVM (JMH without forks), and its options. */
class CalibrateTest {
    @Test
    void calibrationWritesATableOfEveryCellAndJudgesOne(@TempDir Path dir) throws Exception {
        Path table = dir.resolve("t.json");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("calibrate", "-c", "allreduce,broadcast", "-t", "2", "-b", "8", "-e", "64K",
                "-f", "8192", "-w", "0", "-n", "1", "--time", "20", "--drop", "0", "--jit_warmup", "0", "-o", table.toString());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.err()).contains("calibrate [1/30] allreduce 2 ranks 8 B ring/LL: ").contains("calibrate [30/30]");
        TuningTable t = TuningTable.parse(Files.readString(table));
        assertThat(t.entries()).hasSize(4);
        TuningTable.Entry first = t.entries().getFirst();
        assertThat(first.collective()).isEqualTo(Collective.ALL_REDUCE);
        assertThat(first.bytes()).isEqualTo(8);
        // allreduce: 4 algorithms (ring, tree, split tree, butterfly) x 3 protocols; broadcast: ring x 3.
        assertThat(first.results()).hasSize(12);
        assertThat(first.results()).extracting(TuningTable.Result::protocol).contains(Protocol.values());
        assertThat(first.results()).extracting(TuningTable.Result::algorithm)
                .contains(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE, Algorithm.BUTTERFLY);
        assertThat(t.entries().get(2).results()).hasSize(3);
        assertThat(t.entries()).allSatisfy(e -> assertThat(e.results()).allSatisfy(x -> assertThat(x.micros()).isPositive()));
        assertThat(r.out()).contains("# best measured per cell");

        PerfEndToEndTest.Run judged = PerfEndToEndTest.run("calibrate", "-c", "broadcast", "-t", "2", "-b", "64K", "-e", "64K",
                "-w", "0", "-n", "1", "--time", "20", "--jit_warmup", "1", "-o", dir.resolve("t2.json").toString(), "--against", table.toString());
        assertThat(judged.status()).as(judged.out() + judged.err()).isZero();
        assertThat(judged.out()).contains("# --against").containsPattern("# worst ratio: table \\d+\\.\\d{3}, model \\d+\\.\\d{3}");
    }

    @Test
    void optionsAreCheckedAndNamed() {
        CalibrateOptions o = CalibrateOptions.parse(List.of("-b", "1K", "-e", "1M", "-f", "32", "-t", "2,4-5"));
        assertThat(o.sizes()).containsExactly(1024L, 32768L, 1048576L);
        assertThat(o.ranks()).containsExactly(2, 4, 5);
        assertThat(o.collectives()).hasSize(6).doesNotContain(Collective.SEND_RECV);
        for (List<String> bad : List.of(List.of("-c", "sendrecv"), List.of("-c", "allsum"), List.of("-b", "2M", "-e", "1M"),
                List.of("--drop", "0.5"), List.of("-d", "float7"), List.of("--forks", "x"), List.of("--bogus"))) {
            PerfEndToEndTest.Run r = PerfEndToEndTest.run(java.util.stream.Stream.concat(java.util.stream.Stream.of("calibrate"),
                    bad.stream()).toArray(String[]::new));
            assertThat(r.status()).as(bad.toString()).isEqualTo(2);
            assertThat(r.err()).startsWith("jccl calibrate: ");
        }
    }
}
