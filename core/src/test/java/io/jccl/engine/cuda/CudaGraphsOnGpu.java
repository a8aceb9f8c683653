// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.CudaDevice;
import io.jccl.CudaGraph;
import io.jccl.CudaStream;
import io.jccl.DataType;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.cuda.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Collectives captured into CUDA graphs and replayed ({@link CudaGraph}), on a CUDA driver: the
 * fake one in CI ({@link FakeDriverEngineTest}), a GPU's in {@link CudaCollectivesTest}.
 */
final class CudaGraphsOnGpu {
    private CudaGraphsOnGpu() {
    }

    /** Rank r's element i in replay k: distinct per rank, element and replay. */
    private static int value(int r, int k, int i) {
        return 1_000_003 * r + 7919 * k + i;
    }

    /**
     * Each of {@code n} ranks captures an all-reduce, a broadcast from rank 1 and an all-gather in
     * one graph; the graphs are replayed {@code replays} times, with new inputs before each, and
     * every output is checked bitwise after each replay.
     */
    static void capturedCollectivesReplayExactly(CudaDevice gpu, int n, int count, int replays) {
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = new CudaStream[n];
        CudaGraph[] graphs = new CudaGraph[n];
        try (Arena arena = Arena.ofShared()) {
            long bytes = 4L * count;
            MemorySegment[] in = new MemorySegment[n];
            MemorySegment[] sum = new MemorySegment[n];
            MemorySegment[] bcast = new MemorySegment[n];
            MemorySegment[] gathered = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                streams[r] = new CudaStream(gpu);
                in[r] = gpu.allocate(bytes, arena);
                sum[r] = gpu.allocate(bytes, arena);
                bcast[r] = gpu.allocate(bytes, arena);
                gathered[r] = gpu.allocate(bytes * n, arena);
            }
            for (int r = 0; r < n; r++) {
                Communicator c = comms[r];
                CudaStream s = streams[r];
                int rank = r;
                graphs[r] = CudaGraph.capture(s, () -> {
                    c.allReduce(in[rank], sum[rank], count, DataType.INT32, RedOp.SUM, s);
                    c.broadcast(in[rank], bcast[rank], count, DataType.INT32, 1, s);
                    c.allGather(in[rank], gathered[rank], count, DataType.INT32, s);
                });
            }
            MemorySegment host = arena.allocate(bytes * n, 4);
            for (int k = 0; k < replays; k++) {
                for (int r = 0; r < n; r++) {
                    for (int i = 0; i < count; i++) {
                        host.setAtIndex(ValueLayout.JAVA_INT, i, value(r, k, i));
                    }
                    gpu.copyToDevice(in[r], host.asSlice(0, bytes));
                }
                for (int r = 0; r < n; r++) {
                    graphs[r].launch(streams[r]);
                }
                for (CudaStream s : streams) {
                    s.synchronize();
                }
                int[] sumExpected = new int[count];
                int[] bcastExpected = new int[count];
                int[] gatherExpected = new int[count * n];
                for (int i = 0; i < count; i++) {
                    for (int q = 0; q < n; q++) {
                        sumExpected[i] += value(q, k, i);
                        gatherExpected[q * count + i] = value(q, k, i);
                    }
                    bcastExpected[i] = value(1, k, i);
                }
                for (int r = 0; r < n; r++) {
                    same("all-reduce", k, r, sumExpected, gpu, sum[r]);
                    same("broadcast", k, r, bcastExpected, gpu, bcast[r]);
                    same("all-gather", k, r, gatherExpected, gpu, gathered[r]);
                }
            }
            // The graphs hold their descriptors until they are destroyed; then the driver lets go.
            assertThat(GraphHolds.live()).as("a hold per rank's graph").isEqualTo(n);
            for (int r = 0; r < n; r++) {
                graphs[r].close();
                graphs[r] = null;
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline && GraphHolds.live() > 0) {
                Thread.onSpinWait();
            }
            assertThat(GraphHolds.live()).as("holds released once the graphs are destroyed").isZero();
            // Eager calls after the graphs, on the same FIFOs: still in step.
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < count; i++) {
                    host.setAtIndex(ValueLayout.JAVA_INT, i, value(r, replays, i));
                }
                gpu.copyToDevice(in[r], host.asSlice(0, bytes));
                comms[r].allReduce(in[r], sum[r], count, DataType.INT32, RedOp.SUM, streams[r]);
            }
            for (CudaStream s : streams) {
                s.synchronize();
            }
            gpu.copyToHost(host.asSlice(0, bytes), sum[n - 1]);
            int expected = 0;
            for (int q = 0; q < n; q++) {
                expected += value(q, replays, count - 1);
            }
            assertThat(host.getAtIndex(ValueLayout.JAVA_INT, count - 1)).isEqualTo(expected);
        } finally {
            for (int r = 0; r < n; r++) {
                if (graphs[r] != null) {
                    graphs[r].close();
                }
                comms[r].close();
                if (streams[r] != null) {
                    streams[r].close();
                }
            }
        }
    }

    /** Rank {@code r}'s output {@code device} after replay {@code k}, bitwise against {@code expected}. */
    private static void same(String what, int k, int r, int[] expected, CudaDevice gpu, MemorySegment device) {
        int[] got = new int[expected.length];
        gpu.copyToHost(MemorySegment.ofArray(got), device);
        int at = java.util.Arrays.mismatch(got, expected);
        assertThat(at).as("%s, replay %d, rank %d: first wrong element %d (%s, expected %s)", what, k, r, at,
                at < 0 ? "" : got[at], at < 0 ? "" : expected[at]).isEqualTo(-1);
    }

    /**
     * What cannot be captured is refused with the reason, the capture is dropped, and the ranks
     * go on eagerly: a {@code Work} handle, a synchronize inside the capture, and a call after
     * something CUDA forbids while capturing (an allocation) invalidated the capture.
     */
    static void whatCannotBeCapturedIsRefusedWithTheReason(CudaDevice gpu) {
        int n = 2;
        int count = 256;
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = {new CudaStream(gpu), new CudaStream(gpu)};
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] buf = {gpu.allocate(4L * count, arena), gpu.allocate(4L * count, arena)};
            assertThatThrownBy(() -> CudaGraph.capture(streams[0], () -> comms[0].allReduceAsync(buf[0], buf[0], count,
                    DataType.FLOAT32, RedOp.SUM, streams[0])))
                    .isInstanceOf(JcclException.class).hasMessageContaining("rank 0")
                    .hasMessageContaining("capturing a CUDA graph").hasMessageContaining("no handle can wait for it");
            assertThatThrownBy(() -> CudaGraph.capture(streams[0], streams[0]::synchronize))
                    .isInstanceOf(JcclException.class).hasMessageContaining("CudaStream.synchronize()")
                    .hasMessageContaining("capturing a CUDA graph");
            assertThatThrownBy(() -> CudaGraph.capture(streams[1], () -> {
                gpu.makeCurrent();
                // cuMemAlloc in thread-local capture mode: CUDA refuses it and invalidates the capture
                assertThatThrownBy(() -> CudaDriver.memAlloc(4096)).hasMessageContaining("CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED");
                comms[1].allReduce(buf[1], buf[1], count, DataType.FLOAT32, RedOp.SUM, streams[1]);
            })).isInstanceOf(JcclException.class).hasMessageContaining("rank 1")
                    .hasMessageContaining("capture was invalidated");
            assertThat(CudaDriver.captureStatus(streams[0].handle())).isZero();
            assertThat(CudaDriver.captureStatus(streams[1].handle())).isZero();
            // Nothing was captured: both ranks' next eager call meets.
            float[] ones = new float[count];
            java.util.Arrays.fill(ones, 1f);
            for (int r = 0; r < n; r++) {
                gpu.copyToDevice(buf[r], MemorySegment.ofArray(ones));
                comms[r].allReduce(buf[r], buf[r], count, DataType.FLOAT32, RedOp.SUM, streams[r]);
            }
            for (CudaStream s : streams) {
                s.synchronize();
            }
            float[] back = new float[count];
            gpu.copyToHost(MemorySegment.ofArray(back), buf[1]);
            assertThat(back).containsOnly(2f);
        } finally {
            for (int r = 0; r < n; r++) {
                comms[r].close();
                streams[r].close();
            }
        }
    }
}
