// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.CommId;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Jccl}'s version, and the examples of the API's Javadoc: the regions below are what the
 * classes of {@code io.jccl} and {@code package-info} show (javadoc's {@code --snippet-path} is
 * this folder), so they compile with the tests and run here, on the host engine with ranks that
 * are threads, each test checking what its example computed. The CUDA classes' examples are in
 * {@link JcclExamplesTestOnGpu}.
 */
class JcclExamplesTest {

    @Test
    void versionIsTheBuildsAndItsCodeIsNcclsForm() {
        String built = System.getProperty("jccl.project.version");
        assertThat(built).as("surefire passes the POM's version").isNotBlank();
        assertThat(Jccl.version()).isEqualTo(built);
        String[] parts = built.replaceFirst("-.*", "").split("\\.");
        int expected = Integer.parseInt(parts[0]) * 10000 + Integer.parseInt(parts[1]) * 100 + Integer.parseInt(parts[2]);
        assertThat(Jccl.versionCode()).isEqualTo(expected);

        // @start region="version"
        String version = Jccl.version();     // "0.1.0-SNAPSHOT" while 0.1.0 is being made
        int code = Jccl.versionCode();       // 100 = 0 * 10000 + 1 * 100 + 0, as ncclGetVersion's
        if (code < Jccl.versionCode(0, 1, 0)) {
            throw new IllegalStateException("needs jccl 0.1.0 or later, found " + version);
        }
        // @end
    }

