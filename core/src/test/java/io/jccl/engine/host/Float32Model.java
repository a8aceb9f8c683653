// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import java.util.SplittableRandom;

/** FLOAT32: results computed in double and rounded once to float (exact enough, see FloatModel). */
final class Float32Model extends FloatModel {
    private static final float[] EDGES = {0f, -0f, 1f, -1f, 3f, 0.5f, 0x1p24f, 0x1p24f + 2, Float.MIN_VALUE,
        Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};

    Float32Model() {
        super(DataType.FLOAT32);
    }

    @Override
    double decode(long raw) {
        return Float.intBitsToFloat((int) raw);
    }

    @Override
    double round(double v) {
        return (float) v;
    }

    @Override
    long encode(double v) {
        return Float.floatToRawIntBits((float) v) & 0xFFFF_FFFFL;
    }

    @Override
    long random(SplittableRandom r) {
        return switch (r.nextInt(10)) {
            case 0 -> encode(EDGES[r.nextInt(EDGES.length)]);
            case 1, 2, 3 -> r.nextLong(1L << 32);
            default -> encode(round(r.nextGaussian() * Math.scalb(1.0, r.nextInt(-30, 30))));
        };
    }

    @Override
    long partner(long a, SplittableRandom r) {
        float x = Float.intBitsToFloat((int) a);
        if (r.nextBoolean() && Float.isFinite(x) && x != 0) {
            float half = Math.ulp(x) / 2; // x + half is exactly a tie
            if (half != 0) {
                return encode(r.nextBoolean() ? half : -half);
            }
        }
        return random(r);
    }
}
