// SPDX-License-Identifier: Apache-2.0
/* Tests only: running a launch of the emulated kernels (emu_block.cpp). */
#ifndef JCCL_EMU_BLOCK_H
#define JCCL_EMU_BLOCK_H
#include "jccl_work.h"

typedef void (*emu_kernel)(jccl_batch);

/* Runs every block of a launch at once, one thread per CUDA thread; returns when all are done (0). */
int emu_launch(emu_kernel k, const jccl_batch& batch, unsigned blocks, unsigned threads);

/* A direct kernel (jccl_direct_<type>): every rank of a GPU in one launch. */
typedef void (*emu_direct_kernel)(jccl_direct);
int emu_launch_direct(emu_direct_kernel k, const jccl_direct& direct, unsigned blocks, unsigned threads);

#ifdef __cplusplus
#include <functional>
/* Runs `body` on every thread of `blocks` blocks of `threads`, each with its indexes set. */
int emu_run(const std::function<void()>& body, unsigned blocks, unsigned threads);
#endif

#endif
