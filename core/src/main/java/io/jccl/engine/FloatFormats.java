// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

/**
 * Conversions between {@code float} and the narrow floating-point formats that Java lacks:
 * bfloat16 and the two OCP 8-bit formats (E4M3, E5M2). IEEE half precision is not here because
 * {@link Float#floatToFloat16} and {@link Float#float16ToFloat} already do it.
 *
 * <p>Every conversion from {@code float} rounds to nearest, ties to even. The 8-bit conversions
 * saturate: a finite value beyond the largest finite code becomes that code (±448 for E4M3,
 * ±57344 for E5M2), as CUDA's {@code __NV_SATFINITE} mode does, because a reduction that overflows
 * an 8-bit type is far more useful clamped than turned into NaN. Infinities: E4M3 has none, so
 * ±infinity saturates to ±448; E5M2 has them, so ±infinity stays ±infinity (this differs from
 * {@code __NV_SATFINITE}, which would clamp it too, and keeps every E5M2 code a fixed point of
 * decode-then-encode). A NaN always becomes a NaN of the target format (bfloat16 keeps the sign
 * and the high payload bits; the 8-bit formats have a single NaN pattern per sign).
 *
 * <pre>{@code
 * short bf = FloatFormats.floatToBfloat16(1.0f);     // 0x3F80
 * byte e4 = FloatFormats.floatToE4m3(1e6f);          // 0x7E, saturated to 448
 * float back = FloatFormats.e4m3ToFloat(e4);         // 448.0f
 * }</pre>
 */
public final class FloatFormats {
    private FloatFormats() {
    }

    // ---- bfloat16: the top half of a float32 ----

    /** The float a bfloat16 code stands for (exact: bfloat16 is a truncated float32). */
    public static float bfloat16ToFloat(short bits) {
        return Float.intBitsToFloat(bits << 16);
    }

