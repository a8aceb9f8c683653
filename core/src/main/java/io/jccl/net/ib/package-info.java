// SPDX-License-Identifier: Apache-2.0
/**
 * libibverbs as jccl's net transport calls it: {@link io.jccl.net.ib.Verbs}, a thin checked facade
 * over the bindings in {@code io.jccl.bindings.ibverbs} that turns NULL returns and errno values
 * into {@link io.jccl.JcclException}s naming the call and the error.
 */
package io.jccl.net.ib;
