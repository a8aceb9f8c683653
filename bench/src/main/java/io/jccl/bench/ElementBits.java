// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads and writes elements as raw bits and encodes numbers into every {@link DataType}, written
 * from the formats' definitions rather than with the library's own conversions, so that the perf
 * tool's check is independent of the code it checks. Rounding is to nearest, ties to even.
 */
final class ElementBits {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    /** Value of every 8-bit float code, decoded from sign, exponent, mantissa and bias. */
    private static final double[] E4M3 = fp8Table(3, 7, false);
    private static final double[] E5M2 = fp8Table(2, 15, true);

    private ElementBits() {
    }

    /** Element {@code i}'s bits, zero-extended. */
    static long get(DataType t, MemorySegment s, long i) {
        return switch (t.size()) {
            case 1 -> s.get(ValueLayout.JAVA_BYTE, i) & 0xFFL;
            case 2 -> s.get(I16, i * 2) & 0xFFFFL;
            case 4 -> s.get(I32, i * 4) & 0xFFFF_FFFFL;
            default -> s.get(I64, i * 8);
        };
    }

    static void set(DataType t, MemorySegment s, long i, long bits) {
        switch (t.size()) {
            case 1 -> s.set(ValueLayout.JAVA_BYTE, i, (byte) bits);
            case 2 -> s.set(I16, i * 2, (short) bits);
            case 4 -> s.set(I32, i * 4, (int) bits);
            default -> s.set(I64, i * 8, bits);
        }
    }

    /** The bits of a whole number that the type holds exactly. */
    static long ofWhole(DataType t, long v) {
        return t.isFloatingPoint() ? ofReal(t, v) : v & mask(t);
    }

    /** The bits of the type's value nearest to {@code v} (floating-point types). */
    static long ofReal(DataType t, double v) {
        return switch (t) {
            case FLOAT64 -> Double.doubleToRawLongBits(v);
            case FLOAT32 -> Float.floatToRawIntBits((float) v) & 0xFFFF_FFFFL;
            case FLOAT16 -> Float.floatToFloat16((float) v) & 0xFFFFL;
            case BFLOAT16 -> bfloat16((float) v);
            case FLOAT8_E4M3 -> nearest(E4M3, v);
            case FLOAT8_E5M2 -> nearest(E5M2, v);
            default -> throw new IllegalArgumentException(t + " is not a floating-point type");
        };
    }

    private static long mask(DataType t) {
        return t.size() == 8 ? -1L : (1L << (8 * t.size())) - 1;
    }

    /** bfloat16 is the top half of a float: round the dropped half to nearest, ties to even. */
    private static long bfloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        int keptLowBit = (bits >>> 16) & 1;
        return ((bits + 0x7FFF + keptLowBit) >>> 16) & 0xFFFFL;
    }

    /** The code whose value is nearest; on a tie the one with an even mantissa (even code). */
    private static long nearest(double[] table, double v) {
        int best = -1;
        double bestDist = Double.POSITIVE_INFINITY;
        for (int code = 0; code < table.length; code++) {
            double d = Math.abs(table[code] - v);
            if (d < bestDist || (d == bestDist && best >= 0 && (best & 1) == 1 && (code & 1) == 0)) {
                best = code;
                bestDist = d;
            }
        }
        return best;
    }

    private static double[] fp8Table(int mantBits, int bias, boolean ieeeSpecials) {
        double[] t = new double[256];
        int expBits = 7 - mantBits;
        int maxExp = (1 << expBits) - 1;
        for (int code = 0; code < 256; code++) {
            int exp = (code >> mantBits) & maxExp;
            int mant = code & ((1 << mantBits) - 1);
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
            t[code] = (code & 0x80) != 0 ? -v : v;
        }
        return t;
    }
}
