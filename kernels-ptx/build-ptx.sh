#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the executor kernels to PTX: the one command line, used by the Maven build (profile
# nvcc, when nvcc is found) and by hand to refresh the committed resource:
#   kernels-ptx/build-ptx.sh kernels-ptx/src/main/resources/io/jccl/kernels/jccl.ptx
# -fmad=false: no multiply-add contraction, so results are bitwise the host engine's; IEEE
# division and subnormals are nvcc's defaults. compute_80 (Ampere) is the floor: bf16 arithmetic.
set -euo pipefail
out=${1:?usage: build-ptx.sh OUTPUT.ptx}
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
mkdir -p "$(dirname "$out")"
# Run from the source folder with a relative file name, so no absolute path enters the PTX.
cd "$here/src/main/cuda"
"$nvcc" -ptx -arch=compute_80 -std=c++17 -O3 -fmad=false -o "$out.tmp" jccl_kernels.cu
# The licence tag heads the PTX as it heads every source (SpdxHeaderTest); PTX takes // comments.
{ echo "// SPDX-License-Identifier: Apache-2.0"; cat "$out.tmp"; } > "$out"
rm "$out.tmp"
