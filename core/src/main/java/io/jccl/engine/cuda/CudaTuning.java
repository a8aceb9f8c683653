// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.engine.Planner;
import io.jccl.kernels.WorkLayout;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.topo.Layout;
import io.jccl.topo.ServerLayout;
import io.jccl.tune.Choice;
import io.jccl.tune.Tuner;

/**
 * Launch shapes: threads per block by protocol, NCCL's (LL and Simple 512, LL128 640: the LL and
 * LL128 buffer sizes of io.jccl.proto.Protocol are computed from these counts), the kernel
 * protocol index, and the channels (blocks per rank) of a call when the configuration leaves them
 * open; and the tuner that chooses algorithm and protocol on a GPU.
 */
public final class CudaTuning {
    /** Multiprocessors of an H100 SXM and an H200: the blocks a rank of a GPU it has alone may keep resident. */
    public static final int H100_MULTIPROCESSORS = 132;

    private CudaTuning() {
    }

    static int threads(Protocol p) {
        return switch (p) {
            case LL, SIMPLE -> 512;
            case LL128 -> 640;
        };
    }

    /**
     * Channels for a call moving {@code bytes} (the tuner's size of the call) in protocol {@code p}
     * when no bounds are given: one per {@link #bytesPerChannel} of the call, at least one and at most
     * {@code perRank} (the blocks each rank may keep resident) and 64, rounded down to a power of
     * two. A block moves 16-byte vectors, a few in flight per thread, so one block reaches a small
     * part of the GPU's memory bandwidth and large calls want many; smaller calls lose more to the
     * blocks' start and their handshakes than they gain, hence a floor of bytes per channel
     * (docs/results.md, "Numbers behind the code").
     */
    static int channels(Protocol p, long bytes, int perRank) {
        long want = Math.max(1, bytes / bytesPerChannel(p));
        // a power of two: the plans' chunks then keep the 16-byte alignment the kernels' vector
        // loops need (docs/results.md, "Numbers behind the code")
        return Integer.highestOneBit((int) Math.min(Math.min(want, Math.max(1, perRank)), 64));
    }

    /**
     * {@link #channels} as the tuner's rule, for ranks that may each keep {@code perRank} blocks
     * resident (the simulator plans GPU ranks with it too).
     */
    public static Tuner.ChannelRule channelRule(int perRank) {
        return (bytes, p) -> channels(p, bytes, perRank);
    }

    /**
     * The lanes of {@code plan} that share a block with another (0: a block per lane). The split
     * tree's reducing lane c and broadcasting lane c + L run at once on one block, its threads split
     * between them as NCCL splits a tree channel's (the kernel's splitAt), so it takes the blocks of
     * a tree on as many channels, not twice as many.
     */
    static int pairedLanes(Plan plan) {
        return Algorithm.SPLIT_TREE.id().equals(plan.algorithm()) ? plan.lanes() / 2 : 0;
    }

    /**
     * The channels the engine plans for a call of {@code algorithm} when no bounds are given:
     * {@link #channels}, but twice as many for the split tree (its pairs' lanes get the blocks a lane
     * each would have had: each lane has part of a block's threads; docs/gpu.md, "The split tree").
     */
    static int planChannels(Algorithm algorithm, Protocol p, long bytes, int perRank) {
        return channels(p, algorithm == Algorithm.SPLIT_TREE ? 2 * bytes : bytes, perRank);
    }

    /**
     * How the planner fits a plan on GPUs at most {@code sharing} ranks share, each keeping
     * {@code residentBlocks} blocks resident (asked per plan: ranks agree on it after init): every
     * rank's blocks must be resident together, since ranks sharing a GPU wait for each other inside
     * their kernels.
     */
    static Planner.Fit fit(int sharing, java.util.function.IntSupplier residentBlocks) {
        return new Planner.Fit() {
            private int perRank() {
                return Math.max(1, residentBlocks.getAsInt() / sharing);
            }

            @Override
            public int channels(Choice choice, long bytes) {
                return planChannels(choice.algorithm(), choice.protocol(), bytes, perRank());
            }

            @Override
            public int blocks(Plan plan) {
                return CudaTuning.blocks(plan);
            }

            @Override
            public int maxBlocks() {
                return perRank();
            }

            @Override
            public JcclException tooMany(Choice c, int blocks, int rank) {
                int resident = residentBlocks.getAsInt();
                return new JcclException(ErrorCode.INVALID_USAGE, rank, c.algorithm().id() + " on " + c.channels()
                        + " channels runs " + blocks + " blocks per rank, " + (long) blocks * sharing + " for the " + sharing
                        + " ranks sharing the GPU, which keeps " + resident + " of these kernels' blocks resident at once;"
                        + " the ranks' blocks wait for each other, so all must run together: set JCCL_MAX_NCHANNELS to at most "
                        + Math.max(1, perRank() * c.channels() / blocks));
            }
        };
    }

