// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl.spark;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.apache.spark.resource.ResourceInformation;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The choice of engine and GPU from the resources Spark gave a task (no GPU or Spark context needed). */
class BarrierRankTest {
    @Test
    void noGpuResourceMeansTheHostEngine() {
        assertThat(BarrierRank.gpuOrdinal(Map.of(), 0)).isEmpty();
        assertThat(BarrierRank.gpuOrdinal(null, 0)).isEmpty();
        assertThat(BarrierRank.gpuOrdinal(Map.of("gpu", new ResourceInformation("gpu", new String[0])), 0)).isEmpty();
        assertThat(BarrierRank.gpuOrdinal(Map.of("fpga", new ResourceInformation("fpga", new String[] {"0"})), 0)).isEmpty();
    }

    @Test
    void theFirstGpuSparkAssignedIsTheRanksDevice() {
        assertThat(BarrierRank.gpuOrdinal(Map.of("gpu", new ResourceInformation("gpu", new String[] {"3"})), 0))
                .hasValue(3);
        assertThat(BarrierRank.gpuOrdinal(Map.of("gpu", new ResourceInformation("gpu", new String[] {"1", "2"})), 0))
                .hasValue(1);
    }

    @Test
    void aGpuAddressThatIsNoOrdinalIsRefusedNamingTheRank() {
        Map<String, ResourceInformation> uuid = Map.of("gpu", new ResourceInformation("gpu", new String[] {"GPU-8f3a"}));
        assertThatThrownBy(() -> BarrierRank.gpuOrdinal(uuid, 5))
                .isInstanceOfSatisfying(JcclException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.rank()).isEqualTo(5);
                })
                .hasMessageContaining("rank 5").hasMessageContaining("'gpu'").hasMessageContaining("GPU-8f3a");
    }

    @Test
    void aNullContextIsRefusedNamingTheArgument() {
        assertThatThrownBy(() -> new BarrierAllGather(null)).isInstanceOf(JcclException.class)
                .hasMessageContaining("'context'");
        assertThatThrownBy(() -> BarrierRank.join(null, io.jccl.Config.defaults())).isInstanceOf(JcclException.class)
                .hasMessageContaining("'context'");
    }
}
