// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.engine.FloatFormats;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.DataType;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

class FloatFormatsTest {
    private static final long SEED = Long.getLong("jccl.test.seed", 0x5EED_F10A7L);

    private static final NarrowFloatModel E4M3 = (NarrowFloatModel) TypeModel.of(DataType.FLOAT8_E4M3);
    private static final NarrowFloatModel E5M2 = (NarrowFloatModel) TypeModel.of(DataType.FLOAT8_E5M2);
    private static final NarrowFloatModel BF16 = (NarrowFloatModel) TypeModel.of(DataType.BFLOAT16);
    private static final NarrowFloatModel F16 = (NarrowFloatModel) TypeModel.of(DataType.FLOAT16);

    private static int e4m3(float f) {
        return FloatFormats.floatToE4m3(f) & 0xFF;
    }

    private static int e5m2(float f) {
        return FloatFormats.floatToE5m2(f) & 0xFF;
    }

    private static int bf16(float f) {
        return FloatFormats.floatToBfloat16(f) & 0xFFFF;
    }

    private static float e4m3(int code) {
        return FloatFormats.e4m3ToFloat((byte) code);
    }

    private static float e5m2(int code) {
        return FloatFormats.e5m2ToFloat((byte) code);
    }

    @Test
    void everyE4m3CodeRoundTripsAndOnlyTheTwoNanCodesAreNan() {
        int nans = 0;
        for (int code = 0; code < 256; code++) {
            float v = e4m3(code);
            assertThat(Double.valueOf(v)).as("decode 0x%02x", code).isEqualTo(Double.valueOf(E4M3.decode(code)));
            if (Float.isNaN(v)) {
                nans++;
                assertThat(code & 0x7F).as("NaN code").isEqualTo(0x7F);
                assertThat(Float.isNaN(e4m3(e4m3(v)))).as("NaN 0x%02x re-encoded", code).isTrue();
            } else {
                assertThat(Float.isInfinite(v)).as("E4M3 has no infinities").isFalse();
                assertThat(e4m3(v)).as("round trip of 0x%02x (%s)", code, v).isEqualTo(code);
            }
        }
        assertThat(nans).isEqualTo(2);
    }

    @Test
    void everyE5m2CodeRoundTripsInfinitiesIncluded() {
        int nans = 0;
        for (int code = 0; code < 256; code++) {
            float v = e5m2(code);
            assertThat(Double.valueOf(v)).as("decode 0x%02x", code).isEqualTo(Double.valueOf(E5M2.decode(code)));
            if (Float.isNaN(v)) {
                nans++;
                assertThat(Float.isNaN(e5m2(e5m2(v)))).as("NaN 0x%02x re-encoded", code).isTrue();
            } else {
                assertThat(e5m2(v)).as("round trip of 0x%02x (%s)", code, v).isEqualTo(code);
            }
        }
        assertThat(nans).isEqualTo(6);
    }

    @Test
    void knownE4m3Values() {
        assertThat(e4m3(448f)).isEqualTo(0x7E);
        assertThat(e4m3(0x7E)).isEqualTo(448f);
        assertThat(e4m3(-448f)).isEqualTo(0xFE);
        assertThat(Float.isNaN(e4m3(0x7F))).isTrue();
        assertThat(Float.isNaN(e4m3(0xFF))).isTrue();
        assertThat(e4m3(1f)).isEqualTo(0x38);
        assertThat(e4m3(0x38)).isEqualTo(1f);
        assertThat(e4m3(0x1p-9f)).isEqualTo(0x01);
        assertThat(e4m3(0x01)).isEqualTo(0x1p-9f);
        assertThat(e4m3(0x1p-6f)).as("smallest normal").isEqualTo(0x08);
        assertThat(e4m3(0x0F)).as("S.0001.111").isEqualTo(0x1.Ep-6f);
        assertThat(e4m3(0x78)).as("S.1111.000 is a number in E4M3").isEqualTo(256f);
        assertThat(e4m3(-0f)).isEqualTo(0x80);
        assertThat(e4m3(0f)).isEqualTo(0x00);
    }

