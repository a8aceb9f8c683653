// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.topo.ServerLayout;
import io.jccl.tune.Choice;
import io.jccl.tune.CostModel;
import io.jccl.tune.Tuner;
import io.jccl.tune.TuningTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The GPU's cost model against what the H100 measured: the table jccl ships for it holds every
 * (algorithm, protocol) of all-reduce on 2, 4 and 8 ranks from 8 B to 128 MiB. The model's
 * constants were fitted to the 2- and 8-rank times only, so the 4-rank ones check it.
 */
class CudaCostModelTest {
    private static final String H100 = "NVIDIA H100 80GB HBM3";
    private static final Set<Algorithm> MEASURED = EnumSet.of(Algorithm.RING, Algorithm.TREE, Algorithm.BUTTERFLY);
    private static final Set<Protocol> PROTOCOLS = EnumSet.allOf(Protocol.class);

    /** One measured call: the time of the choice a tuner makes without the table, over the fastest measured. */
    record Cell(int ranks, long bytes, Algorithm algorithm, Protocol protocol, double ratio, double algorithmRatio) {
        @Override
        public String toString() {
            return ranks + " ranks " + bytes + " B: " + algorithm.id() + "/" + protocol.id() + " at "
                    + String.format("%.2f", ratio) + " of the fastest";
        }
    }

    /** Every measured call, judged by the choice of the tuner {@code tunerOf} makes for its rank count. */
    private static List<Cell> judge(IntFunction<Tuner> tunerOf) {
        TuningTable table = TuningTable.parse(CudaTuning.bundledTable(H100));
        List<Cell> cells = new ArrayList<>();
        for (TuningTable.Entry e : table.entries()) {
            Choice c = tunerOf.apply(e.ranks()).modelChoice(Collective.ALL_REDUCE, e.bytes() / 4, 4, MEASURED, PROTOCOLS);
            double fastest = e.best().micros();
            double chosen = Double.NaN;
            double chosenAlgorithm = Double.POSITIVE_INFINITY;
            for (TuningTable.Result r : e.results()) {
                if (r.algorithm() == c.algorithm()) {
                    chosenAlgorithm = Math.min(chosenAlgorithm, r.micros());
                    if (r.protocol() == c.protocol()) {
                        chosen = r.micros();
                    }
                }
            }
            cells.add(new Cell(e.ranks(), e.bytes(), c.algorithm(), c.protocol(), chosen / fastest, chosenAlgorithm / fastest));
        }
        assertThat(cells).hasSize(39).allSatisfy(x -> assertThat(x.ratio()).isNotNaN());
        return cells;
    }

    private static List<Cell> gpuModelsChoices() {
        return judge(n -> CudaTuning.tuner(Config.defaults(), n, n, H100, CudaTuning.H100_MULTIPROCESSORS, null));
    }

    private static double geometricMean(List<Cell> cells) {
        return Math.exp(cells.stream().mapToDouble(c -> Math.log(c.ratio())).average().orElseThrow());
    }

    @Test
    void onTheH100TheModelsChoiceIsWithinAThirdOfTheFastestButAt8RanksAnd8MiB() {
        List<Cell> cells = gpuModelsChoices();
        // The one miss: the ring runs 8 MiB at twice its rate from memory (the L2 cache serves it),
        // which no latency-plus-bandwidth model follows; the model takes the tree, 256 us against 157.
        List<Cell> misses = cells.stream().filter(c -> c.ratio() > 1.3).toList();
        assertThat(misses).singleElement().satisfies(c -> {
            assertThat(c.ranks()).isEqualTo(8);
            assertThat(c.bytes()).isEqualTo(8L << 20);
            assertThat(c.algorithm()).isEqualTo(Algorithm.TREE);
            assertThat(c.ratio()).isLessThan(1.65);
        });
        // The algorithm is the fastest one (within 10%, its best protocol) but at 8 ranks and 2 and 8 MiB.
        assertThat(cells.stream().filter(c -> c.algorithmRatio() > 1.1)
                .map(c -> c.ranks() + "/" + c.bytes())).containsExactlyInAnyOrder("8/2097152", "8/8388608");
        // The butterfly up to 2 MiB, the ring from 32 MiB, Simple from 2 MiB, as measured.
        for (Cell c : cells) {
            if (c.bytes() <= 512 << 10) {
                assertThat(c.algorithm()).as(c.toString()).isEqualTo(Algorithm.BUTTERFLY);
            }
            if (c.bytes() >= 32 << 20) {
                assertThat(c.algorithm()).as(c.toString()).isEqualTo(Algorithm.RING);
            }
            if (c.bytes() >= 2 << 20) {
                assertThat(c.protocol()).as(c.toString()).isEqualTo(Protocol.SIMPLE);
            }
        }
        assertThat(geometricMean(cells)).isLessThan(1.08);
    }

