// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/** Where memory a net sends from or receives into lives (NCCL's NCCL_PTR_HOST, NCCL_PTR_CUDA). */
public enum MemoryKind {
    /** Host memory, pinned or not. */
    HOST,
    /** A GPU's memory (GPUDirect RDMA). */
    CUDA
}