    @Test
    void knownE5m2Values() {
        assertThat(e5m2(57344f)).isEqualTo(0x7B);
        assertThat(e5m2(0x7B)).isEqualTo(57344f);
        assertThat(e5m2(1f)).isEqualTo(0x3C);
        assertThat(e5m2(0x3C)).isEqualTo(1f);
        assertThat(e5m2(0x7C)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(e5m2(0xFC)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(e5m2(Float.POSITIVE_INFINITY)).isEqualTo(0x7C);
        assertThat(e5m2(Float.NEGATIVE_INFINITY)).isEqualTo(0xFC);
        assertThat(e5m2(0x1p-16f)).as("smallest subnormal").isEqualTo(0x01);
        assertThat(e5m2(0x1p-14f)).as("smallest normal").isEqualTo(0x04);
        for (int code : new int[] {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}) {
            assertThat(Float.isNaN(e5m2(code))).as("0x%02x", code).isTrue();
        }
    }

    @Test
    void eightBitTiesGoToEven() {
        assertThat(e4m3(1.0625f)).as("between 0x38 and 0x39").isEqualTo(0x38);
        assertThat(e4m3(1.1875f)).as("between 0x39 and 0x3A").isEqualTo(0x3A);
        assertThat(e4m3(Math.nextUp(1.0625f))).as("just above a tie").isEqualTo(0x39);
        assertThat(e4m3(0x1p-10f)).as("half the smallest subnormal").isEqualTo(0x00);
        assertThat(e4m3(0x3p-10f)).as("between 0x01 and 0x02").isEqualTo(0x02);
        assertThat(e4m3(-0x3p-10f)).isEqualTo(0x82);
        assertThat(e4m3(0x0.Fp-6f)).as("between 0x07 and 0x08, subnormal to normal").isEqualTo(0x08);
        assertThat(e5m2(1.125f)).as("between 0x3C and 0x3D").isEqualTo(0x3C);
        assertThat(e5m2(1.375f)).as("between 0x3D and 0x3E").isEqualTo(0x3E);
        assertThat(e5m2(0x1p-17f)).isEqualTo(0x00);
        assertThat(e5m2(0x3p-17f)).isEqualTo(0x02);
    }

    @Test
    void everyMidpointOfEveryFormatGoesToTheEvenNeighbour() {
        midpoints(E4M3, FloatFormatsTest::e4m3);
        midpoints(E5M2, FloatFormatsTest::e5m2);
        midpoints(BF16, FloatFormatsTest::bf16);
        midpoints(F16, f -> Float.floatToFloat16(f) & 0xFFFF); // checks the model against the JDK
    }

    private interface FloatToCode {
        int encode(float f);
    }

    /**
     * For each pair of neighbouring finite codes of one sign, the midpoint must go to the even
     * one, and the floats just inside it to the nearer one.
     */
    private static void midpoints(NarrowFloatModel m, FloatToCode enc) {
        int half = m.codes() / 2;
        for (int sign : new int[] {0, half}) {
            for (int c = 0; c + 1 < half; c++) {
                double lo = m.decode(sign | c);
                double hi = m.decode(sign | (c + 1));
                if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
                    continue;
                }
                float mid = (float) ((lo + hi) / 2);
                assertThat((double) mid).as("midpoint exact in float").isEqualTo((lo + hi) / 2);
                int even = (c & 1) == 0 ? c : c + 1;
                assertThat(enc.encode(mid)).as("%s midpoint of 0x%x and 0x%x", m.type, sign | c, sign | (c + 1))
                        .isEqualTo(sign | even);
                float towardLo = Math.nextAfter(mid, lo);
                float towardHi = Math.nextAfter(mid, hi);
                assertThat(enc.encode(towardLo)).as("%s just inside 0x%x", m.type, sign | c).isEqualTo(sign | c);
                assertThat(enc.encode(towardHi)).as("%s just inside 0x%x", m.type, sign | (c + 1)).isEqualTo(sign | (c + 1));
            }
        }
    }

    @Test
    void eightBitFormatsSaturateFiniteOverflow() {
        assertThat(e4m3(1e6f)).isEqualTo(0x7E);
        assertThat(e4m3(-1e6f)).isEqualTo(0xFE);
        assertThat(e4m3(464f)).as("tie above 448 would round to the NaN code").isEqualTo(0x7E);
        assertThat(e4m3(Float.MAX_VALUE)).isEqualTo(0x7E);
        assertThat(e4m3(Float.POSITIVE_INFINITY)).as("E4M3 has no infinity").isEqualTo(0x7E);
        assertThat(e4m3(Float.NEGATIVE_INFINITY)).isEqualTo(0xFE);
        assertThat(e5m2(1e6f)).isEqualTo(0x7B);
        assertThat(e5m2(-1e6f)).isEqualTo(0xFB);
        assertThat(e5m2(61440f)).as("tie above 57344 would round to infinity").isEqualTo(0x7B);
        assertThat(e5m2(Float.MAX_VALUE)).isEqualTo(0x7B);
        assertThat(Float.isNaN(e4m3(e4m3(Float.NaN)))).isTrue();
        assertThat(Float.isNaN(e5m2(e5m2(Float.NaN)))).isTrue();
        assertThat(Float.isNaN(e5m2(e5m2(Float.intBitsToFloat(0xFF80_0001))))).isTrue();
    }

    @Test
    void bfloat16KnownValuesTiesAndNan() {
        assertThat(bf16(1f)).isEqualTo(0x3F80);
        assertThat(FloatFormats.bfloat16ToFloat((short) 0x3F80)).isEqualTo(1f);
        assertThat(bf16(Float.intBitsToFloat(0x3F80_8000))).as("tie, even below").isEqualTo(0x3F80);
        assertThat(bf16(Float.intBitsToFloat(0x3F81_8000))).as("tie, odd below").isEqualTo(0x3F82);
        assertThat(bf16(Float.intBitsToFloat(0x3F80_8001))).as("just above a tie").isEqualTo(0x3F81);
        assertThat(bf16(Float.intBitsToFloat(0x3F80_7FFF))).as("just below a tie").isEqualTo(0x3F80);
        assertThat(bf16(Float.intBitsToFloat(0xBF81_8000))).as("negative tie").isEqualTo(0xBF82);
        assertThat(bf16(Float.MAX_VALUE)).as("overflow rounds to infinity").isEqualTo(0x7F80);
        assertThat(bf16(Float.NEGATIVE_INFINITY)).isEqualTo(0xFF80);
        assertThat(bf16(-0f)).isEqualTo(0x8000);
        assertThat(bf16(Float.MIN_VALUE)).as("tiny subnormal rounds to zero").isEqualTo(0x0000);
        for (int nan : new int[] {0x7FC0_0000, 0xFFC0_0000, 0x7F80_0001, 0x7FFF_FFFF, 0xFF80_8000, 0x7F80_FFFF}) {
            int code = bf16(Float.intBitsToFloat(nan));
            assertThat(Float.isNaN(FloatFormats.bfloat16ToFloat((short) code)))
                    .as("NaN 0x%08x gave 0x%04x", nan, code).isTrue();
            assertThat(code & 0x8000).as("sign kept").isEqualTo((nan >>> 16) & 0x8000);
        }
    }

    @Test
    void randomFloatsRoundLikeTheModel() {
        SplittableRandom r = new SplittableRandom(SEED);
        for (int i = 0; i < 200_000; i++) {
            float f = i % 2 == 0 ? Float.intBitsToFloat(r.nextInt())
                    : (float) (r.nextGaussian() * Math.scalb(1.0, r.nextInt(-30, 20)));
            String why = "seed " + SEED + ", input " + f + " (0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + ")";
            check(E4M3, f, e4m3(f), why);
            check(E5M2, f, e5m2(f), why);
            check(BF16, f, bf16(f), why);
        }
    }

