/** The {@code jccl} command line (perf, verify, ...) and the JMH benchmarks. */
module io.jccl.bench {
    requires io.jccl.core;
    requires jmh.core;
}
