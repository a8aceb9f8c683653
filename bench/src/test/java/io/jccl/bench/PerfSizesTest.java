// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.Collective;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PerfSizesTest {
    @Test
    void wholeBufferCollectivesRoundToWholeElements() {
        for (Collective c : new Collective[] {Collective.ALL_REDUCE, Collective.BROADCAST, Collective.REDUCE, Collective.SEND_RECV}) {
            PerfSizes s = PerfSizes.of(c, DataType.FLOAT32, 3, 10);
            assertThat(s.count()).isEqualTo(2);
            assertThat(s.sendCount()).isEqualTo(2);
            assertThat(s.recvCount()).isEqualTo(2);
            assertThat(s.bytes()).isEqualTo(8);
        }
        assertThat(PerfSizes.of(Collective.ALL_REDUCE, DataType.FLOAT64, 2, 7).count()).isZero();
    }

    @Test
    void gatheringCollectivesShareAlignedBlocksAndReportTheOutput() {
        // 1000 B of float: 250 elements, 83 per rank, rounded down to 16 B (4 floats): 80.
        for (Collective c : new Collective[] {Collective.ALL_GATHER, Collective.GATHER}) {
            PerfSizes s = PerfSizes.of(c, DataType.FLOAT32, 3, 1000);
            assertThat(s.count()).isEqualTo(80);
            assertThat(s.sendCount()).isEqualTo(80);
            assertThat(s.recvCount()).isEqualTo(240);
            assertThat(s.bytes()).isEqualTo(960);
        }
    }

    @Test
    void scatteringCollectivesReportTheInput() {
        for (Collective c : new Collective[] {Collective.REDUCE_SCATTER, Collective.SCATTER}) {
            PerfSizes s = PerfSizes.of(c, DataType.INT8, 2, 100);
            // 100 int8 over 2 ranks: 50 each, rounded down to 16 elements: 48.
            assertThat(s.count()).isEqualTo(48);
            assertThat(s.sendCount()).isEqualTo(96);
            assertThat(s.recvCount()).isEqualTo(48);
            assertThat(s.bytes()).isEqualTo(96);
        }
    }

    @Test
    void allToAllSendsAndReceivesABlockPerRank() {
        // 1 MiB of double over 3 ranks: 131072 elements, 43690 each, rounded to 2 doubles: 43690.
        PerfSizes s = PerfSizes.of(Collective.ALL_TO_ALL, DataType.FLOAT64, 3, 1 << 20);
        assertThat(s.count()).isEqualTo(43690);
        assertThat(s.sendCount()).isEqualTo(131070);
        assertThat(s.recvCount()).isEqualTo(131070);
        assertThat(s.bytes()).isEqualTo(131070 * 8);
    }

    @Test
    void smallSizesLeaveEmptyBlocks() {
        PerfSizes s = PerfSizes.of(Collective.ALL_GATHER, DataType.FLOAT32, 2, 8);
        assertThat(s.count()).isZero();
        assertThat(s.bytes()).isZero();
        // One rank: the whole buffer is its block.
        assertThat(PerfSizes.of(Collective.ALL_GATHER, DataType.FLOAT32, 1, 64).count()).isEqualTo(16);
    }
}