    @Test
    void versionCodesAreNcclsAndRefuseWhatTheyCannotOrder() {
        assertThat(Jccl.versionCode(2, 19, 3)).isEqualTo(21903);
        assertThat(Jccl.versionCode(0, 1, 0)).isEqualTo(100);
        assertThat(Jccl.parseCode("1.2.3")).isEqualTo(10203);
        assertThat(Jccl.parseCode("0.10.0-SNAPSHOT")).isEqualTo(1000);
        assertThat(Jccl.parseCode("3.0.1.Final")).isEqualTo(30001);
        assertThatThrownBy(() -> Jccl.versionCode(1, 100, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Jccl.versionCode(1, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Jccl.parseCode("1.2")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'1.2'");
    }

    @Test
    void gettingStartedAllReducesAcrossTwoThreads() throws Exception {
        float[][] results = new float[2][];
        // @start region="getting-started"
        Communicator[] comms = Communicator.initAll(2, Config.fromEnvironment());
        ExecutorService pool = Executors.newFixedThreadPool(2);    // one thread per rank
        List<Future<?>> ranks = new ArrayList<>();
        for (Communicator comm : comms) {
            ranks.add(pool.submit(() -> {
                try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                    MemorySegment buf = arena.allocate(ValueLayout.JAVA_FLOAT, 4);
                    buf.fill((byte) 0);
                    buf.setAtIndex(ValueLayout.JAVA_FLOAT, 0, comm.rank() + 1);       // rank r adds r + 1
                    comm.allReduce(buf, buf, 4, DataType.FLOAT32, RedOp.SUM, stream); // in place
                    stream.synchronize();
                    results[comm.rank()] = buf.toArray(ValueLayout.JAVA_FLOAT);       // {3, 0, 0, 0}
                }
                comm.close();
                return null;
            }));
        }
        for (Future<?> rank : ranks) {
            rank.get();    // rethrows a rank's failure
        }
        pool.shutdown();
        // @end
        assertThat(results[0]).containsExactly(3f, 0f, 0f, 0f);
        assertThat(results[1]).containsExactly(3f, 0f, 0f, 0f);
    }

    /** What one rank does, on a thread of its own. */
    interface RankBody<T> {
        T run(Communicator comm) throws Exception;
    }

    /**
     * Runs {@code body} for every rank of {@code comms}, each on a thread of its own, and closes
     * the ranks; returns the results by rank, or throws the first failure (after aborting them all).
     */
    private static <T> List<T> onEachRank(Communicator[] comms, RankBody<T> body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(comms.length);
        boolean ok = false;
        try {
            List<Future<T>> ranks = new ArrayList<>();
            for (Communicator comm : comms) {
                ranks.add(pool.submit(() -> body.run(comm)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> rank : ranks) {
                results.add(rank.get(30, TimeUnit.SECONDS));
            }
            ok = true;
            return results;
        } finally {
            for (Communicator comm : comms) {
                if (ok) {
                    comm.close();
                } else {
                    comm.abort();
                }
            }
            pool.shutdownNow();
        }
    }

    /** {@code n} floats of {@code value} in {@code arena}. */
    private static MemorySegment floats(Arena arena, int n, float value) {
        MemorySegment m = arena.allocate(ValueLayout.JAVA_FLOAT, n);
        for (int i = 0; i < n; i++) {
            m.setAtIndex(ValueLayout.JAVA_FLOAT, i, value);
        }
        return m;
    }

    @Test
    void communicatorRanksAreThreadsOfThisProcess() throws Exception {
        // @start region="communicator-threads"
        Communicator[] comms = Communicator.initAll(4, Config.fromEnvironment());
        ExecutorService pool = Executors.newFixedThreadPool(comms.length);  // one thread per rank, as one process per GPU
        List<Future<Float>> ranks = new ArrayList<>();
        for (Communicator c : comms) {
            ranks.add(pool.submit(() -> {
                try (c; Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                    MemorySegment buf = arena.allocate(1024 * 4);
                    buf.setAtIndex(ValueLayout.JAVA_FLOAT, 0, c.rank());    // rank r adds r; the rest are 0
                    c.allReduce(buf, buf, 1024, DataType.FLOAT32, RedOp.SUM, s);
                    s.synchronize();
                    return buf.getAtIndex(ValueLayout.JAVA_FLOAT, 0);      // 0 + 1 + 2 + 3 = 6
                }
            }));
        }
        // @end
        try {
            for (Future<Float> rank : ranks) {
                assertThat(rank.get(30, TimeUnit.SECONDS)).isEqualTo(6f);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // The id's text travels from rank 0 to the others as the job likes (a file, a key-value store,
    // the launcher): here through a future, the ranks being threads.
    private final CompletableFuture<String> idText = new CompletableFuture<>();

    private void sendToTheOthers(String text) {
        idText.complete(text);
    }

    private String receiveFromRank0() throws Exception {
        return idText.get(20, TimeUnit.SECONDS);
    }

    @Test
    void communicatorRanksMeetThroughACommId() throws Exception {
        int nranks = 3;
        // Every rank on this host's loopback; a job across hosts names its interface (JCCL_SOCKET_IFNAME).
        Config config = Config.fromEnvironment().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(20));
        ExecutorService pool = Executors.newFixedThreadPool(nranks);
        try {
            float[] sums = new float[nranks];
            List<Future<?>> ranks = new ArrayList<>();
            for (int r = 0; r < nranks; r++) {
                int rank = r;
                ranks.add(pool.submit(() -> {
                    // @start region="communicator-processes"
                    CommId id;
                    if (rank == 0) {
                        id = CommId.create(config);           // its root listens in this process
                        sendToTheOthers(id.encode());
                    } else {
                        id = CommId.parse(receiveFromRank0());
                    }
                    try (Communicator c = Communicator.init(id, nranks, rank, config);
                         Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                        MemorySegment buf = arena.allocate(1024 * 4);
                        buf.setAtIndex(ValueLayout.JAVA_FLOAT, 0, rank + 1);
                        c.allReduce(buf, buf, 1024, DataType.FLOAT32, RedOp.SUM, s);
                        s.synchronize();
                        sums[rank] = buf.getAtIndex(ValueLayout.JAVA_FLOAT, 0);   // 1 + 2 + 3 = 6
                    }
                    // @end
                    return null;
                }));
            }
            for (Future<?> rank : ranks) {
                rank.get(40, TimeUnit.SECONDS);
            }
            assertThat(sums).containsExactly(6f, 6f, 6f);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void configIsReadFromTheEnvironmentAndChangedInCode() throws Exception {
        // @start region="config"
        Config config = Config.fromEnvironment()           // the JCCL_* variables, then what the code says:
                .withTimeout(Duration.ofSeconds(30))        // JCCL_TIMEOUT
                .withAlgorithms("ring")                     // JCCL_ALGO
                .withBuffSize("LL", 256 << 10)              // JCCL_LL_BUFFSIZE
                .withDebug(Config.Debug.WARN)               // JCCL_DEBUG
                .withDebugSubsys("INIT,NET");               // JCCL_DEBUG_SUBSYS
        Communicator[] comms = Communicator.initAll(2, config);
        // @end
        assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.algorithms()).containsExactly("ring");
        assertThat(config.buffSize("LL")).isEqualTo(256 << 10);
        assertThat(config.debug()).isEqualTo(Config.Debug.WARN);
        assertThat(config.debugSubsys()).containsExactlyInAnyOrder(Config.Subsys.INIT, Config.Subsys.NET);
        assertThat(comms[1].config().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(comms[0].choiceFor(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32).algorithm()).isEqualTo("ring");
        List<float[]> results = onEachRank(comms, comm -> {
            try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                MemorySegment buf = floats(arena, 1000, comm.rank() + 1);
                comm.allReduce(buf, buf, 1000, DataType.FLOAT32, RedOp.SUM, s);
                s.synchronize();
                return buf.toArray(ValueLayout.JAVA_FLOAT);
            }
        });
        assertThat(results).allSatisfy(r -> assertThat(r).hasSize(1000).containsOnly(3f));
    }

    @Test
    void callChoiceSaysHowACallRuns() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults().withAlgorithms("ring").withProtocols("Simple"));
        Communicator comm = comms[0];
        // @start region="call-choice"
        CallChoice c = comm.choiceFor(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32);
        String how = c.algorithm() + "/" + c.protocol() + " on " + c.channels() + " channels, chosen by the " + c.source();
        // with JCCL_ALGO=ring JCCL_PROTO=Simple: "ring/Simple on 2 channels, chosen by the model", say
        // @end
        try {
            assertThat(c.algorithm()).isEqualTo("ring");
            assertThat(c.protocol()).isEqualTo("Simple");
            assertThat(c.source()).isEqualTo("model");
            assertThat(c.channels()).isPositive();
            assertThat(how).isEqualTo("ring/Simple on " + c.channels() + " channels, chosen by the model");
            assertThat(comms[1].choiceFor(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32)).isEqualTo(c);
        } finally {
            for (Communicator each : comms) {
                each.close();
            }
        }
    }

    @Test
    void estimateSaysWhatACallWouldCostWithoutRunningIt() throws Exception {
        Communicator[] comms = Communicator.initAll(4, Config.defaults());
        Communicator comm = comms[0];
        try {
            // @start region="call-estimate"
            CallEstimate e = comm.estimate(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32);
            double busGBps = 2.0 * 3 / 4 * (4 << 20) / e.micros() / 1000;   // all-reduce's bus bandwidth on 4 ranks
            // "ring/Simple x2 (model): 2105.3 us on servers 1 x 4 ...", say: what it would run and how long it would take
            // @end
            assertThat(e.choice()).isEqualTo(comm.choiceFor(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32));
            assertThat(e.micros()).isPositive();
            assertThat(busGBps).isPositive().isFinite();
            assertThat(e.fabric()).contains("1 x 4");
            assertThat(e.how()).isEqualTo("exact");
            assertThat(comms[3].estimate(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32)).isEqualTo(e);
            assertThat(comm.estimate(Collective.ALL_REDUCE, 1 << 22, DataType.FLOAT32).micros()).isGreaterThan(e.micros());
            assertThat(comm.estimate(Collective.ALL_GATHER, 0, DataType.FLOAT32).micros()).isNotNegative();
            // past the simulator's step budget a host job (whose ranks on fewer servers stand for nothing) is priced by the tuner's model
            CallEstimate huge = comm.estimate(Collective.ALL_REDUCE, 1L << 40, DataType.FLOAT32);
            assertThat(huge.how()).startsWith("the tuner's model: ").contains("over the budget of 67,108,864")
                    .contains("no smaller job stands for this one");
            assertThat(huge.choice()).isEqualTo(comm.choiceFor(Collective.ALL_REDUCE, 1L << 40, DataType.FLOAT32));
            assertThat(huge.micros()).isFinite().isGreaterThan(1000 * comm.estimate(Collective.ALL_REDUCE, 1 << 22, DataType.FLOAT32).micros());
            assertThatThrownBy(() -> comm.estimate(Collective.SEND_RECV, 16, DataType.FLOAT32))
                    .isInstanceOf(JcclException.class).hasMessageContaining("collective");
            assertThatThrownBy(() -> comm.estimate(Collective.ALL_REDUCE, -1, DataType.FLOAT32))
                    .isInstanceOf(JcclException.class).hasMessageContaining("count").hasMessageContaining("rank 0");
            assertThatThrownBy(() -> comm.estimate(Collective.ALL_REDUCE, 16, null))
                    .isInstanceOf(JcclException.class).hasMessageContaining("type");
        } finally {
            for (Communicator each : comms) {
                each.close();
            }
        }
    }

    @Test
    void withTunerSimTheCommunicatorRunsTheSimulatorsChoice() throws Exception {
        // two servers of two ranks, as JCCL_HOSTID tells them apart, with the links the simulator prices on
        List<Config> configs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            configs.add(Config.defaults().withTunerSimulates(true).withInterServer(0.025, Double.NaN).withHostId("server-" + r / 2));
        }
        Communicator[] comms = Communicator.initAll(configs);
        ExecutorService pool = Executors.newFixedThreadPool(comms.length);
        try {
            CallChoice c = comms[0].choiceFor(Collective.ALL_REDUCE, 1 << 16, DataType.FLOAT32);
            assertThat(c.source()).isEqualTo("simulated");
            CallEstimate e = comms[0].estimate(Collective.ALL_REDUCE, 1 << 16, DataType.FLOAT32);
            assertThat(e.choice()).isEqualTo(c);
            assertThat(e.fabric()).contains("2 x 2").contains("inter 200 Mbit/s");
            List<Future<float[]>> ranks = new ArrayList<>();
            for (Communicator comm : comms) {
                ranks.add(pool.submit(() -> {
                    try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                        MemorySegment buf = arena.allocate(4L << 16);
                        for (int i = 0; i < 1 << 16; i++) {
                            buf.setAtIndex(ValueLayout.JAVA_FLOAT, i, comm.rank() + i % 7);
                        }
                        comm.allReduce(buf, buf, 1 << 16, DataType.FLOAT32, RedOp.SUM, s);
                        s.synchronize();
                        return buf.toArray(ValueLayout.JAVA_FLOAT);
                    }
                }));
            }
            for (Future<float[]> rank : ranks) {
                float[] got = rank.get(60, TimeUnit.SECONDS);
                for (int i = 0; i < got.length; i++) {
                    assertThat(got[i]).as("element " + i).isEqualTo(6f + 4 * (i % 7));
                }
            }
            // without the rate between the servers there is nothing to simulate on: refused at init, naming it
            List<Config> unrated = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                unrated.add(Config.defaults().withTunerSimulates(true).withHostId("server-" + r / 2));
            }
            assertThatThrownBy(() -> Communicator.initAll(unrated)).hasMessageContaining("JCCL_INTER_BW");
        } finally {
            pool.shutdownNow();
            for (Communicator each : comms) {
                each.close();
            }
        }
    }

    @Test
    void collectiveSizesTheBuffersOfACall() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        List<int[]> results = onEachRank(comms, comm -> {
            try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                long count = 3;
                // @start region="collective"
                Collective op = Collective.parse("allgather");     // as nccl-tests names its binaries
                long in = op.inputCount(count, comm.size(), comm.rank(), 0);    // count
                long out = op.outputCount(count, comm.size(), comm.rank(), 0);  // count * size
                MemorySegment send = arena.allocate(DataType.INT32.bytes(in));
                MemorySegment recv = arena.allocate(DataType.INT32.bytes(out));
                for (long i = 0; i < in; i++) {
                    send.setAtIndex(ValueLayout.JAVA_INT, i, comm.rank() * 10 + (int) i);
                }
                comm.allGather(send, recv, count, DataType.INT32, stream);
                stream.synchronize();                           // recv: {0, 1, 2, 10, 11, 12} on both ranks
                // @end
                assertThat(op).isEqualTo(Collective.ALL_GATHER);
                assertThat(in).isEqualTo(3);
                assertThat(out).isEqualTo(6);
                return recv.toArray(ValueLayout.JAVA_INT);
            }
        });
        assertThat(results).allSatisfy(r -> assertThat(r).containsExactly(0, 1, 2, 10, 11, 12));
    }

