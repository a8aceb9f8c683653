// SPDX-License-Identifier: Apache-2.0
/*
 * The executor kernels: one per (protocol, data type), named jccl_<protocol>_<type>, each taking
 * a jccl_batch by value: the jccl_work descriptors (jccl_work.h) of the operations it runs. A thread block runs one lane of one rank's plan
 * (or two, each on a team of its threads: Team), step by step, over FIFOs in device memory, with the semantics of the host engine
 * (io.jccl.engine.host.LaneExecutor) and its arithmetic (io.jccl.engine.host.Reduction),
 * bitwise: built with -fmad=false so that no multiply-add is contracted, with IEEE division and
 * no flush-to-zero. The one difference is the payload of a NaN result (GPU arithmetic returns
 * the canonical NaN); a NaN stays a NaN of the same type.
 *
 * Built by build-ptx.sh (nvcc -ptx for compute_80); the PTX is a resource of io.jccl.kernels.
 */
#ifdef JCCL_HOST_EMULATION
/* Tests only: the same source compiled by g++ with threads for a block (core's KernelEmulationTest). */
#include "jccl_emulation.h"
#else
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define JCCL_SPIN() /* a poll of the GPU spins */
#define JCCL_BLOCK_SHARED(type, name) __shared__ type name
#define JCCL_NOINLINE __noinline__
#endif
#include "jccl_work.h"

#define FULL_MASK 0xffffffffu
/* Polls between two looks at the clock and the abort flag. */
#define POLLS_PER_CHECK 256

/* ------------------------------------------------------------------------------------------ */
/* Element arithmetic: one struct per data type with the operations of the host's Kernel.      */
/* ------------------------------------------------------------------------------------------ */

/* Java's Math.min/max on floats: a NaN operand gives NaN, -0 is below +0. */
template <typename F> __device__ __forceinline__ bool isNegZero(F x);
template <> __device__ __forceinline__ bool isNegZero<float>(float x) { return __float_as_uint(x) == 0x80000000u; }
template <> __device__ __forceinline__ bool isNegZero<double>(double x) {
    return (unsigned long long)__double_as_longlong(x) == 0x8000000000000000ull;
}
template <typename F> __device__ __forceinline__ F javaMin(F a, F b) {
    if (a != a) return a;
    if (a == F(0) && b == F(0) && isNegZero(b)) return b;
    return a <= b ? a : b;
}
template <typename F> __device__ __forceinline__ F javaMax(F a, F b) {
    if (a != a) return a;
    if (a == F(0) && b == F(0) && isNegZero(a)) return b;
    return a >= b ? a : b;
}

/* Integers wrap (computed unsigned, so no signed overflow); comparisons and division follow the
 * type's signedness. */
template <typename T, typename U, typename Wide> struct IntOps {
    typedef T S;
    T scalar;
    Wide nranks; /* divides as the host's int/long arithmetic does, whatever the element width */
    __device__ IntOps(uint64_t s, uint32_t n) : scalar((T)(U)s), nranks((Wide)n) {}
    __device__ __forceinline__ T sum(T a, T b) const { return (T)(U)((U)a + (U)b); }
    __device__ __forceinline__ T prod(T a, T b) const { return (T)(U)((U)a * (U)b); }
    __device__ __forceinline__ T min(T a, T b) const { return a <= b ? a : b; }
    __device__ __forceinline__ T max(T a, T b) const { return a >= b ? a : b; }
    __device__ __forceinline__ T preMulSum(T a, bool pa, T b, bool pb) const {
        U sa = pa ? (U)scalar : (U)1;
        U sb = pb ? (U)scalar : (U)1;
        return (T)(U)((U)a * sa + (U)b * sb);
    }
    __device__ __forceinline__ T sumDiv(T a, T b) const { return (T)((Wide)sum(a, b) / nranks); }
    __device__ __forceinline__ T scale(T a) const { return (T)(U)((U)a * (U)scalar); }
    __device__ __forceinline__ T div(T a) const { return (T)((Wide)a / nranks); }
};

struct F32Ops {
    typedef float S;
    float scalar;
    float nranks;
    __device__ F32Ops(uint64_t s, uint32_t n) : scalar(__uint_as_float((uint32_t)s)), nranks((float)n) {}
    __device__ __forceinline__ float sum(float a, float b) const { return __fadd_rn(a, b); }
    __device__ __forceinline__ float prod(float a, float b) const { return __fmul_rn(a, b); }
    __device__ __forceinline__ float min(float a, float b) const { return javaMin(a, b); }
    __device__ __forceinline__ float max(float a, float b) const { return javaMax(a, b); }
    __device__ __forceinline__ float preMulSum(float a, bool pa, float b, bool pb) const {
        return __fadd_rn(__fmul_rn(a, pa ? scalar : 1.0f), __fmul_rn(b, pb ? scalar : 1.0f));
    }
    __device__ __forceinline__ float sumDiv(float a, float b) const { return __fdiv_rn(__fadd_rn(a, b), nranks); }
    __device__ __forceinline__ float scale(float a) const { return __fmul_rn(a, scalar); }
    __device__ __forceinline__ float div(float a) const { return __fdiv_rn(a, nranks); }
};

struct F64Ops {
    typedef double S;
    double scalar;
    double nranks;
    __device__ F64Ops(uint64_t s, uint32_t n) : scalar(__longlong_as_double((long long)s)), nranks((double)n) {}
    __device__ __forceinline__ double sum(double a, double b) const { return __dadd_rn(a, b); }
    __device__ __forceinline__ double prod(double a, double b) const { return __dmul_rn(a, b); }
    __device__ __forceinline__ double min(double a, double b) const { return javaMin(a, b); }
    __device__ __forceinline__ double max(double a, double b) const { return javaMax(a, b); }
    __device__ __forceinline__ double preMulSum(double a, bool pa, double b, bool pb) const {
        return __dadd_rn(__dmul_rn(a, pa ? scalar : 1.0), __dmul_rn(b, pb ? scalar : 1.0));
    }
    __device__ __forceinline__ double sumDiv(double a, double b) const { return __ddiv_rn(__dadd_rn(a, b), nranks); }
    __device__ __forceinline__ double scale(double a) const { return __dmul_rn(a, scalar); }
    __device__ __forceinline__ double div(double a) const { return __ddiv_rn(a, nranks); }
};

/* ---- narrow formats: decode to float, compute in float, round every step's result ---- */

struct Half {
    typedef uint16_t S;
    static __device__ __forceinline__ float get(uint16_t s) { return __half2float(__ushort_as_half(s)); }
    static __device__ __forceinline__ uint16_t put(float f) { return __half_as_ushort(__float2half_rn(f)); }
    /* half arithmetic of sm_80: one correctly rounded operation, the same as float then round */
    static __device__ __forceinline__ uint16_t add(uint16_t a, uint16_t b) {
        return __half_as_ushort(__hadd_rn(__ushort_as_half(a), __ushort_as_half(b)));
    }
    static __device__ __forceinline__ uint16_t mul(uint16_t a, uint16_t b) {
        return __half_as_ushort(__hmul_rn(__ushort_as_half(a), __ushort_as_half(b)));
    }
};

struct BFloat16 {
    typedef uint16_t S;
    static __device__ __forceinline__ float get(uint16_t s) { return __uint_as_float(((uint32_t)s) << 16); }
    static __device__ __forceinline__ uint16_t put(float f) { return __bfloat16_as_ushort(__float2bfloat16_rn(f)); }
    static __device__ __forceinline__ uint16_t add(uint16_t a, uint16_t b) {
        return __bfloat16_as_ushort(__hadd_rn(__ushort_as_bfloat16(a), __ushort_as_bfloat16(b)));
    }
    static __device__ __forceinline__ uint16_t mul(uint16_t a, uint16_t b) {
        return __bfloat16_as_ushort(__hmul_rn(__ushort_as_bfloat16(a), __ushort_as_bfloat16(b)));
    }
};

