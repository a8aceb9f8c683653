// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench.jmh;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.CudaDevice;
import io.jccl.CudaStream;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.RedOp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * What the CUDA engine's issue path costs on the host: one rank's all-reduce issued on its
 * {@link CudaStream} (checks, plan, descriptor lookup, the launch and its event), per call. Meant
 * with JMH's allocation profiler ({@code -prof gc}: bytes per call) and, for time, a GPU's driver;
 * on the fake driver ({@code JCCL_CUDA_LIB} naming it, {@code JCCL_FAKE_KERNELS=skip}: launches are
 * checked and ordered but run nothing) the times are the fake's, the bytes the engine's. Every
 * {@link #BATCH} calls the streams are synchronized, as {@code jccl perf} does. The run of
 * docs/gpu.md ("The issue path"):
 *
 * <pre>{@code
 * JCCL_CUDA_LIB=libfakecuda.so JCCL_FAKE_KERNELS=skip java -cp <bench classpath> org.openjdk.jmh.Main \
 *     CudaIssueBench -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m", "--enable-native-access=ALL-UNNAMED"})
public class CudaIssueBench {
    /** Calls of every rank between two synchronizations. */
    public static final int BATCH = 64;

    @Param({"2", "8"})
    public int ranks;

    @Param({"8"})
    public long bytes;

    private Communicator[] comms;
    private CudaStream[] streams;
    private MemorySegment[] send;
    private MemorySegment[] recv;
    private Arena arena;
    private long count;

    @Setup(Level.Trial)
    public void setUp() {
        CudaDevice gpu = CudaDevice.open(0);
        comms = Communicator.initAllCuda(ranks, gpu, Config.fromEnvironment());
        arena = Arena.ofShared();
        streams = new CudaStream[ranks];
        send = new MemorySegment[ranks];
        recv = new MemorySegment[ranks];
        count = Math.max(1, bytes / 4);
        for (int r = 0; r < ranks; r++) {
            streams[r] = new CudaStream(gpu);
            send[r] = gpu.allocate(4 * count, arena);
            recv[r] = gpu.allocate(4 * count, arena);
            comms[r].register(send[r]);
            comms[r].register(recv[r]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (int r = 0; r < ranks; r++) {
            comms[r].close();
            streams[r].close();
        }
        arena.close();
    }

    /** {@link #BATCH} all-reduces of every rank, then every stream synchronized: per collective (all ranks' calls). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void allReduce() {
        for (int i = 0; i < BATCH; i++) {
            for (int r = 0; r < ranks; r++) {
                comms[r].allReduce(send[r], recv[r], count, DataType.FLOAT32, RedOp.SUM, streams[r]);
            }
        }
        for (CudaStream s : streams) {
            s.synchronize();
        }
    }

    /**
     * The same calls, every rank's issued in one {@link Group} per call: one direct launch for all
     * ranks of the GPU (docs/gpu.md, "One launch for the ranks of a GPU").
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void groupAllReduce() {
        for (int i = 0; i < BATCH; i++) {
            Group.start();
            for (int r = 0; r < ranks; r++) {
                comms[r].allReduce(send[r], recv[r], count, DataType.FLOAT32, RedOp.SUM, streams[r]);
            }
            Group.end();
        }
        for (CudaStream s : streams) {
            s.synchronize();
        }
    }
}
