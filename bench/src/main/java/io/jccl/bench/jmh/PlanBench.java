// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench.jmh;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.plan.Call;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.proto.Protocol;
import io.jccl.tune.Choice;
import io.jccl.tune.Tuner;
import io.jccl.topo.Channels;
import io.jccl.topo.ServerLayout;
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
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

/**
 * What planning one all-reduce costs one rank of a large job: the plan of a 64 MiB float
 * all-reduce for a single rank (as a process of one rank plans it) on servers of 8 ranks, two
 * channels, messages of the Simple protocol's slot. With {@code -prof gc}, {@code gc.alloc.rate.norm}
 * is the bytes allocated per plan. The rank's own steps: a ring all-reduce has 2n-1 per channel
 * (2(n-1) messages each way), the tree 4 whatever n (one up and one down on each of two lanes),
 * so the ring's cost should grow as n and the tree's not at all (docs/results.md, "Planning").
 * {@link #everyRank} plans every rank of the job, what each process paid before plans were per rank.
 * {@link #tunerFirstCall} is the tuner's first choice of a shape on such a job with the default
 * algorithms (a new tuner each time, so every call is a first one): what a process pays before it
 * plans, the cost model pricing every allowed algorithm and protocol on the job's channels.
 * The counters {@code cpuNanos} and {@code plans} (JMH sums them over the iterations) give the
 * mean CPU time of a plan, cpuNanos / plans: the thread's own, so the time other processes of a
 * shared machine take does not count (two clock reads per plan are in it).
 *
 * <pre>{@code
 * java -cp <bench jar and dependencies> org.openjdk.jmh.Main PlanBench.oneRank -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PlanBench {
    /** Elements of the all-reduce: 64 MiB of floats, at least one per chunk of every rank's ring. */
    static final long COUNT = 16L << 20;
    static final int CHANNELS = 2;
    static final int PER_SERVER = 8;

    /** The largest message in floats: a Simple slot of the default buffer. */
    static long maxMessage() {
        Protocol p = Protocol.SIMPLE;
        return p.maxMessageBytes(p.buffSize(Config.defaults())) / Float.BYTES;
    }

    /** The job's channels and the call, planned for one rank in the middle of the job. */
    @State(Scope.Benchmark)
    public static class OneRank {
        @Param({"1024", "4096", "16384"})
        public int ranks;

        @Param({"ring", "tree"})
        public String algorithm;

        Channels channels;
        Algorithm algo;
        Call call;
        long maxMessage;
        int rank;

        @Setup(Level.Trial)
        public void setUp() {
            channels = Channels.flat(ServerLayout.uniform(ranks / PER_SERVER, PER_SERVER), CHANNELS);
            algo = Algorithm.parse(algorithm);
            rank = ranks / 2 + 3;
            call = Call.of(Collective.ALL_REDUCE, ranks, COUNT).planning(RankSet.of(ranks, rank));
            maxMessage = maxMessage();
        }
    }

    /** The same call planned for every rank: small jobs only (a ring's plan of all ranks grows as n squared). */
    @State(Scope.Benchmark)
    public static class EveryRank {
        @Param({"1024"})
        public int jobRanks;

        @Param({"ring", "tree"})
        public String jobAlgorithm;

        Channels channels;
        Algorithm algo;
        Call call;
        long maxMessage;

        @Setup(Level.Trial)
        public void setUp() {
            channels = Channels.flat(ServerLayout.uniform(jobRanks / PER_SERVER, PER_SERVER), CHANNELS);
            algo = Algorithm.parse(jobAlgorithm);
            call = Call.of(Collective.ALL_REDUCE, jobRanks, COUNT);
            maxMessage = maxMessage();
        }
    }

    /** A job of servers of 8 ranks and the all-reduce a new tuner chooses for. */
    @State(Scope.Benchmark)
    public static class FirstChoice {
        @Param({"1024", "4096", "16384"})
        public int tunerRanks;

        /** Floats: 4 KiB and 64 MiB. */
        @Param({"1024", "16777216"})
        public long tunerCount;

        ServerLayout layout;
        Config config;

        @Setup(Level.Trial)
        public void setUp() {
            layout = ServerLayout.uniform(tunerRanks / PER_SERVER, PER_SERVER);
            config = Config.defaults();
        }
    }

    /** The CPU time of the plans and their number, secondary results JMH sums over the iterations. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class CpuTime {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        public long cpuNanos;
        public long plans;

        @Setup(Level.Iteration)
        public void reset() {
            cpuNanos = 0;
            plans = 0;
        }

        static long now() {
            return THREADS.getCurrentThreadCpuTime();
        }

        void add(long planNanos) {
            cpuNanos += planNanos;
            plans++;
        }
    }

    @Benchmark
    public Plan oneRank(OneRank s, CpuTime cpu) {
        long start = CpuTime.now();
        Plan p = Algorithms.plan(s.call, s.algo, s.channels, s.maxMessage);
        cpu.add(CpuTime.now() - start);
        return p;
    }

    @Benchmark
    public Choice tunerFirstCall(FirstChoice s, CpuTime cpu) {
        long start = CpuTime.now();
        Choice c = Tuner.create(s.config, s.layout, PER_SERVER, null).choose(Collective.ALL_REDUCE, s.tunerCount, Float.BYTES, 0);
        cpu.add(CpuTime.now() - start);
        return c;
    }

    @Benchmark
    public Plan everyRank(EveryRank s, CpuTime cpu) {
        long start = CpuTime.now();
        Plan p = Algorithms.plan(s.call, s.algo, s.channels, s.maxMessage);
        cpu.add(CpuTime.now() - start);
        return p;
    }
}