/* The OCP 8-bit formats as io.jccl.engine.host.FloatFormats converts them: nearest-even,
 * saturating finite values at the largest finite code; E4M3 has no infinities (they saturate),
 * E5M2 keeps them. */
__device__ __forceinline__ uint32_t fp8Subnormal(uint32_t abs, float inverseSpacing) {
    float scaled = __fmul_rn(__uint_as_float(abs), inverseSpacing);
    return __float_as_uint(__fadd_rn(scaled, 8388608.0f)) - 0x4B000000u;
}
__device__ __forceinline__ uint32_t fp8Normal(uint32_t abs, int rebias, int dropped) {
    uint32_t r = abs - ((uint32_t)rebias << 23);
    r += (1u << (dropped - 1)) - 1u + ((r >> dropped) & 1u);
    return r >> dropped;
}

struct E4M3 {
    typedef uint8_t S;
    static __device__ __forceinline__ float get(uint8_t c) {
        uint32_t sign = ((uint32_t)c & 0x80u) << 24;
        uint32_t e = (c >> 3) & 15u, m = c & 7u;
        if (e == 15u && m == 7u) return __uint_as_float(sign | 0x7FC00000u);
        if (e == 0u) return __uint_as_float(sign | __float_as_uint(__fmul_rn((float)m, 0.001953125f))); /* m * 2^-9 */
        return __uint_as_float(sign | ((e - 7u + 127u) << 23) | (m << 20));
    }
    static __device__ __forceinline__ uint8_t put(float f) {
        uint32_t bits = __float_as_uint(f);
        uint32_t sign = (bits >> 24) & 0x80u;
        uint32_t abs = bits & 0x7FFFFFFFu;
        if (abs > 0x7F800000u) return (uint8_t)(sign | 0x7Fu);
        if (abs >= 0x43E00000u) return (uint8_t)(sign | 0x7Eu);
        if (abs < 0x3C800000u) return (uint8_t)(sign | fp8Subnormal(abs, 512.0f));
        return (uint8_t)(sign | fp8Normal(abs, 127 - 7, 23 - 3));
    }
};

struct E5M2 {
    typedef uint8_t S;
    static __device__ __forceinline__ float get(uint8_t c) {
        uint32_t sign = ((uint32_t)c & 0x80u) << 24;
        uint32_t e = (c >> 2) & 31u, m = c & 3u;
        if (e == 31u) return __uint_as_float(sign | (m == 0u ? 0x7F800000u : 0x7FC00000u));
        if (e == 0u) return __uint_as_float(sign | __float_as_uint(__fmul_rn((float)m, 0.0000152587890625f))); /* 2^-16 */
        return __uint_as_float(sign | ((e - 15u + 127u) << 23) | (m << 21));
    }
    static __device__ __forceinline__ uint8_t put(float f) {
        uint32_t bits = __float_as_uint(f);
        uint32_t sign = (bits >> 24) & 0x80u;
        uint32_t abs = bits & 0x7FFFFFFFu;
        if (abs > 0x7F800000u) return (uint8_t)(sign | 0x7Fu);
        if (abs == 0x7F800000u) return (uint8_t)(sign | 0x7Cu);
        if (abs >= 0x47600000u) return (uint8_t)(sign | 0x7Bu);
        if (abs < 0x38800000u) return (uint8_t)(sign | fp8Subnormal(abs, 65536.0f));
        return (uint8_t)(sign | fp8Normal(abs, 127 - 15, 23 - 2));
    }
};

/* Sum and product of two values of a narrow format: one float operation, then the rounding. The
 * 16-bit formats have native instructions that give the same bits; see Native below. */
template <typename Fmt, bool Native> struct NarrowArith {
    static __device__ __forceinline__ typename Fmt::S add(typename Fmt::S a, typename Fmt::S b) {
        return Fmt::put(__fadd_rn(Fmt::get(a), Fmt::get(b)));
    }
    static __device__ __forceinline__ typename Fmt::S mul(typename Fmt::S a, typename Fmt::S b) {
        return Fmt::put(__fmul_rn(Fmt::get(a), Fmt::get(b)));
    }
};
template <typename Fmt> struct NarrowArith<Fmt, true> {
    static __device__ __forceinline__ typename Fmt::S add(typename Fmt::S a, typename Fmt::S b) { return Fmt::add(a, b); }
    static __device__ __forceinline__ typename Fmt::S mul(typename Fmt::S a, typename Fmt::S b) { return Fmt::mul(a, b); }
};

template <typename Fmt, bool Native> struct NarrowOps {
    typedef typename Fmt::S S;
    typedef NarrowArith<Fmt, Native> A;
    float scalar; /* already rounded to the format by the packer */
    float nranks;
    __device__ NarrowOps(uint64_t s, uint32_t n) : scalar(__uint_as_float((uint32_t)s)), nranks((float)n) {}
    static __device__ __forceinline__ float round(float v) { return Fmt::get(Fmt::put(v)); }
    __device__ __forceinline__ S sum(S a, S b) const { return A::add(a, b); }
    __device__ __forceinline__ S prod(S a, S b) const { return A::mul(a, b); }
    __device__ __forceinline__ S min(S a, S b) const { return Fmt::put(javaMin(Fmt::get(a), Fmt::get(b))); }
    __device__ __forceinline__ S max(S a, S b) const { return Fmt::put(javaMax(Fmt::get(a), Fmt::get(b))); }
    __device__ __forceinline__ S preMulSum(S a, bool pa, S b, bool pb) const {
        float x = round(__fmul_rn(Fmt::get(a), pa ? scalar : 1.0f));
        float y = round(__fmul_rn(Fmt::get(b), pb ? scalar : 1.0f));
        return Fmt::put(__fadd_rn(x, y));
    }
    __device__ __forceinline__ S sumDiv(S a, S b) const {
        return Fmt::put(__fdiv_rn(round(__fadd_rn(Fmt::get(a), Fmt::get(b))), nranks));
    }
    __device__ __forceinline__ S scale(S a) const { return Fmt::put(__fmul_rn(Fmt::get(a), scalar)); }
    __device__ __forceinline__ S div(S a) const { return Fmt::put(__fdiv_rn(Fmt::get(a), nranks)); }
};

/* ------------------------------------------------------------------------------------------ */
/* Teams: the threads that run one lane.                                                       */
/* ------------------------------------------------------------------------------------------ */

/* A whole block, or one of the two teams of a block that runs a pair of lanes (the split tree's
 * reducing and broadcasting lanes: NCCL splits a block's threads between them the same way). A team
 * is whole warps, tid is a thread's index in it, and it waits on a named barrier of its own (1 or
 * 2), so that one team's barriers never wait for the other's threads; barrier 0 (__syncthreads) is
 * the whole block's, between the operations of a launch. */
struct Team {
    uint32_t tid;
    uint32_t n;
    uint32_t bar;
};

#ifndef JCCL_HOST_EMULATION
__device__ __forceinline__ void teamSync(Team t) {
    asm volatile("bar.sync %0, %1;" ::"r"(t.bar), "r"(t.n) : "memory");
}
/* Whether any thread of the team passes a non-zero predicate: a barrier too. */
__device__ __forceinline__ bool teamAny(Team t, int predicate) {
    uint32_t r;
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\tbar.red.or.pred q, %2, %3, p;\n\tselp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(r) : "r"(predicate), "r"(t.bar), "r"(t.n) : "memory");
    return r != 0;
}
#else
static inline void teamSync(Team t) { emu_bar_red_or(t.bar, t.n, 0); }
static inline bool teamAny(Team t, int predicate) { return emu_bar_red_or(t.bar, t.n, predicate) != 0; }
#endif

/* ------------------------------------------------------------------------------------------ */
/* Element loops over a team: 16-byte vectors where every pointer allows, then the remainder.   */
/* ------------------------------------------------------------------------------------------ */

enum Form { F_SUM, F_PROD, F_MIN, F_MAX, F_PRE_MUL_SUM, F_SUM_DIV, F_SCALE, F_DIV };

