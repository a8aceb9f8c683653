// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.DataType;
import io.jccl.JcclException;
import io.jccl.RedOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The element-wise arithmetic of one reduction: a data type, an operation and the number of ranks
 * (which {@link RedOp#AVG} divides by). Instances are immutable and may be shared between threads.
 *
 * <p>A reduction step is {@code dst[i] = post(op(pre(a[i]), pre(b[i])))}: {@code pre} is the
 * multiplication by the scalar of {@link RedOp#preMulSum} (identity for every other op) and
 * {@code post} the division by {@code nranks} of {@link RedOp#AVG} (identity otherwise), so AVG
 * itself combines as a sum. Each flag says whether that operand still needs its stage, which lets
 * a schedule apply {@code pre} once to each rank's own input and {@code post} once at the end.
 *
 * <p>Semantics by type:
 * <ul>
 *   <li>Integers wrap as in C (two's complement). MIN and MAX compare unsigned for UINT8, UINT32
 *       and UINT64. AVG divides truncating towards zero (signed) or unsigned. PRE_MUL_SUM
 *       multiplies by the scalar converted to the type, which must hold it exactly (checked by
 *       {@link #of}).</li>
 *   <li>FLOAT32 and FLOAT64 use Java's float and double arithmetic; MIN and MAX follow
 *       {@link Math#min(double, double)}: a NaN operand gives NaN and -0 is below +0.</li>
 *   <li>FLOAT16, BFLOAT16, FLOAT8_E4M3 and FLOAT8_E5M2 compute in float and round every step's
 *       result (pre, op, post) to the type, nearest-even; the scalar is rounded to the type first.
 *       The 8-bit types saturate instead of overflowing; see {@link io.jccl.engine.FloatFormats} for the rules on
 *       infinities and NaN.</li>
 * </ul>
 *
 * <pre>{@code
 * Reduction mean = Reduction.of(DataType.FLOAT32, RedOp.AVG, 4);
 * // partial = partial + mine, element-wise, 1024 floats, in place
 * mean.combine(partial, 0, false, mine, 0, false, partial, 0, 1024, false);
 * // last step: out = (partial + last) / 4
 * mean.combine(partial, 0, false, last, 0, false, out, 0, 1024, true);
 * }</pre>
 */
public final class Reduction {
    /**
     * Heap operands go through native buffers of this size. Small enough to stay in cache, large
     * enough that the per-chunk copies cost little next to the arithmetic.
     */
    static final int STAGING_BYTES = 16 * 1024;

    private final DataType type;
    private final RedOp op;
    private final int nranks;
    private final boolean preMul;
    private final boolean average;
    private final Kernel kernel;

    /** Whether {@code pre} multiplies (preMulSum): then an input is never sent as it lies. */
    boolean preMultiplies() {
        return preMul;
    }

    private Reduction(DataType type, RedOp op, int nranks, Kernel kernel) {
        this.type = type;
        this.op = op;
        this.nranks = nranks;
        this.preMul = op.kind() == RedOp.Kind.PRE_MUL_SUM;
        this.average = op.kind() == RedOp.Kind.AVG;
        this.kernel = kernel;
    }

    /**
     * The reduction of {@code op} over {@code type} among {@code nranks} ranks.
     *
     * @throws JcclException (invalid argument) if {@code nranks < 1}, or if {@code op} is a
     *         pre-multiplied sum over an integer type whose scalar is not a whole number the type
     *         can hold
     */
    public static Reduction of(DataType type, RedOp op, int nranks) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(op, "op");
        if (nranks < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "nranks", "must be at least 1, was " + nranks);
        }
        double s = op.kind() == RedOp.Kind.PRE_MUL_SUM ? op.scalar() : 1;
        Kernel k = switch (type) {
            case INT8, UINT8 -> new Int8Kernel(type.isUnsigned(), IntegerScalars.convert(type, s), nranks);
            case INT32, UINT32 -> new Int32Kernel(type.isUnsigned(), IntegerScalars.convert(type, s), nranks);
            case INT64, UINT64 -> new Int64Kernel(type.isUnsigned(), IntegerScalars.convert(type, s), nranks);
            case FLOAT16 -> new Float16Kernel(s, nranks);
            case BFLOAT16 -> new BFloat16Kernel(s, nranks);
            case FLOAT32 -> VectorKernels.float32(s, nranks);
            case FLOAT64 -> VectorKernels.float64(s, nranks);
            case FLOAT8_E4M3 -> new Float8E4M3Kernel(s, nranks);
            case FLOAT8_E5M2 -> new Float8E5M2Kernel(s, nranks);
        };
        return new Reduction(type, op, nranks, k);
    }

    public DataType type() {
        return type;
    }

    public RedOp op() {
        return op;
    }

    public int nranks() {
        return nranks;
    }

    /**
     * For each {@code i} in {@code [0, count)}: {@code dst[i] = post?(op(pre?(a[i]), pre?(b[i])))},
     * or with {@code b == null} the unary {@code dst[i] = post?(pre?(a[i]))} (a plain copy when
     * neither stage applies). Offsets are in bytes, from the start of each segment; no alignment
     * is required. {@code dst} may be exactly {@code a} or {@code b} (same segment, same offset);
     * other overlaps give unspecified results.
     *
     * <p>Native segments run the arithmetic directly. Heap segments work too, staged chunk by
     * chunk through native memory allocated for the call (see {@link Kernel} for why).
     *
     * <pre>{@code
     * Reduction r = Reduction.of(DataType.BFLOAT16, RedOp.preMulSum(0.5), 2);
     * r.combine(x, 0, true, y, 0, true, out, 0, n, false);   // out = x*0.5 + y*0.5
     * r.combine(x, 0, true, null, 0, false, x, 0, n, false); // x = x*0.5, in place
     * }</pre>
     *
     * @param preA   apply the pre-multiplication to {@code a} (ignored unless PRE_MUL_SUM)
     * @param preB   apply the pre-multiplication to {@code b} (ignored unless PRE_MUL_SUM)
     * @param post   divide the result by {@code nranks} (ignored unless AVG)
     * @throws IndexOutOfBoundsException if a range falls outside its segment or count is negative
     */
    public void combine(MemorySegment a, long aOff, boolean preA, MemorySegment b, long bOff, boolean preB,
                        MemorySegment dst, long dstOff, long count, boolean post) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(dst, "dst");
        if (count < 0) {
            throw new IndexOutOfBoundsException("count " + count + " is negative");
        }
        long bytes = type.bytes(count);
        Objects.checkFromIndexSize(aOff, bytes, a.byteSize());
        Objects.checkFromIndexSize(dstOff, bytes, dst.byteSize());
        if (b != null) {
            Objects.checkFromIndexSize(bOff, bytes, b.byteSize());
        }
        preA &= preMul;
        preB &= preMul && b != null;
        post &= average;
        if (count == 0) {
            return;
        }
        if (b == null && !preA && !post) {
            MemorySegment.copy(a, aOff, dst, dstOff, bytes);
        } else if (a.isNative() && dst.isNative() && (b == null || b.isNative())) {
            run(a, aOff, preA, b, bOff, preB, dst, dstOff, count, post);
        } else {
            staged(a, aOff, preA, b, bOff, preB, dst, dstOff, count, post);
        }
    }

    /** One call into the kernel; all segments native. The flags are already masked by the op. */
    private void run(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                     MemorySegment d, long dO, long n, boolean post) {
        if (b == null) {
            if (preA) {
                kernel.scale(a, ao, d, dO, n);
            } else {
                kernel.div(a, ao, d, dO, n);
            }
            return;
        }
        switch (op.kind()) {
            case SUM -> kernel.sum(a, ao, b, bo, d, dO, n);
            case PROD -> kernel.prod(a, ao, b, bo, d, dO, n);
            case MIN -> kernel.min(a, ao, b, bo, d, dO, n);
            case MAX -> kernel.max(a, ao, b, bo, d, dO, n);
            case AVG -> {
                if (post) {
                    kernel.sumDiv(a, ao, b, bo, d, dO, n);
                } else {
                    kernel.sum(a, ao, b, bo, d, dO, n);
                }
            }
            case PRE_MUL_SUM -> {
                if (preA || preB) {
                    kernel.preMulSum(a, ao, preA, b, bo, preB, d, dO, n);
                } else {
                    kernel.sum(a, ao, b, bo, d, dO, n);
                }
            }
        }
    }

    /**
     * Copies each heap operand's chunk into a native buffer, runs the kernel there, and copies the
     * result back if {@code dst} is on the heap. Reading a chunk of every input before writing that
     * chunk of {@code dst} keeps the exact-alias case ({@code dst == a}) correct.
     */
    private void staged(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                        MemorySegment d, long dO, long n, boolean post) {
        int size = type.size();
        long chunk = STAGING_BYTES / size;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = a.isNative() ? null : arena.allocate(STAGING_BYTES, 64);
            MemorySegment sb = b == null || b.isNative() ? null : arena.allocate(STAGING_BYTES, 64);
            MemorySegment sd = d.isNative() ? null : arena.allocate(STAGING_BYTES, 64);
            for (long done = 0; done < n; done += chunk) {
                long m = Math.min(chunk, n - done);
                long at = done * size;
                long len = m * size;
                if (sa != null) {
                    MemorySegment.copy(a, ao + at, sa, 0, len);
                }
                if (sb != null) {
                    MemorySegment.copy(b, bo + at, sb, 0, len);
                }
                run(sa != null ? sa : a, sa != null ? 0 : ao + at, preA,
                        sb != null ? sb : b, sb != null ? 0 : bo + at, preB,
                        sd != null ? sd : d, sd != null ? 0 : dO + at, m, post);
                if (sd != null) {
                    MemorySegment.copy(sd, 0, d, dO + at, len);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "Reduction[" + type + ", " + op + ", nranks=" + nranks + "]";
    }
}
