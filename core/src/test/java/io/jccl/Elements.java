// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * Test-side element codec: reads and writes every data type as double (floating point) or as an
 * exact integer, independently of the engine's own conversions, and the reference arithmetic the
 * engine's results are checked against.
 */
final class Elements {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private Elements() {
    }

    /** The value of element i as a double; floating types only. */
    static double getDouble(DataType t, MemorySegment s, long i) {
        return switch (t) {
            case FLOAT32 -> s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, i * 4);
            case FLOAT64 -> s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * 8);
            case FLOAT16 -> Float.float16ToFloat(s.get(I16, i * 2));
            case BFLOAT16 -> Float.intBitsToFloat((s.get(I16, i * 2) & 0xFFFF) << 16);
            case FLOAT8_E4M3 -> fp8(s.get(ValueLayout.JAVA_BYTE, i) & 0xFF, 3, 7, false);
            case FLOAT8_E5M2 -> fp8(s.get(ValueLayout.JAVA_BYTE, i) & 0xFF, 2, 15, true);
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    /** Decodes an 8-bit float from its definition: sign, exponent, mantissa, bias. */
    static double fp8(int code, int mantBits, int bias, boolean ieeeSpecials) {
        int sign = code >> 7;
        int exp = (code >> mantBits) & ((1 << (7 - mantBits)) - 1);
        int mant = code & ((1 << mantBits) - 1);
        int maxExp = (1 << (7 - mantBits)) - 1;
        double v;
        if (ieeeSpecials && exp == maxExp) {
            v = mant == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (!ieeeSpecials && exp == maxExp && mant == (1 << mantBits) - 1) {
            v = Double.NaN;
        } else if (exp == 0) {
            v = mant * Math.pow(2, 1 - bias - mantBits);
        } else {
            v = (1 + mant / (double) (1 << mantBits)) * Math.pow(2, exp - bias);
        }
        return sign == 1 ? -v : v;
    }

    /** The value of element i as a long: sign-extended for signed types, zero-extended for unsigned (uint64 raw). */
    static long getLong(DataType t, MemorySegment s, long i) {
        return switch (t) {
            case INT8 -> s.get(ValueLayout.JAVA_BYTE, i);
            case UINT8 -> s.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
            case INT32 -> s.get(I32, i * 4);
            case UINT32 -> s.get(I32, i * 4) & 0xFFFFFFFFL;
            case INT64, UINT64 -> s.get(I64, i * 8);
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    /** Fills {@code count} elements with random values: whole range for integers, |v| <= 2 for floats. */
    static void fillRandom(DataType t, MemorySegment s, long count, Random rnd) {
        for (long i = 0; i < count; i++) {
            switch (t) {
                case INT8, UINT8 -> s.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
                case INT32, UINT32 -> s.set(I32, i * 4, rnd.nextInt());
                case INT64, UINT64 -> s.set(I64, i * 8, rnd.nextLong());
                case FLOAT32 -> s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i * 4, (float) (rnd.nextDouble() * 4 - 2));
                case FLOAT64 -> s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * 8, rnd.nextDouble() * 4 - 2);
                case FLOAT16 -> s.set(I16, i * 2, Float.floatToFloat16((float) (rnd.nextDouble() * 4 - 2)));
                case BFLOAT16 -> s.set(I16, i * 2, (short) (Float.floatToRawIntBits((float) (rnd.nextDouble() * 4 - 2)) >>> 16));
                case FLOAT8_E4M3, FLOAT8_E5M2 -> {
                    int code;
                    do {
                        code = rnd.nextInt(256);
                        s.set(ValueLayout.JAVA_BYTE, i, (byte) code);
                    } while (!(Math.abs(getDouble(t, s, i)) <= 2));
                }
            }
        }
    }

    /** Wraps a value into the type's range as C arithmetic does, in getLong's representation. */
    static long wrap(DataType t, long v) {
        return switch (t) {
            case INT8 -> (byte) v;
            case UINT8 -> v & 0xFF;
            case INT32 -> (int) v;
            case UINT32 -> v & 0xFFFFFFFFL;
            default -> v;
        };
    }

    /** The reduction of integer contributions with the op's C semantics (reference). */
    static long reduceInt(DataType t, RedOp op, long[] xs) {
        boolean u64 = t == DataType.UINT64;
        long acc = 0;
        for (int i = 0; i < xs.length; i++) {
            long x = op.kind() == RedOp.Kind.PRE_MUL_SUM ? wrap(t, xs[i] * (long) op.scalar()) : xs[i];
            if (i == 0) {
                acc = x;
                continue;
            }
            acc = switch (op.kind()) {
                case SUM, AVG, PRE_MUL_SUM -> wrap(t, acc + x);
                case PROD -> wrap(t, acc * x);
                case MIN -> (u64 ? Long.compareUnsigned(acc, x) : Long.compare(acc, x)) <= 0 ? acc : x;
                case MAX -> (u64 ? Long.compareUnsigned(acc, x) : Long.compare(acc, x)) >= 0 ? acc : x;
            };
        }
        if (op.kind() == RedOp.Kind.AVG) {
            acc = u64 ? Long.divideUnsigned(acc, xs.length) : acc / xs.length;
        }
        return acc;
    }

    /** The reduction of floating contributions in double precision (the reference). */
    static double reduceDouble(RedOp op, double[] xs, DataType t) {
        double scalar = op.kind() == RedOp.Kind.PRE_MUL_SUM ? scalarAsType(op.scalar(), t) : 1;
        double acc = Double.NaN;
        boolean first = true;
        for (double x0 : xs) {
            double x = x0 * scalar;
            if (first) {
                acc = x;
                first = false;
                continue;
            }
            acc = switch (op.kind()) {
                case SUM, AVG, PRE_MUL_SUM -> acc + x;
                case PROD -> acc * x;
                case MIN -> Math.min(acc, x);
                case MAX -> Math.max(acc, x);
            };
        }
        return op.kind() == RedOp.Kind.AVG ? acc / xs.length : acc;
    }

    private static double scalarAsType(double s, DataType t) {
        // 0.5 and the other scalars the tests use are exact in every floating type.
        return s;
    }

    /** Relative precision of a floating type (half an ulp at 1). */
    static double epsilon(DataType t) {
        return switch (t) {
            case FLOAT64 -> 0x1p-53;
            case FLOAT32 -> 0x1p-24;
            case FLOAT16 -> 0x1p-11;
            case BFLOAT16 -> 0x1p-8;
            case FLOAT8_E4M3 -> 0x1p-4;
            case FLOAT8_E5M2 -> 0x1p-3;
            default -> 0;
        };
    }

    /** Smallest positive subnormal: the absolute slack for results that underflow. */
    static double tiny(DataType t) {
        return switch (t) {
            case FLOAT64 -> Double.MIN_VALUE;
            case FLOAT32 -> Float.MIN_VALUE;
            case FLOAT16 -> 0x1p-24;
            case BFLOAT16 -> 0x1p-133;
            case FLOAT8_E4M3 -> 0x1p-9;
            case FLOAT8_E5M2 -> 0x1p-16;
            default -> 0;
        };
    }

    /**
     * Tolerance of a floating result: each of the n-1 pairwise operations (and the pre- and
     * post-operations) rounds once, by at most epsilon relative to the magnitudes involved.
     */
    static double tolerance(DataType t, RedOp op, double[] xs, double exact) {
        int n = xs.length;
        double eps = epsilon(t);
        double mag;
        if (op.kind() == RedOp.Kind.PROD) {
            mag = Math.abs(exact);
        } else if (op.kind() == RedOp.Kind.MIN || op.kind() == RedOp.Kind.MAX) {
            return 0;
        } else {
            mag = 0;
            for (double x : xs) {
                mag += Math.abs(x) * (op.kind() == RedOp.Kind.PRE_MUL_SUM ? Math.abs(op.scalar()) : 1);
            }
        }
        // A partial product that underflows can be multiplied back up by the remaining factors (|x| <= 2).
        double slack = op.kind() == RedOp.Kind.PROD ? tiny(t) * Math.pow(2, n) : n * tiny(t);
        return eps * (n + 2) * mag + slack;
    }
}
