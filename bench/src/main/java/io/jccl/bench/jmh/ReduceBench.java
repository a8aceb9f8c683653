// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench.jmh;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.engine.host.Reduction;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Host reduction speed against the two bounds that matter: {@code MemorySegment.copy} of the same
 * bytes (what a reduction costs if arithmetic were free) and a plain {@code float[]} loop (what C2
 * does with the easiest possible form of the same sum). Buffers are native except for the array
 * loop.
 *
 * <p>The {@code bytes} counter is the size of one operand per call, so its rate is the payload
 * throughput in bytes per second, comparable between all benchmarks; memory traffic is three times
 * that for a reduction ({@code a}, {@code b} read, {@code dst} written) and two times for a copy.
 *
 * <pre>{@code
 * java -cp <bench jar and dependencies> org.openjdk.jmh.Main ReduceBench -p bytes=4194304
 * }</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ReduceBench {
    /** Size of each operand: 4, 16 and 64 MiB, all well beyond the last-level cache. */
    @Param({"4194304", "16777216", "67108864"})
    public int bytes;

    private Arena arena;
    private MemorySegment a;
    private MemorySegment b;
    private MemorySegment dst;
    private float[] fa;
    private float[] fb;
    private float[] fd;
    private Reduction sumF32;
    private Reduction sumBf16;
    private Reduction sumI32;

    /** Payload bytes processed, reported by JMH as a rate next to the ops/s score. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Payload {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        a = arena.allocate(bytes, 64);
        b = arena.allocate(bytes, 64);
        dst = arena.allocate(bytes, 64);
        int floats = bytes / 4;
        fa = new float[floats];
        fb = new float[floats];
        fd = new float[floats];
        // Small normal values: no overflow, no subnormals (which some CPUs handle slowly).
        for (int i = 0; i < floats; i++) {
            fa[i] = 1 + (i & 1023) * 0.25f;
            fb[i] = 2 - (i & 511) * 0.125f;
        }
        MemorySegment.copy(fa, 0, a, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, floats);
        MemorySegment.copy(fb, 0, b, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, floats);
        sumF32 = Reduction.of(DataType.FLOAT32, RedOp.SUM, 2);
        sumBf16 = Reduction.of(DataType.BFLOAT16, RedOp.SUM, 2);
        sumI32 = Reduction.of(DataType.INT32, RedOp.SUM, 2);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public void float32SumReduction(Payload p) {
        sumF32.combine(a, 0, false, b, 0, false, dst, 0, bytes / 4, false);
        p.bytes += bytes;
    }

    @Benchmark
    public void copySameBytes(Payload p) {
        MemorySegment.copy(a, 0, dst, 0, bytes);
        p.bytes += bytes;
    }

    @Benchmark
    public float[] float32SumArrayLoop(Payload p) {
        float[] x = fa;
        float[] y = fb;
        float[] d = fd;
        for (int i = 0; i < d.length; i++) {
            d[i] = x[i] + y[i];
        }
        p.bytes += bytes;
        return d;
    }

    @Benchmark
    public void int32SumReduction(Payload p) {
        sumI32.combine(a, 0, false, b, 0, false, dst, 0, bytes / 4, false);
        p.bytes += bytes;
    }

    /**
     * Reads the float inputs as bfloat16 pairs: the floats use at most 9 mantissa bits, so each
     * low half is a bfloat16 zero and each high half an ordinary bfloat16 value (no NaN, no
     * subnormal), which is all the conversion loop needs to run at its normal speed.
     */
    @Benchmark
    public void bfloat16SumReduction(Payload p) {
        sumBf16.combine(a, 0, false, b, 0, false, dst, 0, bytes / 2, false);
        p.bytes += bytes;
    }
}
