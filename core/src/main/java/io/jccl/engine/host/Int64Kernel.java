package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * INT64 and UINT64. Java's long arithmetic already wraps like C's; unsigned comparison flips the
 * sign bit of both sides so that a signed min/max orders them as unsigned (branch-free, unlike
 * {@link Long#compareUnsigned} in a ternary).
 */
final class Int64Kernel extends Kernel {
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final long FLIP = Long.MIN_VALUE;

    private final boolean unsigned;
    private final long scalar;
    private final int nranks;

    Int64Kernel(boolean unsigned, long scalar, int nranks) {
        this.unsigned = unsigned;
        this.scalar = scalar;
        this.nranks = nranks;
    }

    @Override
    void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) + b.get(L, bo + o));
        }
    }

    @Override
    void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) * b.get(L, bo + o));
        }
    }

    @Override
    void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, Math.min(a.get(L, ao + o) ^ FLIP, b.get(L, bo + o) ^ FLIP) ^ FLIP);
            }
        } else {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, Math.min(a.get(L, ao + o), b.get(L, bo + o)));
            }
        }
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, Math.max(a.get(L, ao + o) ^ FLIP, b.get(L, bo + o) ^ FLIP) ^ FLIP);
            }
        } else {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, Math.max(a.get(L, ao + o), b.get(L, bo + o)));
            }
        }
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        long sa = preA ? scalar : 1;
        long sb = preB ? scalar : 1;
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) * sa + b.get(L, bo + o) * sb);
        }
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        int r = nranks;
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, Long.divideUnsigned(a.get(L, ao + o) + b.get(L, bo + o), r));
            }
        } else {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, (a.get(L, ao + o) + b.get(L, bo + o)) / r);
            }
        }
    }

    @Override
    void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        long s = scalar;
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) * s);
        }
    }

    @Override
    void div(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        int r = nranks;
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, Long.divideUnsigned(a.get(L, ao + o), r));
            }
        } else {
            for (long i = 0; i < n; i++) {
                long o = i * 8;
                d.set(L, dO + o, a.get(L, ao + o) / r);
            }
        }
    }
}
