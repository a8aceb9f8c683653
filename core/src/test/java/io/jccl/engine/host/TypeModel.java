// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import io.jccl.RedOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * A slow, independent oracle for one data type: raw element bits in and out of segments, random
 * inputs that reach the interesting corners, and the expected result of one reduction step
 * computed in higher precision (BigInteger, double, BigDecimal) and then rounded by rules written
 * from the formats' definitions rather than by the code under test.
 */
abstract class TypeModel {
    /** The expected element: exact raw bits, or "any NaN of the type". */
    record Expected(boolean nan, long raw) {
        static final Expected NAN = new Expected(true, 0);

        static Expected bits(long raw) {
            return new Expected(false, raw);
        }
    }

    final DataType type;

    TypeModel(DataType type) {
        this.type = type;
    }

    static TypeModel of(DataType type) {
        return switch (type) {
            case INT8 -> new IntModel(type, 8, false);
            case UINT8 -> new IntModel(type, 8, true);
            case INT32 -> new IntModel(type, 32, false);
            case UINT32 -> new IntModel(type, 32, true);
            case INT64 -> new IntModel(type, 64, false);
            case UINT64 -> new IntModel(type, 64, true);
            case FLOAT16 -> new NarrowFloatModel(type, 5, 10, true, false);
            case BFLOAT16 -> new NarrowFloatModel(type, 8, 7, true, false);
            case FLOAT8_E4M3 -> new NarrowFloatModel(type, 4, 3, false, true);
            case FLOAT8_E5M2 -> new NarrowFloatModel(type, 5, 2, true, true);
            case FLOAT32 -> new Float32Model();
            case FLOAT64 -> new Float64Model();
        };
    }

    /** The element at a byte offset, zero-extended. */
    final long read(MemorySegment s, long off) {
        return switch (type.size()) {
            case 1 -> s.get(ValueLayout.JAVA_BYTE, off) & 0xFFL;
            case 2 -> s.get(ValueLayout.JAVA_SHORT_UNALIGNED, off) & 0xFFFFL;
            case 4 -> s.get(ValueLayout.JAVA_INT_UNALIGNED, off) & 0xFFFF_FFFFL;
            default -> s.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        };
    }

    final void write(MemorySegment s, long off, long raw) {
        switch (type.size()) {
            case 1 -> s.set(ValueLayout.JAVA_BYTE, off, (byte) raw);
            case 2 -> s.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) raw);
            case 4 -> s.set(ValueLayout.JAVA_INT_UNALIGNED, off, (int) raw);
            default -> s.set(ValueLayout.JAVA_LONG_UNALIGNED, off, raw);
        }
    }

    /** A random element, biased towards edge values. */
    abstract long random(SplittableRandom r);

    /** A second operand chosen to make trouble for {@code a} (a rounding tie, an overflow), or random. */
    abstract long partner(long a, SplittableRandom r);

    /**
     * One step {@code post?(op(pre?(a), pre?(b)))}, or {@code post?(pre?(a))} without {@code b};
     * pre applies only to PRE_MUL_SUM and post only to AVG, as {@link Reduction} documents.
     */
    abstract Expected expected(RedOp op, int nranks, long a, boolean hasB, long b,
                               boolean preA, boolean preB, boolean post);

    abstract boolean isNaN(long raw);

    /** Human-readable raw bits and value, for failure messages. */
    abstract String show(long raw);
}
