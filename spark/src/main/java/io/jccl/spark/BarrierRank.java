// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl.spark;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.CudaDevice;
import io.jccl.CudaStream;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.Stream;
import io.jccl.bootstrap.CommId;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.resource.ResourceInformation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The task of a Spark barrier stage as a rank of a jccl communicator: rank = the task's partition
 * id, size = the number of tasks in the stage. On the host engine by default; on the CUDA engine,
 * on the GPU Spark assigned to the task, when Spark schedules GPUs
 * ({@code spark.task.resource.gpu.amount}, so that {@code TaskContext.resources()} has a "gpu").
 *
 * <p>Host identity (which ranks share /dev/shm) is jccl's own, from the executor's kernel boot id
 * and network namespace, or {@code JCCL_HOSTID} in the executor's environment: it is right for
 * executors in containers of one machine, where Spark's host name is not.
 *
 * <p>{@link #run} is the usual entry point: if the task's work throws, it aborts the communicator,
 * so the other tasks fail at once naming this rank instead of waiting out {@code JCCL_TIMEOUT}, and
 * Spark retries the whole stage as barrier mode does.
 *
 * <pre>{@code
 * // sc: a JavaSparkContext with at least 4 task slots
 * Map<String, String> jccl = Map.of("JCCL_TIMEOUT", "30");   // Config is not serializable: ship settings
 * List<double[]> sums = BarrierStage.mapPartitions(sc.parallelize(List.of(1.0, 2.0, 3.0, 4.0), 4), rows -> {
 *     double[] v = {rows.next()};
 *     BarrierRank.run(BarrierTaskContext.get(), BarrierRank.config(jccl), rank -> {
 *         rank.allReduceSum(v);                  // in place, on every task: {10.0}
 *         return v;
 *     });
 *     return List.of(v).iterator();
 * }).collect();
 * }</pre>
 */
public final class BarrierRank implements AutoCloseable {
    /** The work of one task, given its rank. */
    @FunctionalInterface
    public interface Work<T> {
        T apply(BarrierRank rank) throws Exception;
    }

    private final Communicator communicator;
    private final CudaDevice gpu;
    private final Stream stream;
    private final Arena arena = Arena.ofShared();
    private MemorySegment host = MemorySegment.NULL;
    private MemorySegment device = MemorySegment.NULL;

    private BarrierRank(Communicator communicator, CudaDevice gpu) {
        this.communicator = communicator;
        this.gpu = gpu;
        this.stream = gpu == null ? new HostStream() : new CudaStream(gpu);
    }

    /**
     * Joins {@code context}'s stage: on the GPU Spark assigned to this task if it assigned one
     * (the CUDA engine), else on the host engine. Every task of the stage must call it.
     */
    public static BarrierRank join(BarrierTaskContext context, Config config) {
        requireContext(context);
        OptionalInt ordinal = gpuOrdinal(context.resourcesJMap(), context.partitionId());
        return ordinal.isPresent() ? joinCuda(context, CudaDevice.open(ordinal.getAsInt()), config)
                : joinHost(context, config);
    }

    /** Joins {@code context}'s stage on the host engine, bootstrapped by {@link BarrierAllGather}. */
    public static BarrierRank joinHost(BarrierTaskContext context, Config config) {
        requireContext(context);
        return new BarrierRank(Communicator.init(new BarrierAllGather(context), config), null);
    }

    /**
     * Joins {@code context}'s stage on the CUDA engine on {@code gpu}. The CUDA engine bootstraps from
     * a {@link CommId}: task 0 starts its root and the barrier all-gather hands its id to the others.
     */
    public static BarrierRank joinCuda(BarrierTaskContext context, CudaDevice gpu, Config config) {
        requireContext(context);
        int rank = context.partitionId();
        if (gpu == null) {
            throw JcclException.invalidArgument(rank, "gpu", "is null");
        }
        if (config == null) {
            throw JcclException.invalidArgument(rank, "config", "is null");
        }
        BarrierAllGather oob = new BarrierAllGather(context);
        byte[] mine = rank == 0 ? CommId.create(config).toBytes() : new byte[0];
        CommId id = CommId.fromBytes(oob.allGather(mine)[0]);
        return new BarrierRank(Communicator.initCuda(id, oob.size(), rank, gpu, config), gpu);
    }

    /**
     * Joins {@code context}'s stage ({@link #join}), runs {@code work} and closes the rank. If
     * {@code work} throws, the communicator is aborted first, so that the other tasks fail naming this
     * rank, and the exception is rethrown for Spark to fail (and retry) the stage.
     */
    public static <T> T run(BarrierTaskContext context, Config config, Work<T> work) throws Exception {
        if (work == null) {
            throw JcclException.invalidArgument(context == null ? JcclException.NO_RANK : context.partitionId(),
                    "work", "is null");
        }
        BarrierRank rank = join(context, config);
        T result;
        try {
            result = work.apply(rank);
        } catch (Throwable t) {
            rank.abort();
            throw t;
        }
        rank.close();
        return result;
    }

    /**
     * The process environment's jccl settings overridden by {@code settings} ({@code JCCL_*} names):
     * settings chosen on the driver travel to the tasks as this serializable map, since
     * {@link Config} itself is not serializable.
     */
    public static Config config(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(System.getenv());
        if (settings != null) {
            all.putAll(settings);
        }
        return Config.fromVariables(all);
    }

    /**
     * The CUDA ordinal of the GPU Spark assigned to task {@code rank}, from its resources (Spark's
     * GPU discovery script reports ordinals, e.g. nvidia-smi's indices); empty when it assigned none.
     * A task given several GPUs uses the first: a rank drives one GPU.
     */
    static OptionalInt gpuOrdinal(Map<String, ResourceInformation> resources, int rank) {
        ResourceInformation gpus = resources == null ? null : resources.get("gpu");
        if (gpus == null || gpus.addresses().length == 0) {
            return OptionalInt.empty();
        }
        String address = gpus.addresses()[0].trim();
        try {
            int ordinal = Integer.parseInt(address);
            if (ordinal >= 0) {
                return OptionalInt.of(ordinal);
            }
        } catch (NumberFormatException e) {
            // reported below with the others
        }
        throw JcclException.invalidArgument(rank, "gpu", "Spark assigned GPU address '" + address
                + "', not a CUDA ordinal (make the GPU discovery script print device indices)");
    }

    private static void requireContext(BarrierTaskContext context) {
        if (context == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "context",
                    "is null (call BarrierTaskContext.get() inside rdd.barrier().mapPartitions)");
        }
    }

    /** This task's communicator. */
    public Communicator communicator() {
        return communicator;
    }

    /** The GPU this rank runs on (CUDA engine), or empty on the host engine. */
    public Optional<CudaDevice> gpu() {
        return Optional.ofNullable(gpu);
    }

    /** The stream this rank's calls run on: a {@link CudaStream} on its GPU or a {@link HostStream}. */
    public Stream stream() {
        return stream;
    }

    /** This task's rank, its partition id. */
    public int rank() {
        return communicator.rank();
    }

    /** The number of ranks, the tasks of the stage. */
    public int size() {
        return communicator.size();
    }

    /**
     * Replaces {@code values} by their sum over all ranks (every rank calls it with the same
     * length), through a buffer of this rank's engine: host memory, or device memory on its GPU.
     */
    public void allReduceSum(double[] values) {
        if (values == null) {
            throw JcclException.invalidArgument(rank(), "values", "is null");
        }
        if (values.length == 0) {
            throw JcclException.invalidArgument(rank(), "values", "is empty");
        }
        long bytes = (long) values.length * Double.BYTES;
        if (host.byteSize() < bytes) {
            // Grown, never shrunk: training loops call it with one length each step.
            host = arena.allocate(bytes, 256);
            device = gpu == null ? host : gpu.allocate(bytes, arena);
        }
        MemorySegment.copy(values, 0, host, ValueLayout.JAVA_DOUBLE, 0, values.length);
        if (gpu != null) {
            gpu.copyToDevice(device.asSlice(0, bytes), host.asSlice(0, bytes));
        }
        communicator.allReduce(device, device, values.length, DataType.FLOAT64, RedOp.SUM, stream);
        stream.synchronize();
        if (gpu != null) {
            gpu.copyToHost(host.asSlice(0, bytes), device.asSlice(0, bytes));
        }
        MemorySegment.copy(host, ValueLayout.JAVA_DOUBLE, 0, values, 0, values.length);
    }

    /** Fails the pending and future calls of every rank of the communicator (naming this one), then frees this rank. */
    public void abort() {
        try {
            communicator.abort();
        } finally {
            freeLocal();
        }
    }

    @Override
    public void close() {
        try {
            communicator.close();
        } finally {
            freeLocal();
        }
    }

    private void freeLocal() {
        try {
            if (stream instanceof CudaStream s) {
                s.close();
            } else if (stream instanceof HostStream s) {
                s.close();
            }
        } finally {
            arena.close();
        }
    }
}
