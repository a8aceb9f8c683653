// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Vector API kernels against the scalar ones they replace, element by element: the same bits
 * (any NaN where the scalar loop gives a NaN), for every operation they override, random values
 * mixed with NaN, infinities and signed zeros, byte offsets that break every alignment, counts
 * from 0 to past several vectors, and in place. The build's test JVMs resolve
 * jdk.incubator.vector (surefire's argLine), so they must find the module.
 */
class VectorKernelsTest {
    private static final float[] SPECIAL_F = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f,
        Float.MIN_VALUE, Float.MAX_VALUE, 1f};
    private static final double[] SPECIAL_D = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0d, -0d,
        Double.MIN_VALUE, Double.MAX_VALUE, 1d};

    private enum Op { SUM, PROD, MIN, MAX, SUM_DIV, PRE_MUL_A, PRE_MUL_B, PRE_MUL_BOTH }

    @Test
    void theTestJvmResolvesTheModuleAndReductionsUseIt() {
        assertThat(VectorKernels.AVAILABLE).isTrue();
        assertThat(VectorKernels.float32(1, 2)).isInstanceOf(VectorFloat32Kernel.class);
        assertThat(VectorKernels.float64(1, 2)).isInstanceOf(VectorFloat64Kernel.class);
    }

    @Test
    void float32MatchesTheScalarLoop() {
        compare(4, new Float32Kernel(1 / 3.0, 3), new VectorFloat32Kernel(1 / 3.0, 3));
    }

    @Test
    void float64MatchesTheScalarLoop() {
        compare(8, new Float64Kernel(1 / 3.0, 7), new VectorFloat64Kernel(1 / 3.0, 7));
    }

    private static void compare(int es, Kernel scalar, Kernel vector) {
        SplittableRandom rnd = new SplittableRandom(0x7EC7);
        int[] counts = {0, 1, 3, 7, 8, 15, 16, 17, 31, 33, 64, 67, 1000, 4099};
        try (Arena arena = Arena.ofConfined()) {
            for (int count : counts) {
                for (int shift = 0; shift < 4; shift++) {
                    long bytes = (long) count * es + 16;
                    MemorySegment a = arena.allocate(bytes);
                    MemorySegment b = arena.allocate(bytes);
                    fill(a, es, rnd);
                    fill(b, es, rnd);
                    for (Op op : Op.values()) {
                        for (int alias = 0; alias < 3; alias++) {
                            long ao = shift;
                            long bo = (shift * 3) % 8;
                            long dO = alias == 1 ? ao : alias == 2 ? bo : (shift + 5) % 8;
                            MemorySegment a1 = copy(arena, a);
                            MemorySegment b1 = copy(arena, b);
                            MemorySegment a2 = copy(arena, a);
                            MemorySegment b2 = copy(arena, b);
                            MemorySegment d1 = alias == 1 ? a1 : alias == 2 ? b1 : arena.allocate(bytes);
                            MemorySegment d2 = alias == 1 ? a2 : alias == 2 ? b2 : arena.allocate(bytes);
                            run(scalar, op, a1, ao, b1, bo, d1, dO, count);
                            run(vector, op, a2, ao, b2, bo, d2, dO, count);
                            for (int i = 0; i < count; i++) {
                                long o = dO + (long) i * es;
                                if (!same(es, d1, d2, o)) {
                                    fail("%s %s count %d shift %d alias %d element %d: scalar %s, vector %s", es == 4 ? "float32" : "float64",
                                            op, count, shift, alias, i, value(es, d1, o), value(es, d2, o));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static void run(Kernel k, Op op, MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, int n) {
        switch (op) {
            case SUM -> k.sum(a, ao, b, bo, d, dO, n);
            case PROD -> k.prod(a, ao, b, bo, d, dO, n);
            case MIN -> k.min(a, ao, b, bo, d, dO, n);
            case MAX -> k.max(a, ao, b, bo, d, dO, n);
            case SUM_DIV -> k.sumDiv(a, ao, b, bo, d, dO, n);
            case PRE_MUL_A -> k.preMulSum(a, ao, true, b, bo, false, d, dO, n);
            case PRE_MUL_B -> k.preMulSum(a, ao, false, b, bo, true, d, dO, n);
            case PRE_MUL_BOTH -> k.preMulSum(a, ao, true, b, bo, true, d, dO, n);
        }
    }

    private static void fill(MemorySegment s, int es, SplittableRandom rnd) {
        for (long o = 0; o + es <= s.byteSize(); o += es) {
            boolean special = rnd.nextInt(8) == 0;
            if (es == 4) {
                s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, o,
                        special ? SPECIAL_F[rnd.nextInt(SPECIAL_F.length)] : (float) ((rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(-20, 20))));
            } else {
                s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, o,
                        special ? SPECIAL_D[rnd.nextInt(SPECIAL_D.length)] : (rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(-60, 60)));
            }
        }
    }

    private static MemorySegment copy(Arena arena, MemorySegment s) {
        return arena.allocate(s.byteSize()).copyFrom(s);
    }

    private static boolean same(int es, MemorySegment x, MemorySegment y, long o) {
        if (es == 4) {
            float p = x.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o);
            float q = y.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o);
            return Float.isNaN(p) ? Float.isNaN(q) : Float.floatToRawIntBits(p) == Float.floatToRawIntBits(q);
        }
        double p = x.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o);
        double q = y.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o);
        return Double.isNaN(p) ? Double.isNaN(q) : Double.doubleToRawLongBits(p) == Double.doubleToRawLongBits(q);
    }

    private static String value(int es, MemorySegment s, long o) {
        return es == 4 ? String.valueOf(s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o))
                : String.valueOf(s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o));
    }
}
