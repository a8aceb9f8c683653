// SPDX-License-Identifier: Apache-2.0
/**
 * The CUDA driver as jccl's engines call it: {@link io.jccl.cuda.CudaDriver}, a thin checked facade
 * over the bindings in {@code io.jccl.bindings.cuda} that turns every {@code CUresult} other than
 * {@code CUDA_SUCCESS} into a {@link io.jccl.JcclException} naming the call and carrying the
 * driver's own name and description of the error.
 */
package io.jccl.cuda;
