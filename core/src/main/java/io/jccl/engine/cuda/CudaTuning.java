package io.jccl.engine.cuda;

import io.jccl.kernels.WorkLayout;
import io.jccl.proto.Protocol;

/**
 * Launch shapes: threads per block by protocol, NCCL's (LL and Simple 512, LL128 640: the LL and
 * LL128 buffer sizes of io.jccl.proto.Protocol are computed from these counts), the kernel
 * protocol index, and the channels (blocks per rank) of a call when the configuration leaves them
 * open.
 */
final class CudaTuning {
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
     * {@code perRank} (the blocks each rank may keep resident) and 64, rounded down to a power of two. A block moves 16-byte vectors,
     * a few in flight per thread, so one block reaches a small part of the GPU's memory bandwidth:
     * measured on an H100 (docs/gpu.md), a 64 MiB Simple all-reduce of 2 ranks took 523 us on 8
     * channels, 263 on 32 and 230 on 64; smaller calls lose more to the blocks' start and their
     * handshakes than they gain, hence a floor of bytes per channel.
     */
    static int channels(Protocol p, long bytes, int perRank) {
        long want = Math.max(1, bytes / bytesPerChannel(p));
        // a power of two: the plans' chunks then keep the 16-byte alignment the kernels' vector
        // loops need (4 ranks on 33 channels ran 128 MiB at 54 GB/s busbw, on 16 channels per rank
        // 8 ranks made 97)
        return Integer.highestOneBit((int) Math.min(Math.min(want, Math.max(1, perRank)), 64));
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
     * characters than letters and digits made one '-'), or null when there is none. Written by
     * {@code jccl perf --engine cuda --table} (docs/gpu.md).
     */
    static String bundledTable(String gpuName) {
        String file = gpuName.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        try (java.io.InputStream in = CudaTuning.class.getResourceAsStream("tuning/" + file + ".json")) {
            return in == null ? null : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("reading jccl's tuning table for " + gpuName, e);
        }
    }

    static int kernelProtocol(Protocol p) {
        return switch (p) {
            case LL -> WorkLayout.PROTO_LL;
            case LL128 -> WorkLayout.PROTO_LL128;
            case SIMPLE -> WorkLayout.PROTO_SIMPLE;
        };
    }
}