    @Test
    void dataTypeNamesTheElementsOfACall() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        List<int[]> results = onEachRank(comms, comm -> {
            try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                // @start region="data-type"
                DataType type = DataType.parse("int32");                // as nccl-tests' -d int32
                long count = 1024;
                MemorySegment buf = arena.allocate(type.bytes(count));  // 4096 bytes
                for (long i = 0; i < count; i++) {
                    buf.setAtIndex(ValueLayout.JAVA_INT, i, (int) i * (comm.rank() == 0 ? 1 : -1));
                }
                comm.allReduce(buf, buf, count, type, RedOp.MAX, stream);
                stream.synchronize();                                    // buf: 0, 1, 2, ... 1023
                long halves = DataType.BFLOAT16.bytes(count);            // 2048
                // @end
                assertThat(type).isEqualTo(DataType.INT32);
                assertThat(buf.byteSize()).isEqualTo(4096);
                assertThat(halves).isEqualTo(2048);
                return buf.toArray(ValueLayout.JAVA_INT);
            }
        });
        int[] want = new int[1024];
        for (int i = 0; i < want.length; i++) {
            want[i] = i;
        }
        assertThat(results).allSatisfy(r -> assertThat(r).isEqualTo(want));
    }

    @Test
    void redOpsAverageAndScale() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        List<float[][]> results = onEachRank(comms, comm -> {
            try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                int n = 256;
                MemorySegment grads = floats(arena, n, comm.rank() + 1);    // rank 0: 1, rank 1: 2
                MemorySegment mean = arena.allocate(ValueLayout.JAVA_FLOAT, n);
                MemorySegment alsoMean = arena.allocate(ValueLayout.JAVA_FLOAT, n);
                // @start region="red-op"
                RedOp avg = RedOp.AVG;                                  // sum, then divide by the ranks
                RedOp scaled = RedOp.preMulSum(1.0 / comm.size());      // each input times 1/size, then sum
                comm.allReduce(grads, mean, n, DataType.FLOAT32, avg, stream);
                comm.allReduce(grads, alsoMean, n, DataType.FLOAT32, scaled, stream);
                stream.synchronize();                                   // both: (1 + 2) / 2 = 1.5
                // @end
                return new float[][] {mean.toArray(ValueLayout.JAVA_FLOAT), alsoMean.toArray(ValueLayout.JAVA_FLOAT)};
            }
        });
        assertThat(results).allSatisfy(r -> {
            assertThat(r[0]).hasSize(256).containsOnly(1.5f);
            assertThat(r[1]).hasSize(256).containsOnly(1.5f);
        });
    }

    @Test
    void aGroupOfSendsAndReceivesFromOneThread() {
        Communicator[] comms = Communicator.initAll(3, Config.defaults());
        HostStream[] streams = {new HostStream(), new HostStream(), new HostStream()};
        try (Arena arena = Arena.ofShared()) {
            int n = 100;
            int size = comms.length;
            MemorySegment[] out = new MemorySegment[size];
            MemorySegment[] in = new MemorySegment[size];
            for (int r = 0; r < size; r++) {
                out[r] = floats(arena, n, r + 1);
                in[r] = floats(arena, n, 0);
            }
            // @start region="group"
            Group.start();
            for (Communicator comm : comms) {                   // one thread drives every rank
                int rank = comm.rank();
                Stream stream = streams[rank];
                comm.send(out[rank], n, DataType.FLOAT32, (rank + 1) % size, stream);
                comm.recv(in[rank], n, DataType.FLOAT32, (rank + size - 1) % size, stream);
            }
            Group.end();                                        // all of them issued here, none waiting on another
            for (Stream stream : streams) {
                stream.synchronize();                           // in[r] holds out[r - 1]'s values
            }
            // @end
            for (int r = 0; r < size; r++) {
                assertThat(in[r].toArray(ValueLayout.JAVA_FLOAT)).as("rank " + r).hasSize(n)
                        .containsOnly((float) ((r + size - 1) % size + 1));
            }
        } finally {
            for (int r = 0; r < comms.length; r++) {
                streams[r].close();
                comms[r].close();
            }
        }
    }

    @Test
    void aHostStreamRunsCallsInOrderOnItsThread() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        List<float[]> results = onEachRank(comms, comm -> {
            int n = 512;
            try (Arena arena = Arena.ofShared()) {                 // shared: the stream's thread uses it too
                MemorySegment buf = floats(arena, n, comm.rank() + 1);
                // @start region="host-stream"
                try (HostStream s = new HostStream()) {
                    comm.allReduce(buf, buf, n, DataType.FLOAT32, RedOp.SUM, s);     // queued: 1 + 2 = 3
                    comm.allReduce(buf, buf, n, DataType.FLOAT32, RedOp.PROD, s);    // after it: 3 * 3 = 9
                    s.synchronize();                                                 // waits for both
                }
                // @end
                return buf.toArray(ValueLayout.JAVA_FLOAT);
            }
        });
        assertThat(results).allSatisfy(r -> assertThat(r).hasSize(512).containsOnly(9f));
    }

    // @start region="stream"
    /** Averages {@code grads} over the ranks of {@code comm}, on whichever engine's stream it is given. */
    static void averageInPlace(Communicator comm, MemorySegment grads, long n, Stream stream) {
        comm.allReduce(grads, grads, n, DataType.FLOAT32, RedOp.AVG, stream);
        stream.synchronize();            // rethrows the all-reduce's failure
    }
    // @end

    @Test
    void codeWrittenAgainstStreamRunsOnAHostStream() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        List<float[]> results = onEachRank(comms, comm -> {
            try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                MemorySegment grads = floats(arena, 64, comm.rank() == 0 ? 1 : 4);
                averageInPlace(comm, grads, 64, stream);
                assertThat(stream.query()).isTrue();
                return grads.toArray(ValueLayout.JAVA_FLOAT);
            }
        });
        assertThat(results).allSatisfy(r -> assertThat(r).hasSize(64).containsOnly(2.5f));
    }

    /** What a training step does while its all-reduce runs. */
    private static float[] prepareNextBatch() {
        return new float[] {1, 2, 3};
    }

    @Test
    void workIsAnAsyncCallToWaitFor() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        List<float[]> results = onEachRank(comms, comm -> {
            int n = 2048;
            try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                MemorySegment buf = floats(arena, n, comm.rank() + 1);
                // @start region="work"
                Work w = comm.allReduceAsync(buf, buf, n, DataType.FLOAT32, RedOp.SUM, stream);
                float[] next = prepareNextBatch();      // the all-reduce runs meanwhile
                if (!w.await(Duration.ofSeconds(30))) {
                    comm.abort();                       // give up on a call that does not finish
                    throw new IllegalStateException("the all-reduce did not finish in 30 s: " + w);
                }
                // buf holds the sum now: 1 + 2 = 3 everywhere
                // @end
                assertThat(next).hasSize(3);
                assertThat(w.isCompleted()).isTrue();
                w.join();
                return buf.toArray(ValueLayout.JAVA_FLOAT);
            }
        });
        assertThat(results).allSatisfy(r -> assertThat(r).hasSize(2048).containsOnly(3f));
    }

    @Test
    void errorCodesSayWhatToDoAboutAFailure() {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        Communicator comm = comms[0];
        try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
            MemorySegment buf = floats(arena, 4, 1);
            long count = 8;                                     // more than buf holds: a caller's bug
            // @start region="error-code"
            String outcome;
            try {
                comm.allReduce(buf, buf, count, DataType.FLOAT32, RedOp.SUM, stream);
                stream.synchronize();
                outcome = "done";
            } catch (JcclException e) {
                outcome = switch (e.code()) {
                    case INVALID_ARGUMENT, INVALID_USAGE -> "fix the call: " + e.detail();
                    case TIMEOUT, REMOTE_ERROR -> {
                        comm.abort();                           // a peer is gone: start again without it
                        yield "peer lost: " + e.getMessage();
                    }
                    default -> throw e;
                };
            }
            // outcome: "fix the call: argument 'sendbuff' holds 16 bytes but the call needs 32"
            // @end
            assertThat(outcome).isEqualTo("fix the call: argument 'sendbuff' holds 16 bytes but the call needs 32");
            assertThat(ErrorCode.INVALID_ARGUMENT.value()).isEqualTo(4);
            // Nothing was queued: the communicator still works.
            assertThat(comm.state()).isEqualTo(Communicator.State.READY);
        } finally {
            for (Communicator each : comms) {
                each.close();
            }
        }
    }

    @Test
    void aJcclExceptionNamesTheRankAndTheArgument() {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        Communicator comm = comms[1];
        String report = null;
        try (HostStream stream = new HostStream()) {
            // @start region="jccl-exception"
            try (Arena arena = Arena.ofConfined()) {            // wrong: the stream's thread cannot use it
                MemorySegment buf = arena.allocate(ValueLayout.JAVA_FLOAT, 4);
                comm.allReduce(buf, buf, 4, DataType.FLOAT32, RedOp.SUM, stream);
                stream.synchronize();
            } catch (JcclException e) {
                // e.getMessage(): "rank 1: invalid_argument: argument 'sendbuff' is confined to another thread; ..."
                report = "rank " + e.rank() + " failed with " + e.code() + ": " + e.detail();
            }
            // @end
        } finally {
            for (Communicator each : comms) {
                each.close();
            }
        }
        assertThat(report).startsWith("rank 1 failed with INVALID_ARGUMENT: argument 'sendbuff' is confined to another thread;");
    }

    @Test
    void aRegisteredBufferIsUsedAndDeregistered() throws Exception {
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<float[]>> ranks = new ArrayList<>();
        Registration[] kept = new Registration[2];
        for (Communicator comm : comms) {
            ranks.add(pool.submit(() -> {
                // @start region="registration"
                try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                    MemorySegment buf = arena.allocate(ValueLayout.JAVA_FLOAT, 1 << 20);    // 4 MiB, reused by every call
                    Registration reg = comm.register(buf);         // once, before the calls that use it
                    for (int step = 0; step < 3; step++) {
                        buf.fill((byte) 0);
                        buf.setAtIndex(ValueLayout.JAVA_FLOAT, 0, comm.rank() + step);
                        comm.allReduce(buf, buf, 1 << 20, DataType.FLOAT32, RedOp.SUM, stream);
                        stream.synchronize();
                    }
                    comm.deregister(reg);                          // before the memory goes
                    // @end
                    kept[comm.rank()] = reg;
                    return new float[] {buf.getAtIndex(ValueLayout.JAVA_FLOAT, 0), buf.getAtIndex(ValueLayout.JAVA_FLOAT, 1)};
                }
            }));
        }
        try {
            for (Future<float[]> f : ranks) {
                assertThat(f.get(60, TimeUnit.SECONDS)).containsExactly(5f, 0f);     // (0 + 2) + (1 + 2)
            }
            assertThat(kept).allSatisfy(r -> assertThat(r.registered()).isFalse());
            assertThatThrownBy(() -> comms[1].deregister(kept[0])).isInstanceOf(JcclException.class)
                    .hasMessageContaining("of another communicator");
        } finally {
            pool.shutdownNow();
            for (Communicator each : comms) {
                each.close();
            }
        }
    }
}
