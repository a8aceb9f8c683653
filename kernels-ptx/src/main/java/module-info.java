/**
 * The device executors: CUDA C++ sources, the PTX built from them, and the Java catalog of kernel
 * names and parameter layouts. The kernels arrive with the GPU-engine issue.
 */
module io.jccl.kernels {
}
