// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench.jmh;

import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.bench.RankTeam;
import io.jccl.Collective;
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

import java.util.concurrent.TimeUnit;

/**
 * One collective on the host engine with the algorithm and protocol forced: microseconds per call,
 * every rank a thread issuing on its own stream as in {@code jccl perf}. {@link #batched()} times a
 * batch of {@link #BATCH} calls on every rank followed by their synchronization, so that the hand-off
 * to the rank threads is spread over the batch (for small calls); {@link #single()} one call (for
 * large ones, where a batch would outlast an iteration). {@code bytes} is nccl-tests' size (the whole buffer for
 * all-gather, reduce-scatter, all-to-all). This is what {@code jccl calibrate} runs for every cell
 * of its grid; as plain JMH:
 *
 * <pre>{@code
 * java -cp <bench classes and dependencies> org.openjdk.jmh.Main CollectiveBench.batched \
 *     -p collective=allreduce -p algorithm=ring -p protocol=LL -p ranks=2 -p bytes=8,65536
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m"})
public class CollectiveBench {
    /** Calls per rank per invocation (as {@code jccl perf}, which synchronizes every 64 calls). */
    public static final int BATCH = 64;

    @Param({"allreduce"})
    public String collective;

    @Param({"ring"})
    public String algorithm;

    @Param({"Simple"})
    public String protocol;

    @Param({"2"})
    public int ranks;

    @Param({"8", "65536", "4194304"})
    public long bytes;

    @Param({"float"})
    public String type;

    private RankTeam team;

    @Setup(Level.Trial)
    public void setUp() {
        Config c = Config.fromEnvironment().withAlgorithms(algorithm).withProtocols(protocol);
        team = RankTeam.start(c, ranks, Collective.parse(collective), DataType.parse(type), bytes);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        team.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void batched() {
        team.runBatch(BATCH);
    }

    @Benchmark
    public void single() {
        team.runBatch(1);
    }
}
