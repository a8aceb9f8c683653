// SPDX-License-Identifier: Apache-2.0
/**
 * The device executors: CUDA C++ sources (kernels-ptx/src/main/cuda), the PTX built from them (the
 * resource {@code io/jccl/kernels/jccl.ptx}), and the Java catalog of kernel names, parameter
 * layouts and work-descriptor layouts ({@link io.jccl.kernels.Kernels},
 * {@link io.jccl.kernels.WorkLayout}). See docs/gpu.md.
 */
module io.jccl.kernels {
    exports io.jccl.kernels;
}
