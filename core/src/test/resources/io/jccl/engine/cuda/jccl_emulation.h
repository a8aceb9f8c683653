// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: what jccl_kernels.cu needs from CUDA, emulated on the host so that g++ can compile the
 * kernels and run them, one thread per CUDA thread (emulator.cpp for KernelEmulationTest,
 * fake_cuda.cpp for FakeDriverEngineTest). Arithmetic intrinsics become the host's IEEE operations (built with
 * -ffp-contract=off); the 16-bit formats are converted by hand, nearest-even. Warp operations and
 * LL128's whole-line stores are collective over the 32 threads of a warp.
 */
#ifndef JCCL_EMULATION_H
#define JCCL_EMULATION_H

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <emmintrin.h>

#define __device__
#define __global__
#define __forceinline__ inline
#define JCCL_NOINLINE __attribute__((noinline))
#define __launch_bounds__(n)
#define JCCL_SPIN() sched_yield()

struct emu_dim3 {
    unsigned x, y, z;
};
extern thread_local emu_dim3 threadIdx;
extern thread_local emu_dim3 blockIdx;
extern thread_local emu_dim3 blockDim;
extern thread_local emu_dim3 gridDim;

/* What the threads of one block share: its __shared__ variables, its barriers, the warps' exchange. */
#define JCCL_EMU_MAX_WARPS 20
struct emu_part {
    const void* p;
    uint64_t a, b;
    int v;
};
/* A named barrier (PTX bar.sync / bar.red with a thread count): the last of `count` arrivals ends
 * the generation and publishes the OR of their predicates, which stays until all of them have
 * arrived at the next one. */
struct emu_named {
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t done = PTHREAD_COND_INITIALIZER;
    unsigned arrived = 0;
    unsigned long generation = 0;
    int any = 0;
    int result = 0;
};
#define JCCL_EMU_NAMED_BARRIERS 16
struct emu_block {
    pthread_barrier_t barrier;
    emu_named named[JCCL_EMU_NAMED_BARRIERS];
    pthread_barrier_t warps[JCCL_EMU_MAX_WARPS];
    emu_part stage[JCCL_EMU_MAX_WARPS][32];
    alignas(16) unsigned char shared[256];
    int orSlot[2]; /* __syncthreads_or: calls alternate between the two */
};
extern thread_local emu_block* emuBlock;
extern thread_local unsigned emuSharedCursor; /* reset when a thread starts a kernel */
/* The block's copy of a __shared__ variable: every thread declares them in the same order. */
static inline void* emu_shared(unsigned bytes) {
    unsigned at = (emuSharedCursor + 15u) & ~15u;
    emuSharedCursor = at + bytes;
    return emuBlock->shared + at;
}
#define JCCL_BLOCK_SHARED(type, name) type& name = *static_cast<type*>(emu_shared(sizeof(type)))

struct uint4 {
    uint32_t x, y, z, w;
};
static inline uint4 make_uint4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) { return uint4{a, b, c, d}; }

void __syncthreads();
int __syncthreads_or(int predicate);
int emu_bar_red_or(unsigned id, unsigned count, int predicate);
int emu_shfl(int v, int src);
bool emu_all(bool v);
bool emu_any(bool v);
void emu_store_line_part(void* p, uint64_t a, uint64_t b);
void emu_load_line_part(const void* p, uint64_t* a, uint64_t* b);

template <typename T> static inline T __shfl_sync(unsigned, T v, int src) { return (T)emu_shfl((int)v, src); }
static inline bool __all_sync(unsigned, bool v) { return emu_all(v); }
static inline bool __any_sync(unsigned, bool v) { return emu_any(v); }

static inline unsigned atomicCAS(unsigned* p, unsigned expected, unsigned desired) {
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
static inline unsigned atomicExch(unsigned* p, unsigned v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

static inline float __uint_as_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t __float_as_uint(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double __longlong_as_double(long long v) { double d; memcpy(&d, &v, 8); return d; }
static inline long long __double_as_longlong(double d) { long long v; memcpy(&v, &d, 8); return v; }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }

/* ---- float16 and bfloat16 ---- */
struct __half { uint16_t x; };
struct __nv_bfloat16 { uint16_t x; };
static inline __half __ushort_as_half(uint16_t u) { return __half{u}; }
static inline uint16_t __half_as_ushort(__half h) { return h.x; }
static inline __nv_bfloat16 __ushort_as_bfloat16(uint16_t u) { return __nv_bfloat16{u}; }
static inline uint16_t __bfloat16_as_ushort(__nv_bfloat16 h) { return h.x; }

static inline float __half2float(__half h) {
    uint32_t sign = (uint32_t)(h.x & 0x8000) << 16;
    uint32_t e = (h.x >> 10) & 31, m = h.x & 0x3ff;
    if (e == 31) return __uint_as_float(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        float v = (float)m * 5.9604644775390625e-08f; /* 2^-24 */
        return sign ? -v : v;
    }
    return __uint_as_float(sign | ((e + 112) << 23) | (m << 13));
}
static inline __half __float2half_rn(float f) {
    uint32_t x = __float_as_uint(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return __half{(uint16_t)(sign | 0x7e00)};
    if (ax >= 0x477ff000u) return __half{(uint16_t)(sign | 0x7c00)}; /* from 65520 up: infinity */
    if (ax < 0x38800000u) {                                          /* below 2^-14: subnormal */
        float v = __uint_as_float(ax) * 16777216.0f;                  /* exact: a power of two */
        return __half{(uint16_t)(sign | (uint16_t)nearbyintf(v))};
    }
    uint32_t r = ax - ((127u - 15u) << 23);
    r += 0xfffu + ((r >> 13) & 1u);
    return __half{(uint16_t)(sign | (r >> 13))};
}
static inline __nv_bfloat16 __float2bfloat16_rn(float f) {
    uint32_t x = __float_as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return __nv_bfloat16{(uint16_t)((x >> 16) | 0x40)};
    return __nv_bfloat16{(uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16)};
}
static inline float emu_bf16_to_float(__nv_bfloat16 h) { return __uint_as_float((uint32_t)h.x << 16); }
static inline __half __hadd_rn(__half a, __half b) { return __float2half_rn(__half2float(a) + __half2float(b)); }
static inline __half __hmul_rn(__half a, __half b) { return __float2half_rn(__half2float(a) * __half2float(b)); }
static inline __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __float2bfloat16_rn(emu_bf16_to_float(a) + emu_bf16_to_float(b));
}
static inline __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __float2bfloat16_rn(emu_bf16_to_float(a) * emu_bf16_to_float(b));
}

/* ---- the memory operations of the protocols ---- */
static inline uint64_t globalTimer() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
static inline uint64_t loadVolatile64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline uint64_t loadAcquire64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline uint64_t loadAcquireSystem64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void storeVolatile64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
/* aligned 16-byte SSE accesses are single accesses on x86-64 */
static inline uint4 loadVolatile128(const void* p) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(p));
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint4 r;
    memcpy(&r, &v, 16);
    return r;
}
static inline void storeVolatile128(void* p, uint4 v) {
    __m128i x;
    memcpy(&x, &v, 16);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    _mm_store_si128(reinterpret_cast<__m128i*>(p), x);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}
static inline void storeLinePart(void* p, uint64_t a, uint64_t b) { emu_store_line_part(p, a, b); }
static inline void loadLinePart(const void* p, uint64_t* a, uint64_t* b) { emu_load_line_part(p, a, b); }

#endif
