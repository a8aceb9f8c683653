// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import io.jccl.RedOp;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;

/** Integers as unbounded BigIntegers, wrapped modulo 2^bits after every step. */
final class IntModel extends TypeModel {
    private final int bits;
    private final boolean unsigned;
    private final BigInteger modulus;
    private final long mask;

    IntModel(DataType type, int bits, boolean unsigned) {
        super(type);
        this.bits = bits;
        this.unsigned = unsigned;
        this.modulus = BigInteger.ONE.shiftLeft(bits);
        this.mask = bits == 64 ? -1L : (1L << bits) - 1;
    }

    /** The number a raw pattern stands for in this type. */
    BigInteger value(long raw) {
        BigInteger v = new BigInteger(Long.toUnsignedString(raw & mask));
        return !unsigned && v.testBit(bits - 1) ? v.subtract(modulus) : v;
    }

    /** Two's complement wrap of any integer into this type's raw pattern. */
    long wrap(BigInteger v) {
        return v.mod(modulus).longValue() & mask;
    }

    @Override
    long random(SplittableRandom r) {
        if (r.nextInt(4) == 0) {
            long signedMin = 1L << (bits - 1);
            long[] edges = {0, 1, 2, 3, -1L & mask, signedMin, signedMin - 1, signedMin + 1, mask - 1};
            return edges[r.nextInt(edges.length)];
        }
        return r.nextLong() & mask;
    }

    @Override
    long partner(long a, SplittableRandom r) {
        // The negation makes a sum wrap to exactly zero; a - 1 sits next to a for min/max.
        return switch (r.nextInt(3)) {
            case 0 -> wrap(value(a).negate());
            case 1 -> (a - 1) & mask;
            default -> random(r);
        };
    }

    @Override
    Expected expected(RedOp op, int nranks, long a, boolean hasB, long b, boolean preA, boolean preB, boolean post) {
        RedOp.Kind kind = op.kind();
        boolean pre = kind == RedOp.Kind.PRE_MUL_SUM;
        BigInteger scalar = pre ? new BigDecimal(op.scalar()).toBigIntegerExact() : BigInteger.ONE;
        BigInteger x = value(a);
        if (pre && preA) {
            x = value(wrap(x.multiply(scalar)));
        }
        BigInteger v = x;
        if (hasB) {
            BigInteger y = value(b);
            if (pre && preB) {
                y = value(wrap(y.multiply(scalar)));
            }
            v = switch (kind) {
                case SUM, AVG, PRE_MUL_SUM -> value(wrap(x.add(y)));
                case PROD -> value(wrap(x.multiply(y)));
                case MIN -> x.min(y);
                case MAX -> x.max(y);
            };
        }
        if (kind == RedOp.Kind.AVG && post) {
            v = v.divide(BigInteger.valueOf(nranks)); // BigInteger truncates towards zero, like C
        }
        return Expected.bits(wrap(v));
    }

    @Override
    boolean isNaN(long raw) {
        return false;
    }

    @Override
    String show(long raw) {
        return "0x" + Long.toHexString(raw & mask) + " (" + value(raw) + ")";
    }
}
