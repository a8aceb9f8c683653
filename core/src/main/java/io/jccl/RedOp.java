// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import java.util.Objects;

/**
 * A reduction operation ({@code ncclRedOp_t}): sum, prod, min, max, avg, or a pre-multiplied sum.
 *
 * <p>{@code AVG} sums and then divides by the number of ranks (integers divide with truncation
 * towards zero, as C does). {@link #preMulSum(double)} multiplies every rank's input by a scalar
 * before summing, as {@code ncclRedOpCreatePreMulSum} does.
 *
 * <p>Two ranks average their gradients both ways (rank 0's are 1, rank 1's are 2):
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="red-op"}
 */
public final class RedOp {
    /** What an operation computes. */
    public enum Kind { SUM, PROD, MAX, MIN, AVG, PRE_MUL_SUM }

    public static final RedOp SUM = new RedOp(Kind.SUM, 0);
    public static final RedOp PROD = new RedOp(Kind.PROD, 0);
    public static final RedOp MAX = new RedOp(Kind.MAX, 0);
    public static final RedOp MIN = new RedOp(Kind.MIN, 0);
    public static final RedOp AVG = new RedOp(Kind.AVG, 0);

    private final Kind kind;
    private final double scalar;

    private RedOp(Kind kind, double scalar) {
        this.kind = kind;
        this.scalar = scalar;
    }

    /**
     * Sum of the inputs, each multiplied first by {@code scalar}. With an integer data type the
     * scalar must be a whole number that the type can hold; that is checked when the call is made.
     */
    public static RedOp preMulSum(double scalar) {
        if (!Double.isFinite(scalar)) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "scalar", "must be finite, was " + scalar);
        }
        return new RedOp(Kind.PRE_MUL_SUM, scalar);
    }

    public Kind kind() {
        return kind;
    }

    /** The multiplier of a {@link Kind#PRE_MUL_SUM}; 0 for the other kinds. */
    public double scalar() {
        return scalar;
    }

    /** The {@code ncclRedOp_t} value (pre-multiplied sums are dynamic ops in NCCL: 5 and up). */
    public int ncclValue() {
        return switch (kind) {
            case SUM -> 0;
            case PROD -> 1;
            case MAX -> 2;
            case MIN -> 3;
            case AVG -> 4;
            case PRE_MUL_SUM -> 5;
        };
    }

    /** Parses {@code sum}, {@code prod}, {@code min}, {@code max}, {@code avg} (case-insensitive). */
    public static RedOp parse(String name) {
        return switch (name.trim().toLowerCase()) {
            case "sum" -> SUM;
            case "prod" -> PROD;
            case "max" -> MAX;
            case "min" -> MIN;
            case "avg" -> AVG;
            default -> throw JcclException.invalidArgument(JcclException.NO_RANK, "op",
                    "'" + name + "' is not a reduction (sum, prod, min, max, avg)");
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedOp r && r.kind == kind && Double.compare(r.scalar, scalar) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, scalar);
    }

    @Override
    public String toString() {
        return kind == Kind.PRE_MUL_SUM ? "preMulSum(" + scalar + ")" : kind.name().toLowerCase();
    }
}
