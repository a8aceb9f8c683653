// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.DataType;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.RedOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class ReductionArgumentsTest {
    private static void rejectedNaming(String argument, Runnable call) {
        assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(JcclException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("'" + argument + "'");
    }

    @Test
    void fractionalIntegerScalarIsRejected() {
        rejectedNaming("op", () -> Reduction.of(DataType.INT32, RedOp.preMulSum(2.5), 4));
    }

    @Test
    void integerScalarsMustFitTheType() {
        rejectedNaming("op", () -> Reduction.of(DataType.INT8, RedOp.preMulSum(300), 2));
        rejectedNaming("op", () -> Reduction.of(DataType.INT8, RedOp.preMulSum(128), 2));
        rejectedNaming("op", () -> Reduction.of(DataType.UINT8, RedOp.preMulSum(-1), 2));
        rejectedNaming("op", () -> Reduction.of(DataType.UINT32, RedOp.preMulSum(0x1p32), 2));
        rejectedNaming("op", () -> Reduction.of(DataType.INT64, RedOp.preMulSum(0x1p63), 2));
        rejectedNaming("op", () -> Reduction.of(DataType.UINT64, RedOp.preMulSum(0x1p64), 2));
        Reduction.of(DataType.INT8, RedOp.preMulSum(-128), 2);
        Reduction.of(DataType.UINT8, RedOp.preMulSum(255), 2);
        Reduction.of(DataType.INT64, RedOp.preMulSum(-0x1p63), 2);
        Reduction.of(DataType.UINT64, RedOp.preMulSum(0x1p64 - 2048), 2);
        Reduction.of(DataType.FLOAT32, RedOp.preMulSum(2.5), 2);
        Reduction.of(DataType.FLOAT8_E4M3, RedOp.preMulSum(1e6), 2); // saturates, like any E4M3 value
    }

    @Test
    void scalarOnlyMattersForPreMulSum() {
        Reduction.of(DataType.INT8, RedOp.SUM, 2);
        Reduction.of(DataType.UINT64, RedOp.AVG, 2);
    }

    @Test
    void nranksMustBePositive() {
        rejectedNaming("nranks", () -> Reduction.of(DataType.FLOAT32, RedOp.SUM, 0));
        rejectedNaming("nranks", () -> Reduction.of(DataType.FLOAT32, RedOp.AVG, -3));
        assertThat(Reduction.of(DataType.FLOAT32, RedOp.AVG, 1).nranks()).isEqualTo(1);
    }

    @Test
    void rangesOutsideTheSegmentsAreRejectedBeforeAnyWrite() {
        Reduction r = Reduction.of(DataType.FLOAT32, RedOp.SUM, 2);
        MemorySegment a = MemorySegment.ofArray(new float[] {1, 2, 3, 4});
        MemorySegment small = MemorySegment.ofArray(new float[] {0, 0, 0});
        assertThatThrownBy(() -> r.combine(a, 0, false, a, 0, false, small, 0, 4, false))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(small.toArray(ValueLayout.JAVA_FLOAT)).containsExactly(0, 0, 0);
        assertThatThrownBy(() -> r.combine(a, 4, false, a, 0, false, a, 0, 4, false))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> r.combine(a, 0, false, a, -1, false, a, 0, 1, false))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> r.combine(a, 0, false, a, 0, false, a, 0, -1, false))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aSmallWorkedExample() {
        Reduction avg = Reduction.of(DataType.INT32, RedOp.AVG, 2);
        MemorySegment x = MemorySegment.ofArray(new int[] {7, -7, Integer.MAX_VALUE});
        MemorySegment y = MemorySegment.ofArray(new int[] {0, 0, 1});
        MemorySegment out = MemorySegment.ofArray(new int[3]);
        avg.combine(x, 0, false, y, 0, false, out, 0, 3, true);
        // 7/2 and -7/2 truncate towards zero; MAX + 1 wraps to MIN first.
        assertThat(out.toArray(ValueLayout.JAVA_INT)).containsExactly(3, -3, Integer.MIN_VALUE / 2);
        assertThat(avg.toString()).isEqualTo("Reduction[INT32, avg, nranks=2]");
    }
}
