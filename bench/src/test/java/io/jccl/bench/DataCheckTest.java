// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.Collective;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check against reference outputs built here from the filled inputs with plain float and int
 * arithmetic: right outputs count no wrong element, and each kind of damage is counted.
 */
class DataCheckTest {
    private static final int N = 3;
    private static final long COUNT = 50;
    private static final int ROOT = 1;

    private final Arena arena = Arena.ofAuto();

    /** Each rank's filled input, as the check fills it. */
    private MemorySegment[] inputs(DataCheck check, Collective c, DataType t) {
        MemorySegment[] in = new MemorySegment[N];
        for (int r = 0; r < N; r++) {
            long elements = c.inputCount(COUNT, N, r, ROOT);
            in[r] = arena.allocate(Math.max(1, t.bytes(elements)));
            check.fillInput(r, in[r], elements);
        }
        return in;
    }

    private static float f(MemorySegment s, long i) {
        return s.get(ValueLayout.JAVA_FLOAT, i * 4);
    }

    /** What rank r's output must be, computed from the inputs with float arithmetic (sum). */
    private MemorySegment referenceFloatSum(Collective c, MemorySegment[] in, int r) {
        long elements = c.outputCount(COUNT, N, r, ROOT);
        MemorySegment out = arena.allocate(Math.max(1, elements * 4));
        for (long e = 0; e < elements; e++) {
            long b = e / COUNT;
            long i = e % COUNT;
            float v = switch (c) {
                case ALL_REDUCE, REDUCE -> f(in[0], e) + f(in[1], e) + f(in[2], e);
                case REDUCE_SCATTER -> f(in[0], r * COUNT + e) + f(in[1], r * COUNT + e) + f(in[2], r * COUNT + e);
                case BROADCAST -> f(in[ROOT], e);
                case ALL_GATHER, GATHER -> f(in[(int) b], i);
                case ALL_TO_ALL -> f(in[(int) b], r * COUNT + i);
                case SCATTER -> f(in[ROOT], r * COUNT + e);
                case SEND_RECV -> f(in[(r + N - 1) % N], e);
            };
            out.set(ValueLayout.JAVA_FLOAT, e * 4, v);
        }
        return out;
    }

    @Test
    void rightOutputsHaveNoWrongElementAndDamageIsCounted() {
        for (Collective c : Collective.values()) {
            DataCheck check = new DataCheck(c, DataType.FLOAT32, RedOp.SUM, N, ROOT, COUNT);
            MemorySegment[] in = inputs(check, c, DataType.FLOAT32);
            for (int r = 0; r < N; r++) {
                MemorySegment out = referenceFloatSum(c, in, r);
                assertThat(check.countWrong(r, out)).as("%s rank %d", c, r).isZero();
                if (c.outputCount(COUNT, N, r, ROOT) == 0) {
                    continue;
                }
                out.set(ValueLayout.JAVA_FLOAT, 4 * 7, f(out, 7) + 1);
                assertThat(check.countWrong(r, out)).as("%s rank %d, one element off by one", c, r).isEqualTo(1);
                DataCheck.poison(out.asSlice(4 * 10, 4 * 3));
                assertThat(check.countWrong(r, out)).as("%s rank %d, three elements unwritten", c, r).isEqualTo(4);
            }
        }
    }

    @Test
    void inputsVaryWithRankAndIndexSoMisplacedBlocksShow() {
        DataCheck check = new DataCheck(Collective.ALL_GATHER, DataType.FLOAT32, RedOp.SUM, N, ROOT, COUNT);
        MemorySegment[] in = inputs(check, Collective.ALL_GATHER, DataType.FLOAT32);
        MemorySegment out = referenceFloatSum(Collective.ALL_GATHER, in, 0);
        // Swap the blocks of ranks 0 and 1: every element of both is now wrong.
        MemorySegment copy = arena.allocate(COUNT * 4);
        copy.copyFrom(out.asSlice(0, COUNT * 4));
        out.asSlice(0, COUNT * 4).copyFrom(out.asSlice(COUNT * 4, COUNT * 4));
        out.asSlice(COUNT * 4, COUNT * 4).copyFrom(copy);
        assertThat(check.countWrong(0, out)).isEqualTo(2 * COUNT);
    }

