// SPDX-License-Identifier: Apache-2.0
/**
 * jccl's API: NCCL-class collectives between the ranks of a job on {@link java.lang.foreign.MemorySegment}
 * buffers. A {@link io.jccl.Communicator} is one rank ({@code ncclComm_t}); its calls take element
 * counts, a {@link io.jccl.DataType}, a {@link io.jccl.RedOp} and a {@link io.jccl.Stream}
 * ({@link io.jccl.HostStream} on the host engine, {@link io.jccl.CudaStream} on the CUDA engine),
 * run asynchronously on that stream, and fail as {@link io.jccl.JcclException} with an
 * {@link io.jccl.ErrorCode}. {@link io.jccl.Group} batches calls as {@code ncclGroupStart/End};
 * {@link io.jccl.Config} holds what NCCL reads from its environment; {@link io.jccl.Jccl#version()}
 * is {@code ncclGetVersion}.
 *
 * <p>Two ranks, threads of this process, all-reduce four floats:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="getting-started"}
 *
 * <p>The module is {@code io.jccl.core}; grant it and the modules it requires native access
 * ({@code --enable-native-access=io.jccl.core,io.jccl.bindings,io.jccl.kernels}, or
 * {@code ALL-UNNAMED} on the class path), and add {@code --add-modules=jdk.incubator.vector} for
 * vectorised float reductions. docs/user-guide.md has the rest.
 */
package io.jccl;
