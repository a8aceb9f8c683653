// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import java.util.SplittableRandom;

/**
 * The formats narrower than float (float16, bfloat16, E4M3, E5M2), described by their field
 * widths: decoding and encoding follow the bit layout, rounding uses {@link Math#rint} on the
 * value scaled to the format's spacing at its magnitude.
 */
final class NarrowFloatModel extends FloatModel {
    private final int exponentBits;
    private final int mantissaBits;
    private final boolean ieee;
    private final boolean saturate;
    private final int bias;
    private final int minExponent;
    private final int maxField;
    private final long signBit;
    final double max;

    /**
     * @param ieee     the all-ones exponent holds infinity and NaNs (false: only S.1111.111 is NaN)
     * @param saturate finite results beyond the largest finite value become it, instead of infinity
     */
    NarrowFloatModel(DataType type, int exponentBits, int mantissaBits, boolean ieee, boolean saturate) {
        super(type);
        this.exponentBits = exponentBits;
        this.mantissaBits = mantissaBits;
        this.ieee = ieee;
        this.saturate = saturate;
        this.bias = (1 << (exponentBits - 1)) - 1;
        this.minExponent = 1 - bias;
        this.maxField = (1 << exponentBits) - 1;
        this.signBit = 1L << (exponentBits + mantissaBits);
        long maxCode = ieee ? ((long) maxField << mantissaBits) - 1
                : ((long) maxField << mantissaBits) | ((1L << mantissaBits) - 2);
        this.max = decode(maxCode);
    }

    int codes() {
        return 1 << (exponentBits + mantissaBits + 1);
    }

    @Override
    double decode(long raw) {
        int e = (int) (raw >>> mantissaBits) & maxField;
        long m = raw & ((1L << mantissaBits) - 1);
        double magnitude;
        if (ieee && e == maxField) {
            magnitude = m == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (!ieee && e == maxField && m == (1L << mantissaBits) - 1) {
            magnitude = Double.NaN;
        } else if (e == 0) {
            magnitude = m * Math.pow(2, minExponent - mantissaBits);
        } else {
            magnitude = (1 + m / Math.pow(2, mantissaBits)) * Math.pow(2, e - bias);
        }
        return (raw & signBit) != 0 ? -magnitude : magnitude;
    }

    @Override
    double round(double v) {
        if (Double.isNaN(v)) {
            return v;
        }
        if (Double.isInfinite(v)) {
            return ieee ? v : Math.copySign(max, v);
        }
        int e = Math.max(Math.getExponent(v), minExponent);
        double spacing = Math.scalb(1.0, e - mantissaBits);
        double q = Math.rint(v / spacing) * spacing;
        if (Math.abs(q) > max) {
            q = Math.copySign(saturate ? max : Double.POSITIVE_INFINITY, v);
        }
        return q;
    }

    @Override
    long encode(double q) {
        long sign = Double.doubleToRawLongBits(q) < 0 ? signBit : 0;
        double a = Math.abs(q);
        if (a == 0) {
            return sign;
        }
        if (Double.isInfinite(a)) {
            return sign | ((long) maxField << mantissaBits);
        }
        int e = Math.getExponent(a);
        double m;
        long field;
        if (e < minExponent) {
            m = a / Math.pow(2, minExponent - mantissaBits);
            field = 0;
        } else {
            m = (a / Math.pow(2, e) - 1) * Math.pow(2, mantissaBits);
            field = e + bias;
        }
        if (m != Math.rint(m)) {
            throw new AssertionError(q + " is not a " + type + " value");
        }
        return sign | (field << mantissaBits) | (long) m;
    }

    @Override
    long random(SplittableRandom r) {
        if (r.nextInt(2) == 0) {
            return r.nextLong(codes()); // every pattern: subnormals, infinities, NaNs
        }
        // Ordinary magnitudes, so that sums and products mostly land inside the range.
        int maxExponent = Math.getExponent(max);
        double v = r.nextGaussian() * Math.scalb(1.0, r.nextInt(minExponent, maxExponent - 1));
        return encode(round(v));
    }

    @Override
    long partner(long a, SplittableRandom r) {
        double x = decode(a);
        if (r.nextBoolean() && Double.isFinite(x) && x != 0) {
            // Half the spacing at x's magnitude puts x + partner exactly on a tie.
            int e = Math.max(Math.getExponent(x), minExponent);
            double half = Math.scalb(1.0, e - mantissaBits - 1);
            if (half >= Math.scalb(1.0, minExponent - mantissaBits)) {
                return encode(r.nextBoolean() ? half : -half);
            }
        }
        return random(r);
    }
}