    @Test
    void integerReductionsMatchPlainArithmetic() {
        for (RedOp op : new RedOp[] {RedOp.SUM, RedOp.PROD, RedOp.MIN, RedOp.MAX, RedOp.AVG}) {
            DataCheck check = new DataCheck(Collective.ALL_REDUCE, DataType.INT32, op, N, ROOT, COUNT);
            MemorySegment[] in = inputs(check, Collective.ALL_REDUCE, DataType.INT32);
            MemorySegment out = arena.allocate(COUNT * 4);
            for (long e = 0; e < COUNT; e++) {
                int a = in[0].get(ValueLayout.JAVA_INT, e * 4);
                int b = in[1].get(ValueLayout.JAVA_INT, e * 4);
                int d = in[2].get(ValueLayout.JAVA_INT, e * 4);
                int v = switch (op.kind()) {
                    case SUM -> a + b + d;
                    case PROD -> a * b * d;
                    case MIN -> Math.min(a, Math.min(b, d));
                    case MAX -> Math.max(a, Math.max(b, d));
                    case AVG -> (a + b + d) / N;
                    case PRE_MUL_SUM -> throw new IllegalStateException();
                };
                out.set(ValueLayout.JAVA_INT, e * 4, v);
            }
            assertThat(check.countWrong(0, out)).as("%s", op).isZero();
        }
    }

    @Test
    void sumsAndProductsStayExactInEveryTypeForManyRanks() {
        for (DataType t : DataType.values()) {
            for (int n : new int[] {2, 9, 64}) {
                for (RedOp op : new RedOp[] {RedOp.SUM, RedOp.PROD}) {
                    DataCheck check = new DataCheck(Collective.ALL_REDUCE, t, op, n, 0, 200);
                    for (long j = 0; j < 200; j++) {
                        long acc = op == RedOp.SUM ? 0 : 1;
                        for (int r = 0; r < n; r++) {
                            long v = check.value(r, j);
                            assertThat(v).isNotNegative();
                            acc = op == RedOp.SUM ? acc + v : acc * v;
                        }
                        if (op == RedOp.SUM) {
                            assertThat(acc).as("%s sum n=%d element %d", t, n, j)
                                    .isLessThanOrEqualTo(DataCheck.exactWholeNumbers(t));
                        } else {
                            assertThat(Long.bitCount(acc)).as("%s product n=%d element %d is a power of two", t, n, j).isEqualTo(1);
                            assertThat(Long.numberOfTrailingZeros(acc)).isLessThanOrEqualTo(DataCheck.exactPowersOfTwo(t));
                        }
                    }
                }
            }
        }
    }

    @Test
    void encodingsFollowTheFormats() {
        assertThat(ElementBits.ofWhole(DataType.FLOAT32, 3)).isEqualTo(Float.floatToIntBits(3f));
        assertThat(ElementBits.ofWhole(DataType.INT8, 127)).isEqualTo(0x7F);
        assertThat(ElementBits.ofWhole(DataType.INT64, 5)).isEqualTo(5);
        assertThat(ElementBits.ofWhole(DataType.BFLOAT16, 1)).isEqualTo(0x3F80);
        assertThat(ElementBits.ofWhole(DataType.FLOAT16, 2048)).isEqualTo(0x6800);
        // bfloat16: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7; ties go to the even code 0x3F80.
        assertThat(ElementBits.ofReal(DataType.BFLOAT16, 1 + Math.pow(2, -8))).isEqualTo(0x3F80);
        assertThat(ElementBits.ofReal(DataType.BFLOAT16, 1 + 3 * Math.pow(2, -8))).isEqualTo(0x3F82);
        // E4M3: 1.0 is exponent 7 (bias 7), 16 = 0x58, 448 the largest finite value; 7/3 rounds to 2.25.
        assertThat(ElementBits.ofWhole(DataType.FLOAT8_E4M3, 1)).isEqualTo(0x38);
        assertThat(ElementBits.ofWhole(DataType.FLOAT8_E4M3, 16)).isEqualTo(0x58);
        assertThat(ElementBits.ofReal(DataType.FLOAT8_E4M3, 448)).isEqualTo(0x7E);
        assertThat(ElementBits.ofReal(DataType.FLOAT8_E4M3, 7 / 3.0)).isEqualTo(0x41);
        // E5M2: 1.0 is 0x3C, 8 is 0x48; 9 lies halfway between 8 (0x48) and 10 (0x49), 11 between
        // 10 and 12 (0x4A): the even code wins both ties.
        assertThat(ElementBits.ofWhole(DataType.FLOAT8_E5M2, 1)).isEqualTo(0x3C);
        assertThat(ElementBits.ofWhole(DataType.FLOAT8_E5M2, 8)).isEqualTo(0x48);
        assertThat(ElementBits.ofReal(DataType.FLOAT8_E5M2, 9)).isEqualTo(0x48);
        assertThat(ElementBits.ofReal(DataType.FLOAT8_E5M2, 11)).isEqualTo(0x4A);
    }
}
