package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * INT8 and UINT8. Sums and products wrap (the cast back to byte keeps the low 8 bits, which is the
 * same for both signednesses); only comparisons and division look at the sign.
 */
final class Int8Kernel extends Kernel {
    private static final ValueLayout.OfByte L = ValueLayout.JAVA_BYTE;

    private final boolean unsigned;
    private final int scalar;
    private final int nranks;

    Int8Kernel(boolean unsigned, long scalar, int nranks) {
        this.unsigned = unsigned;
        this.scalar = (int) scalar;
        this.nranks = nranks;
    }

    @Override
    void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            d.set(L, dO + i, (byte) (a.get(L, ao + i) + b.get(L, bo + i)));
        }
    }

    @Override
    void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        for (long i = 0; i < n; i++) {
            d.set(L, dO + i, (byte) (a.get(L, ao + i) * b.get(L, bo + i)));
        }
    }

    @Override
    void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) Math.min(a.get(L, ao + i) & 0xFF, b.get(L, bo + i) & 0xFF));
            }
        } else {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) Math.min(a.get(L, ao + i), b.get(L, bo + i)));
            }
        }
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) Math.max(a.get(L, ao + i) & 0xFF, b.get(L, bo + i) & 0xFF));
            }
        } else {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) Math.max(a.get(L, ao + i), b.get(L, bo + i)));
            }
        }
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        // Multiplying by 1 is exact, so one loop serves every combination of flags.
        int sa = preA ? scalar : 1;
        int sb = preB ? scalar : 1;
        for (long i = 0; i < n; i++) {
            d.set(L, dO + i, (byte) (a.get(L, ao + i) * sa + b.get(L, bo + i) * sb));
        }
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        int r = nranks;
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) (((a.get(L, ao + i) + b.get(L, bo + i)) & 0xFF) / r));
            }
        } else {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) ((byte) (a.get(L, ao + i) + b.get(L, bo + i)) / r));
            }
        }
    }

    @Override
    void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        int s = scalar;
        for (long i = 0; i < n; i++) {
            d.set(L, dO + i, (byte) (a.get(L, ao + i) * s));
        }
    }

    @Override
    void div(MemorySegment a, long ao, MemorySegment d, long dO, long n) {
        int r = nranks;
        if (unsigned) {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) ((a.get(L, ao + i) & 0xFF) / r));
            }
        } else {
            for (long i = 0; i < n; i++) {
                d.set(L, dO + i, (byte) (a.get(L, ao + i) / r));
            }
        }
    }
}
