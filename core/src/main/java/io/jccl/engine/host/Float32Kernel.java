package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** FLOAT32 in float arithmetic; min and max follow {@link Math#min(float, float)} (NaN wins, -0 < +0). */
class Float32Kernel extends Kernel {
    private static final ValueLayout.OfFloat L = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** The pre-multiplier and the rank count, also read by the Vector API subclass. */
    final float scalar;
    final float nranks;

    Float32Kernel(double scalar, int nranks) {
        this.scalar = (float) scalar;
        this.nranks = nranks;
    }

    @Override
    void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, a.get(L, ao + o) + b.get(L, bo + o));
        }
    }

    @Override
    void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, a.get(L, ao + o) * b.get(L, bo + o));
        }
    }

    @Override
    void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, Math.min(a.get(L, ao + o), b.get(L, bo + o)));
        }
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, Math.max(a.get(L, ao + o), b.get(L, bo + o)));
        }
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        // x * 1f is exactly x, so one loop serves every combination of flags.
        float sa = preA ? scalar : 1f;
        float sb = preB ? scalar : 1f;
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, a.get(L, ao + o) * sa + b.get(L, bo + o) * sb);
        }
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        float r = nranks;
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, (a.get(L, ao + o) + b.get(L, bo + o)) / r);
        }
    }

    @Override
    void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        float s = scalar;
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, a.get(L, ao + o) * s);
        }
    }

    @Override
    void div(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        float r = nranks;
        for (long i = 0; i < n; i++) {
            long o = i * 4;
            d.set(L, dO + o, a.get(L, ao + o) / r);
        }
    }
}
