// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.tune.CostModel;

/**
 * The CUDA engine's cost model: NCCL's form (a base latency, a latency per hop, bus bandwidth
 * from the channels up to what the fabric carries) with the constants of jccl's kernels on a GPU,
 * fitted to the all-reduces of the table measured on an H100 80GB HBM3 (core's resource
 * {@code io/jccl/engine/cuda/tuning/nvidia-h100-80gb-hbm3.json}, docs/gpu.md).
 *
 * <p>How the constants were fitted: least squares of log(predicted / measured time) over every
 * entry of the table for 2 and 8 ranks (ring, tree and butterfly × LL, LL128, Simple, 8 B to
 * 128 MiB: 234 times), the channels each call ran on as {@link CudaTuning#channels} sizes them;
 * the 4-rank entries were left out to check the fit. The fit started from NCCL's constants
 * (DESIGN.md's bases and NVLink hops of src/graph/tuning.cc; 20.6 GB/s per channel, Hopper's
 * NVLink, with LL at a quarter and LL128 at 0.92 of it; the 2.9 TB/s an H100 copies) and reaches
 * the same values from a start read off the table; they are kept to two figures, and each
 * constant's Javadoc puts NCCL's beside it. The model's choice is within 1.3× of the fastest
 * measured at 38 of the 39 (ranks, size) of the table, 4 ranks included ({@code
 * CudaCostModelTest}; the table of ratios is in docs/gpu.md).
 *
 * <p>On another GPU with no table of its own, the bandwidths that come from the GPU's memory
 * ({@link #MEMORY_BW}, {@link #REDUCE_BW}) scale with its peak memory bandwidth over the H100's
 * ({@link #FITTED_ON_GBPS}); the latencies and the per-channel rates, set by the kernels' steps and
 * one block's reach, are kept.
 *
 * <p>Every per-protocol array is indexed by {@link Protocol#ordinal()}: LL, LL128, Simple.
 *
 * <p>What the GPU changes from NCCL's picture: the ranks of one process share one GPU (docs/gpu.md),
 * so their FIFOs are device memory and every byte they move costs the GPU's memory bandwidth
 * several times over, shared by all of them: the fabric's cap is the GPU's memory divided among
 * the {@code sharing} ranks on it, not a link. A channel is one block of 512 or 640 threads, a
 * small part of the GPU's bandwidth. Small calls are bound by the launches and the few block
 * barriers and polled flags of each step, a few µs per hop, not by NVLink's 0.6-3.4 µs.
 *
 * <p>Left out: links between GPUs (ranks of several GPUs are priced as if the links were as fast
 * as the memory; no machine with two GPUs has run jccl), and the L2 cache: from about 2 to
 * 8 MiB the ring runs up to twice the memory's rate (4 and 8 ranks at 8 MiB), which a
 * latency-plus-bandwidth model cannot follow, so there it may pick the tree.
 */
final class CudaCostModel {
    private CudaCostModel() {
    }

