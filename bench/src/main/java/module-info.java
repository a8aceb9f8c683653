/**
 * The {@code jccl} command line (perf, verify, ...) and the JMH benchmarks. JMH is needed only to
 * compile and run the benchmarks, so the runtime image of the command line does without it.
 */
module io.jccl.bench {
    requires io.jccl.core;
    requires static jmh.core;
}
