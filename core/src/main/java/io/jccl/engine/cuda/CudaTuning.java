package io.jccl.engine.cuda;

import io.jccl.kernels.WorkLayout;
import io.jccl.proto.Protocol;

/**
 * Launch shapes: threads per block by protocol, NCCL's (LL and Simple 512, LL128 640: the LL and
 * LL128 buffer sizes of io.jccl.proto.Protocol are computed from these counts), and the kernel
 * protocol index. Channels (blocks) come from the tuner's choice, one block per lane of the plan.
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

    static int kernelProtocol(Protocol p) {
        return switch (p) {
            case LL -> WorkLayout.PROTO_LL;
            case LL128 -> WorkLayout.PROTO_LL128;
            case SIMPLE -> WorkLayout.PROTO_SIMPLE;
        };
    }
}
