package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * FLOAT8_E4M3, computed in float and rounded to nearest-even after every step (the
 * pre-multiplication, the operation and the division each give an E4M3 value), saturating at
 * ±448 instead of overflowing; see {@link FloatFormats} for infinities and NaN. One float
 * operation on two E4M3 values followed by that rounding is the correctly rounded result, because
 * float carries more than twice E4M3's precision plus two bits.
 */
final class Float8E4M3Kernel extends Kernel {
    private static final ValueLayout.OfByte L = ValueLayout.JAVA_BYTE;

    private final float scalar;
    private final float nranks;

    Float8E4M3Kernel(double scalar, int nranks) {
        this.scalar = round(FloatFormats.toFloatRoundOdd(scalar));
        this.nranks = nranks;
    }

    private static float get(MemorySegment s, long o) {
        return FloatFormats.e4m3ToFloat(s.get(L, o));
    }

    private static void put(MemorySegment s, long o, float v) {
        s.set(L, o, FloatFormats.floatToE4m3(v));
    }

    private static float round(float v) {
        return FloatFormats.e4m3ToFloat(FloatFormats.floatToE4m3(v));
    }

    @Override
    void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            put(d, dO + i, get(a, ao + i) + get(b, bo + i));
        }
    }

    @Override
    void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            put(d, dO + i, get(a, ao + i) * get(b, bo + i));
        }
    }

    @Override
    void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            put(d, dO + i, Math.min(get(a, ao + i), get(b, bo + i)));
        }
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            put(d, dO + i, Math.max(get(a, ao + i), get(b, bo + i)));
        }
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        // Rounding x * 1f gives back x exactly, so one loop serves every combination of flags.
        float sa = preA ? scalar : 1f;
        float sb = preB ? scalar : 1f;
        for (long i = 0; i < n; i++) {
            put(d, dO + i, round(get(a, ao + i) * sa) + round(get(b, bo + i) * sb));
        }
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        float r = nranks;
        for (long i = 0; i < n; i++) {
            put(d, dO + i, round(get(a, ao + i) + get(b, bo + i)) / r);
        }
    }

    @Override
    void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        float s = scalar;
        for (long i = 0; i < n; i++) {
            put(d, dO + i, get(a, ao + i) * s);
        }
    }

    @Override
    void div(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        float r = nranks;
        for (long i = 0; i < n; i++) {
            put(d, dO + i, get(a, ao + i) / r);
        }
    }
}
