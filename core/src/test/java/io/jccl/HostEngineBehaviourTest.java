// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the host engine behaves beyond the arithmetic: threads, streams, groups, failures. */
class HostEngineBehaviourTest {
    private static MemorySegment floats(Arena a, int n, float v) {
        MemorySegment s = a.allocate(4L * n);
        for (int i = 0; i < n; i++) {
            s.setAtIndex(ValueLayout.JAVA_FLOAT, i, v + i);
        }
        return s;
    }

    @Test
    void oneThreadPerRankAsWithOneProcessPerGpu() throws Exception {
        int n = 4;
        Communicator[] comms = Communicator.initAll(n, Config.defaults().withChannels(1, 2));
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (Arena a = Arena.ofShared()) {
            List<Future<float[]>> results = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    try (HostStream s = new HostStream()) {
                        MemorySegment buf = floats(a, 300_000, rank);
                        for (int i = 0; i < 5; i++) {
                            comms[rank].allReduce(buf, buf, 300_000, DataType.FLOAT32, RedOp.SUM, s);
                        }
                        s.synchronize();
                        return new float[] {buf.getAtIndex(ValueLayout.JAVA_FLOAT, 0), buf.getAtIndex(ValueLayout.JAVA_FLOAT, 299_999)};
                    }
                }));
            }
            // Five sums of 4 ranks: x -> 4x each time, starting from sum_r (r + i).
            for (Future<float[]> f : results) {
                float[] v = f.get(60, TimeUnit.SECONDS);
                assertThat(v[0]).isEqualTo((0 + 1 + 2 + 3) * 256f);
                assertThat(v[1]).isEqualTo((6 + 4 * 299_999f) * 256f);
            }
        } finally {
            pool.shutdownNow();
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void aTimeoutBehindAPeerThatWaitsTooNamesTheThreadThatDidNotCall() {
        // a ring of 4 threads, rank 3 never calls: rank 0 waits on rank 3, ranks 1 and 2 on ranks that called and wait too
        Communicator[] comms = Communicator.initAll(4, Config.defaults().withTimeout(Duration.ofMillis(300)).withAlgorithms("ring"));
        HostStream[] streams = {new HostStream(), new HostStream(), new HostStream()};
        try (Arena a = Arena.ofShared()) {
            for (int r = 0; r < 3; r++) {
                MemorySegment b = floats(a, 12, 0);
                comms[r].allReduce(b, b, 12, DataType.FLOAT32, RedOp.SUM, streams[r]);
            }
            List<JcclException> timeouts = new ArrayList<>();
            for (HostStream s : streams) {
                try {
                    s.synchronize();
                } catch (JcclException e) {
                    if (e.code() == ErrorCode.TIMEOUT) {
                        timeouts.add(e);
                    }
                }
            }
            assertThat(timeouts).isNotEmpty().allSatisfy(e -> assertThat(e.getMessage())
                    .contains("rank 3, a thread of this process, did not make the matching call"));
        } finally {
            for (HostStream s : streams) {
                s.close();
            }
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void aMissingPeerTimesOutNamingRankPeerChannelAndStepThenTheCommunicatorRefusesWork() {
        Communicator[] comms = Communicator.initAll(3, Config.defaults().withTimeout(Duration.ofMillis(300)).withAlgorithms("ring"));
        HostStream s0 = new HostStream();
        HostStream s1 = new HostStream();
        try (Arena a = Arena.ofShared()) {
            MemorySegment b0 = floats(a, 10, 0);
            MemorySegment b1 = floats(a, 10, 0);
            // Rank 2 never calls.
            comms[0].allReduce(b0, b0, 10, DataType.FLOAT32, RedOp.SUM, s0);
            comms[1].allReduce(b1, b1, 10, DataType.FLOAT32, RedOp.SUM, s1);
            long start = System.nanoTime();
            JcclException e0 = null;
            JcclException e1 = null;
            try {
                s0.synchronize();
            } catch (JcclException e) {
                e0 = e;
            }
            try {
                s1.synchronize();
            } catch (JcclException e) {
                e1 = e;
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
            List<JcclException> errors = new ArrayList<>();
            Collections.addAll(errors, e0, e1);
            assertThat(errors).doesNotContainNull();
            // One rank times out waiting for rank 2; the other is aborted because of it.
            JcclException timeout = errors.stream().filter(x -> x.code() == ErrorCode.TIMEOUT).findFirst().orElseThrow();
            assertThat(timeout.getMessage()).contains("rank 2").contains("channel 0").contains("step").contains("tile 0")
                    .contains("rank 2, a thread of this process, did not make the matching call");
            assertThat(timeout.rank()).isIn(0, 1);
            assertThatThrownBy(() -> comms[0].allReduce(b0, b0, 10, DataType.FLOAT32, RedOp.SUM, s0))
                    .isInstanceOf(JcclException.class).hasMessageContaining("must be closed");
        } finally {
            s0.close();
            s1.close();
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void sendRecvGroupsCompleteInAnyIssueOrder() {
        int n = 5;
        Communicator[] comms = Communicator.initAll(n, Config.defaults().withBuffSize(64 << 10));
        HostStream[] streams = new HostStream[n];
        for (int r = 0; r < n; r++) {
            streams[r] = new HostStream();
        }
        Random rnd = new Random(7);
        try (Arena a = Arena.ofShared()) {
            // Every rank sends a different amount to every rank (itself included), far more than
            // the FIFOs hold, and lists its sends and receives in its own shuffled order.
            int[][] count = new int[n][n];
            MemorySegment[][] out = new MemorySegment[n][n];
            MemorySegment[][] in = new MemorySegment[n][n];
            for (int s = 0; s < n; s++) {
                for (int d = 0; d < n; d++) {
                    count[s][d] = 1 + rnd.nextInt(100_000);
                    out[s][d] = floats(a, count[s][d], 1000 * s + d);
                    in[d][s] = a.allocate(4L * count[s][d]);
                }
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                List<Runnable> ops = new ArrayList<>();
                for (int p = 0; p < n; p++) {
                    int rank = r;
                    int peer = p;
                    ops.add(() -> comms[rank].send(out[rank][peer], count[rank][peer], DataType.FLOAT32, peer, streams[rank]));
                    ops.add(() -> comms[rank].recv(in[rank][peer], count[peer][rank], DataType.FLOAT32, peer, streams[rank]));
                }
                Collections.shuffle(ops, rnd);
                ops.forEach(Runnable::run);
            }
            Group.end();
            for (HostStream s : streams) {
                s.synchronize();
            }
            for (int d = 0; d < n; d++) {
                for (int s = 0; s < n; s++) {
                    int c = count[s][d];
                    assertThat(in[d][s].getAtIndex(ValueLayout.JAVA_FLOAT, 0)).isEqualTo(1000f * s + d);
                    assertThat(in[d][s].getAtIndex(ValueLayout.JAVA_FLOAT, c - 1)).isEqualTo(1000f * s + d + c - 1);
                    assertThat(in[d][s].asSlice(0, 4L * c).mismatch(out[s][d].asSlice(0, 4L * c))).isEqualTo(-1);
                }
            }
        } finally {
            for (HostStream s : streams) {
                s.close();
            }
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void mismatchedSendAndReceiveSizesFailClearly() {
        Communicator[] comms = Communicator.initAll(2, Config.defaults().withTimeout(Duration.ofSeconds(5)));
        HostStream s0 = new HostStream();
        HostStream s1 = new HostStream();
        try (Arena a = Arena.ofShared()) {
            comms[0].send(floats(a, 10, 0), 10, DataType.FLOAT32, 1, s0);
            comms[1].recv(a.allocate(40), 9, DataType.FLOAT32, 0, s1);
            assertThatThrownBy(s1::synchronize).isInstanceOf(JcclException.class)
                    .hasMessageContaining("rank 0 sent 40 bytes").hasMessageContaining("expects 36");
        } finally {
            s0.close();
            s1.close();
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void severalCommunicatorsAndStreamsRunConcurrentlyAndOperationsKeepIssueOrderAcrossStreams() {
        int n = 3;
        Communicator[] first = Communicator.initAll(n, Config.defaults());
        Communicator[] second = Communicator.initAll(n, Config.defaults());
        HostStream[] sa = new HostStream[n];
        HostStream[] sb = new HostStream[n];
        for (int r = 0; r < n; r++) {
            sa[r] = new HostStream();
            sb[r] = new HostStream();
        }
        try (Arena a = Arena.ofShared()) {
            MemorySegment[] x = new MemorySegment[n];
            MemorySegment[] y = new MemorySegment[n];
            MemorySegment[] z = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                x[r] = floats(a, 1000, r);
                y[r] = floats(a, 1000, 10 * r);
                z[r] = floats(a, 1000, 100 * r);
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                // On one communicator, two operations on two streams: they run in issue order.
                first[r].allReduce(x[r], x[r], 1000, DataType.FLOAT32, RedOp.SUM, sa[r]);
                second[r].allReduce(y[r], y[r], 1000, DataType.FLOAT32, RedOp.MAX, sb[r]);
            }
            Group.end();
            for (int r = 0; r < n; r++) {
                first[r].allReduce(z[r], z[r], 1000, DataType.FLOAT32, RedOp.SUM, sb[r]);
            }
            for (int r = 0; r < n; r++) {
                sa[r].synchronize();
                sb[r].synchronize();
            }
            for (int r = 0; r < n; r++) {
                assertThat(x[r].getAtIndex(ValueLayout.JAVA_FLOAT, 7)).isEqualTo(0 + 1 + 2 + 3 * 7f);
                assertThat(y[r].getAtIndex(ValueLayout.JAVA_FLOAT, 7)).isEqualTo(20 + 7f);
                assertThat(z[r].getAtIndex(ValueLayout.JAVA_FLOAT, 7)).isEqualTo(0 + 100 + 200 + 3 * 7f);
            }
        } finally {
            for (int r = 0; r < n; r++) {
                sa[r].close();
                sb[r].close();
                first[r].close();
                second[r].close();
            }
        }
    }

    @Test
    void eightRanksOnTwoCoresFinishQuickly() {
        int n = 8;
        Communicator[] comms = Communicator.initAll(n, Config.defaults().withTimeout(Duration.ofSeconds(30)));
        HostStream[] streams = new HostStream[n];
        for (int r = 0; r < n; r++) {
            streams[r] = new HostStream();
        }
        try (Arena a = Arena.ofShared()) {
            MemorySegment[] b = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                b[r] = floats(a, 64, r);
            }
            long start = System.nanoTime();
            for (int it = 0; it < 200; it++) {
                Harness.runAll(n, streams, r -> comms[r].allReduce(b[r], b[r], 64, DataType.FLOAT32, RedOp.MAX, streams[r]));
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(b[3].getAtIndex(ValueLayout.JAVA_FLOAT, 5)).isEqualTo(7 + 5f);
            // Not a benchmark: a bound that only a spinning or stalling engine would break.
            assertThat(took).as("200 small all-reduces of 8 ranks").isLessThan(Duration.ofSeconds(20));
        } finally {
            for (int r = 0; r < n; r++) {
                streams[r].close();
                comms[r].close();
            }
        }
    }

    @Test
    void buffersMayBeReusedAsSoonAsSynchronizeReturns() throws Exception {
        // Large messages are read in place from the sender's buffers: a rank that has finished
        // must not return before its peers have read them. Each rank scribbles over its buffers
        // right after synchronize(); any early return shows up as a wrong sum on a peer.
        int n = 3;
        int count = 1 << 20;
        for (String algo : new String[] {"ring", "tree", "splittree"}) {
            Communicator[] comms = Communicator.initAll(n, Config.defaults().withAlgorithms(algo).withChannels(2, 2));
            ExecutorService pool = Executors.newFixedThreadPool(n);
            try (Arena a = Arena.ofShared()) {
                List<Future<Integer>> wrong = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    int rank = r;
                    wrong.add(pool.submit(() -> {
                        int bad = 0;
                        try (HostStream s = new HostStream()) {
                            MemorySegment in = a.allocate(4L * count);
                            MemorySegment out = a.allocate(4L * count);
                            MemorySegment bcast = a.allocate(4L * count);
                            for (int it = 0; it < 6; it++) {
                                for (int i = 0; i < count; i += 1024) {
                                    in.setAtIndex(ValueLayout.JAVA_INT, i, rank + it);
                                    bcast.setAtIndex(ValueLayout.JAVA_INT, i, rank == 0 ? it * 7 : -1);
                                }
                                comms[rank].allReduce(in, out, count, DataType.INT32, RedOp.SUM, s);
                                boolean ring = algo.equals("ring");
                                if (ring) {
                                    // JCCL_ALGO=tree leaves broadcast no algorithm (as NCCL_ALGO=Tree does).
                                    comms[rank].broadcast(bcast, bcast, count, DataType.INT32, 0, s);
                                }
                                s.synchronize();
                                for (int i = 0; i < count; i += 1024) {
                                    bad += out.getAtIndex(ValueLayout.JAVA_INT, i) == 3 * it + 3 ? 0 : 1;
                                    bad += !ring || bcast.getAtIndex(ValueLayout.JAVA_INT, i) == it * 7 ? 0 : 1;
                                }
                                in.fill((byte) 0x7F);
                                out.fill((byte) 0x7F);
                                bcast.fill((byte) 0x7F);
                            }
                        }
                        return bad;
                    }));
                }
                for (Future<Integer> f : wrong) {
                    assertThat(f.get(120, TimeUnit.SECONDS)).as(algo).isZero();
                }
            } finally {
                pool.shutdownNow();
                for (Communicator c : comms) {
                    c.close();
                }
            }
        }
    }

    @Test
    void heapBuffersWork() {
        int n = 2;
        Communicator[] comms = Communicator.initAll(n, Config.defaults());
        HostStream[] streams = {new HostStream(), new HostStream()};
        try {
            float[][] data = {new float[200_000], new float[200_000]};
            for (int r = 0; r < n; r++) {
                java.util.Arrays.fill(data[r], r + 1.5f);
            }
            MemorySegment[] seg = {MemorySegment.ofArray(data[0]), MemorySegment.ofArray(data[1])};
            Harness.runAll(n, streams, r -> comms[r].allReduce(seg[r], seg[r], 200_000, DataType.FLOAT32, RedOp.SUM, streams[r]));
            assertThat(data[0][199_999]).isEqualTo(4f);
            assertThat(data[1][0]).isEqualTo(4f);
        } finally {
            for (int r = 0; r < n; r++) {
                streams[r].close();
                comms[r].close();
            }
        }
    }
}
