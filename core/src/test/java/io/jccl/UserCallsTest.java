// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ObjectInputFilter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The calls torch.distributed and JavaCPP's NCCL users expect: barrier, all-to-all-v, byte and object collectives, async handles. */
class UserCallsTest {
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() throws Exception {
        pool.shutdownNow();
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
    }

    private Communicator[] comms(int n, Config config) {
        Communicator[] comms = Communicator.initAll(n, config);
        toClose.addAll(List.of(comms));
        return comms;
    }

    private HostStream stream() {
        HostStream s = new HostStream();
        toClose.add(s);
        return s;
    }

    /** Runs {@code body} for every rank, each on its own thread, and returns what each returned. */
    private <T> List<T> perRank(int n, IntFunction<T> body) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            int rank = r;
            futures.add(pool.submit(() -> body.apply(rank)));
        }
        List<T> out = new ArrayList<>();
        for (Future<T> f : futures) {
            out.add(f.get(120, TimeUnit.SECONDS));
        }
        return out;
    }

    // ---- barrier ----

    @Test
    void noRankLeavesTheBarrierBeforeALateRankArrives() throws Exception {
        int n = 4;
        int late = 2;
        Communicator[] comms = comms(n, Config.defaults());
        for (int round = 0; round < 3; round++) {
            long[] arrived = new long[n];
            List<Long> left = perRank(n, r -> {
                if (r == late) {
                    sleep(200);
                }
                arrived[r] = System.nanoTime();
                comms[r].barrier();
                return System.nanoTime();
            });
            for (int r = 0; r < n; r++) {
                assertThat(left.get(r)).as("rank %d left round %d after the late rank arrived", r, round)
                        .isGreaterThanOrEqualTo(arrived[late]);
            }
        }
    }

    @Test
    void aBarrierOnAStreamHoldsBackTheStreamsLaterWork() throws Exception {
        int n = 3;
        Communicator[] comms = comms(n, Config.defaults());
        long[] arrived = new long[1];
        List<Long> left = perRank(n, r -> {
            HostStream s = stream();
            if (r == 0) {
                sleep(200);
                arrived[0] = System.nanoTime();
            }
            long[] ranAt = new long[1];
            comms[r].barrier(s);
            s.runner().enqueue(() -> ranAt[0] = System.nanoTime());
            s.synchronize();
            return ranAt[0];
        });
        for (long t : left) {
            assertThat(t).isGreaterThanOrEqualTo(arrived[0]);
        }
    }

    @Test
    void barrierInAGroupIsRefused() {
        Communicator[] comms = comms(1, Config.defaults());
        Group.start();
        try {
            assertThatThrownBy(comms[0]::barrier).isInstanceOf(JcclException.class).hasMessageContaining("inside a group");
        } finally {
            Group.end();
        }
    }

    // ---- all-to-all-v ----

    /** The element rank s sends rank d at index i of that block: all distinct. */
    private static int value(int s, int d, long i) {
        return (s << 24) | (d << 16) | (int) i;
    }

    @Test
    void allToAllvMovesRandomUnevenBlocksIncludingEmptyOnesExactly() throws Exception {
        int n = 4;
        Random random = new Random(42);
        long[][] counts = new long[n][n]; // counts[s][d]: what s sends d
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                counts[s][d] = random.nextInt(4) == 0 ? 0 : random.nextInt(3000);
            }
        }
        counts[1][3] = 0;
        counts[2][2] = 0;
        counts[0][1] = 70_000; // several FIFO slots
        Communicator[] comms = comms(n, Config.defaults());
        Arena arena = Arena.ofShared();
        toClose.add(arena);
        for (boolean threadPerRank : new boolean[] {true, false}) {
            MemorySegment[] recv = new MemorySegment[n];
            long[][] rc = new long[n][n];
            long[][] rd = new long[n][n];
            long[][] sd = new long[n][n];
            MemorySegment[] send = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                // Blocks in reverse peer order, with gaps, so displacements matter.
                long at = 5;
                for (int d = n - 1; d >= 0; d--) {
                    sd[r][d] = at;
                    at += counts[r][d] + 3;
                }
                send[r] = arena.allocate(4 * at, 4);
                for (int d = 0; d < n; d++) {
                    for (long i = 0; i < counts[r][d]; i++) {
                        send[r].setAtIndex(ValueLayout.JAVA_INT, sd[r][d] + i, value(r, d, i));
                    }
                }
                long in = 0;
                for (int s = 0; s < n; s++) {
                    rc[r][s] = counts[s][r];
                    rd[r][s] = in;
                    in += rc[r][s] + 1;
                }
                recv[r] = arena.allocate(4 * in, 4).fill((byte) 0x7f);
            }
            HostStream[] streams = {stream(), stream(), stream(), stream()};
            if (threadPerRank) {
                perRank(n, r -> {
                    comms[r].allToAllv(send[r], counts[r], sd[r], recv[r], rc[r], rd[r], DataType.INT32, streams[r]);
                    streams[r].synchronize();
                    return null;
                });
            } else {
                Harness.runAll(n, streams, r -> comms[r].allToAllv(send[r], counts[r], sd[r], recv[r], rc[r], rd[r],
                        DataType.INT32, streams[r]));
            }
            for (int r = 0; r < n; r++) {
                for (int s = 0; s < n; s++) {
                    for (long i = 0; i < rc[r][s]; i++) {
                        assertThat(recv[r].getAtIndex(ValueLayout.JAVA_INT, rd[r][s] + i))
                                .as("rank %d element %d from rank %d", r, i, s).isEqualTo(value(s, r, i));
                    }
                    // The gap after each block is untouched.
                    assertThat(recv[r].getAtIndex(ValueLayout.JAVA_INT, rd[r][s] + rc[r][s])).isEqualTo(0x7f7f7f7f);
                }
            }
        }
    }

    @Test
    void allToAllvRefusesBadCountsAndDisplacementsNamingThemAndThePeer() {
        int n = 3;
        Communicator c = comms(n, Config.defaults())[1];
        HostStream s = stream();
        MemorySegment buf = MemorySegment.ofArray(new int[10]);
        long[] ok = {1, 1, 1};
        long[] at = {0, 1, 2};
        assertThatThrownBy(() -> c.allToAllv(buf, new long[] {1, 1}, at, buf, ok, at, DataType.INT32, s))
                .isInstanceOf(JcclException.class).hasMessageContaining("rank 1").hasMessageContaining("'sendCounts' has 2 entries");
        assertThatThrownBy(() -> c.allToAllv(buf, ok, at, buf, ok, new long[] {0, 1, 2, 3}, DataType.INT32, s))
                .hasMessageContaining("'recvDispls' has 4 entries");
        assertThatThrownBy(() -> c.allToAllv(buf, new long[] {1, -2, 1}, at, buf, ok, at, DataType.INT32, s))
                .hasMessageContaining("'sendCounts[1]' is negative (-2) for peer 1");
        assertThatThrownBy(() -> c.allToAllv(buf, ok, new long[] {0, -1, 2}, buf, ok, at, DataType.INT32, s))
                .hasMessageContaining("'sendDispls[1]' is negative");
        assertThatThrownBy(() -> c.allToAllv(buf, ok, at, buf, new long[] {1, 1, 2}, new long[] {0, 1, 9}, DataType.INT32, s))
                .isInstanceOf(JcclException.class).hasMessageContaining("rank 1")
                .hasMessageContaining("'recvDispls[2]'").hasMessageContaining("elements 9..11 for peer 2")
                .hasMessageContaining("beyond recvbuff's 10");
        assertThatThrownBy(() -> c.allToAllv(null, ok, at, buf, ok, at, DataType.INT32, s))
                .hasMessageContaining("'sendbuff' is null but peer 0 has 1 elements");
        assertThatThrownBy(() -> c.allToAllv(buf, null, at, buf, ok, at, DataType.INT32, s))
                .hasMessageContaining("'sendCounts' is null");
        assertThatThrownBy(() -> c.allToAllv(buf, ok, at, buf, ok, at, null, s)).hasMessageContaining("'datatype' is null");
        // Nothing was issued: the communicator still works.
        assertThat(c.asyncError()).isNull();
    }

    /** Two ranks run allToAllv with these counts (blocks at elements 0 and 10); what each threw, or null. */
    private List<Throwable> allToAllvOfTwo(long[][] send, long[][] recv) throws Exception {
        Communicator[] comms = comms(2, Config.defaults().withTimeout(Duration.ofSeconds(5)));
        long[] at = {0, 10};
        return perRank(2, r -> {
            HostStream s = stream();
            try {
                comms[r].allToAllv(MemorySegment.ofArray(new int[20]), send[r], at, MemorySegment.ofArray(new int[20]), recv[r], at,
                        DataType.INT32, s);
                s.synchronize();
                return null;
            } catch (JcclException e) {
                return e;
            }
        });
    }

    @Test
    void allToAllvPairsThatDisagreeOnACountFailNamingBothSizes() throws Exception {
        // rank 1 expects 4 from rank 0, which sends 5
        List<Throwable> errors = allToAllvOfTwo(new long[][] {{2, 5}, {2, 2}}, new long[][] {{2, 2}, {4, 2}});
        assertThat(errors.get(1)).isInstanceOf(JcclException.class).hasMessageContaining("rank 0 sent 20 bytes")
                .hasMessageContaining("expects 16");
    }

    @Test
    void anEmptyBlockAgainstAnExpectedOneFailsAtTheTimeoutNamingThePeer() throws Exception {
        // rank 1 expects 3 from rank 0, which sends none
        List<Throwable> errors = allToAllvOfTwo(new long[][] {{2, 0}, {2, 2}}, new long[][] {{2, 2}, {3, 2}});
        // The engine sends nothing for an empty block (as NCCL): the receiver waits for data that never comes.
        assertThat(errors.get(1)).isInstanceOf(JcclException.class).hasMessageContaining("timeout")
                .hasMessageContaining("waiting for a message from rank 0").hasMessageContaining("did not make the matching call");
    }

    // ---- bytes and objects ----

    private static byte[] random(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void broadcastBytesGivesEveryRankTheRootsBytesEmptySmallAndLarge() throws Exception {
        int n = 3;
        Communicator[] comms = comms(n, Config.defaults());
        for (int length : new int[] {0, 1, 1000, 9 << 20}) { // 9 MiB: more than a Simple FIFO's 4 MiB
            byte[] data = random(length, length);
            List<byte[]> got = perRank(n, r -> comms[r].broadcastBytes(r == 2 ? data : null, 2));
            for (int r = 0; r < n; r++) {
                assertThat(got.get(r)).as("rank %d, %d bytes", r, length).isEqualTo(data);
            }
        }
        assertThatThrownBy(() -> comms[0].broadcastBytes(null, 0)).hasMessageContaining("'data' is null on the root");
        assertThatThrownBy(() -> comms[0].broadcastBytes(new byte[1], 3)).hasMessageContaining("'root' is 3");
    }

    @Test
    void allGatherBytesGathersMixedLengthsFromEveryRank() throws Exception {
        int n = 4;
        Communicator[] comms = comms(n, Config.defaults());
        int[] lengths = {7, 0, 5 << 20, 1};
        List<List<byte[]>> got = perRank(n, r -> comms[r].allGatherBytes(random(lengths[r], r)));
        for (int r = 0; r < n; r++) {
            assertThat(got.get(r)).hasSize(n);
            for (int from = 0; from < n; from++) {
                assertThat(got.get(r).get(from)).as("rank %d, from rank %d", r, from).isEqualTo(random(lengths[from], from));
            }
        }
        List<List<byte[]>> empty = perRank(n, r -> comms[r].allGatherBytes(new byte[0]));
        assertThat(empty).allSatisfy(l -> assertThat(l).hasSize(n).allSatisfy(b -> assertThat(b).isEmpty()));
    }

    @Test
    void objectsTravelBySerializationAndTheFilterRefusesOthers() throws Exception {
        int n = 3;
        Communicator[] comms = comms(n, Config.defaults());
        HashMap<String, Integer> vocab = new HashMap<>();
        for (int i = 0; i < 5000; i++) {
            vocab.put("word" + i, i);
        }
        ObjectInputFilter maps = ObjectInputFilter.Config.createFilter("java.util.HashMap;java.util.Map$Entry;java.lang.*;!*");
        List<HashMap<String, Integer>> got = perRank(n, r -> comms[r].broadcastObject(r == 1 ? vocab : null, 1, maps));
        assertThat(got).allSatisfy(m -> assertThat(m).isEqualTo(vocab));
        List<List<String>> names = perRank(n, r -> comms[r].allGatherObject("rank-" + r + "x".repeat(r * 100), null));
        for (List<String> l : names) {
            assertThat(l).containsExactly("rank-0", "rank-1" + "x".repeat(100), "rank-2" + "x".repeat(200));
        }
        ObjectInputFilter onlyStrings = ObjectInputFilter.Config.createFilter("java.lang.String;!*");
        List<Object> refused = perRank(n, r -> {
            try {
                return comms[r].broadcastObject(r == 0 ? new ArrayList<>(List.of("a")) : null, 0, onlyStrings);
            } catch (JcclException e) {
                return e;
            }
        });
        assertThat(refused.get(0)).isEqualTo(List.of("a"));
        assertThat(refused.get(1)).isInstanceOf(JcclException.class).asString()
                .contains("rank 1").contains("the object from rank 0 cannot be deserialized");
    }

    // ---- Work handles ----

    @Test
    void anAsyncCallCompletesWhenItHasRunWithItsResult() throws Exception {
        int n = 2;
        Communicator[] comms = comms(n, Config.defaults());
        HostStream[] s = {stream(), stream()};
        MemorySegment[] buf = {MemorySegment.ofArray(new float[] {1, 2, 3}), MemorySegment.ofArray(new float[] {10, 20, 30})};
        Work w0 = comms[0].allReduceAsync(buf[0], buf[0], 3, DataType.FLOAT32, RedOp.SUM, s[0]);
        // Rank 1 has not called yet: rank 0's all-reduce cannot have finished.
        assertThat(w0.await(Duration.ofMillis(300))).isFalse();
        assertThat(w0.isCompleted()).isFalse();
        Work w1 = comms[1].allReduceAsync(buf[1], buf[1], 3, DataType.FLOAT32, RedOp.SUM, s[1]);
        assertThat(w0.await(Duration.ofSeconds(60))).isTrue();
        w1.toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(w0.isCompleted()).isTrue();
        for (MemorySegment b : buf) {
            assertThat(b.toArray(ValueLayout.JAVA_FLOAT)).containsExactly(11f, 22f, 33f);
        }
        Work b0 = comms[0].barrierAsync(s[0]);
        Work b1 = comms[1].barrierAsync(s[1]);
        b0.join();
        b1.join();
    }

    @Test
    void anAsyncCallsFailureReachesItsHandle() {
        int n = 2;
        Communicator[] comms = comms(n, Config.defaults());
        HostStream s = stream();
        MemorySegment buf = MemorySegment.ofArray(new float[16]);
        Work w = comms[0].allReduceAsync(buf, buf, 16, DataType.FLOAT32, RedOp.SUM, s);
        assertThat(w.await(Duration.ofMillis(200))).isFalse();
        comms[1].abort(); // rank 1 never joins: its abort fails rank 0's call
        assertThatThrownBy(w::join).isInstanceOf(JcclException.class).hasMessageContaining("abort");
        assertThat(w.isCompleted()).isTrue();
        assertThat(w.toCompletableFuture()).isCompletedExceptionally();
        assertThatThrownBy(s::synchronize).isInstanceOf(JcclException.class);
    }

    @Test
    void aHandleDoesNotReportTheFailureOfEarlierWork() throws Exception {
        Communicator[] comms = comms(1, Config.defaults());
        HostStream s = stream();
        s.runner().enqueue(() -> {
            throw new IllegalStateException("earlier work failed");
        });
        MemorySegment buf = MemorySegment.ofArray(new int[] {5});
        Work w = comms[0].allReduceAsync(buf, buf, 1, DataType.INT32, RedOp.SUM, s);
        w.join();
        assertThat(buf.getAtIndex(ValueLayout.JAVA_INT, 0)).isEqualTo(5);
        assertThatThrownBy(s::synchronize).hasMessageContaining("earlier work failed");
    }

    @Test
    void asyncCallsRefuseGroupsAndOtherStreams() {
        Communicator c = comms(1, Config.defaults())[0];
        MemorySegment buf = MemorySegment.ofArray(new int[1]);
        Group.start();
        try {
            assertThatThrownBy(() -> c.allReduceAsync(buf, buf, 1, DataType.INT32, RedOp.SUM, stream()))
                    .hasMessageContaining("allReduceAsync cannot be inside a group");
        } finally {
            Group.end();
        }
        assertThatThrownBy(() -> c.allReduceAsync(buf, buf, 1, DataType.INT32, RedOp.SUM, null))
                .hasMessageContaining("'stream' is null");
        assertThatThrownBy(() -> c.allReduceAsync(buf, buf, 1, DataType.INT32, RedOp.SUM, stream()).await(Duration.ofSeconds(-1)))
                .hasMessageContaining("'timeout' is negative");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