    /** Rounds a float to the nearest bfloat16, ties to even; overflow gives ±infinity as IEEE does. */
    public static short floatToBfloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
            // Rounding a NaN like a number could carry its payload into the exponent and make it
            // an infinity, and a payload held only in the low 16 bits would truncate to infinity;
            // setting the quiet bit keeps it a NaN.
            return (short) ((bits >>> 16) | 0x0040);
        }
        // Adding just under half a unit of the kept part (0x7FFF), plus its lowest kept bit,
        // rounds the dropped 16 bits to nearest-even: a dropped part above one half always
        // carries, exactly one half carries only when the kept part is odd. A carry out of the
        // mantissa bumps the exponent, which is the correct next binade (or infinity).
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    // ---- 8-bit formats ----

    private static final float[] E4M3 = table(4, 3, false);
    private static final float[] E5M2 = table(5, 2, true);

    /** The float an E4M3 code stands for (S.1111.111 is NaN; there are no infinities). */
    public static float e4m3ToFloat(byte code) {
        return E4M3[code & 0xFF];
    }

    /** The float an E5M2 code stands for (exponent 11111 is infinity or NaN, as in IEEE). */
    public static float e5m2ToFloat(byte code) {
        return E5M2[code & 0xFF];
    }

    private static final int E4M3_MAX_BITS = 0x43E0_0000;       // 448.0f
    private static final int E4M3_MIN_NORMAL_BITS = 0x3C80_0000; // 2^-6
    private static final int E5M2_MAX_BITS = 0x4760_0000;       // 57344.0f
    private static final int E5M2_MIN_NORMAL_BITS = 0x3880_0000; // 2^-14
    private static final int TWO_POW_23_BITS = 0x4B00_0000;

    /** Rounds a float to E4M3 (bias 7), ties to even, saturating at ±448; see the class comment. */
    public static byte floatToE4m3(float f) {
        // Anything from 448 up (infinity included) would round to 448 or to the NaN code
        // S.1111.111, which is where the format would have put 480: clamp it.
        return toFloat8(f, 0x7E, E4M3_MAX_BITS, 0x7E, E4M3_MIN_NORMAL_BITS, 512f, 127 - 7, 23 - 3);
    }

    /** Rounds a float to E5M2 (bias 15), ties to even, saturating at ±57344; see the class comment. */
    public static byte floatToE5m2(float f) {
        // Finite values from the largest finite code up would round to 57344 or to infinity;
        // saturation makes them all 57344.
        return toFloat8(f, 0x7C, E5M2_MAX_BITS, 0x7B, E5M2_MIN_NORMAL_BITS, 65536f, 127 - 15, 23 - 2);
    }

    /**
     * Rounds a float to a float8 format: NaN to S.1111111, infinity to {@code infinity}, magnitudes
     * from {@code maxBits} up to {@code max}, the rest as subnormals (scaled by
     * {@code subnormalScale}) or normals (exponent rebiased by {@code rebias}, {@code dropBits}
     * mantissa bits dropped), ties to even.
     */
    private static byte toFloat8(float f, int infinity, int maxBits, int max, int minNormalBits, float subnormalScale,
                                 int rebias, int dropBits) {
        int bits = Float.floatToRawIntBits(f);
        int sign = (bits >>> 24) & 0x80;
        int abs = bits & 0x7FFF_FFFF;
        if (abs > 0x7F80_0000) {
            return (byte) (sign | 0x7F);
        }
        if (abs == 0x7F80_0000) {
            return (byte) (sign | infinity);
        }
        if (abs >= maxBits) {
            return (byte) (sign | max);
        }
        if (abs < minNormalBits) {
            return (byte) (sign | subnormal(abs, subnormalScale));
        }
        return (byte) (sign | normal(abs, rebias, dropBits));
    }

    /**
     * The subnormal code of a magnitude below the format's smallest normal. Scaling by the inverse
     * of the subnormal spacing (a power of two, so exact) turns the code into a real number below
     * 2^mantissa-bits; adding 2^23 leaves no fraction bits in the float, so the FPU itself rounds it
     * to the nearest integer, ties to even, and that integer is the code. A result equal to the
     * first normal code's value comes out as exactly that code, so no special case is needed.
     */
    private static int subnormal(int abs, float inverseSpacing) {
        float scaled = Float.intBitsToFloat(abs) * inverseSpacing;
        return Float.floatToRawIntBits(scaled + 8388608f) - TWO_POW_23_BITS;
    }

    /**
     * The normal code of a magnitude in range: rebias the float's exponent in place, then round
     * the mantissa away from 23 bits to the format's with the same half-minus-one-plus-odd-bit trick
     * as {@link #floatToBfloat16}; a carry lands in the exponent, which is the right rounding.
     * Callers have clamped the input so that the result is never above the largest finite code.
     */
    private static int normal(int abs, int rebias, int dropped) {
        int r = abs - (rebias << 23);
        r += (1 << (dropped - 1)) - 1 + ((r >>> dropped) & 1);
        return r >>> dropped;
    }

    /** Decodes all 256 codes of an 8-bit format from its definition. */
    private static float[] table(int exponentBits, int mantissaBits, boolean ieeeSpecials) {
        float[] t = new float[256];
        int bias = (1 << (exponentBits - 1)) - 1;
        int maxExponent = (1 << exponentBits) - 1;
        int mantissaMask = (1 << mantissaBits) - 1;
        for (int code = 0; code < 256; code++) {
            int e = (code >>> mantissaBits) & maxExponent;
            int m = code & mantissaMask;
            float magnitude;
            if (ieeeSpecials && e == maxExponent) {
                magnitude = m == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
            } else if (!ieeeSpecials && e == maxExponent && m == mantissaMask) {
                magnitude = Float.NaN;
            } else if (e == 0) {
                magnitude = Math.scalb((float) m, 1 - bias - mantissaBits);
            } else {
                magnitude = Math.scalb((float) (m | (1 << mantissaBits)), e - bias - mantissaBits);
            }
            t[code] = (code & 0x80) != 0 ? -magnitude : magnitude;
        }
        return t;
    }

    // ---- narrowing a double scalar ----

    /**
     * Narrows a double to a float rounding to odd: an inexact result is the neighbour whose last
     * mantissa bit is 1. Rounding that float again, to nearest-even, into any format with at
     * least two fewer mantissa bits gives the same result as rounding the double directly; plain
     * double-to-float-to-half rounding would not (the first rounding can create a false tie).
     * Used to bring a {@code double} scalar into the 16- and 8-bit formats.
     */
    public static float toFloatRoundOdd(double d) {
        float f = (float) d;
        if ((double) f == d || Double.isNaN(d)) {
            return f;
        }
        int bits = Float.floatToRawIntBits(f);
        if (Math.abs((double) f) > Math.abs(d)) {
            bits--; // step the magnitude back towards zero (also turns an overflowed infinity into MAX_VALUE)
        }
        return Float.intBitsToFloat(bits | 1);
    }
}
