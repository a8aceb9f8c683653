// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.topo.TopoSystem;
import io.jccl.tune.CostModel;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class NcclModelTest {
    /** NVLink 360 GB/s a GPU, 50 GB/s of NIC a GPU, 20 GB/s a channel: an H100 node's numbers. */
    private static final CostModel H100 = NcclModel.of(360, 50, 20);
    private static final int CHANNELS = 8;
    private static final long GIB = 1L << 30;

    /** The bus bandwidth (GB/s) the model gives a call, from the time two sizes differ by. */
    private static double busBw(Algorithm a, Protocol p, int nranks, int nNodes) {
        double perByte = (H100.time(Collective.ALL_REDUCE, a, p, 2 * GIB, nranks, nNodes, CHANNELS, 3, 1, 1)
                - H100.time(Collective.ALL_REDUCE, a, p, GIB, nranks, nNodes, CHANNELS, 3, 1, 1)) / GIB;
        double ratio = a == Algorithm.RING ? nranks / (2.0 * (nranks - 1)) : 0.5;
        return 1 / perByte / ratio / 1000;
    }

    @Test
    void theTreesBandwidthIsRefinedAsTuningCcRefinesIt() {
        double raw = CHANNELS * 20.0; // 160 GB/s: under the NVLink's 360 and the NICs
        // tree all-reduce ×0.92; LL ÷3.8, LL128 ×7/9 on one node, ×120/128 on several; Simple as it is
        assertThat(busBw(Algorithm.TREE, Protocol.SIMPLE, 8, 1)).isCloseTo(raw * 0.92, within(1e-6));
        assertThat(busBw(Algorithm.TREE, Protocol.LL, 8, 1)).isCloseTo(raw * 0.92 / 3.8, within(1e-6));
        assertThat(busBw(Algorithm.TREE, Protocol.LL128, 8, 1)).isCloseTo(raw * 0.92 * 7 / 9, within(1e-6));
        assertThat(busBw(Algorithm.TREE, Protocol.LL128, 8, 2)).isCloseTo(Math.min(raw, 50.0) * 0.92 * 120 / 128,
                within(1e-6));
        // the ring's own: LL half, LL128 0.92, Simple whole
        assertThat(busBw(Algorithm.RING, Protocol.LL, 8, 1)).isCloseTo(raw * 0.5, within(1e-6));
        assertThat(busBw(Algorithm.RING, Protocol.LL128, 8, 1)).isCloseTo(raw * 0.92, within(1e-6));
        assertThat(busBw(Algorithm.RING, Protocol.SIMPLE, 8, 1)).isCloseTo(raw, within(1e-6));
    }

    @Test
    void aDgxH100TakesTheRingForEightMegabytesAsNcclDoes() {
        // NCCL's model on one node: the ring's LL128 algbw is 0.92 × 8/14 of the bus bandwidth,
        // the tree's (a chain through the node's GPUs, as the file's search finds it) at most
        // 0.92 × 1/2, for more latency. Without the tree's shares the model took the tree's
        // LL128, which the simulator plays at over twice the ring's time.
        Path file = Path.of("src/test/resources/topo/dgx-h100.xml");
        Config config = Config.defaults().withTopoFile(file.toString());
        CallSimulator sim = CallSimulator.gpu(ClusterFabric.of(TopoSystem.load(file), 1, ClusterFabric.Net.parse("fat-tree")),
                Calibration.bundled().costs("gpu"), config).withCalls(1);
        long count = (8L << 20) / 4;
        CallSimulator.Prediction chosen = sim.predict(Collective.ALL_REDUCE, count, DataType.FLOAT32);
        assertThat(chosen.choice().algorithm()).isEqualTo(Algorithm.RING);
        CallSimulator.Prediction tree = sim.predict(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.TREE);
        assertThat(chosen.micros()).isLessThan(tree.micros());
    }

    @Test
    void patGetsThreeQuartersAndOtherAlgorithmsTheirWhole() {
        assertThat(NcclModel.share(Collective.ALL_GATHER, Algorithm.PAT, Protocol.SIMPLE, 4)).isEqualTo(0.75);
        assertThat(NcclModel.share(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL, 4)).isEqualTo(1.0);
        assertThat(NcclModel.share(Collective.ALL_REDUCE, Algorithm.HIER_RING, Protocol.LL128, 1)).isEqualTo(1.0);
    }
}