    /** The blocks of one rank's launch of {@code plan}: one per lane, or per pair of lanes. */
    static int blocks(Plan plan) {
        return plan.lanes() - pairedLanes(plan);
    }

    /** The fewest bytes of a call worth another channel: a message of the protocol's lines per thread. */
    static long bytesPerChannel(Protocol p) {
        return switch (p) {
            case LL -> 8 << 10;
            case LL128 -> 16 << 10;
            case SIMPLE -> 32 << 10;
        };
    }

    /**
     * The tuning table measured on a GPU of this name and shipped with jccl (resources
     * {@code io/jccl/engine/cuda/tuning/<name>.json}, the name lower-cased with every run of other
     * characters than letters and digits made one '-'), or null when there is none or
     * {@code gpuName} is null (ranks spread over GPUs: the tables are measured with all on one).
     * Written by {@code jccl perf --engine cuda --table} (docs/gpu.md).
     */
    static String bundledTable(String gpuName) {
        if (gpuName == null) {
            return null;
        }
        String file = gpuName.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        try (java.io.InputStream in = CudaTuning.class.getResourceAsStream("tuning/" + file + ".json")) {
            return in == null ? null : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("reading jccl's tuning table for " + gpuName, e);
        }
    }

    /**
     * The tuner of {@code nranks} ranks, at most {@code sharing} of them on one GPU, on a GPU named
     * {@code gpuName} (null: on several GPUs) with {@code multiprocessors} multiprocessors:
     * JCCL_TUNING_FILE's table or rules when one is given (its text as rank 0 read it when {@code tuningText} is not null); else the
     * table measured on this GPU model that jccl ships, if any ({@link #bundledTable}), for the
     * calls it covers; else, and for the calls a table leaves out, the GPU's cost model
     * ({@link CudaCostModel}), pricing the channels the engine will run: {@link #channels}, taking
     * one resident block per multiprocessor, as on the H100 (the planner counts them); or, where
     * channel bounds are given, the host engine's, which the planner then keeps. Plans lie on
     * {@code topology}'s channels (null: the flat ones on one host).
     */
    static Tuner tuner(Config config, int nranks, int sharing, String gpuName, int multiprocessors, String tuningText) {
        return tuner(config, nranks, sharing, gpuName, multiprocessors, 0, tuningText, null);
    }

    /**
     * As {@link #tuner(Config, int, int, String, int, String)}, planning on {@code topology}'s
     * channels, the cost model scaled to a GPU memory of {@code memoryGBps} (0: unknown, the H100's).
     */
    static Tuner tuner(Config config, int nranks, int sharing, String gpuName, int multiprocessors, double memoryGBps,
                       String tuningText, Layout topology) {
        String text = tuningText;
        if (text == null) {
            text = config.tuningFile() == null ? bundledTable(gpuName) : Tuner.tuningText(config);
        }
        int perRank = Math.max(1, multiprocessors / Math.max(1, sharing));
        Tuner.ChannelRule gpuChannels = config.channelBoundsGiven() ? null : channelRule(perRank);
        ServerLayout hosts = topology == null ? ServerLayout.single(nranks) : topology.hosts();
        return io.jccl.sim.JobModel.priced(Tuner.create(config, hosts, Runtime.getRuntime().availableProcessors(), text,
                CudaCostModel.of(nranks, sharing, memoryGBps), gpuChannels).withTopology(topology), io.jccl.sim.JobModel::gpu);
    }

    static int kernelProtocol(Protocol p) {
        return switch (p) {
            case LL -> WorkLayout.PROTO_LL;
            case LL128 -> WorkLayout.PROTO_LL128;
            case SIMPLE -> WorkLayout.PROTO_SIMPLE;
        };
    }
}
