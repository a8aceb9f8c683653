// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.sim.Calibration;
import io.jccl.sim.CallSimulator;
import io.jccl.sim.ClusterFabric;
import io.jccl.sim.ScaledPrediction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SimStudyCommandTest {
    private static final List<Algorithm> ALGOS = List.of(Algorithm.RING, Algorithm.TREE, Algorithm.RHD);

    @Test
    void simulatesWithinTheBudgetAndCarriesRingsAndTreesPastIt() {
        // a ring all-reduce of 1 MiB plays 129,024 steps on 32 GPUs, 520,192 on 64 and 2,088,960 on 128
        List<SimStudyCommand.Point> points = SimStudyCommand.study(List.of(1, 2, 4, 8, 16), List.of(1L << 20), ALGOS, 600_000,
                ClusterFabric.Net.parse("fat-tree"), new PrintStream(new ByteArrayOutputStream()));
        assertThat(points).hasSize(15);
        List<SimStudyCommand.Point> ring = points.stream().filter(p -> p.algorithm() == Algorithm.RING).toList();
        assertThat(ring).extracting(SimStudyCommand.Point::ranks).containsExactly(8, 16, 32, 64, 128);
        assertThat(ring.subList(0, 4)).allSatisfy(p -> assertThat(p.how()).startsWith("exact"));
        // past the budget: two rings within a quarter of it (16 and 32 GPUs) at the 128-GPU ring's bytes per step
        SimStudyCommand.Point far = ring.get(4);
        assertThat(far.how()).isEqualTo("at its step from 16 and 32 ranks");
        CallSimulator exact = CallSimulator.gpu(new ClusterFabric(16, 8, 450, 8, 400, ClusterFabric.Net.parse("fat-tree")),
                Calibration.bundled().costs("gpu"), Config.defaults()).withCalls(1);
        double played = exact.predict(Collective.ALL_REDUCE, 1 << 18, DataType.FLOAT32, Algorithm.RING).micros();
        assertThat(far.micros()).isCloseTo(played, within(0.02 * played));
        for (SimStudyCommand.Point p : points) {
            assertThat(p.micros()).as(p.toString()).isPositive();
            // NCCL's model prices the ring and the tree, not the others
            assertThat(Double.isNaN(p.ncclModel())).as(p.toString()).isEqualTo(p.algorithm() == Algorithm.RHD);
        }
        List<SimStudyCommand.Point> tree = points.stream().filter(p -> p.algorithm() == Algorithm.TREE).toList();
        assertThat(tree).allSatisfy(p -> assertThat(p.how()).startsWith("exact"));
        // with a budget the tree's 64 GPUs pass, its law through 16 and 32 takes over
        List<SimStudyCommand.Point> small = SimStudyCommand.study(List.of(2, 4, 8), List.of(1L << 20), List.of(Algorithm.TREE),
                tree.get(2).steps(), ClusterFabric.Net.parse("fat-tree"), new PrintStream(new ByteArrayOutputStream()));
        assertThat(small.get(2).how()).isEqualTo("law from 16 and 32 ranks");
        assertThat(small.get(2).micros()).isCloseTo(new ScaledPrediction.Fit(Algorithm.TREE, 8, 2, tree.get(1).micros(), 4,
                tree.get(2).micros()).at(8), within(1e-9));
    }

    @Test
    void anAlgorithmWithoutALawIsLeftOutPastTheBudgetAndPatIsItsReduceScatterThenAllGather() {
        List<SimStudyCommand.Point> points = SimStudyCommand.study(List.of(2), List.of(1L << 20), List.of(Algorithm.HIER_RING,
                Algorithm.PAT), 10, ClusterFabric.Net.parse("fat-tree"), new PrintStream(new ByteArrayOutputStream()));
        assertThat(points).hasSize(2).allSatisfy(p -> {
            assertThat(p.micros()).isNaN();
            assertThat(p.how()).startsWith("not simulated: ");
        });
        List<SimStudyCommand.Point> pat = SimStudyCommand.study(List.of(2), List.of(1L << 20), List.of(Algorithm.PAT), 1L << 30,
                ClusterFabric.Net.parse("fat-tree"), new PrintStream(new ByteArrayOutputStream()));
        assertThat(pat.getFirst().how()).startsWith("exact");
        assertThat(pat.getFirst().micros()).isPositive();
    }

    @Test
    void writesTheTableAndThePlotAndRefusesWhatItDoesNotKnow(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("study.svg");
        Path md = dir.resolve("study.md");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("simstudy", "--nodes", "1,2", "--sizes", "8,64K", "--algos", "ring,tree",
                "--plot", svg.toString(), "--md", md.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("| ranks | size | algorithm |").contains("| 16 | 64KB | tree |");
        assertThat(Files.readString(md)).contains("| 8 | 8B | ring |");
        assertThat(Files.readString(svg)).startsWith("<svg").contains("ring (NCCL's model)").contains("all-reduce of 64KB");
        PerfEndToEndTest.Run bad = PerfEndToEndTest.run("simstudy", "--algos", "ring,nosuch");
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains("option --algos").contains("nosuch");
    }
}
