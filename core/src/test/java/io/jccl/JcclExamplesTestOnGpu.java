// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The examples of {@link CudaDevice}, {@link CudaStream} and {@link CudaGraph}, as {@link JcclExamplesTest} has the
 * others': they compile with the tests, and run only where {@link CudaDevice#available()} (a GPU
 * and its driver); elsewhere they are skipped.
 *
 * <p>The name is outside surefire's default patterns on purpose: a JVM loads libcuda once, and the
 * default test JVM loads CUDA's stub library for {@code CudaEngineWithoutGpuTest}, so this class
 * must not share a JVM with it. Run it by name, in a JVM of its own:
 * {@code mvn -pl core test-compile surefire:test@default-test -Dtest='JcclExamplesTest*'}.
 */
class JcclExamplesTestOnGpu {

    /** Skips each example, reported as skipped, where there is no GPU. */
    @BeforeEach
    void needsAGpu() {
        Assumptions.assumeTrue(CudaDevice.available(),
                "no CUDA GPU: the driver (JCCL_CUDA_LIB, else libcuda.so.1) is missing, is the stub, or reports no device");
    }

    @Test
    void aCudaDeviceAllocatesAndCopies() {
        float[] data = new float[1024];
        Arrays.fill(data, 2.5f);
        float[] back = new float[1024];
        // @start region="cuda-device"
        CudaDevice gpu = CudaDevice.open(0);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buf = gpu.allocate(1024 * 4, arena);     // 1024 floats on the GPU
            gpu.copyToDevice(buf, MemorySegment.ofArray(data));
            gpu.copyToHost(MemorySegment.ofArray(back), buf);      // back to the host: data again
        }                                                          // cuMemFree here
        // @end
        assertThat(back).isEqualTo(data);
        assertThat(gpu.multiprocessors()).isPositive();
        assertThat(gpu.name()).isNotBlank();
    }

    @Test
    void cudaStreamsRunTheCallsOfTheirRanks() {
        CudaDevice gpu = CudaDevice.open(0);
        int n = 4096;
        Communicator[] comms = Communicator.initAllCuda(2, gpu, Config.fromEnvironment());
        float[][] sums = new float[2][n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] buf = new MemorySegment[2];
            for (int r = 0; r < 2; r++) {
                float[] values = new float[n];
                Arrays.fill(values, r + 1);
                buf[r] = gpu.allocate(n * 4L, arena);
                gpu.copyToDevice(buf[r], MemorySegment.ofArray(values));
            }
            // @start region="cuda-stream"
            try (CudaStream s0 = new CudaStream(gpu); CudaStream s1 = new CudaStream(gpu)) {  // a stream per rank
                CudaStream[] streams = {s0, s1};
                Group.start();                      // one thread issues both ranks' calls
                for (Communicator comm : comms) {
                    int r = comm.rank();
                    comm.allReduce(buf[r], buf[r], n, DataType.FLOAT32, RedOp.SUM, streams[r]);
                }
                Group.end();
                for (CudaStream s : streams) {
                    s.synchronize();                // waits for the kernels; rethrows a rank's failure
                }
            }
            // @end
            for (int r = 0; r < 2; r++) {
                gpu.copyToHost(MemorySegment.ofArray(sums[r]), buf[r]);
            }
        } finally {
            for (Communicator comm : comms) {
                comm.close();
            }
        }
        for (float[] sum : sums) {
            assertThat(sum).hasSize(n).containsOnly(3f);     // 1 + 2
        }
    }

    @Test
    void aCudaGraphReplaysCapturedCalls() {
        CudaDevice gpu = CudaDevice.open(0);
        int n = 1024;
        Communicator[] comms = Communicator.initAllCuda(2, gpu, Config.fromEnvironment());
        float[][] out = new float[2][n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] in = new MemorySegment[2];
            MemorySegment[] sum = new MemorySegment[2];
            for (int r = 0; r < 2; r++) {
                float[] values = new float[n];
                Arrays.fill(values, r + 1);
                in[r] = gpu.allocate(n * 4L, arena);
                sum[r] = gpu.allocate(n * 4L, arena);
                gpu.copyToDevice(in[r], MemorySegment.ofArray(values));
            }
            CudaStream[] streams = {new CudaStream(gpu), new CudaStream(gpu)};
            CudaGraph[] graphs = new CudaGraph[2];
            try {
                for (Communicator comm : comms) {
                    int r = comm.rank();
                    // @start region="cuda-graph"
                    CudaStream s = streams[r];
                    graphs[r] = CudaGraph.capture(s, () -> {         // recorded, not run
                        for (int i = 0; i < 100; i++) {
                            comm.allReduce(in[r], sum[r], n, DataType.FLOAT32, RedOp.SUM, s);
                        }
                    });
                    graphs[r].launch(s);                             // the 100 calls, one driver call
                    // @end
                }
                for (CudaStream s : streams) {
                    s.synchronize();
                }
            } finally {
                for (int r = 0; r < 2; r++) {
                    if (graphs[r] != null) {
                        graphs[r].close();
                    }
                    streams[r].close();
                }
            }
            for (int r = 0; r < 2; r++) {
                gpu.copyToHost(MemorySegment.ofArray(out[r]), sum[r]);
            }
        } finally {
            for (Communicator comm : comms) {
                comm.close();
            }
        }
        for (float[] o : out) {
            assertThat(o).containsOnly(3f);
        }
    }

    @Test
    void theRanksOfAGpuCapturedInOneGraph() {
        CudaDevice gpu = CudaDevice.open(0);
        int n = 1024;
        Communicator[] comms = Communicator.initAllCuda(4, gpu, Config.fromEnvironment());
        float[][] out = new float[4][n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] in = new MemorySegment[4];
            MemorySegment[] sum = new MemorySegment[4];
            List<CudaStream> streams = new java.util.ArrayList<>();
            for (int r = 0; r < 4; r++) {
                float[] values = new float[n];
                Arrays.fill(values, r + 1);
                in[r] = gpu.allocate(n * 4L, arena);
                sum[r] = gpu.allocate(n * 4L, arena);
                gpu.copyToDevice(in[r], MemorySegment.ofArray(values));
                streams.add(new CudaStream(gpu));
            }
            try {
                // @start region="cuda-graph-group"
                CudaGraph graph = CudaGraph.capture(streams, () -> {
                    for (int i = 0; i < 100; i++) {
                        Group.run(() -> {                            // every rank's call: one launch
                            for (Communicator comm : comms) {
                                int r = comm.rank();
                                comm.allReduce(in[r], sum[r], n, DataType.FLOAT32, RedOp.SUM, streams.get(r));
                            }
                        });
                    }
                });
                graph.launch(streams);                               // 100 kernels, one driver call
                // @end
                streams.forEach(CudaStream::synchronize);
                graph.close();
            } finally {
                streams.forEach(CudaStream::close);
            }
            for (int r = 0; r < 4; r++) {
                gpu.copyToHost(MemorySegment.ofArray(out[r]), sum[r]);
            }
        } finally {
            for (Communicator comm : comms) {
                comm.close();
            }
        }
        for (float[] o : out) {
            assertThat(o).containsOnly(10f);
        }
    }
}