    /**
     * µs of a ring call before its first hop, by protocol (LL, LL128, Simple): the launch of each
     * rank's kernel and its blocks' start. Fitted; NCCL's ring bases are 6.6 / 14.0 / 8.4. The
     * butterfly and the other algorithms costed from their schedules take the ring's row.
     */
    static final double[] RING_BASE = {9.0, 8.4, 8.2};
    /**
     * µs per ring hop, by protocol: a step's block barriers, its fence and the flag the next rank
     * polls. Fitted; NCCL's per NVLink hop are 0.6 / 1.9 / 3.4, the whole step of a GPU's FIFO in
     * device memory costs more.
     */
    static final double[] RING_HOP = {5.3, 5.5, 5.9};
    /**
     * µs of a tree call before its first hop, by protocol. Fitted (NCCL: 6.8 / 14.0 / 8.4): the
     * tree's cost lies in its hops, which wait on a parent and on children.
     */
    static final double[] TREE_BASE = {1.0, 0.1, 1.8};
    /** µs per tree hop (2 × the tree's depth of them), by protocol. Fitted; NCCL's NVLink: 0.6 / 1.25 / 4.0. */
    static final double[] TREE_HOP = {6.9, 8.0, 7.5};
    /**
     * GB/s one channel (one block) moves, by protocol. Fitted: Simple's 13 is near what 8 channels
     * of 2 ranks ran at 64 MiB (128 GB/s, docs/gpu.md) and below NCCL's 20.6 per channel of
     * Hopper's NVLink; LL's 4.9 lands on NCCL's own ring LL all-reduce, a quarter of 20.6 (half
     * of its bytes are flags); LL128's 5.5 is far below NCCL's 36.7 per channel on Hopper: jccl's
     * LL128 kernels never beat Simple on one GPU.
     */
    static final double[] CHANNEL_BW = {4.9, 5.5, 13.0};
    /**
     * GB/s of the GPU's memory a ring all-reduce in Simple turns into: each of its bus bytes costs
     * 3 + 1/(n−1) bytes of memory traffic (docs/gpu.md, "Against a copy": (6n − 4)·S/n per rank).
     * Fitted at 3 180; the 128 MiB calls alone give 2 400 for 2, 4 and 8 ranks alike, the fit is
     * higher for the middle sizes the L2 cache serves (an H100 copies 2 900 GB/s, read plus
     * written).
     */
    static final double MEMORY_BW = 3180;
    /**
     * Of {@link #MEMORY_BW}, the part each protocol reaches (LL, LL128, Simple). Fitted from
     * NCCL's efficiencies (LL 1/2: half its bytes are flags; LL128 120/128): jccl's LL and LL128
     * ran a ring all-reduce of 128 MiB 2.5 and 2.2 times slower than Simple on 2 ranks.
     */
    static final double[] MEMORY_SHARE = {0.30, 0.39, 1.0};
    /**
     * GB/s of reductions, shared by the ranks on the GPU, that an algorithm makes beyond the ring's
     * (the butterfly reduces the whole buffer log2 n times, the ring (n−1)/n of it once): the
     * memory traffic of reading two operands and writing one. Fitted from a third of the 2.9 TB/s
     * start; it sets where the butterfly hands over to the ring (between 2 and 8 MiB, as measured).
     */
    static final double REDUCE_BW = 910;
    /**
     * GB/s of peak memory bandwidth of the GPU the constants were fitted on: the H100 80GB HBM3's
     * 2 × 2 619 MHz × 5 120 bits, as {@code CudaDevice.memoryBandwidthGBps} computes it.
     */
    static final double FITTED_ON_GBPS = 3352;

    /** As {@link #of(int, int, double)} on the GPU the constants were fitted on. */
    static CostModel of(int nranks, int sharing) {
        return of(nranks, sharing, 0);
    }

    /**
     * The model of a communicator of {@code nranks} ranks, at most {@code sharing} of them on one
     * GPU (whose memory they share), on GPUs whose memory peaks at {@code memoryGBps} (0: unknown,
     * taken as the H100's). The host's regime of more busy threads than cores never
     * comes: each lane is a block resident on the GPU (the planner refuses plans whose blocks
     * would not all be), so no hop is a hand-over of a core and no message costs a core's time.
     */
    static CostModel of(int nranks, int sharing, double memoryGBps) {
        double scale = memoryGBps > 0 ? memoryGBps / FITTED_ON_GBPS : 1;
        int na = Algorithm.values().length;
        int np = Protocol.values().length;
        double[][] base = new double[na][];
        double[][] hop = new double[na][];
        for (Algorithm a : Algorithm.values()) {
            boolean tree = a == Algorithm.TREE || a == Algorithm.SPLIT_TREE;
            base[a.ordinal()] = (tree ? TREE_BASE : RING_BASE).clone();
            hop[a.ordinal()] = (tree ? TREE_HOP : RING_HOP).clone();
        }
        int s = Math.max(1, sharing);
        double memoryPerBusByte = 3 + (nranks > 1 ? 1.0 / (nranks - 1) : 0);
        double[] max = new double[np];
        for (int p = 0; p < np; p++) {
            max[p] = MEMORY_SHARE[p] * MEMORY_BW * scale / (s * memoryPerBusByte);
        }
        return new CostModel(base, hop, hop, new double[np], CHANNEL_BW.clone(), max, max, REDUCE_BW * scale / s);
    }
}
