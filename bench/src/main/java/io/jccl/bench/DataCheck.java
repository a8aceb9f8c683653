// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.Collective;

import java.lang.foreign.MemorySegment;

/**
 * The #wrong column: inputs made of small whole numbers chosen so that the collective's result is
 * exact in the type whatever order the library combines them in (sums and products stay within
 * the range where every whole number is representable, so no partial result rounds or
 * overflows), and a count of the output elements whose bits differ from the result computed here,
 * independently, from the same inputs.
 *
 * <p>Rank r's input element j holds {@code value(r, j)}. Outputs are first filled with all-ones
 * bits, which no expected result has (a NaN for the floating-point types, and a value above every
 * input for the integers), so an element the library never wrote counts as wrong.
 */
final class DataCheck {
    /** Largest input sum used even where the type holds more: the values need no more. */
    private static final long CAP = 1L << 40;

    private final Collective collective;
    private final DataType type;
    private final RedOp op;
    private final int n;
    private final int root;
    private final long count;
    /** Largest whole number w such that 0..w are all exact in the type (and below all-ones). */
    private final long exact;
    /** Largest e such that 2^e is exact in the type. */
    private final int maxPow2;

    DataCheck(Collective collective, DataType type, RedOp op, int nranks, int root, long count) {
        this.collective = collective;
        this.type = type;
        if (collective.reduces() && op.kind() == RedOp.Kind.PRE_MUL_SUM) {
            throw new IllegalArgumentException("the check has no exact inputs for " + op);
        }
        this.op = collective.reduces() ? op : null;
        this.n = nranks;
        this.root = root;
        this.count = count;
        this.exact = exactWholeNumbers(type);
        this.maxPow2 = exactPowersOfTwo(type);
    }

    static long exactWholeNumbers(DataType t) {
        return switch (t) {
            case INT8 -> 127;
            case UINT8 -> 254;
            case FLOAT8_E5M2 -> 8;
            case FLOAT8_E4M3 -> 16;
            case BFLOAT16 -> 256;
            case FLOAT16 -> 2048;
            case FLOAT32 -> 1 << 24;
            case INT32, UINT32 -> 1 << 30;
            case INT64, UINT64, FLOAT64 -> CAP;
        };
    }

    static int exactPowersOfTwo(DataType t) {
        return switch (t) {
            case INT8 -> 6;
            case UINT8 -> 7;
            case FLOAT8_E4M3 -> 8;
            case FLOAT8_E5M2, FLOAT16 -> 15;
            case INT32 -> 30;
            case UINT32 -> 31;
            // The expected product is computed in a long.
            case INT64, UINT64, FLOAT32, FLOAT64, BFLOAT16 -> 62;
        };
    }

    /** Rank {@code r}'s input element {@code j}: a small whole number. */
    long value(int r, long j) {
        if (op == null) {
            return (r * 37L + j) % (exact + 1);
        }
        return switch (op.kind()) {
            case SUM, AVG -> {
                long perRank = exact / n;
                if (perRank >= 1) {
                    yield ((j % (perRank + 1)) * 7 + r * 13L) % (perRank + 1);
                }
                // Fewer exact numbers than ranks: element j's sum is c = j mod (exact+1), made of
                // c ones spread over the ranks.
                long c = j % (exact + 1);
                yield (r + j) % n < c ? 1 : 0;
            }
            case PROD -> {
                // Element j's product is 2^c: c of the ranks contribute a two, the others a one.
                long c = j % (Math.min(n, maxPow2) + 1);
                yield (r + j) % n < c ? 2 : 1;
            }
            case MIN, MAX -> (j * 5 + r * 3L) % 9;
            case PRE_MUL_SUM -> throw new IllegalStateException();
        };
    }

    /** Writes rank {@code rank}'s input into {@code in} ({@code elements} of them). */
    void fillInput(int rank, MemorySegment in, long elements) {
        for (long j = 0; j < elements; j++) {
            ElementBits.set(type, in, j, ElementBits.ofWhole(type, value(rank, j)));
        }
    }

    /** Marks every byte of an output so that an element left unwritten reads as wrong. */
    static void poison(MemorySegment out) {
        out.fill((byte) 0xFF);
    }

    /** The number of elements of rank {@code rank}'s output that differ from the expected result. */
    long countWrong(int rank, MemorySegment out) {
        long elements = collective.outputCount(count, n, rank, root);
        long wrong = 0;
        for (long e = 0; e < elements; e++) {
            if (ElementBits.get(type, out, e) != expected(rank, e)) {
                wrong++;
            }
        }
        return wrong;
    }

    /** The bits rank {@code r}'s output element {@code e} must hold. */
    long expected(int r, long e) {
        long b = count == 0 ? 0 : e / count;
        long i = count == 0 ? 0 : e % count;
        return switch (collective) {
            case ALL_REDUCE, REDUCE -> reduced(e);
            case REDUCE_SCATTER -> reduced(r * count + e);
            case BROADCAST -> ElementBits.ofWhole(type, value(root, e));
            case ALL_GATHER, GATHER -> ElementBits.ofWhole(type, value((int) b, i));
            case ALL_TO_ALL -> ElementBits.ofWhole(type, value((int) b, r * count + i));
            case SCATTER -> ElementBits.ofWhole(type, value(root, r * count + e));
            case SEND_RECV -> ElementBits.ofWhole(type, value((r - 1 + n) % n, e));
        };
    }

    private long reduced(long j) {
        long acc = value(0, j);
        for (int r = 1; r < n; r++) {
            long v = value(r, j);
            acc = switch (op.kind()) {
                case SUM, AVG -> acc + v;
                case PROD -> acc * v;
                case MIN -> Math.min(acc, v);
                case MAX -> Math.max(acc, v);
                case PRE_MUL_SUM -> throw new IllegalStateException();
            };
        }
        if (op.kind() != RedOp.Kind.AVG) {
            return ElementBits.ofWhole(type, acc);
        }
        // AVG divides the exact sum once: integers truncate; floating types divide in their
        // compute precision (double for float64, float for the rest) and round to the type.
        return switch (type) {
            case FLOAT64 -> ElementBits.ofReal(type, (double) acc / n);
            case FLOAT32, FLOAT16, BFLOAT16, FLOAT8_E4M3, FLOAT8_E5M2 -> ElementBits.ofReal(type, (float) acc / (float) n);
            default -> ElementBits.ofWhole(type, acc / n);
        };
    }
}
