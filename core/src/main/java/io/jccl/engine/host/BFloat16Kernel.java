package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * BFLOAT16, computed in float and rounded to nearest-even after every step, as bfloat16 hardware
 * arithmetic would: the pre-multiplication, the operation and the division each give a bfloat16.
 * One float operation on two bfloat16 values followed by that rounding is the correctly rounded
 * bfloat16 result, because float carries more than twice bfloat16's precision plus two bits (so
 * the double rounding is harmless). Overflow gives infinity; NaN stays NaN.
 */
final class BFloat16Kernel extends Kernel {
    private static final ValueLayout.OfShort L = ValueLayout.JAVA_SHORT_UNALIGNED;

    private final float scalar;
    private final float nranks;

    BFloat16Kernel(double scalar, int nranks) {
        this.scalar = round(FloatFormats.toFloatRoundOdd(scalar));
        this.nranks = nranks;
    }

    private static float get(MemorySegment s, long o) {
        return FloatFormats.bfloat16ToFloat(s.get(L, o));
    }

    private static void put(MemorySegment s, long o, float v) {
        s.set(L, o, FloatFormats.floatToBfloat16(v));
    }

    private static float round(float v) {
        return FloatFormats.bfloat16ToFloat(FloatFormats.floatToBfloat16(v));
    }

    @Override
    void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, get(a, ao + o) + get(b, bo + o));
        }
    }

    @Override
    void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, get(a, ao + o) * get(b, bo + o));
        }
    }

    @Override
    void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, Math.min(get(a, ao + o), get(b, bo + o)));
        }
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, Math.max(get(a, ao + o), get(b, bo + o)));
        }
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        // Rounding x * 1f gives back x exactly, so one loop serves every combination of flags.
        float sa = preA ? scalar : 1f;
        float sb = preB ? scalar : 1f;
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, round(get(a, ao + o) * sa) + round(get(b, bo + o) * sb));
        }
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        float r = nranks;
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, round(get(a, ao + o) + get(b, bo + o)) / r);
        }
    }

    @Override
    void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        float s = scalar;
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, get(a, ao + o) * s);
        }
    }

    @Override
    void div(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        float r = nranks;
        for (long i = 0; i < n; i++) {
            long o = i * 2;
            put(d, dO + o, get(a, ao + o) / r);
        }
    }
}
