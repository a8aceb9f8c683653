// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import io.jccl.RedOp;

/**
 * Floating-point semantics shared by every float type: values are doubles, and each step's exact
 * (or double) result is rounded to the type by {@link #round}. For the types narrower than double,
 * rounding a double result is the same as rounding the exact one (double holds more than twice
 * their precision plus two bits), so this is an independent route to the bits that the float
 * arithmetic of the code under test must produce.
 */
abstract class FloatModel extends TypeModel {
    FloatModel(DataType type) {
        super(type);
    }

    abstract double decode(long raw);

    /** The nearest value of the type (ties to even, with the type's overflow rule). */
    abstract double round(double v);

    /** The raw pattern of a value the type holds exactly (never NaN). */
    abstract long encode(double representable);

    double add(double x, double y) {
        return round(x + y);
    }

    double mul(double x, double y) {
        return round(x * y);
    }

    double div(double x, int n) {
        return round(x / n);
    }

    /** Math.min's rule written out: NaN wins, -0 is below +0. */
    static double min(double x, double y) {
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.NaN;
        }
        if (x == 0 && y == 0) {
            return Double.doubleToRawLongBits(x) < 0 ? x : y;
        }
        return x < y ? x : y;
    }

    static double max(double x, double y) {
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.NaN;
        }
        if (x == 0 && y == 0) {
            return Double.doubleToRawLongBits(x) < 0 ? y : x;
        }
        return x > y ? x : y;
    }

    @Override
    Expected expected(RedOp op, int nranks, long a, boolean hasB, long b, boolean preA, boolean preB, boolean post) {
        RedOp.Kind kind = op.kind();
        boolean pre = kind == RedOp.Kind.PRE_MUL_SUM;
        boolean avg = kind == RedOp.Kind.AVG;
        if (!hasB && !(pre && preA) && !(avg && post)) {
            return Expected.bits(a); // a copy keeps every bit, NaN payloads included
        }
        double scalar = round(op.scalar());
        double x = decode(a);
        if (pre && preA) {
            x = mul(x, scalar);
        }
        double v = x;
        if (hasB) {
            double y = decode(b);
            if (pre && preB) {
                y = mul(y, scalar);
            }
            v = switch (kind) {
                case SUM, AVG, PRE_MUL_SUM -> add(x, y);
                case PROD -> mul(x, y);
                case MIN -> min(x, y);
                case MAX -> max(x, y);
            };
        }
        if (avg && post) {
            v = div(v, nranks);
        }
        return Double.isNaN(v) ? Expected.NAN : Expected.bits(encode(v));
    }

    @Override
    boolean isNaN(long raw) {
        return Double.isNaN(decode(raw));
    }

    @Override
    String show(long raw) {
        return "0x" + Long.toHexString(raw) + " (" + decode(raw) + ")";
    }
}
