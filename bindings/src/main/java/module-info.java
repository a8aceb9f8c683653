// SPDX-License-Identifier: Apache-2.0
/**
 * FFM bindings in jextract's shape: the CUDA driver API ({@code io.jccl.bindings.cuda}), libibverbs
 * ({@code io.jccl.bindings.ibverbs}) and the few C library calls they need
 * ({@code io.jccl.bindings.libc}), and NVML's NVLink queries
 * ({@code io.jccl.bindings.nvml}). No logic beyond loading; a test proves them against the headers.
 */
module io.jccl.bindings {
    exports io.jccl.bindings;
    exports io.jccl.bindings.cuda;
    exports io.jccl.bindings.ibverbs;
    exports io.jccl.bindings.libc;
    exports io.jccl.bindings.nvml;
}
