// SPDX-License-Identifier: Apache-2.0
/**
 * The jccl library: the public API (package {@code io.jccl}) and, behind it, topology, algorithms,
 * schedules, protocols, transports and engines.
 */
module io.jccl.core {
    requires io.jccl.bindings;
    requires io.jccl.kernels;
    requires java.xml;
    // Vectorised reductions when the JVM resolved it (VectorKernels); an incubator module in JDK 25.
    requires static jdk.incubator.vector;
    exports io.jccl;
    exports io.jccl.cuda to io.jccl.bench;
    exports io.jccl.plan to io.jccl.bench;
    exports io.jccl.algo to io.jccl.bench;
    exports io.jccl.topo to io.jccl.bench;
    exports io.jccl.verify to io.jccl.bench;
    exports io.jccl.engine.host to io.jccl.bench;
    exports io.jccl.proto to io.jccl.bench;
    exports io.jccl.tune to io.jccl.bench;
    exports io.jccl.json to io.jccl.bench;
    exports io.jccl.sim to io.jccl.bench;
    exports io.jccl.bootstrap;
}
