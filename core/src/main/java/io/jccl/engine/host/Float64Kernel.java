package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** FLOAT64 in double arithmetic; min and max follow {@link Math#min(double, double)} (NaN wins, -0 < +0). */
class Float64Kernel extends Kernel {
    private static final ValueLayout.OfDouble L = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /** The pre-multiplier and the rank count, also read by the Vector API subclass. */
    final double scalar;
    final double nranks;

    Float64Kernel(double scalar, int nranks) {
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
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, Math.min(a.get(L, ao + o), b.get(L, bo + o)));
        }
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, Math.max(a.get(L, ao + o), b.get(L, bo + o)));
        }
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        // x * 1d is exactly x, so one loop serves every combination of flags.
        double sa = preA ? scalar : 1d;
        double sb = preB ? scalar : 1d;
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) * sa + b.get(L, bo + o) * sb);
        }
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        double r = nranks;
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, (a.get(L, ao + o) + b.get(L, bo + o)) / r);
        }
    }

    @Override
    void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        double s = scalar;
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) * s);
        }
    }

    @Override
    void div(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        double r = nranks;
        for (long i = 0; i < n; i++) {
            long o = i * 8;
            d.set(L, dO + o, a.get(L, ao + o) / r);
        }
    }
}