    @Test
    void theFourRanksTheFitNeverSawAreWithinTheSameFactor() {
        List<Cell> four = gpuModelsChoices().stream().filter(c -> c.ranks() == 4).toList();
        assertThat(four).hasSize(13).allSatisfy(c -> assertThat(c.ratio()).as(c.toString()).isLessThanOrEqualTo(1.3));
        assertThat(geometricMean(four)).isLessThan(1.1);
    }

    @Test
    void theHostModelPicksWorseOnTheSameCalls() {
        // What the CUDA engine used before: the host engine's model, on the H100 machine's 16 cores.
        Config sixteen = Config.defaults().withChannels(1, 16);
        List<Cell> host = judge(n -> Tuner.of(sixteen, n, 1, 16, CostModel.HOST, null));
        List<Cell> gpu = gpuModelsChoices();
        assertThat(geometricMean(host)).isGreaterThan(1.2).isGreaterThan(geometricMean(gpu) + 0.1);
        // it takes the ring from 8 KiB, which a GPU's ranks pay 2(n-1) slow hops for: 8 ranks at 32 KiB, 85 us against 36.5
        assertThat(host.stream().mapToDouble(Cell::ratio).max().orElseThrow()).isGreaterThan(2);
        assertThat(host.stream().filter(c -> c.ratio() > 1.3).count()).isGreaterThan(10);
    }

    @Test
    void aGpuWithoutATableGetsTheGpuModelAndTheEnginesChannels() {
        String a100 = "NVIDIA A100-SXM4-80GB";
        assertThat(CudaTuning.bundledTable(a100)).isNull();
        Tuner t = CudaTuning.tuner(Config.defaults(), 8, 8, a100, 108, null);
        assertThat(t.table()).isNull();
        Choice mid = t.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0);
        assertThat(mid.source()).isEqualTo(Choice.Source.MODEL);
        assertThat(mid.algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        // 1 MiB in Simple: one channel per 32 KiB, at most 108 / 8 = 13 blocks per rank, a power of two
        long bytes = 1 << 20;
        assertThat(t.channels(bytes, Protocol.SIMPLE)).isEqualTo(8).isEqualTo(CudaTuning.channels(Protocol.SIMPLE, bytes, 13));
        // the prediction is the GPU model's on those channels
        Tuner ring = CudaTuning.tuner(Config.defaults().withAlgorithms("ring").withProtocols("Simple"), 8, 8, a100, 108, null);
        Choice c = ring.choose(Collective.ALL_REDUCE, bytes / 4, 4, 0);
        double expected = CudaCostModel.of(8, 8).time(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, bytes, 8, 1, 8,
                ring.treeDepth(), 1, 1);
        assertThat(c.predictedMicros()).isEqualTo(expected);
        // a GPU's ranks pay µs per hop: 14 of them at least 5 us each
        assertThat(c.predictedMicros()).isGreaterThan(14 * 5);
    }

