// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.CudaDevice;
import io.jccl.CudaStream;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.bindings.cuda.Cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link CudaDevice#wrap} and the calls that own their buffers, on a CUDA driver (run by {@link FakeDriverEngineTest}). */
final class UserCallsOnGpu {
    private UserCallsOnGpu() {
    }

    /** cuMemAlloc through the bindings themselves, as another allocator would (not CudaDevice.allocate). */
    private static long foreignAlloc(CudaDevice gpu, long bytes) {
        gpu.makeCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_LONG);
            assertThat(Cuda.cuMemAlloc_v2(out, bytes)).isEqualTo(Cuda.CUDA_SUCCESS);
            return out.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    private static void foreignFree(CudaDevice gpu, long ptr) {
        gpu.makeCurrent();
        assertThat(Cuda.cuMemFree_v2(ptr)).isEqualTo(Cuda.CUDA_SUCCESS);
    }

    static void wrapTakesAnotherAllocatorsMemoryAndRefusesTheRest(CudaDevice gpu, CudaDevice other) {
        int n = 2;
        int count = 1000;
        long[] ptr = {foreignAlloc(gpu, 4096), foreignAlloc(gpu, 4096)};
        long elsewhere = foreignAlloc(other, 4096);
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = {new CudaStream(gpu), new CudaStream(gpu)};
        try (Arena arena = Arena.ofShared()) {
            // The floats start 96 bytes into each allocation: a wrapped pointer need not be its start.
            MemorySegment[] buf = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                buf[r] = gpu.wrap(ptr[r] + 96, 4L * count);
                float[] v = new float[count];
                for (int i = 0; i < count; i++) {
                    v[i] = r * 1000 + i;
                }
                gpu.copyToDevice(buf[r], MemorySegment.ofArray(v));
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                comms[r].allReduce(buf[r], buf[r], count, DataType.FLOAT32, RedOp.SUM, streams[r]);
            }
            Group.end();
            for (int r = 0; r < n; r++) {
                streams[r].synchronize();
                float[] got = new float[count];
                gpu.copyToHost(MemorySegment.ofArray(got), buf[r]);
                for (int i = 0; i < count; i++) {
                    assertThat(got[i]).isEqualTo(1000f + 2 * i);
                }
            }
            assertThat(gpu.wrap(ptr[0] + 1024, 3072).byteSize()).isEqualTo(3072);
            assertThatThrownBy(() -> gpu.wrap(ptr[0] + 1024, 3073)).isInstanceOf(JcclException.class)
                    .hasMessageContaining("'bytes' is 3073").hasMessageContaining("4096 bytes) has only 3072 bytes from there");
            MemorySegment host = arena.allocate(4096);
            assertThatThrownBy(() -> gpu.wrap(host.address(), 4096)).isInstanceOf(JcclException.class)
                    .hasMessageContaining("'devicePointer'").hasMessageContaining("is not memory the CUDA driver knows");
            gpu.makeCurrent();
            MemorySegment pinned;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(ValueLayout.ADDRESS);
                assertThat(Cuda.cuMemHostAlloc(out, 4096, 0)).isEqualTo(Cuda.CUDA_SUCCESS);
                pinned = out.get(ValueLayout.ADDRESS, 0);
            }
            assertThatThrownBy(() -> gpu.wrap(pinned.address(), 64)).hasMessageContaining("pinned host memory, not device memory");
            assertThat(Cuda.cuMemFreeHost(pinned)).isEqualTo(Cuda.CUDA_SUCCESS);
            assertThatThrownBy(() -> gpu.wrap(elsewhere, 64)).hasMessageContaining("memory of GPU " + other.ordinal());
            assertThatThrownBy(() -> gpu.wrap(0, 64)).hasMessageContaining("'devicePointer' is null");
            assertThatThrownBy(() -> gpu.wrap(ptr[0], 0)).hasMessageContaining("'bytes' must be positive");
        } finally {
            for (CudaStream s : streams) {
                s.close();
            }
            for (Communicator c : comms) {
                c.close();
            }
            foreignFree(gpu, ptr[0]);
            foreignFree(gpu, ptr[1]);
            foreignFree(other, elsewhere);
        }
    }

    /** barrier and the byte collectives on CUDA ranks: their buffers are device memory, staged through copies. */
    static void barrierAndBytesOnCudaRanks(CudaDevice gpu) throws Exception {
        int n = 3;
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            byte[] big = new byte[300_000];
            new java.util.Random(7).nextBytes(big);
            List<Future<List<byte[]>>> results = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    comms[rank].barrier();
                    byte[] b = comms[rank].broadcastBytes(rank == 1 ? big : null, 1);
                    byte[] mine = new byte[rank * 5];
                    java.util.Arrays.fill(mine, (byte) (rank + 1));
                    List<byte[]> all = new ArrayList<>(comms[rank].allGatherBytes(mine));
                    all.add(b);
                    return all;
                }));
            }
            for (Future<List<byte[]>> f : results) {
                List<byte[]> got = f.get(120, TimeUnit.SECONDS);
                for (int from = 0; from < n; from++) {
                    byte[] expected = new byte[from * 5];
                    java.util.Arrays.fill(expected, (byte) (from + 1));
                    assertThat(got.get(from)).isEqualTo(expected);
                }
                assertThat(got.get(n)).isEqualTo(big);
            }
        } finally {
            pool.shutdownNow();
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    /** Work on CUDA streams: a call's event says when it ran; an abort during it reaches its handle. */
    static void workOnCudaStreams(CudaDevice gpu) throws Exception {
        int n = 2;
        int count = 256;
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] streams = {new CudaStream(gpu), new CudaStream(gpu)};
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] buf = {gpu.allocate(4L * count, arena), gpu.allocate(4L * count, arena)};
            for (int r = 0; r < n; r++) {
                float[] v = new float[count];
                java.util.Arrays.fill(v, r + 1);
                gpu.copyToDevice(buf[r], MemorySegment.ofArray(v));
            }
            io.jccl.Work w0 = comms[0].allReduceAsync(buf[0], buf[0], count, DataType.FLOAT32, RedOp.SUM, streams[0]);
            // Rank 1 has not called: rank 0's all-reduce waits for it.
            assertThat(w0.await(java.time.Duration.ofMillis(300))).isFalse();
            assertThat(w0.isCompleted()).isFalse();
            io.jccl.Work w1 = comms[1].allReduceAsync(buf[1], buf[1], count, DataType.FLOAT32, RedOp.SUM, streams[1]);
            w0.join();
            w1.toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertThat(w0.isCompleted()).isTrue();
            for (int r = 0; r < n; r++) {
                float[] got = new float[count];
                gpu.copyToHost(MemorySegment.ofArray(got), buf[r]);
                assertThat(got).containsOnly(3f);
            }
            io.jccl.Work lone = comms[0].allReduceAsync(buf[0], buf[0], count, DataType.FLOAT32, RedOp.SUM, streams[0]);
            assertThat(lone.await(java.time.Duration.ofMillis(200))).isFalse();
            comms[1].abort(); // rank 1 never joins: its abort fails rank 0's call
            assertThatThrownBy(lone::join).isInstanceOf(JcclException.class);
            assertThat(lone.isCompleted()).isTrue();
        } finally {
            for (CudaStream s : streams) {
                s.close();
            }
            for (Communicator c : comms) {
                c.close();
            }
        }
    }
}
