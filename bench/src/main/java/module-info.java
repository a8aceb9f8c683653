// SPDX-License-Identifier: Apache-2.0
/**
 * The {@code jccl} command line (perf, verify, ...) and the JMH benchmarks. JMH is needed only to
 * compile and run the benchmarks, so the runtime image of the command line does without it.
 */
module io.jccl.bench {
    requires io.jccl.core;
    // perf -p waits for the JIT to go quiet before timing (CompilationMXBean).
    requires java.management;
    requires static jmh.core;
    // JMH's runner instantiates the benchmarks and their generated harnesses reflectively
    // (jccl calibrate runs them on the module path in tests; the image has no JMH and ignores this).
    opens io.jccl.bench.jmh to jmh.core;
    opens io.jccl.bench.jmh.jmh_generated to jmh.core;
}
