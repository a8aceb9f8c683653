// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Collective;
import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.CudaDevice;
import io.jccl.CudaGraph;
import io.jccl.CudaStream;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The calls of all ranks of one GPU issued in one group, run by one direct launch
 * ({@link DirectLaunch}), on a CUDA driver: the fake one in CI ({@link FakeDriverEngineTest}, which
 * also counts the direct launches), a GPU's in {@link CudaCollectivesTest}. Every output is
 * checked bitwise against the reduction in rank order.
 */
final class DirectLaunchOnGpu {
    private DirectLaunchOnGpu() {
    }

    /** Rank r's input element i: distinct, small enough that products of a few ranks stay exact. */
    private static double input(int r, int i, DataType t) {
        return switch (t) {
            case FLOAT32, FLOAT64 -> (r + 1) * 0.375 + (i % 97) * 1.0625 - 17;
            default -> (r * 7 + i * 13) % 41 - 20;
        };
    }

    private record Case(Collective c, DataType type, RedOp op, boolean inPlace, long count, int root) {
    }

    /**
     * Every collective with a direct form, out of place and in place, in integer and float types
     * and every reduction, at 2 elements (8 B), at an odd count (the scalar tail) and at a count
     * whose parts break the 16-byte alignment: one direct launch per call where {@code launches}
     * counts them (null on a GPU), every output bitwise.
     */
    static void everyCollectiveInOneLaunch(CudaDevice gpu, int n, LongSupplier launches) {
        List<Case> cases = List.of(
                new Case(Collective.ALL_REDUCE, DataType.INT32, RedOp.SUM, false, 2, 0),
                new Case(Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, true, 1001, 0),
                new Case(Collective.ALL_REDUCE, DataType.FLOAT64, RedOp.AVG, false, 4099, 0),
                new Case(Collective.ALL_REDUCE, DataType.INT64, RedOp.PROD, false, 64, 0),
                new Case(Collective.ALL_REDUCE, DataType.INT32, RedOp.MIN, false, 300, 0),
                new Case(Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.MAX, false, 300, 0),
                new Case(Collective.ALL_REDUCE, DataType.INT32, RedOp.preMulSum(3), false, 257, 0),
                new Case(Collective.REDUCE, DataType.FLOAT32, RedOp.SUM, false, 1000, 1),
                new Case(Collective.BROADCAST, DataType.INT32, null, false, 999, n - 1),
                new Case(Collective.BROADCAST, DataType.INT32, null, true, 1024, 0),
                new Case(Collective.ALL_GATHER, DataType.FLOAT32, null, false, 3, 0),
                new Case(Collective.ALL_GATHER, DataType.INT32, null, true, 1000, 0),
                new Case(Collective.REDUCE_SCATTER, DataType.FLOAT32, RedOp.SUM, false, 501, 0),
                new Case(Collective.REDUCE_SCATTER, DataType.INT32, RedOp.SUM, true, 512, 0),
                new Case(Collective.ALL_TO_ALL, DataType.INT32, null, false, 333, 0),
                new Case(Collective.GATHER, DataType.FLOAT64, null, false, 77, n - 1),
                new Case(Collective.SCATTER, DataType.INT32, null, false, 1001, 1));
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = new CudaStream[n];
        try (Arena arena = Arena.ofShared()) {
            for (int r = 0; r < n; r++) {
                streams[r] = new CudaStream(gpu);
            }
            for (Case k : cases) {
                long before = launches == null ? 0 : launches.getAsLong();
                run(gpu, comms, streams, k, arena);
                if (launches != null) {
                    assertThat(launches.getAsLong() - before).as(k + ": one direct launch for all " + n + " ranks").isEqualTo(1);
                }
            }
            // Groups of several calls per rank run on each rank's own kernels, still right.
            long before = launches == null ? 0 : launches.getAsLong();
            MemorySegment[] in = new MemorySegment[n];
            MemorySegment[] out = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                in[r] = gpu.allocate(4096, arena);
                out[r] = gpu.allocate(4096, arena);
                gpu.copyToDevice(in[r], MemorySegment.ofArray(new int[] {r + 1, r + 2}));
            }
            Group.run(() -> {
                for (int r = 0; r < n; r++) {
                    comms[r].allReduce(in[r], out[r], 2, DataType.INT32, RedOp.SUM, streams[r]);
                    comms[r].broadcast(in[r], in[r], 1, DataType.INT32, 0, streams[r]);
                }
            });
            assertThat(launches == null ? 0 : launches.getAsLong() - before).as("a group of two calls per rank").isZero();
            for (CudaStream s : streams) {
                s.synchronize();
            }
            int[] got = new int[2];
            gpu.copyToHost(MemorySegment.ofArray(got), out[n - 1]);
            assertThat(got).containsExactly(n * (n + 1) / 2, n * (n + 3) / 2);
        } finally {
            for (int r = 0; r < n; r++) {
                comms[r].close();
                if (streams[r] != null) {
                    streams[r].close();
                }
            }
        }
    }

    /** One case: inputs written, the call issued by every rank in one group, every output checked. */
    private static void run(CudaDevice gpu, Communicator[] comms, CudaStream[] streams, Case k, Arena arena) {
        int n = comms.length;
        long count = k.count();
        long inCount = switch (k.c()) {
            case REDUCE_SCATTER, ALL_TO_ALL, SCATTER -> count * n;
            default -> count;
        };
        long outCount = switch (k.c()) {
            case ALL_GATHER, ALL_TO_ALL, GATHER -> count * n;
            default -> count;
        };
        int es = (int) k.type().bytes(1);
        MemorySegment[] in = new MemorySegment[n];
        MemorySegment[] out = new MemorySegment[n];
        double[][] inputs = new double[n][(int) inCount];
        // odd counts 8 or 4 bytes into the allocation: 16-byte vectors cannot take them (the scalar path)
        long skew = count % 2 == 1 ? es : 0;
        for (int r = 0; r < n; r++) {
            MemorySegment outAlloc = gpu.allocate(outCount * es + 16, arena).asSlice(skew, outCount * es);
            out[r] = outAlloc;
            if (k.inPlace() && k.c() == Collective.REDUCE_SCATTER) {
                // in place: recvbuff is block r of sendbuff
                in[r] = gpu.allocate(inCount * es + 16, arena).asSlice(skew, inCount * es);
                out[r] = in[r].asSlice(r * count * es, count * es);
            } else if (k.inPlace()) {
                // in place: sendbuff is recvbuff, or block r of it (all-gather)
                in[r] = outAlloc.asSlice((k.c() == Collective.ALL_GATHER ? r * count : 0) * es, inCount * es);
            } else {
                in[r] = gpu.allocate(inCount * es + 16, arena).asSlice(skew, inCount * es);
            }
            for (int i = 0; i < inCount; i++) {
                inputs[r][i] = input(r, i, k.type());
            }
            gpu.copyToDevice(in[r], encode(inputs[r], k.type(), arena));
        }
        Group.run(() -> {
            for (int r = 0; r < n; r++) {
                Communicator c = comms[r];
                switch (k.c()) {
                    case ALL_REDUCE -> c.allReduce(in[r], out[r], count, k.type(), k.op(), streams[r]);
                    case REDUCE -> c.reduce(in[r], out[r], count, k.type(), k.op(), k.root(), streams[r]);
                    case BROADCAST -> c.broadcast(in[r], out[r], count, k.type(), k.root(), streams[r]);
                    case ALL_GATHER -> c.allGather(in[r], out[r], count, k.type(), streams[r]);
                    case REDUCE_SCATTER -> c.reduceScatter(in[r], out[r], count, k.type(), k.op(), streams[r]);
                    case ALL_TO_ALL -> c.allToAll(in[r], out[r], count, k.type(), streams[r]);
                    case GATHER -> c.gather(in[r], out[r], count, k.type(), k.root(), streams[r]);
                    case SCATTER -> c.scatter(in[r], out[r], count, k.type(), k.root(), streams[r]);
                    default -> throw new AssertionError(k);
                }
            }
        });
        for (CudaStream s : streams) {
            s.synchronize();
        }
        for (int r = 0; r < n; r++) {
            if ((k.c() == Collective.REDUCE || k.c() == Collective.GATHER) && r != k.root()) {
                continue;
            }
            double[] expected = new double[(int) outCount];
            for (int i = 0; i < outCount; i++) {
                expected[i] = expected(k, inputs, r, i, n);
            }
            MemorySegment host = arena.allocate(outCount * es, 8);
            gpu.copyToHost(host, out[r]);
            double[] got = decode(host, k.type(), (int) outCount);
            assertThat(got).as(k + " rank " + r).containsExactly(expected);
        }
    }

    /** Rank r's output element i: the reduction in rank order, or the element it copies. */
    private static double expected(Case k, double[][] in, int r, int i, int n) {
        long count = k.count();
        return switch (k.c()) {
            case ALL_REDUCE, REDUCE -> reduce(k, in, i, n);
            case REDUCE_SCATTER -> reduce(k, in, (int) (r * count + i), n);
            case BROADCAST -> in[k.root()][i];
            case ALL_GATHER, GATHER -> in[(int) (i / count)][(int) (i % count)];
            case ALL_TO_ALL -> in[(int) (i / count)][(int) (r * count + i % count)];
            case SCATTER -> in[k.root()][(int) (r * count + i)];
            default -> throw new AssertionError(k);
        };
    }

    private static double reduce(Case k, double[][] in, int i, int n) {
        DataType t = k.type();
        double acc = k.op().kind() == RedOp.Kind.PRE_MUL_SUM ? round(in[0][i] * k.op().scalar(), t) : in[0][i];
        for (int q = 1; q < n; q++) {
            double x = in[q][i];
            acc = round(switch (k.op().kind()) {
                case PROD -> acc * x;
                case MIN -> Math.min(acc, x);
                case MAX -> Math.max(acc, x);
                case PRE_MUL_SUM -> acc + x * k.op().scalar();
                default -> acc + x;
            }, t);
        }
        return k.op().kind() == RedOp.Kind.AVG ? round(t == DataType.FLOAT64 || t == DataType.FLOAT32 ? acc / n
                : (double) ((long) acc / n), t) : acc;
    }

    /** A value as the type holds it (float32 rounds each step; the integers here never wrap). */
    private static double round(double v, DataType t) {
        return t == DataType.FLOAT32 ? (double) (float) v : t == DataType.FLOAT64 ? v : v + 0.0; // integers have no -0
    }

    private static MemorySegment encode(double[] v, DataType t, Arena arena) {
        MemorySegment m = arena.allocate(Math.max(1, v.length) * t.bytes(1), 8);
        for (int i = 0; i < v.length; i++) {
            switch (t) {
                case FLOAT32 -> m.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v[i]);
                case FLOAT64 -> m.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v[i]);
                case INT32 -> m.setAtIndex(ValueLayout.JAVA_INT, i, (int) v[i]);
                case INT64 -> m.setAtIndex(ValueLayout.JAVA_LONG, i, (long) v[i]);
                default -> throw new AssertionError(t);
            }
        }
        return m.asSlice(0, v.length * t.bytes(1));
    }

    private static double[] decode(MemorySegment m, DataType t, int n) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = switch (t) {
                case FLOAT32 -> m.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                case FLOAT64 -> m.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
                case INT32 -> m.getAtIndex(ValueLayout.JAVA_INT, i);
                case INT64 -> m.getAtIndex(ValueLayout.JAVA_LONG, i);
                default -> throw new AssertionError(t);
            };
        }
        return d;
    }

    /**
     * A group with a bad part launches nothing and fails naming the rank and the argument; the
     * ranks stay usable. A direct launch then orders each rank's next call on another stream, and
     * the caller's copy on its own stream waits for it.
     */
    static void refusalsAndOrderAroundADirectLaunch(CudaDevice gpu, int n, LongSupplier launches) {
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = new CudaStream[n];
        CudaStream[] others = new CudaStream[n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] in = new MemorySegment[n];
            MemorySegment[] mid = new MemorySegment[n];
            MemorySegment[] out = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                streams[r] = new CudaStream(gpu);
                others[r] = new CudaStream(gpu);
                in[r] = gpu.allocate(64, arena);
                mid[r] = gpu.allocate(64, arena);
                out[r] = gpu.allocate(64, arena);
                gpu.copyToDevice(in[r], MemorySegment.ofArray(new int[] {r + 1, 10 * (r + 1)}));
            }
            long before = launches == null ? 0 : launches.getAsLong();
            MemorySegment hostBuffer = arena.allocate(64);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Group.run(() -> {
                for (int r = 0; r < n; r++) {
                    comms[r].allReduce(r == n - 1 ? hostBuffer : in[r], mid[r], 2, DataType.INT32, RedOp.SUM, streams[r]);
                }
            })).isInstanceOf(io.jccl.JcclException.class).hasMessageContaining("rank " + (n - 1)).hasMessageContaining("sendbuff");
            for (CudaStream s : streams) {
                s.synchronize();
            }
            if (launches != null) {
                assertThat(launches.getAsLong() - before).as("nothing launched for a group with a bad part").isZero();
            }
            // The direct launch on `streams`, then each rank alone on `others`, reading its output.
            Group.run(() -> {
                for (int r = 0; r < n; r++) {
                    comms[r].allReduce(in[r], mid[r], 2, DataType.INT32, RedOp.SUM, streams[r]);
                }
            });
            for (int r = 0; r < n; r++) {
                comms[r].allReduce(mid[r], out[r], 2, DataType.INT32, RedOp.SUM, others[r]);
            }
            int[] got = new int[2];
            int sum = n * (n + 1) / 2;
            for (int r = 0; r < n; r++) {
                others[r].synchronize();
                gpu.copyToHost(MemorySegment.ofArray(got), out[r]);
                assertThat(got).as("rank " + r).containsExactly(n * sum, n * 10 * sum);
            }
        } finally {
            for (int r = 0; r < n; r++) {
                comms[r].close();
                for (CudaStream s : new CudaStream[] {streams[r], others[r]}) {
                    if (s != null) {
                        s.close();
                    }
                }
            }
        }
    }

    /**
     * The ranks' streams captured in one graph ({@link CudaGraph#capture(List, Runnable)}), 10
     * all-reduces of all ranks issued in groups: 10 direct kernels a replay where {@code launches}
     * counts them (null on a GPU), replayed {@code replays} times with new inputs, every output bitwise.
     */
    static void groupsCapturedInOneGraphReplayExactly(CudaDevice gpu, int n, int count, int replays, LongSupplier launches) {
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = new CudaStream[n];
        CudaGraph graph = null;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] in = new MemorySegment[n];
            MemorySegment[] out = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                streams[r] = new CudaStream(gpu);
                in[r] = gpu.allocate(4L * count, arena);
                out[r] = gpu.allocate(4L * count, arena);
            }
            int calls = 10;
            graph = CudaGraph.capture(Arrays.asList(streams), () -> {
                for (int i = 0; i < calls; i++) {
                    Group.run(() -> {
                        for (int r = 0; r < n; r++) {
                            comms[r].allReduce(in[r], out[r], count, DataType.INT32, RedOp.SUM, streams[r]);
                        }
                    });
                }
            });
            int[] host = new int[count];
            for (int k = 0; k < replays; k++) {
                for (int r = 0; r < n; r++) {
                    for (int i = 0; i < count; i++) {
                        host[i] = 1_000_003 * r + 7919 * k + i;
                    }
                    gpu.copyToDevice(in[r], MemorySegment.ofArray(host));
                }
                long before = launches == null ? 0 : launches.getAsLong();
                graph.launch(Arrays.asList(streams));
                for (CudaStream s : streams) {
                    s.synchronize();
                }
                if (launches != null) {
                    assertThat(launches.getAsLong() - before).as("one kernel per call for all ranks").isEqualTo(calls);
                }
                for (int r = 0; r < n; r++) {
                    gpu.copyToHost(MemorySegment.ofArray(host), out[r]);
                    for (int i = 0; i < count; i++) {
                        int e = 0;
                        for (int q = 0; q < n; q++) {
                            e += 1_000_003 * q + 7919 * k + i;
                        }
                        if (host[i] != e) {
                            throw new AssertionError("replay " + k + " rank " + r + " element " + i + ": " + host[i]
                                    + ", expected " + e);
                        }
                    }
                }
            }
        } finally {
            if (graph != null) {
                graph.close();
            }
            for (int r = 0; r < n; r++) {
                comms[r].close();
                if (streams[r] != null) {
                    streams[r].close();
                }
            }
        }
    }
}
