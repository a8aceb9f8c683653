// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import io.jccl.JcclException;

/**
 * Brings the {@code double} scalar of a pre-multiplied sum into an integer type. NCCL takes the
 * scalar in the data type itself, so only values that type can hold exactly are meaningful; a
 * fractional or out-of-range scalar is refused rather than silently truncated or wrapped.
 */
final class IntegerScalars {
    private IntegerScalars() {
    }

    private static final double TWO_POW_63 = 0x1p63;
    private static final double TWO_POW_64 = 0x1p64;

    /**
     * The scalar's bit pattern in a long (unsigned types above {@link Long#MAX_VALUE} come out
     * negative, as two's complement would store them); multiplying by it then wraps correctly.
     */
    static long convert(DataType type, double s) {
        if (s != Math.rint(s)) {
            throw refuse(type, s, "is not a whole number");
        }
        double lo;
        double hiExclusive;
        switch (type) {
            case INT8 -> { lo = Byte.MIN_VALUE; hiExclusive = Byte.MAX_VALUE + 1.0; }
            case UINT8 -> { lo = 0; hiExclusive = 256; }
            case INT32 -> { lo = Integer.MIN_VALUE; hiExclusive = Integer.MAX_VALUE + 1.0; }
            case UINT32 -> { lo = 0; hiExclusive = 0x1p32; }
            case INT64 -> { lo = -TWO_POW_63; hiExclusive = TWO_POW_63; }
            case UINT64 -> { lo = 0; hiExclusive = TWO_POW_64; }
            default -> throw new IllegalArgumentException(type + " is not an integer type");
        }
        if (s < lo || s >= hiExclusive) {
            throw refuse(type, s, "does not fit in " + type);
        }
        // (long) saturates at 2^63 - 1, so the top half of UINT64 is shifted down, converted and
        // shifted back by flipping the sign bit (s - 2^63 is exact for s in [2^63, 2^64)).
        return s >= TWO_POW_63 ? (long) (s - TWO_POW_63) ^ Long.MIN_VALUE : (long) s;
    }

    private static JcclException refuse(DataType type, double s, String why) {
        return JcclException.invalidArgument(JcclException.NO_RANK, "op",
                "preMulSum scalar " + s + " " + why + "; with " + type + " it must be a whole number the type can hold");
    }
}