    private static void check(NarrowFloatModel m, float f, int actual, String why) {
        double expected = m.round(f);
        if (Double.isNaN(expected)) {
            assertThat(m.isNaN(actual)).as("%s NaN, %s", m.type, why).isTrue();
        } else {
            assertThat(actual).as("%s, %s", m.type, why).isEqualTo((int) m.encode(expected));
        }
    }

    @Test
    void roundToOddAvoidsTheDoubleRoundingOfAScalar() {
        // Just above the float16 tie between 1 and 1 + 2^-10, by less than float can see: going
        // through a plain (float) makes it an exact tie, which then rounds down, wrongly.
        double d = 1 + 0x1p-11 + 0x1p-40;
        assertThat(Float.floatToFloat16((float) d)).as("naive").isEqualTo((short) 0x3C00);
        assertThat(Float.floatToFloat16(FloatFormats.toFloatRoundOdd(d))).isEqualTo((short) 0x3C01);
        assertThat(Float.floatToFloat16(FloatFormats.toFloatRoundOdd(-d))).isEqualTo((short) 0xBC01);
        assertThat(FloatFormats.toFloatRoundOdd(0.5)).isEqualTo(0.5f);
        assertThat(FloatFormats.toFloatRoundOdd(1e300)).isEqualTo(Float.MAX_VALUE);
        assertThat(FloatFormats.toFloatRoundOdd(-1e-300)).isEqualTo(-Float.MIN_VALUE);
        SplittableRandom r = new SplittableRandom(SEED);
        DoubleUnaryOperator viaOdd = x -> F16.round(FloatFormats.toFloatRoundOdd(x));
        for (int i = 0; i < 100_000; i++) {
            double x = r.nextGaussian() * Math.scalb(1.0, r.nextInt(-26, 17));
            assertThat(viaOdd.applyAsDouble(x)).as("seed %d, %s", SEED, x).isEqualTo(F16.round(x));
            assertThat(E4M3.round(FloatFormats.toFloatRoundOdd(x))).as("seed %d, %s", SEED, x).isEqualTo(E4M3.round(x));
        }
    }
}
