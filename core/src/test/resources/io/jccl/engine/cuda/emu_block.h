// SPDX-License-Identifier: Apache-2.0
/* Tests only: running a launch of the emulated kernels (emu_block.cpp). */
#ifndef JCCL_EMU_BLOCK_H
#define JCCL_EMU_BLOCK_H
#include "jccl_work.h"

typedef void (*emu_kernel)(jccl_batch);

/* Runs every block of a launch at once, one thread per CUDA thread; returns when all are done (0). */
int emu_launch(emu_kernel k, const jccl_batch& batch, unsigned blocks, unsigned threads);

#endif
