// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.engine.host.Reduction;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The scalar word is the value the host engine multiplies by: read back through the host's own reduction. */
class DeviceScalarsTest {
    /** The host's pre-multiplication of the element 1 (or 1.0) by the op's scalar, widened to a double. */
    private static double hostScaledOne(DataType t, RedOp op) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment one = a.allocate(8);
            switch (t) {
                case FLOAT16 -> one.set(ValueLayout.JAVA_SHORT, 0, Float.floatToFloat16(1f));
                case BFLOAT16 -> one.set(ValueLayout.JAVA_SHORT, 0, (short) 0x3F80);
                case FLOAT8_E4M3 -> one.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x38);
                case FLOAT8_E5M2 -> one.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x3C);
                case FLOAT32 -> one.set(ValueLayout.JAVA_FLOAT, 0, 1f);
                default -> one.set(ValueLayout.JAVA_DOUBLE, 0, 1.0);
            }
            MemorySegment out = a.allocate(8);
            Reduction.of(t, op, 2).combine(one, 0, true, null, 0, false, out, 0, 1, false);
            return switch (t) {
                case FLOAT16 -> Float.float16ToFloat(out.get(ValueLayout.JAVA_SHORT, 0));
                case BFLOAT16 -> io.jccl.engine.FloatFormats.bfloat16ToFloat(out.get(ValueLayout.JAVA_SHORT, 0));
                case FLOAT8_E4M3 -> io.jccl.engine.FloatFormats.e4m3ToFloat(out.get(ValueLayout.JAVA_BYTE, 0));
                case FLOAT8_E5M2 -> io.jccl.engine.FloatFormats.e5m2ToFloat(out.get(ValueLayout.JAVA_BYTE, 0));
                case FLOAT32 -> out.get(ValueLayout.JAVA_FLOAT, 0);
                default -> out.get(ValueLayout.JAVA_DOUBLE, 0);
            };
        }
    }

    @Test
    void narrowFloatScalarsAreTheHostsRoundedValues() {
        for (double s : new double[] {0.1, 1.0 / 3, -2.75, 1000.3, 3e-5}) {
            RedOp op = RedOp.preMulSum(s);
            for (DataType t : new DataType[] {DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT8_E4M3,
                    DataType.FLOAT8_E5M2, DataType.FLOAT32}) {
                float device = Float.intBitsToFloat((int) DeviceScalars.bits(t, op));
                assertThat((double) device).as(t + " " + s).isEqualTo(hostScaledOne(t, op));
            }
            assertThat(Double.longBitsToDouble(DeviceScalars.bits(DataType.FLOAT64, op))).isEqualTo(hostScaledOne(DataType.FLOAT64, op));
        }
    }

    @Test
    void integerScalarsAreTheirTwosComplementBits() {
        assertThat(DeviceScalars.bits(DataType.UINT8, RedOp.preMulSum(200))).isEqualTo(200);
        assertThat(DeviceScalars.bits(DataType.INT32, RedOp.preMulSum(-3))).isEqualTo(-3);
        assertThat(DeviceScalars.bits(DataType.UINT64, RedOp.preMulSum(0x1p63 + 2048))).isEqualTo(Long.MIN_VALUE + 2048);
        assertThat(DeviceScalars.bits(DataType.INT64, RedOp.SUM)).isZero();
        assertThat(DeviceScalars.bits(DataType.FLOAT32, null)).isZero();
    }
}
