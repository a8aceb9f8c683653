// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;

/**
 * FLOAT64: finite results computed exactly in BigDecimal and rounded by
 * {@link BigDecimal#doubleValue()} (correctly rounded, ties to even); IEEE rules for the specials
 * and for the sign of an exact zero.
 */
final class Float64Model extends FloatModel {
    /** Enough digits that x / n, if it does not terminate, cannot be confused with a tie. */
    private static final MathContext QUOTIENT = new MathContext(1100, RoundingMode.HALF_EVEN);
    private static final double[] EDGES = {0d, -0d, 1d, -1d, 3d, 0.5d, 0x1p53, 0x1p53 + 2, Double.MIN_VALUE,
        Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN};

    Float64Model() {
        super(DataType.FLOAT64);
    }

    @Override
    double decode(long raw) {
        return Double.longBitsToDouble(raw);
    }

    @Override
    double round(double v) {
        return v;
    }

    @Override
    long encode(double v) {
        return Double.doubleToRawLongBits(v);
    }

    @Override
    double add(double x, double y) {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            return x + y;
        }
        BigDecimal s = new BigDecimal(x).add(new BigDecimal(y));
        if (s.signum() == 0) {
            // IEEE: an exact zero sum is +0 unless both addends are -0.
            return Double.doubleToRawLongBits(x) < 0 && Double.doubleToRawLongBits(y) < 0 ? -0.0 : 0.0;
        }
        return s.doubleValue();
    }

    @Override
    double mul(double x, double y) {
        if (!Double.isFinite(x) || !Double.isFinite(y) || x == 0 || y == 0) {
            return x * y;
        }
        return new BigDecimal(x).multiply(new BigDecimal(y)).doubleValue();
    }

    @Override
    double div(double x, int n) {
        if (!Double.isFinite(x) || x == 0) {
            return x / n;
        }
        return new BigDecimal(x).divide(new BigDecimal(n), QUOTIENT).doubleValue();
    }

    @Override
    long random(SplittableRandom r) {
        return switch (r.nextInt(10)) {
            case 0 -> encode(EDGES[r.nextInt(EDGES.length)]);
            case 1, 2, 3 -> r.nextLong();
            default -> encode(r.nextGaussian() * Math.scalb(1.0, r.nextInt(-60, 60)));
        };
    }

    @Override
    long partner(long a, SplittableRandom r) {
        double x = Double.longBitsToDouble(a);
        if (r.nextBoolean() && Double.isFinite(x) && x != 0) {
            double half = Math.ulp(x) / 2;
            if (half != 0) {
                return encode(r.nextBoolean() ? half : -half);
            }
        }
        return random(r);
    }
}
