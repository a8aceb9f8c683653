package io.jccl.engine.host;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * FLOAT32 on the Vector API ({@link VectorKernels}): the binary operations in SIMD lanes of the
 * platform's preferred width, the last partial vector by the scalar loop. Each lane does exactly
 * what the scalar loop does to its element, so the bits are the same.
 *
 * <p>Each operation has its own loop, as in the scalar kernels ({@link Kernel}), and here also
 * because C2 intrinsifies a Vector API operation only where its operator is a constant: a loop
 * shared through an operator parameter would be fast only where it happened to be inlined. The
 * FLOAT32 and FLOAT64 classes are twins (FloatVector and DoubleVector have no common type that
 * does arithmetic without boxing); change one, change the other.
 */
final class VectorFloat32Kernel extends Float32Kernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder O = ByteOrder.nativeOrder();
    private static final long E = 4;

    VectorFloat32Kernel(double scalar, int nranks) {
        super(scalar, nranks);
    }

    /** The elements the vector loop covers: whole vectors only. */
    private static long whole(long n) {
        return n - n % S.length();
    }

    private static FloatVector at(MemorySegment s, long offset) {
        return FloatVector.fromMemorySegment(S, s, offset, O);
    }

    @Override
    void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        long w = whole(n);
        for (long i = 0; i < w; i += S.length()) {
            long o = i * E;
            at(a, ao + o).add(at(b, bo + o)).intoMemorySegment(d, dO + o, O);
        }
        super.sum(a, ao + w * E, b, bo + w * E, d, dO + w * E, n - w);
    }

    @Override
    void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        long w = whole(n);
        for (long i = 0; i < w; i += S.length()) {
            long o = i * E;
            at(a, ao + o).mul(at(b, bo + o)).intoMemorySegment(d, dO + o, O);
        }
        super.prod(a, ao + w * E, b, bo + w * E, d, dO + w * E, n - w);
    }

    @Override
    void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        long w = whole(n);
        for (long i = 0; i < w; i += S.length()) {
            long o = i * E;
            at(a, ao + o).min(at(b, bo + o)).intoMemorySegment(d, dO + o, O);
        }
        super.min(a, ao + w * E, b, bo + w * E, d, dO + w * E, n - w);
    }

    @Override
    void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        long w = whole(n);
        for (long i = 0; i < w; i += S.length()) {
            long o = i * E;
            at(a, ao + o).max(at(b, bo + o)).intoMemorySegment(d, dO + o, O);
        }
        super.max(a, ao + w * E, b, bo + w * E, d, dO + w * E, n - w);
    }

    @Override
    void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                   MemorySegment d, long dO, long n) {
        // Multiply, then add, as two roundings: the scalar loop's (Java never fuses them).
        float sa = preA ? scalar : 1;
        float sb = preB ? scalar : 1;
        long w = whole(n);
        for (long i = 0; i < w; i += S.length()) {
            long o = i * E;
            at(a, ao + o).mul(sa).add(at(b, bo + o).mul(sb)).intoMemorySegment(d, dO + o, O);
        }
        super.preMulSum(a, ao + w * E, preA, b, bo + w * E, preB, d, dO + w * E, n - w);
    }

    @Override
    void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n) {
        long w = whole(n);
        for (long i = 0; i < w; i += S.length()) {
            long o = i * E;
            at(a, ao + o).add(at(b, bo + o)).div(nranks).intoMemorySegment(d, dO + o, O);
        }
        super.sumDiv(a, ao + w * E, b, bo + w * E, d, dO + w * E, n - w);
    }
}
