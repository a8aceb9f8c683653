// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.tune.Choice;
import io.jccl.tune.Tuner;
import io.jccl.tune.TuningTable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The tuning tables measured on GPUs that jccl ships, and how the CUDA engine's tuner takes them. */
class BundledTableTest {
    private static final String H100 = "NVIDIA H100 80GB HBM3";

    @Test
    void theH100TableIsFoundByTheDriversNameAndCoversAllReduceOf248Ranks() {
        String text = CudaTuning.bundledTable(H100);
        assertThat(text).isNotNull();
        TuningTable t = TuningTable.parse(text);
        assertThat(t.about()).containsEntry("engine", "cuda").containsEntry("gpu", H100);
        assertThat(t.entries()).extracting(TuningTable.Entry::ranks).containsOnly(2, 4, 8);
        assertThat(t.entries()).extracting(TuningTable.Entry::collective).containsOnly(Collective.ALL_REDUCE);
        assertThat(CudaTuning.bundledTable("NVIDIA H100 PCIe")).isNull();
        assertThat(CudaTuning.bundledTable("jccl fake GPU")).isNull();
    }

    @Test
    void theTableDecidesTheCallsItMeasuredAndTheModelTheOthers() {
        Tuner t = Tuner.create(Config.defaults(), 8, 1, 16, CudaTuning.bundledTable(H100));
        // 32 KiB on 8 ranks: the H100 ran the butterfly in 36.5 us, tree 44.0, ring 80.8
        Choice mid = t.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0);
        assertThat(mid.source()).isEqualTo(Choice.Source.TABLE);
        assertThat(mid.algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        Tuner noButterfly = Tuner.create(Config.defaults().withAlgorithms("^butterfly"), 8, 1, 16, CudaTuning.bundledTable(H100));
        assertThat(noButterfly.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0).algorithm()).isEqualTo(Algorithm.TREE);
        // 8 MiB: the butterfly's whole-buffer exchanges lose to the ring (372 against 157 us)
        assertThat(t.choose(Collective.ALL_REDUCE, 2 << 20, 4, 0).algorithm()).isEqualTo(Algorithm.RING);
        Choice large = t.choose(Collective.ALL_REDUCE, 32 << 20, 4, 0);
        assertThat(large.algorithm()).isEqualTo(Algorithm.RING);
        assertThat(large.protocol()).isEqualTo(Protocol.SIMPLE);
        // not measured: another collective, another rank count
        assertThat(t.choose(Collective.ALL_GATHER, 1 << 10, 4, 0).source()).isEqualTo(Choice.Source.MODEL);
        Tuner six = Tuner.create(Config.defaults(), 6, 1, 16, CudaTuning.bundledTable(H100));
        assertThat(six.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0).source()).isEqualTo(Choice.Source.MODEL);
        // JCCL_ALGO still restricts what the table may pick
        Tuner ringOnly = Tuner.create(Config.defaults().withAlgorithms("ring"), 8, 1, 16, CudaTuning.bundledTable(H100));
        assertThat(ringOnly.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0).algorithm()).isEqualTo(Algorithm.RING);
    }
}
