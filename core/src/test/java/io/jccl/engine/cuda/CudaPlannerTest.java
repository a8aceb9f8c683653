package io.jccl.engine.cuda;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.plan.Collective;
import io.jccl.tune.Tuner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CUDA engine's plans: what it refuses rather than run wrong. */
class CudaPlannerTest {
    @Test
    void anAlgorithmThatNeedsScratchIsRefusedNamingItAndTheWayOut() {
        Config c = Config.defaults().withAlgorithms("butterfly");
        Tuner t = Tuner.create(c, 4, 1);
        assertThatThrownBy(() -> CudaPlanner.make(t, c, 4, new CudaPlanner.CallKey(Collective.ALL_REDUCE, 1000, 4, 0), 2))
                .isInstanceOf(JcclException.class)
                .hasMessageContaining("rank 2").hasMessageContaining("butterfly").hasMessageContaining("scratch")
                .hasMessageContaining("JCCL_ALGO");
        Config ring = Config.defaults().withAlgorithms("ring");
        assertThat(CudaPlanner.make(Tuner.create(ring, 4, 1), ring, 4,
                new CudaPlanner.CallKey(Collective.ALL_REDUCE, 1000, 4, 0), 2).plan().scratch()).isZero();
    }
}
