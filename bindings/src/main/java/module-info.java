/**
 * FFM bindings in jextract's shape: the CUDA driver API and libibverbs. No logic beyond loading.
 * The bindings themselves arrive with the bindings issue; the module exists so that the
 * dependency graph (bench → core → kernels, bindings) is fixed from the start.
 */
module io.jccl.bindings {
}
