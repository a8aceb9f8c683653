// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

/**
 * An all-gather of small byte strings among the ranks of a job, provided by whatever already
 * connects them: Spark's {@code BarrierTaskContext.allGather}, an MPI communicator, a key-value
 * store, or {@link InProcessAllGather} for threads. {@link Bootstrap#init(OutOfBandAllGather,
 * io.jccl.Config, java.util.Set)} calls it once, with about 200 bytes per rank, and needs no TCP
 * root. Every rank must call {@link #allGather} the same number of times; the implementation
 * bounds its own waits (a timeout is its error to raise).
 *
 * <pre>{@code
 * // under Spark barrier mode, in each task:
 * OutOfBandAllGather oob = new OutOfBandAllGather() {
 *     public int rank() { return ctx.partitionId(); }
 *     public int size() { return ctx.getTaskInfos().length; }
 *     public byte[][] allGather(byte[] mine) {
 *         String[] all = ctx.allGather(Base64.getEncoder().encodeToString(mine));
 *         return Arrays.stream(all).map(Base64.getDecoder()::decode).toArray(byte[][]::new);
 *     }
 * };
 * Bootstrap b = Bootstrap.init(oob, Config.fromEnvironment(), Set.of());
 * }</pre>
 */
public interface OutOfBandAllGather {
    /** This rank, 0 &le; rank &lt; size. */
    int rank();

    /** Number of ranks. */
    int size();

    /** Every rank's {@code mine}, indexed by rank (this rank's own included). */
    byte[][] allGather(byte[] mine);
}