template <typename Ops, int FORM>
__device__ __forceinline__ typename Ops::S apply(const Ops& o, typename Ops::S a, bool pa, typename Ops::S b, bool pb) {
    switch (FORM) {
        case F_SUM: return o.sum(a, b);
        case F_PROD: return o.prod(a, b);
        case F_MIN: return o.min(a, b);
        case F_MAX: return o.max(a, b);
        case F_PRE_MUL_SUM: return o.preMulSum(a, pa, b, pb);
        case F_SUM_DIV: return o.sumDiv(a, b);
        case F_SCALE: return o.scale(a);
        default: return o.div(a);
    }
}

/* 16-byte vectors each thread keeps in flight: one load per thread leaves a block far from the
 * memory's bandwidth (latency-bound), so a thread loads UNROLL vectors of each source before it
 * uses the first. */
#define JCCL_UNROLL 4

/* d[i] = form(a[i], b[i]) for i < n; b is unused by F_SCALE and F_DIV. d may be exactly a or b:
 * each element is read before it is written, by the thread that writes it. Sums (what nearly every
 * call reduces with, and AVG but for its last step) keep JCCL_UNROLL vectors in flight; the other
 * forms one, which keeps the kernels' code (and ptxas's and the driver's time on it) small. */
template <typename Ops, int FORM>
__device__ void loop(Team t, const Ops& o, const char* a, bool pa, const char* b, bool pb, char* d, uint64_t n) {
    typedef typename Ops::S S;
    const int PER = 16 / sizeof(S);
    const int UNROLL = FORM == F_SUM ? JCCL_UNROLL : 1;
    const bool unary = FORM == F_SCALE || FORM == F_DIV;
    uint64_t done = 0;
    if ((((uintptr_t)a | (uintptr_t)d | (unary ? 0 : (uintptr_t)b)) & 15) == 0) {
        typedef union { uint4 v; S e[PER]; } Pack;
        const uint4* av = reinterpret_cast<const uint4*>(a);
        const uint4* bv = reinterpret_cast<const uint4*>(b);
        uint4* dv = reinterpret_cast<uint4*>(d);
        uint64_t packs = n / PER;
        uint64_t stride = t.n;
        uint64_t p = t.tid;
        for (; UNROLL > 1 && p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
            Pack x[UNROLL], y[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; u++) {
                x[u].v = av[p + u * stride];
                if (!unary) y[u].v = bv[p + u * stride];
            }
#pragma unroll
            for (int u = 0; u < UNROLL; u++) {
                Pack r;
#pragma unroll
                for (int k = 0; k < PER; k++) r.e[k] = apply<Ops, FORM>(o, x[u].e[k], pa, unary ? x[u].e[k] : y[u].e[k], pb);
                dv[p + u * stride] = r.v;
            }
        }
        for (; p < packs; p += stride) {
            Pack x, y, r;
            x.v = av[p];
            if (!unary) y.v = bv[p];
#pragma unroll 4
            for (int k = 0; k < PER; k++) r.e[k] = apply<Ops, FORM>(o, x.e[k], pa, unary ? x.e[k] : y.e[k], pb);
            dv[p] = r.v;
        }
        done = packs * PER;
    }
    const S* as = reinterpret_cast<const S*>(a);
    const S* bs = reinterpret_cast<const S*>(b);
    S* ds = reinterpret_cast<S*>(d);
    for (uint64_t i = done + t.tid; i < n; i += t.n) {
        if (sizeof(S) == 1 || (((uintptr_t)a | (uintptr_t)d | (unary ? 0 : (uintptr_t)b)) & (sizeof(S) - 1)) == 0) {
            ds[i] = apply<Ops, FORM>(o, as[i], pa, unary ? as[i] : bs[i], pb);
        } else {
            /* unaligned elements (a user buffer at an odd offset): byte by byte */
            S x, y, r;
            memcpy(&x, a + i * sizeof(S), sizeof(S));
            if (!unary) memcpy(&y, b + i * sizeof(S), sizeof(S));
            r = apply<Ops, FORM>(o, x, pa, unary ? x : y, pb);
            memcpy(d + i * sizeof(S), &r, sizeof(S));
        }
    }
}

/* dst = src, bytes; 16-byte vectors when both allow. No copy onto itself. */
__device__ JCCL_NOINLINE void copyBytes(Team t, const char* src, char* dst, uint64_t bytes) {
    if (src == dst) return;
    uint64_t done = 0;
    if ((((uintptr_t)src | (uintptr_t)dst) & 15) == 0) {
        const uint4* s = reinterpret_cast<const uint4*>(src);
        uint4* d = reinterpret_cast<uint4*>(dst);
        uint64_t packs = bytes / 16;
        uint64_t stride = t.n;
        uint64_t p = t.tid;
        for (; p + (JCCL_UNROLL - 1) * stride < packs; p += JCCL_UNROLL * stride) {
            uint4 v[JCCL_UNROLL];
#pragma unroll
            for (int u = 0; u < JCCL_UNROLL; u++) v[u] = s[p + u * stride];
#pragma unroll
            for (int u = 0; u < JCCL_UNROLL; u++) d[p + u * stride] = v[u];
        }
        for (; p < packs; p += stride) d[p] = s[p];
        done = packs * 16;
    } else if ((((uintptr_t)src | (uintptr_t)dst) & 7) == 0) {
        uint64_t words = bytes / 8;
        for (uint64_t p = t.tid; p < words; p += t.n) {
            reinterpret_cast<uint64_t*>(dst)[p] = reinterpret_cast<const uint64_t*>(src)[p];
        }
        done = words * 8;
    }
    for (uint64_t i = done + t.tid; i < bytes; i += t.n) dst[i] = src[i];
}

/*
 * Reduction.combine: d = post?(op(pre?(a), pre?(b))), or with b == null the unary
 * d = post?(pre?(a)), a plain copy when neither applies. The flags are masked by the op as the host
 * masks them.
 */
