// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl.spark;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bootstrap.OutOfBandAllGather;
import org.apache.spark.BarrierTaskContext;

import java.util.Base64;

/**
 * jccl's out-of-band all-gather over Spark's barrier execution mode: the tasks of a barrier stage
 * exchange their bootstrap records through {@link BarrierTaskContext#allGather(String)}, as
 * XGBoost4J-Spark and TorchDistributor exchange theirs, so no TCP root has to be set up. The rank is
 * the task's partition id and the size the number of tasks in the stage.
 *
 * <p>The records are bytes and Spark's all-gather carries strings, so each is Base64-encoded. The
 * wait is bounded by {@code spark.barrier.sync.timeout} (Spark's, not jccl's), and a task of the
 * stage that fails makes Spark fail the waiting ones.
 *
 * <pre>{@code
 * // sc: a JavaSparkContext with at least 4 task slots
 * List<Integer> ranks = BarrierStage.mapPartitions(sc.parallelize(List.of(1, 2, 3, 4), 4), rows -> {
 *     BarrierTaskContext ctx = BarrierTaskContext.get();
 *     try (Communicator comm = Communicator.init(new BarrierAllGather(ctx), Config.fromEnvironment())) {
 *         return List.of(comm.rank()).iterator();   // ctx.partitionId(), of comm.size() == 4
 *     }
 * }).collect();
 * }</pre>
 *
 * {@link BarrierRank} does this and more (a GPU Spark scheduled, aborting on failure).
 */
public final class BarrierAllGather implements OutOfBandAllGather {
    private final BarrierTaskContext context;
    private final int rank;
    private final int size;

    /** The all-gather of {@code context}'s barrier stage, for the task that owns {@code context}. */
    public BarrierAllGather(BarrierTaskContext context) {
        if (context == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "context",
                    "is null (call BarrierTaskContext.get() inside rdd.barrier().mapPartitions)");
        }
        this.context = context;
        this.rank = context.partitionId();
        this.size = context.getTaskInfos().length;
        if (rank < 0 || rank >= size) {
            // A barrier stage launches one task per partition, so this means a stage over a subset of them.
            throw JcclException.invalidArgument(rank, "context", "has partition id " + rank + " but its stage has "
                    + size + " tasks");
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        if (mine == null) {
            throw JcclException.invalidArgument(rank, "mine", "is null");
        }
        String[] all = context.allGather(Base64.getEncoder().encodeToString(mine));
        if (all.length != size) {
            throw new JcclException(ErrorCode.INTERNAL_ERROR, rank, "Spark's barrier allGather returned "
                    + all.length + " records for a stage of " + size + " tasks");
        }
        byte[][] out = new byte[size][];
        for (int r = 0; r < size; r++) {
            try {
                out[r] = Base64.getDecoder().decode(all[r]);
            } catch (IllegalArgumentException e) {
                // Another barrier allGather of the same stage (user code) interleaved with jccl's.
                throw new JcclException(ErrorCode.INVALID_USAGE, rank, "task " + r + "'s record in the barrier"
                        + " allGather is not jccl's (another allGather of this stage ran at the same time?)", e);
            }
        }
        return out;
    }
}
