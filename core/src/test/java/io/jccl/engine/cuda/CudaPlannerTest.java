// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.engine.Planner;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CUDA engine's plans: channels sized to the GPU, and what it refuses rather than run wrong or hang. */
class CudaPlannerTest {
    private static final int H100_RESIDENT = 132; // 132 multiprocessors, one executor block each

    private static Planner.Planned allReduce(Config c, int n, long count, int resident) {
        return Planner.make(Tuner.create(c, n, 1), c, n, CudaTuning.fit(n, () -> resident),
                new Planner.CallKey(Collective.ALL_REDUCE, count, 4, 0), n - 1);
    }

    @Test
    void anAlgorithmThatNeedsScratchPlansWithIt() {
        Config c = Config.defaults().withAlgorithms("butterfly");
        assertThat(allReduce(c, 3, 1000, H100_RESIDENT).plan().scratch()).isPositive();
        Config ring = Config.defaults().withAlgorithms("ring");
        assertThat(allReduce(ring, 4, 1000, H100_RESIDENT).plan().scratch()).isZero();
    }

    @Test
    void overSocketsLl128IsLeftOutAndRefusedWhenItIsAllThatIsAllowed() {
        Config c = CudaDomain.withoutLl128(Config.defaults(), 3);
        assertThat(Protocol.allowed(c)).containsExactlyInAnyOrder(Protocol.LL, Protocol.SIMPLE);
        Config simple = Config.defaults().withProtocols("Simple");
        assertThat(CudaDomain.withoutLl128(simple, 3)).isSameAs(simple);
        assertThatThrownBy(() -> CudaDomain.withoutLl128(Config.defaults().withProtocols("LL128"), 3))
                .isInstanceOfSatisfying(JcclException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_USAGE))
                .hasMessageContaining("rank 3").hasMessageContaining("JCCL_PROTO").hasMessageContaining("LL128");
        // Per collective: each list loses LL128, and one left with nothing else is named.
        Config per = CudaDomain.withoutLl128(Config.defaults().withProtocols("Simple;allreduce:LL,LL128"), 3);
        assertThat(Protocol.allowed(per, io.jccl.Collective.ALL_REDUCE)).containsExactly(Protocol.LL);
        assertThat(Protocol.allowed(per, io.jccl.Collective.BROADCAST)).containsExactly(Protocol.SIMPLE);
        assertThatThrownBy(() -> CudaDomain.withoutLl128(Config.defaults().withProtocols("Simple;allgather:LL128"), 3))
                .hasMessageContaining("JCCL_PROTO allows only LL128 for allgather");
    }

    @Test
    void withoutGivenBoundsChannelsGrowWithTheCallUpToTheBlocksEachRankMayKeepResident() {
        Config c = Config.defaults().withAlgorithms("ring").withProtocols("Simple");
        assertThat(c.channelBoundsGiven()).isFalse();
        assertThat(allReduce(c, 2, 2, H100_RESIDENT).choice().channels()).isEqualTo(1);
        // 1 MiB: one channel per 32 KiB of Simple
        assertThat(allReduce(c, 2, 1 << 18, H100_RESIDENT).choice().channels()).isEqualTo(32);
        // 64 MiB: as many as fit, 132 / 2 ranks = 66, capped at 64
        Planner.Planned big = allReduce(c, 2, 16L << 20, H100_RESIDENT);
        assertThat(big.choice().channels()).isEqualTo(64);
        assertThat(big.plan().lanes()).isEqualTo(64);
        // 8 ranks share the 132 blocks: 16 each
        assertThat(allReduce(c, 8, 16L << 20, H100_RESIDENT).plan().lanes()).isEqualTo(16);
        // 8 ranks behind sockets, 2 on each GPU: 66 each, capped at 64; 64 ranks on 32 GPUs fit 3 channels, on one they would not
        Tuner t8 = Tuner.create(c, 8, 1);
        Planner.CallKey k = new Planner.CallKey(Collective.ALL_REDUCE, 16L << 20, 4, 0);
        assertThat(Planner.make(t8, c, 8, CudaTuning.fit(2, () -> H100_RESIDENT), k, 0).plan().lanes()).isEqualTo(64);
        Config three = c.withChannels(3, 3);
        assertThat(Planner.make(Tuner.create(three, 64, 1), three, 64, CudaTuning.fit(2, () -> H100_RESIDENT), k, 0).plan().lanes())
                .isEqualTo(3);
        assertThatThrownBy(() -> Planner.make(Tuner.create(three, 64, 1), three, 64, CudaTuning.fit(64, () -> H100_RESIDENT), k, 0))
                .hasMessageContaining("64 ranks sharing the GPU");
        assertThat(CudaTuning.channels(Protocol.LL, 64 << 10, 100)).isEqualTo(8);
        assertThat(CudaTuning.channels(Protocol.LL128, 64 << 10, 100)).isEqualTo(4);
        assertThat(CudaTuning.channels(Protocol.SIMPLE, 1L << 40, 0)).isEqualTo(1);
        // 4 ranks: 33 blocks each would fit, 32 keep the chunks 16-byte aligned
        assertThat(allReduce(c, 4, 16L << 20, H100_RESIDENT).plan().lanes()).isEqualTo(32);
        assertThat(CudaTuning.channels(Protocol.SIMPLE, 3L << 20, 100)).isEqualTo(64);
        assertThat(CudaTuning.channels(Protocol.SIMPLE, 3L << 20, 48)).isEqualTo(32);
    }

    @Test
    void theSplitTreeRunsAPairOfLanesPerBlockOnTwiceTheChannels() {
        Config tree = Config.defaults().withAlgorithms("tree").withProtocols("LL");
        Config split = Config.defaults().withAlgorithms("splittree").withProtocols("LL");
        // 32 KiB of LL: a tree on 4 channels (4 blocks); the split tree on 8, its 16 lanes on 8 blocks
        Planner.Planned t = allReduce(tree, 8, 8192, H100_RESIDENT);
        Planner.Planned s = allReduce(split, 8, 8192, H100_RESIDENT);
        assertThat(t.choice().channels()).isEqualTo(4);
        assertThat(CudaTuning.blocks(t.plan())).isEqualTo(4);
        assertThat(s.choice().channels()).isEqualTo(8);
        assertThat(s.plan().lanes()).isEqualTo(16);
        assertThat(CudaTuning.blocks(s.plan())).isEqualTo(8);
        // 64 MiB on 8 ranks: 16 blocks each fit, so 16 channels, each block a pair of lanes
        Planner.Planned big = allReduce(split.withProtocols("Simple"), 8, 16L << 20, H100_RESIDENT);
        assertThat(big.choice().channels()).isEqualTo(16);
        assertThat(CudaTuning.blocks(big.plan())).isEqualTo(16);
        // given bounds are the channels, as on the host: 8 channels are 8 blocks of pairs
        Config given = split.withChannels(8, 8);
        assertThat(CudaTuning.blocks(allReduce(given, 8, 16L << 20, H100_RESIDENT).plan())).isEqualTo(8);
        assertThatThrownBy(() -> allReduce(given, 8, 16L << 20, 40)).hasMessageContaining("runs 8 blocks per rank, 64 for the 8 ranks")
                .hasMessageContaining("JCCL_MAX_NCHANNELS to at most 5");
    }

    @Test
    void givenBoundsAreKeptAsTheHostEnginePlansAndRefusedWhenTheRanksCannotAllBeResident() {
        Config c = Config.defaults().withAlgorithms("ring").withProtocols("Simple").withChannels(8, 8);
        assertThat(c.channelBoundsGiven()).isTrue();
        assertThat(allReduce(c, 8, 16L << 20, H100_RESIDENT).plan().lanes()).isEqualTo(8);
        assertThat(allReduce(c, 2, 2, H100_RESIDENT).choice().channels()).isEqualTo(8);
        // 8 ranks x 8 blocks = 64 blocks on a GPU that holds 40 at once: the last ranks' blocks would
        // wait for SMs that spinning blocks never free
        assertThatThrownBy(() -> allReduce(c, 8, 16L << 20, 40))
                .isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_USAGE))
                .hasMessageContaining("rank 7").hasMessageContaining("64").hasMessageContaining("40")
                .hasMessageContaining("JCCL_MAX_NCHANNELS to at most 5");
        assertThat(Config.fromVariables(java.util.Map.of()).channelBoundsGiven()).isFalse();
        assertThat(Config.fromVariables(java.util.Map.of("JCCL_MAX_NCHANNELS", "4")).channelBoundsGiven()).isTrue();
    }
}