template <typename Ops>
__device__ JCCL_NOINLINE void combine(Team t, const Ops& o, uint32_t redop, const char* a, bool pa, const char* b, bool pb, char* d, uint64_t n,
                        bool post) {
    pa = pa && redop == JCCL_OP_PRE_MUL_SUM;
    pb = pb && redop == JCCL_OP_PRE_MUL_SUM && b != nullptr;
    post = post && redop == JCCL_OP_AVG;
    if (n == 0) return;
    if (b == nullptr) {
        if (!pa && !post) copyBytes(t, a, d, n * sizeof(typename Ops::S));
        else if (pa) loop<Ops, F_SCALE>(t, o, a, true, a, false, d, n);
        else loop<Ops, F_DIV>(t, o, a, false, a, false, d, n);
        return;
    }
    switch (redop) {
        case JCCL_OP_SUM: loop<Ops, F_SUM>(t, o, a, pa, b, pb, d, n); break;
        case JCCL_OP_PROD: loop<Ops, F_PROD>(t, o, a, pa, b, pb, d, n); break;
        case JCCL_OP_MIN: loop<Ops, F_MIN>(t, o, a, pa, b, pb, d, n); break;
        case JCCL_OP_MAX: loop<Ops, F_MAX>(t, o, a, pa, b, pb, d, n); break;
        case JCCL_OP_AVG:
            if (post) loop<Ops, F_SUM_DIV>(t, o, a, pa, b, pb, d, n);
            else loop<Ops, F_SUM>(t, o, a, pa, b, pb, d, n);
            break;
        case JCCL_OP_PRE_MUL_SUM:
            if (pa || pb) loop<Ops, F_PRE_MUL_SUM>(t, o, a, pa, b, pb, d, n);
            else loop<Ops, F_SUM>(t, o, a, pa, b, pb, d, n);
            break;
        default: break;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Waiting: bounded by the descriptor's deadline and stopped by the domain's abort flag.        */
/* ------------------------------------------------------------------------------------------ */

#ifndef JCCL_HOST_EMULATION
__device__ __forceinline__ uint64_t globalTimer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ __forceinline__ uint64_t loadVolatile64(const uint64_t* p) {
    uint64_t v;
    asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ uint64_t loadAcquire64(const uint64_t* p) {
    uint64_t v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ uint64_t loadAcquireSystem64(const uint64_t* p) {
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void storeVolatile64(uint64_t* p, uint64_t v) {
    asm volatile("st.volatile.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ uint4 loadVolatile128(const void* p) {
    uint4 v;
    asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void storeVolatile128(void* p, uint4 v) {
    asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}
/* One thread's 16 bytes of an LL128 line: eight consecutive threads of a warp move a line in one
 * instruction. A null address loads or stores nothing. */
__device__ __forceinline__ void storeLinePart(void* p, uint64_t a, uint64_t b) {
    if (p != nullptr) asm volatile("st.volatile.global.v2.u64 [%0], {%1,%2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
__device__ __forceinline__ void loadLinePart(const void* p, uint64_t* a, uint64_t* b) {
    if (p != nullptr) asm volatile("ld.volatile.global.v2.u64 {%0,%1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
}
#endif

/* What a lane knows while it runs; failed is in shared memory so that every thread of its team sees it. */
struct Lane {
    const jccl_work* w;
    Team t;
    uint32_t lane;
    uint64_t deadline;
    uint64_t tile;
    uint32_t stepIndex;
    int* failed;
};

/* Records the lane's failure (the first of the launch wins) and stops the other ranks' waits. */
__device__ JCCL_NOINLINE void fail(const Lane& l, uint32_t code, uint32_t peer, uint32_t channel, uint64_t got, uint64_t expected) {
    jccl_status* s = reinterpret_cast<jccl_status*>(l.w->status);
    if (atomicCAS(reinterpret_cast<unsigned int*>(l.w->claim), 0u, 1u) == 0u) {
        s->code = code;
        s->lane = l.lane;
        s->step = l.stepIndex;
        s->peer = peer;
        s->channel = channel;
        s->tile = l.tile;
        s->got = got;
        s->expected = expected;
        __threadfence_system();
    }
    atomicExch(reinterpret_cast<unsigned int*>(l.w->abortFlag), 1u);
    *l.failed = 1;
}

/* Called every POLLS_PER_CHECK polls: true when the wait must give up (and records why). */
__device__ bool mustStop(const Lane& l, const jccl_conn& c) {
    if (*l.failed) return true;
    if (*reinterpret_cast<volatile uint32_t*>(l.w->abortFlag) != 0) {
        fail(l, JCCL_STATUS_ABORTED, c.peer, c.channel, 0, 0);
        return true;
    }
    if (globalTimer() > l.deadline) {
        fail(l, JCCL_STATUS_TIMEOUT, c.peer, c.channel, 0, 0);
        return true;
    }
    return false;
}

__device__ __forceinline__ uint64_t* fifoWord(const jccl_conn& c, int offset) {
    return reinterpret_cast<uint64_t*>(c.fifo + offset);
}
/* The other side's counter, acquired at the scope the connection needs (the CPU's: system). */
__device__ __forceinline__ uint64_t acquireCounter(const jccl_conn& c, int offset) {
    return (c.flags & JCCL_CONN_SYSTEM) ? loadAcquireSystem64(fifoWord(c, offset)) : loadAcquire64(fifoWord(c, offset));
}
/* Orders this block's FIFO accesses before the counter store that follows, for whoever reads it. */
__device__ __forceinline__ void fenceFor(const jccl_conn& c) {
    if (c.flags & JCCL_CONN_SYSTEM) {
        __threadfence_system();
    } else {
        __threadfence();
    }
}
__device__ __forceinline__ char* slotOf(const jccl_work* w, const jccl_conn& c, uint64_t seq) {
    return reinterpret_cast<char*>(c.fifo + JCCL_FIFO_SLOTS + (seq % JCCL_STEPS) * w->slotBytes);
}

/* Thread 0 waits until the sender may write message `tail` (tail - head < STEPS). The acquire
 * orders the team's writes into the freed slot (after the caller's barrier) after the
 * receiver's reads of it, which its fence and head store released. */
__device__ void waitRoom(const Lane& l, const jccl_conn& c) {
    if (l.t.tid != 0) return;
    uint64_t tail = *fifoWord(c, JCCL_FIFO_TAIL);
    uint32_t polls = 0;
    while (tail - acquireCounter(c, JCCL_FIFO_HEAD) >= JCCL_STEPS) {
        JCCL_SPIN();
        if (++polls % POLLS_PER_CHECK == 0 && mustStop(l, c)) return;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The three protocols: receive a message into plain bytes, send plain bytes, release.         */
/* ------------------------------------------------------------------------------------------ */

/* Simple: thread 0 acquires tail; the message is read in place from its slot. */
__device__ JCCL_NOINLINE const char* recvSimple(const Lane& l, const jccl_conn& c, uint64_t bytes, uint64_t* shared) {
    if (l.t.tid == 0) {
        uint64_t head = *fifoWord(c, JCCL_FIFO_HEAD);
        uint32_t polls = 0;
        bool ok = true;
        while (acquireCounter(c, JCCL_FIFO_TAIL) <= head) {
            JCCL_SPIN();
            if (++polls % POLLS_PER_CHECK == 0 && mustStop(l, c)) { ok = false; break; }
        }
        if (ok) {
            uint64_t got = loadVolatile64(fifoWord(c, JCCL_FIFO_SIZES + 8 * (int)(head % JCCL_STEPS)));
            if (got != bytes) fail(l, JCCL_STATUS_SIZE_MISMATCH, c.peer, c.channel, got, bytes);
        }
        *shared = head;
    }
    teamSync(l.t);
    return slotOf(l.w, c, *shared);
}

/* Simple: the data is in the slot (written by every thread); thread 0 publishes it after a fence. */
__device__ void publishSimple(Team t, const jccl_conn& c, uint64_t bytes) {
    teamSync(t);
    if (t.tid == 0) {
        uint64_t tail = *fifoWord(c, JCCL_FIFO_TAIL);
        storeVolatile64(fifoWord(c, JCCL_FIFO_SIZES + 8 * (int)(tail % JCCL_STEPS)), bytes);
        fenceFor(c);
        storeVolatile64(fifoWord(c, JCCL_FIFO_TAIL), tail + 1);
    }
}

/* LL: line 0 carries the size (low word in data1, high in data2), lines 1.. 8 data bytes each.
 * Every thread polls its own lines until both flags are the message's; the data goes to `into`. */
__device__ JCCL_NOINLINE void recvLl(const Lane& l, const jccl_conn& c, uint64_t bytes, char* into, uint64_t* shared) {
    uint64_t head = *fifoWord(c, JCCL_FIFO_HEAD);
    uint32_t flag = (uint32_t)(head + 1);
    const char* slot = slotOf(l.w, c, head);
    if (l.t.tid == 0) {
        uint32_t polls = 0;
        uint4 v = loadVolatile128(slot);
        bool ok = true;
        while (v.y != flag || v.w != flag) {
            JCCL_SPIN();
            if (++polls % POLLS_PER_CHECK == 0 && mustStop(l, c)) { ok = false; break; }
            v = loadVolatile128(slot);
        }
        uint64_t got = ((uint64_t)v.z << 32) | v.x;
        if (ok && got != bytes) fail(l, JCCL_STATUS_SIZE_MISMATCH, c.peer, c.channel, got, bytes);
    }
    if (teamAny(l.t, *l.failed)) return;
    uint64_t lines = (bytes + JCCL_LL_DATA_BYTES - 1) / JCCL_LL_DATA_BYTES;
    for (uint64_t i = l.t.tid; i < lines; i += l.t.n) {
        const char* line = slot + (i + 1) * JCCL_LL_LINE_BYTES;
        uint4 v = loadVolatile128(line);
        uint32_t polls = 0;
        while (v.y != flag || v.w != flag) {
            JCCL_SPIN();
            if (++polls % POLLS_PER_CHECK == 0 && mustStop(l, c)) break;
            v = loadVolatile128(line);
        }
        uint64_t at = i * JCCL_LL_DATA_BYTES;
        uint64_t n = bytes - at < JCCL_LL_DATA_BYTES ? bytes - at : JCCL_LL_DATA_BYTES;
        uint32_t words[2] = {v.x, v.z};
        const char* src = reinterpret_cast<const char*>(words);
        if (n == 8 && ((uintptr_t)(into + at) & 7) == 0) {
            *reinterpret_cast<uint64_t*>(into + at) = ((uint64_t)v.z << 32) | v.x;
        } else {
            for (uint64_t k = 0; k < n; k++) into[at + k] = src[k];
        }
    }
    (void)shared;
}

__device__ __forceinline__ uint64_t readWord(const char* p, uint64_t avail) {
    uint64_t w = 0;
    if (avail >= 8 && ((uintptr_t)p & 7) == 0) return *reinterpret_cast<const uint64_t*>(p);
    for (uint64_t k = 0; k < 8 && k < avail; k++) w |= (uint64_t)(uint8_t)p[k] << (8 * k);
    return w;
}

/* LL: every thread writes whole lines with one 16-byte store: {data1, flag, data2, flag}. */
__device__ JCCL_NOINLINE void sendLl(Team t, const jccl_work* w, const jccl_conn& c, const char* data, uint64_t bytes) {
    uint64_t tail = *fifoWord(c, JCCL_FIFO_TAIL);
    uint32_t flag = (uint32_t)(tail + 1);
    char* slot = slotOf(w, c, tail);
    if (tail >= JCCL_LL_CLEAN_INTERVAL && tail % JCCL_LL_CLEAN_INTERVAL < JCCL_STEPS) {
        /* every flag of the slot made one no message of the next 2^31 carries here */
        uint32_t clean = flag ^ 0x80000000u;
        uint64_t all = w->slotBytes / JCCL_LL_LINE_BYTES;
        for (uint64_t i = t.tid; i < all; i += t.n) {
            storeVolatile128(slot + i * JCCL_LL_LINE_BYTES, make_uint4(0, clean, 0, clean));
        }
        teamSync(t);
        fenceFor(c);
    }
    uint64_t lines = (bytes + JCCL_LL_DATA_BYTES - 1) / JCCL_LL_DATA_BYTES;
    for (uint64_t i = t.tid; i <= lines; i += t.n) {
        uint64_t v;
        if (i == 0) {
            v = bytes;
        } else {
            uint64_t at = (i - 1) * JCCL_LL_DATA_BYTES;
            v = readWord(data + at, bytes - at);
        }
        storeVolatile128(slot + i * JCCL_LL_LINE_BYTES, make_uint4((uint32_t)v, flag, (uint32_t)(v >> 32), flag));
    }
    teamSync(t);
    if (t.tid == 0) storeVolatile64(fifoWord(c, JCCL_FIFO_TAIL), tail + 1);
}

/* LL128: a line is 16 words; word 15 is the flag (sequence + 1); line 0's word 0 is the size, so
 * line 0 carries 112 data bytes and the others 120. Eight consecutive threads of a warp move a
 * line, 16 bytes each, the eighth holding the flag in its second word: one warp instruction
 * moves four whole lines. */
__device__ __forceinline__ uint64_t ll128DataOffset(uint64_t line, int word) {
    /* the message offset of data word `word` (1..14 on line 0, 0..14 after) */
    return line == 0 ? (uint64_t)(word - 1) * 8 : 112 + (line - 1) * 120 + (uint64_t)word * 8;
}

__device__ JCCL_NOINLINE void sendLl128(Team t, const jccl_work* w, const jccl_conn& c, const char* data, uint64_t bytes) {
    uint64_t tail = *fifoWord(c, JCCL_FIFO_TAIL);
    uint64_t flag = tail + 1;
    char* slot = slotOf(w, c, tail);
    uint64_t lines = (bytes + JCCL_HEADER_BYTES + JCCL_LL128_DATA_BYTES - 1) / JCCL_LL128_DATA_BYTES;
    int lane = t.tid & 31;
    int part = lane & 7;
    uint64_t perIter = (t.n / 32) * 4;
    /* warp-uniform: every lane of a warp takes part in each line store of its warp */
    for (uint64_t base = (t.tid / 32) * 4; base < lines; base += perIter) {
        uint64_t line = base + (lane >> 3);
        uint64_t v[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            int word = part * 2 + k;
            if (word == 15) {
                v[k] = flag;
            } else if (line == 0 && word == 0) {
                v[k] = bytes;
            } else {
                uint64_t at = ll128DataOffset(line, word);
                v[k] = at < bytes ? readWord(data + at, bytes - at) : 0;
            }
        }
        storeLinePart(line < lines ? slot + line * JCCL_LL128_LINE_BYTES + part * 16 : nullptr, v[0], v[1]);
    }
    teamSync(t);
    if (t.tid == 0) storeVolatile64(fifoWord(c, JCCL_FIFO_TAIL), tail + 1);
}

/* Warps poll lines four at a time; a group of eight threads takes its line once the flag thread
 * of the group has seen the flag in the same load. Lines first..first+count. */
__device__ bool pollLl128Lines(const Lane& l, const jccl_conn& c, const char* slot, uint64_t flag, uint64_t first,
                               uint64_t count, uint64_t bytes, char* into, uint64_t* sizeOut) {
    int lane = l.t.tid & 31;
    int part = lane & 7;
    uint64_t warps = l.t.n / 32;
    uint64_t perIter = warps * 4;
    for (uint64_t base = (l.t.tid / 32) * 4; base < count; base += perIter) {
        uint64_t line = first + base + (lane >> 3);
        bool mine = base + (lane >> 3) < count;
        uint64_t v0 = 0, v1 = 0;
        bool ok = !mine;
        uint32_t polls = 0;
        while (true) {
            loadLinePart(ok ? nullptr : slot + line * JCCL_LL128_LINE_BYTES + part * 16, &v0, &v1);
            bool flagOk = part == 7 ? v1 == flag : true;
            bool lineOk = __shfl_sync(FULL_MASK, flagOk, (lane & ~7) | 7);
            ok = ok || lineOk;
            if (__all_sync(FULL_MASK, ok)) break;
            JCCL_SPIN();
            if (++polls % POLLS_PER_CHECK == 0) {
                bool stop = mustStop(l, c);
                if (__any_sync(FULL_MASK, stop)) return false;
            }
        }
        if (!mine) continue;
        for (int k = 0; k < 2; k++) {
            int word = part * 2 + k;
            uint64_t v = k == 0 ? v0 : v1;
            if (word == 15) continue;
            if (line == 0 && word == 0) {
                if (sizeOut != nullptr) *sizeOut = v;
                continue;
            }
            if (into == nullptr) continue;
            uint64_t at = ll128DataOffset(line, word);
            if (at >= bytes) continue;
            uint64_t n = bytes - at < 8 ? bytes - at : 8;
            if (n == 8 && ((uintptr_t)(into + at) & 7) == 0) {
                *reinterpret_cast<uint64_t*>(into + at) = v;
            } else {
                for (uint64_t b = 0; b < n; b++) into[at + b] = (char)(v >> (8 * b));
            }
        }
    }
    return true;
}

__device__ JCCL_NOINLINE void recvLl128(const Lane& l, const jccl_conn& c, uint64_t bytes, char* into, uint64_t* shared) {
    uint64_t head = *fifoWord(c, JCCL_FIFO_HEAD);
    uint64_t flag = head + 1;
    const char* slot = slotOf(l.w, c, head);
    if (l.t.tid < 32) {
        /* the team's warp 0 reads the header line first: the size decides how many lines to wait for */
        uint64_t got = ~0ull;
        uint64_t* sizeAt = l.t.tid == 0 ? &got : nullptr;
        bool ok = pollLl128Lines(l, c, slot, flag, 0, 1, 0, nullptr, sizeAt);
        if (l.t.tid == 0 && ok && got != bytes) fail(l, JCCL_STATUS_SIZE_MISMATCH, c.peer, c.channel, got, bytes);
    }
    if (teamAny(l.t, *l.failed)) return;
    uint64_t lines = (bytes + JCCL_HEADER_BYTES + JCCL_LL128_DATA_BYTES - 1) / JCCL_LL128_DATA_BYTES;
    pollLl128Lines(l, c, slot, flag, 0, lines, bytes, into, nullptr);
    (void)shared;
}

/* Every protocol: the receiver frees the slot once every thread is done with it. */
__device__ void release(Team t, const jccl_conn& c) {
    teamSync(t);
    if (t.tid == 0) {
        uint64_t head = *fifoWord(c, JCCL_FIFO_HEAD);
        fenceFor(c);
        storeVolatile64(fifoWord(c, JCCL_FIFO_HEAD), head + 1);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The lane: every segment, every tile, every step (LaneExecutor.execute).                     */
/* ------------------------------------------------------------------------------------------ */

__device__ __forceinline__ char* regionAddress(const jccl_work* w, bool output, bool scratch, uint16_t op,
                                               uint64_t offset, uint64_t shift, uint32_t es) {
    const uint64_t* bufs = reinterpret_cast<const uint64_t*>(output ? w->outputs : w->inputs);
    /* Scratch follows the inputs and is not shifted per tile: every tile reuses it (LaneExecutor). */
    if (scratch) return reinterpret_cast<char*>(bufs[w->nops + op] + offset * es);
    return reinterpret_cast<char*>(bufs[op] + (offset + shift) * es);
}

/*
 * One step; false when the lane failed. Whether a lane failed is decided at a barrier that ORs each
 * thread's view (teamAny: a thread that failed says so itself): a plain read of the shared flag after
 * a barrier would race with a fast thread that already fails in the next wait, and the team's
 * threads would take different branches around the next barrier.
 */
template <int PROTO, typename Ops>
__device__ bool step(Lane& l, const Ops& o, const jccl_step& s, uint64_t shift, char* scratch, uint64_t* shared) {
    const jccl_work* w = l.w;
    const Team t = l.t;
    const jccl_conn* conns = reinterpret_cast<const jccl_conn*>(w->conns);
    uint32_t es = w->elementSize;
    uint64_t bytes = s.count * es;
    uint64_t maxMessage = w->scratchPerLane / (JCCL_MAX_LINKS + 1);
    int nr = s.nrecv, ns = s.nsend;
    if (nr > JCCL_MAX_LINKS || ns > JCCL_MAX_LINKS || (PROTO != JCCL_PROTO_SIMPLE && bytes > maxMessage)) {
        if (t.tid == 0) fail(l, JCCL_STATUS_BAD_WORK, 0, 0, bytes, maxMessage);
        teamSync(t);
        return false;
    }
    const char* in[JCCL_MAX_LINKS];
    for (int k = 0; k < nr; k++) {
        const jccl_conn& c = conns[s.recv[k]];
        if (PROTO == JCCL_PROTO_SIMPLE) {
            in[k] = recvSimple(l, c, bytes, shared);
        } else {
            char* into = scratch + k * maxMessage;
            if (PROTO == JCCL_PROTO_LL) recvLl(l, c, bytes, into, shared);
            else recvLl128(l, c, bytes, into, shared);
            in[k] = into;
        }
        if (teamAny(t, *l.failed)) return false;
    }
    for (int k = 0; k < ns; k++) waitRoom(l, conns[s.send[k]]);
    if (teamAny(t, *l.failed)) return false;

    bool red = w->redop != JCCL_OP_NONE;
    bool preSrc = red && (s.flags & JCCL_STEP_PRE_SRC);
    bool post = (s.flags & JCCL_STEP_POST_OP) != 0;
    const char* src = s.kind == JCCL_RECV || s.kind == JCCL_RECV_COPY_SEND ? nullptr
            : regionAddress(w, s.flags & JCCL_STEP_SRC_OUTPUT, s.flags & JCCL_STEP_SRC_SCRATCH, s.srcOp, s.srcOffset,
                            shift, es);
    bool hasDst = s.kind != JCCL_SEND && s.kind != JCCL_RECV_REDUCE_SEND;
    char* dst = hasDst ? regionAddress(w, s.flags & JCCL_STEP_DST_OUTPUT, s.flags & JCCL_STEP_DST_SCRATCH, s.dstOp,
                                       s.dstOffset, shift, es) : nullptr;
    /* where the result goes when the step has no destination: the first send slot (Simple) or the
     * lane's outgoing staging message (LL, LL128, packed into lines afterwards) */
    char* outgoing = nullptr;
    if (ns > 0) {
        outgoing = PROTO == JCCL_PROTO_SIMPLE
                ? slotOf(w, conns[s.send[0]], *fifoWord(conns[s.send[0]], JCCL_FIFO_TAIL))
                : scratch + JCCL_MAX_LINKS * maxMessage;
    }
    const char* result;
    switch (s.kind) {
        case JCCL_SEND:
            if (preSrc) {
                combine(t, o, w->redop, src, true, nullptr, false, outgoing, s.count, false);
                result = outgoing;
            } else {
                result = src;
            }
            break;
        case JCCL_RECV:
        case JCCL_RECV_COPY_SEND:
            copyBytes(t, in[0], dst, bytes);
            result = dst;
            break;
        case JCCL_RECV_REDUCE_SEND:
        case JCCL_RECV_REDUCE_COPY:
        case JCCL_RECV_REDUCE_COPY_SEND: {
            char* res = hasDst ? dst : outgoing;
            combine(t, o, w->redop, in[0], false, src, preSrc, res, s.count, post && nr == 1);
            for (int k = 1; k < nr; k++) {
                teamSync(t);
                combine(t, o, w->redop, res, false, in[k], false, res, s.count, post && k == nr - 1);
            }
            result = res;
            break;
        }
        default: /* JCCL_COPY_SEND, JCCL_LOCAL_COPY */
            if (red && (preSrc || post)) combine(t, o, w->redop, src, preSrc, nullptr, false, dst, s.count, post);
            else copyBytes(t, src, dst, bytes);
            result = dst;
            break;
    }
    teamSync(t);
    for (int k = 0; k < ns; k++) {
        const jccl_conn& c = conns[s.send[k]];
        if (PROTO == JCCL_PROTO_SIMPLE) {
            char* slot = slotOf(w, c, *fifoWord(c, JCCL_FIFO_TAIL));
            copyBytes(t, result, slot, bytes);
            publishSimple(t, c, bytes);
        } else if (PROTO == JCCL_PROTO_LL) {
            sendLl(t, w, c, result, bytes);
        } else {
            sendLl128(t, w, c, result, bytes);
        }
    }
    for (int k = 0; k < nr; k++) release(t, conns[s.recv[k]]);
    return !teamAny(t, *l.failed);
}

/* Whether `lane` has no step in any segment: its threads then go to the other lane of the pair
 * (the split tree's root only reduces, on its up lane; a leaf only sends up and receives down). */
__device__ bool idle(const jccl_work* w, uint32_t lane) {
    const jccl_lane_steps* ls = reinterpret_cast<const jccl_lane_steps*>(w->laneSteps) + (uint64_t)lane * w->nsegments;
    for (uint32_t g = 0; g < w->nsegments; g++) {
        if (ls[g].count > 0) return false;
    }
    return true;
}

/* The threads of a pair's first lane, as NCCL splits its tree: LL and LL128 give 70 % to the
 * reduction (up to three receives against one send), Simple half, and 64 more from 256 on. */
template <int PROTO>
__device__ uint32_t splitAt(uint32_t n) {
    uint32_t first = PROTO == JCCL_PROTO_SIMPLE ? n / 2 + (n / 2 >= 256 ? 64 : 0) : n * 7 / (10 * 32) * 32;
    return first < 32 ? 32 : first > n - 32 ? n - 32 : first;
}

template <int PROTO, typename Ops>
__device__ void runLane(Lane& l, const jccl_work* w, uint64_t* shared) {
    Ops o(w->scalar, w->nranks);
    char* scratch = reinterpret_cast<char*>(w->scratch + l.lane * w->scratchPerLane);
    const jccl_segment* segs = reinterpret_cast<const jccl_segment*>(w->segments);
    const jccl_lane_steps* ls = reinterpret_cast<const jccl_lane_steps*>(w->laneSteps) + (uint64_t)l.lane * w->nsegments;
    const jccl_step* steps = reinterpret_cast<const jccl_step*>(w->steps);
    for (uint32_t g = 0; g < w->nsegments; g++) {
        jccl_segment seg = segs[g];
        jccl_lane_steps mine = ls[g];
        for (uint64_t i = 0; i < seg.repeat && mine.count > 0; i++) {
            l.tile = seg.firstTile + i;
            uint64_t shift = seg.firstShift + i * seg.stride;
            for (uint32_t k = 0; k < mine.count; k++) {
                l.stepIndex = k;
                l.deadline = globalTimer() + w->timeoutNs; /* no progress for the timeout, as on the host */
                if (!step<PROTO, Ops>(l, o, steps[mine.first + k], shift, scratch, shared)) return;
            }
        }
    }
}

/* What the threads of a block share: each team's failure flag and its word for thread 0's answers. */
struct BlockShared {
    int failed[2];
    uint64_t word[2];
};

/* The operations of a launch, in order: each block runs its lane of each, or its pair of lanes
 * (blocks past an operation's lanes skip it). The operations of one group share a launch (NCCL's
 * aggregation): a lane goes on to the next operation as soon as it is done with the previous one. */
template <int PROTO, typename Ops>
__device__ void runBatch(const jccl_batch& b) {
    JCCL_BLOCK_SHARED(BlockShared, sh);
    if (threadIdx.x < 2) sh.failed[threadIdx.x] = 0;
    __syncthreads();
    for (uint32_t i = 0; i < b.count && i < JCCL_MAX_BATCH; i++) {
        const jccl_work* w = reinterpret_cast<const jccl_work*>(b.works[i]);
        uint32_t paired = w->pairedLanes;
        Lane l;
        l.w = w;
        l.lane = blockIdx.x;
        l.t = Team{threadIdx.x, blockDim.x, 1};
        l.failed = &sh.failed[0];
        l.tile = 0;
        l.stepIndex = 0;
        if (w->protocol != PROTO || blockDim.x % 32 != 0 || (paired != 0 && (w->nlanes != 2 * paired || blockDim.x < 64))) {
            if (threadIdx.x == 0) fail(l, JCCL_STATUS_BAD_WORK, 0, 0, w->protocol, PROTO);
        } else if (blockIdx.x < (paired != 0 ? paired : w->nlanes)) {
            if (paired != 0) {
                uint32_t first = idle(w, blockIdx.x + paired) ? blockDim.x : idle(w, blockIdx.x) ? 0 : splitAt<PROTO>(blockDim.x);
                bool second = threadIdx.x >= first;
                l.lane = blockIdx.x + (second ? paired : 0);
                l.t = second ? Team{threadIdx.x - first, blockDim.x - first, 2} : Team{threadIdx.x, first, 1};
                l.failed = &sh.failed[second ? 1 : 0];
            }
            runLane<PROTO, Ops>(l, w, &sh.word[l.t.bar - 1]);
        }
        if (__syncthreads_or(*l.failed)) return;
    }
}

#define JCCL_KERNEL(proto, PROTO, type, Ops)                                                          \
    extern "C" __global__ void __launch_bounds__(JCCL_MAX_THREADS) jccl_##proto##_##type(const jccl_batch batch) { \
        runBatch<PROTO, Ops>(batch);                                                                  \
    }

/* The data types in the order of io.jccl.DataType (and of its NCCL values). */
typedef IntOps<int8_t, uint8_t, int64_t> I8Ops;
typedef IntOps<uint8_t, uint8_t, uint64_t> U8Ops;
typedef IntOps<int32_t, uint32_t, int64_t> I32Ops;
typedef IntOps<uint32_t, uint32_t, uint64_t> U32Ops;
typedef IntOps<int64_t, uint64_t, int64_t> I64Ops;
typedef IntOps<uint64_t, uint64_t, uint64_t> U64Ops;
typedef NarrowOps<Half, true> F16Ops;
typedef NarrowOps<BFloat16, true> BF16Ops;
typedef NarrowOps<E4M3, false> E4M3Ops;
typedef NarrowOps<E5M2, false> E5M2Ops;

#define JCCL_KERNELS(proto, PROTO)             \
    JCCL_KERNEL(proto, PROTO, i8, I8Ops)       \
    JCCL_KERNEL(proto, PROTO, u8, U8Ops)       \
    JCCL_KERNEL(proto, PROTO, i32, I32Ops)     \
    JCCL_KERNEL(proto, PROTO, u32, U32Ops)     \
    JCCL_KERNEL(proto, PROTO, i64, I64Ops)     \
    JCCL_KERNEL(proto, PROTO, u64, U64Ops)     \
    JCCL_KERNEL(proto, PROTO, f16, F16Ops)     \
    JCCL_KERNEL(proto, PROTO, f32, F32Ops)     \
    JCCL_KERNEL(proto, PROTO, f64, F64Ops)     \
    JCCL_KERNEL(proto, PROTO, bf16, BF16Ops)   \
    JCCL_KERNEL(proto, PROTO, e4m3, E4M3Ops)   \
    JCCL_KERNEL(proto, PROTO, e5m2, E5M2Ops)

JCCL_KERNELS(ll, JCCL_PROTO_LL)
JCCL_KERNELS(ll128, JCCL_PROTO_LL128)
JCCL_KERNELS(simple, JCCL_PROTO_SIMPLE)

/* ------------------------------------------------------------------------------------------ */
/* The direct kernels: one call of every rank of a GPU in one launch (jccl_direct).            */
/* ------------------------------------------------------------------------------------------ */

/* The reduction of the ranks' elements in rank order: the first pre-multiplied (preMulSum), each
 * next folded in, AVG's division at the end, with the arithmetic of the executors. */
template <typename Ops>
__device__ __forceinline__ typename Ops::S directFirst(const Ops& o, uint32_t redop, typename Ops::S x) {
    return redop == JCCL_OP_PRE_MUL_SUM ? o.scale(x) : x;
}
template <typename Ops>
__device__ __forceinline__ typename Ops::S directFold(const Ops& o, uint32_t redop, typename Ops::S a, typename Ops::S x) {
    switch (redop) {
        case JCCL_OP_PROD: return o.prod(a, x);
        case JCCL_OP_MIN: return o.min(a, x);
        case JCCL_OP_MAX: return o.max(a, x);
        case JCCL_OP_PRE_MUL_SUM: return o.preMulSum(a, false, x, true);
        default: return o.sum(a, x); /* SUM, and AVG before its division */
    }
}
template <typename Ops>
__device__ __forceinline__ typename Ops::S directLast(const Ops& o, uint32_t redop, typename Ops::S a) {
    return redop == JCCL_OP_AVG ? o.div(a) : a;
}

/* Part j of a direct call: its sources (several where it reduces) and destinations, as byte
 * addresses of the part's first element; returns false when the part has nothing to do. */
__device__ bool directPart(const jccl_direct& d, uint32_t n, uint32_t j, uint64_t partBytes, const char** src,
                           uint32_t* ns, char** dst, uint32_t* nd) {
    *ns = 0;
    *nd = 0;
    const char* in = nullptr;
    switch (d.kind) {
        case JCCL_DIRECT_ALL_REDUCE:
        case JCCL_DIRECT_REDUCE:
        case JCCL_DIRECT_REDUCE_SCATTER: {
            uint64_t at = d.kind == JCCL_DIRECT_REDUCE_SCATTER ? j * partBytes : 0;
            for (uint32_t k = 0; k < n; k++) src[(*ns)++] = reinterpret_cast<const char*>(d.inputs[k] + at);
            if (d.kind == JCCL_DIRECT_ALL_REDUCE) {
                for (uint32_t r = 0; r < n; r++) dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[r]);
            } else {
                dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[d.kind == JCCL_DIRECT_REDUCE ? d.root : j]);
            }
            return true;
        }
        case JCCL_DIRECT_BROADCAST:
            in = reinterpret_cast<const char*>(d.inputs[d.root]);
            for (uint32_t r = 0; r < n; r++) dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[r]);
            break;
        case JCCL_DIRECT_ALL_GATHER:
            in = reinterpret_cast<const char*>(d.inputs[j]);
            for (uint32_t r = 0; r < n; r++) dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[r] + j * partBytes);
            break;
        case JCCL_DIRECT_ALL_TO_ALL: /* part j: from rank j / n's part j % n to that rank's part j / n */
            in = reinterpret_cast<const char*>(d.inputs[j / n] + (j % n) * partBytes);
            dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[j % n] + (j / n) * partBytes);
            break;
        case JCCL_DIRECT_GATHER:
            in = reinterpret_cast<const char*>(d.inputs[j]);
            dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[d.root] + j * partBytes);
            break;
        case JCCL_DIRECT_SCATTER:
            in = reinterpret_cast<const char*>(d.inputs[d.root] + j * partBytes);
            dst[(*nd)++] = reinterpret_cast<char*>(d.outputs[j]);
            break;
        default:
            return false;
    }
    src[(*ns)++] = in;
    return true;
}

/* Elements from `first` on, `stride` apart, of a part: the rest after the vectors, and parts at
 * addresses a vector cannot take (unaligned elements byte by byte). Not inlined: it keeps each
 * kernel's code small (the driver compiles the PTX at load). */
template <typename Ops>
__device__ JCCL_NOINLINE void directTail(const Ops& o, uint32_t redop, bool reduces, const char** src, uint32_t ns,
                                         char** dst, uint32_t nd, uint64_t first, uint64_t count, uint64_t stride) {
    typedef typename Ops::S S;
    for (uint64_t i = first; i < count; i += stride) {
        S acc, x;
        memcpy(&acc, src[0] + i * sizeof(S), sizeof(S));
        if (reduces) {
            acc = directFirst(o, redop, acc);
            for (uint32_t k = 1; k < ns; k++) {
                memcpy(&x, src[k] + i * sizeof(S), sizeof(S));
                acc = directFold(o, redop, acc, x);
            }
            acc = directLast(o, redop, acc);
        }
        for (uint32_t k = 0; k < nd; k++) memcpy(dst[k] + i * sizeof(S), &acc, sizeof(S));
    }
}

/* Every part, every element, each by one thread of the grid, which reads all its sources before
 * it writes any destination (in-place calls read and write the same element in the same thread);
 * 16-byte vectors where every address of the part allows. */
template <typename Ops>
__device__ void runDirect(const jccl_direct& d) {
    typedef typename Ops::S S;
    const int PER = 16 / sizeof(S);
    typedef union { uint4 v; S e[PER]; } Pack;
    Ops o(d.scalar, d.nranks);
    uint32_t n = d.nranks < JCCL_DIRECT_MAX_RANKS ? d.nranks : JCCL_DIRECT_MAX_RANKS;
    uint32_t parts = d.kind == JCCL_DIRECT_ALL_REDUCE || d.kind == JCCL_DIRECT_REDUCE || d.kind == JCCL_DIRECT_BROADCAST ? 1
            : d.kind == JCCL_DIRECT_ALL_TO_ALL ? n * n : n;
    bool reduces = d.kind == JCCL_DIRECT_ALL_REDUCE || d.kind == JCCL_DIRECT_REDUCE || d.kind == JCCL_DIRECT_REDUCE_SCATTER;
    uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t partBytes = d.count * sizeof(S);
    const char* src[JCCL_DIRECT_MAX_RANKS];
    char* dst[JCCL_DIRECT_MAX_RANKS];
    for (uint32_t j = 0; j < parts; j++) {
        uint32_t ns, nd;
        if (!directPart(d, n, j, partBytes, src, &ns, dst, &nd)) return;
        uintptr_t any = 0;
        for (uint32_t k = 0; k < ns; k++) any |= (uintptr_t)src[k];
        for (uint32_t k = 0; k < nd; k++) any |= (uintptr_t)dst[k];
        uint64_t done = 0;
        if ((any & 15) == 0) {
            uint64_t packs = d.count / PER;
            uint64_t p = tid;
            /* JCCL_UNROLL vectors of each source in flight per thread: one keeps the memory far from its bandwidth */
            for (; p + (JCCL_UNROLL - 1) * stride < packs; p += JCCL_UNROLL * stride) {
                Pack acc[JCCL_UNROLL];
#pragma unroll
                for (int u = 0; u < JCCL_UNROLL; u++) acc[u].v = reinterpret_cast<const uint4*>(src[0])[p + u * stride];
                if (reduces) {
#pragma unroll
                    for (int u = 0; u < JCCL_UNROLL; u++) {
#pragma unroll 1
                        for (int e = 0; e < PER; e++) acc[u].e[e] = directFirst(o, d.redop, acc[u].e[e]);
                    }
                    for (uint32_t k = 1; k < ns; k++) {
                        Pack x[JCCL_UNROLL];
#pragma unroll
                        for (int u = 0; u < JCCL_UNROLL; u++) x[u].v = reinterpret_cast<const uint4*>(src[k])[p + u * stride];
#pragma unroll
                        for (int u = 0; u < JCCL_UNROLL; u++) {
#pragma unroll 1
                            for (int e = 0; e < PER; e++) acc[u].e[e] = directFold(o, d.redop, acc[u].e[e], x[u].e[e]);
                        }
                    }
#pragma unroll
                    for (int u = 0; u < JCCL_UNROLL; u++) {
#pragma unroll 1
                        for (int e = 0; e < PER; e++) acc[u].e[e] = directLast(o, d.redop, acc[u].e[e]);
                    }
                }
                for (uint32_t k = 0; k < nd; k++) {
#pragma unroll
                    for (int u = 0; u < JCCL_UNROLL; u++) reinterpret_cast<uint4*>(dst[k])[p + u * stride] = acc[u].v;
                }
            }
            for (; p < packs; p += stride) {
                Pack acc;
                acc.v = reinterpret_cast<const uint4*>(src[0])[p];
                if (reduces) {
#pragma unroll 1
                    for (int e = 0; e < PER; e++) acc.e[e] = directFirst(o, d.redop, acc.e[e]);
                    for (uint32_t k = 1; k < ns; k++) {
                        Pack x;
                        x.v = reinterpret_cast<const uint4*>(src[k])[p];
#pragma unroll 1
                        for (int e = 0; e < PER; e++) acc.e[e] = directFold(o, d.redop, acc.e[e], x.e[e]);
                    }
#pragma unroll 1
                    for (int e = 0; e < PER; e++) acc.e[e] = directLast(o, d.redop, acc.e[e]);
                }
                for (uint32_t k = 0; k < nd; k++) reinterpret_cast<uint4*>(dst[k])[p] = acc.v;
            }
            done = packs * PER;
        }
        directTail<Ops>(o, d.redop, reduces, src, ns, dst, nd, done + tid, d.count, stride);
    }
}

#define JCCL_DIRECT_KERNEL(type, Ops)                                                                 \
    extern "C" __global__ void __launch_bounds__(JCCL_DIRECT_THREADS) jccl_direct_##type(const jccl_direct d) { \
        runDirect<Ops>(d);                                                                            \
    }

JCCL_DIRECT_KERNEL(i8, I8Ops)
JCCL_DIRECT_KERNEL(u8, U8Ops)
JCCL_DIRECT_KERNEL(i32, I32Ops)
JCCL_DIRECT_KERNEL(u32, U32Ops)
JCCL_DIRECT_KERNEL(i64, I64Ops)
JCCL_DIRECT_KERNEL(u64, U64Ops)
JCCL_DIRECT_KERNEL(f16, F16Ops)
JCCL_DIRECT_KERNEL(f32, F32Ops)
JCCL_DIRECT_KERNEL(f64, F64Ops)
JCCL_DIRECT_KERNEL(bf16, BF16Ops)
JCCL_DIRECT_KERNEL(e4m3, E4M3Ops)
JCCL_DIRECT_KERNEL(e5m2, E5M2Ops)
