// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.engine.FloatFormats;

/**
 * The {@code scalar} word of a work descriptor: a preMulSum scalar as the host engine's kernels
 * hold it (the host engine's Reduction), so that the device multiplies by the same value.
 * Integers: the two's-complement bits of the whole number (Reduction.of has refused any other);
 * float32: the float's bits; float64: the double's; the 16- and 8-bit formats: the bits of the
 * float the scalar rounds to in the format (rounded to odd into float first, as the host does).
 */
final class DeviceScalars {
    private DeviceScalars() {
    }

    private static final double TWO_POW_63 = 0x1p63;

    static long bits(DataType type, RedOp op) {
        if (op == null || op.kind() != RedOp.Kind.PRE_MUL_SUM) {
            return 0;
        }
        double s = op.scalar();
        float odd = FloatFormats.toFloatRoundOdd(s);
        return switch (type) {
            case INT8, UINT8, INT32, UINT32, INT64, UINT64 ->
                    s >= TWO_POW_63 ? (long) (s - TWO_POW_63) ^ Long.MIN_VALUE : (long) s;
            case FLOAT32 -> Float.floatToRawIntBits((float) s) & 0xFFFF_FFFFL;
            case FLOAT64 -> Double.doubleToRawLongBits(s);
            case FLOAT16 -> floatBits(Float.float16ToFloat(Float.floatToFloat16(odd)));
            case BFLOAT16 -> floatBits(FloatFormats.bfloat16ToFloat(FloatFormats.floatToBfloat16(odd)));
            case FLOAT8_E4M3 -> floatBits(FloatFormats.e4m3ToFloat(FloatFormats.floatToE4m3(odd)));
            case FLOAT8_E5M2 -> floatBits(FloatFormats.e5m2ToFloat(FloatFormats.floatToE5m2(odd)));
        };
    }

    private static long floatBits(float f) {
        return Float.floatToRawIntBits(f) & 0xFFFF_FFFFL;
    }
}