    @Test
    void callsTheH100TableLeavesOutAreThePredictionsOfTheGpuModel() {
        Tuner six = CudaTuning.tuner(Config.defaults(), 6, 6, H100, CudaTuning.H100_MULTIPROCESSORS, null);
        assertThat(six.table()).isNotNull();
        Choice c = six.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0);
        assertThat(c.source()).isEqualTo(Choice.Source.MODEL);
        Tuner noTable = CudaTuning.tuner(Config.defaults(), 6, 6, "another GPU", CudaTuning.H100_MULTIPROCESSORS, null);
        assertThat(noTable.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0)).isEqualTo(c);
        Tuner eight = CudaTuning.tuner(Config.defaults(), 8, 8, H100, CudaTuning.H100_MULTIPROCESSORS, null);
        assertThat(eight.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0).source()).isEqualTo(Choice.Source.TABLE);
        assertThat(eight.choose(Collective.ALL_GATHER, 1 << 10, 4, 0).source()).isEqualTo(Choice.Source.MODEL);
    }

    @Test
    void givenChannelBoundsTheModelPricesTheHostsChannelsThePlannerKeeps() {
        Config bounded = Config.defaults().withChannels(2, 6);
        Tuner gpu = CudaTuning.tuner(bounded, 4, 4, "another GPU", CudaTuning.H100_MULTIPROCESSORS, null);
        Tuner host = Tuner.create(bounded, ServerLayout.single(4), Runtime.getRuntime().availableProcessors(), null);
        for (long bytes = 8; bytes <= 1L << 30; bytes *= 16) {
            for (Protocol p : Protocol.values()) {
                assertThat(gpu.channels(bytes, p)).isEqualTo(host.channels(bytes, p)).isBetween(2, 6);
            }
        }
    }

    @Test
    void ranksSharingTheGpuShareItsMemoryAsMeasured() {
        // A 128 MiB ring all-reduce in Simple, predicted over measured (docs/gpu.md: busbw 302, 179
        // and 97 GB/s). The fit's memory rate is above what 128 MiB alone gives (the L2 cache serves
        // the middle sizes), so the model is faster there, but alike for 2, 4 and 8 ranks: the
        // memory's split among the ranks holds, the 4 ranks the fit never saw included.
        long bytes = 128L << 20;
        double[] measuredMicros = {0, 0, 446.1, 0, 1123.8, 0, 0, 0, 2421.3};
        double least = Double.POSITIVE_INFINITY;
        double most = 0;
        for (int n : new int[] {2, 4, 8}) {
            Choice c = CudaTuning.tuner(Config.defaults().withAlgorithms("ring").withProtocols("Simple"), n, n, "another GPU",
                    CudaTuning.H100_MULTIPROCESSORS, null).choose(Collective.ALL_REDUCE, bytes / 4, 4, 0);
            double ratio = measuredMicros[n] / c.predictedMicros();
            assertThat(ratio).as(n + " ranks").isBetween(1.0, 1.35);
            least = Math.min(least, ratio);
            most = Math.max(most, ratio);
        }
        assertThat(most / least).isLessThan(1.05);
        // 8 ranks on 8 GPUs (one each) each have a GPU's memory; on one GPU they share it
        double alone = CudaCostModel.of(8, 1).maxBusBw()[Protocol.SIMPLE.ordinal()];
        double shared = CudaCostModel.of(8, 8).maxBusBw()[Protocol.SIMPLE.ordinal()];
        assertThat(alone / shared).isCloseTo(8, org.assertj.core.data.Offset.offset(1e-9));
        for (double b : CudaCostModel.of(1, 1).maxBusBw()) {
            assertThat(b).isPositive().isFinite();
        }
    }

    @Test
    void aGpuWithoutATableGetsTheMemoryBoundRatesOfItsOwnMemory() {
        // An H200 (4.8 TB/s) against the H100 the constants were fitted on: the memory-bound caps
        // and the reductions scale, the per-channel rates and the latencies do not; unknown is the H100.
        double h200 = 4_800;
        CostModel fitted = CudaCostModel.of(4, 4);
        CostModel faster = CudaCostModel.of(4, 4, h200);
        assertThat(CudaCostModel.of(4, 4, 0).maxBusBw()).isEqualTo(fitted.maxBusBw());
        for (Protocol p : Protocol.values()) {
            assertThat(faster.maxBusBw()[p.ordinal()] / fitted.maxBusBw()[p.ordinal()])
                    .isCloseTo(h200 / CudaCostModel.FITTED_ON_GBPS, org.assertj.core.data.Offset.offset(1e-9));
        }
        long bytes = 128L << 20;
        double slow = CudaTuning.tuner(Config.defaults().withAlgorithms("ring").withProtocols("Simple"), 4, 4, "another GPU",
                CudaTuning.H100_MULTIPROCESSORS, 0, null, null).choose(Collective.ALL_REDUCE, bytes / 4, 4, 0).predictedMicros();
        double fast = CudaTuning.tuner(Config.defaults().withAlgorithms("ring").withProtocols("Simple"), 4, 4, "another GPU",
                CudaTuning.H100_MULTIPROCESSORS, h200, null, null).choose(Collective.ALL_REDUCE, bytes / 4, 4, 0).predictedMicros();
        assertThat(slow / fast).isBetween(1.3, h200 / CudaCostModel.FITTED_ON_GBPS + 1e-9);
        double small = CudaTuning.tuner(Config.defaults(), 4, 4, "another GPU", CudaTuning.H100_MULTIPROCESSORS, h200, null, null)
                .choose(Collective.ALL_REDUCE, 2, 4, 0).predictedMicros();
        // 8 B: the latencies, which the memory does not change
        assertThat(small).isCloseTo(CudaTuning.tuner(Config.defaults(), 4, 4, "another GPU", CudaTuning.H100_MULTIPROCESSORS, null)
                .choose(Collective.ALL_REDUCE, 2, 4, 0).predictedMicros(), org.assertj.core.data.Percentage.withPercentage(0.01));
    }

    @Test
    void aMalformedTuningFileIsRefusedNamingIt() {
        assertThatThrownBy(() -> CudaTuning.tuner(Config.defaults(), 2, 2, H100, CudaTuning.H100_MULTIPROCESSORS, "{\"format\": 3"))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_TUNING_FILE");
    }
}
