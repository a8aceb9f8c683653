// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaStream;

import io.jccl.CudaDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.ErrorCode;
import io.jccl.Group;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.cuda.CudaDriver;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ranks of one process on several GPUs ({@code Communicator.initAllCuda(List<CudaDevice>, ...)},
 * as {@code ncclCommInitAll}): collectives bitwise the host engine's with the FIFOs between GPUs in
 * the receiver's device memory (peer access) or in pinned host memory (JCCL_P2P_DISABLE), LL128
 * left out, buffers and streams of the wrong GPU refused, a failure on one GPU stopping the ranks
 * on the other, split keeping each rank's GPU. Tagged gpu: needs two GPUs, skipped with the reason
 * otherwise; {@link FakeDriverEngineTest} runs it on the fake driver's two devices.
 */
@Tag("gpu")
class CudaMultiGpuTest {
    private static List<CudaDevice> gpus;

    @BeforeAll
    static void needsTwoGpus() {
        int count = CudaDevice.available() ? CudaDriver.deviceCount() : 0;
        if (count < 2) {
            String why = "ranks on several GPUs need two; this machine has " + count;
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        useDevices(List.of(CudaDevice.open(0), CudaDevice.open(1)));
    }

    /** The two GPUs these tests run on (FakeDriverEngineTest gives the fake driver's). */
    static void useDevices(List<CudaDevice> two) {
        gpus = two;
    }

    /** Rank r on GPU {@code layout[r]}. */
    private static List<CudaDevice> on(int... layout) {
        List<CudaDevice> d = new ArrayList<>();
        for (int g : layout) {
            d.add(gpus.get(g));
        }
        return d;
    }

    static List<Object[]> cases() {
        int[] two = {0, 1};
        int[] pairs = {0, 0, 1, 1};
        int[] alternating = {0, 1, 0, 1};
        List<Object[]> all = new ArrayList<>();
        for (boolean p2pOff : new boolean[] {false, true}) {
            all.add(new Object[] {two, p2pOff, new CudaCollectivesTest.Case(2, "ring", Protocol.LL, Collective.ALL_REDUCE,
                    DataType.FLOAT32, RedOp.SUM, 1000, false, 0)});
            all.add(new Object[] {two, p2pOff, new CudaCollectivesTest.Case(2, "ring", Protocol.SIMPLE, Collective.ALL_GATHER,
                    DataType.INT32, null, 20_001, false, 0)});
            all.add(new Object[] {pairs, p2pOff, new CudaCollectivesTest.Case(4, "tree", Protocol.SIMPLE, Collective.ALL_REDUCE,
                    DataType.BFLOAT16, RedOp.AVG, 7000, true, 0)});
            all.add(new Object[] {alternating, p2pOff, new CudaCollectivesTest.Case(4, "ring", Protocol.LL,
                    Collective.REDUCE_SCATTER, DataType.FLOAT64, RedOp.MAX, 777, false, 0)});
            // scratch (partial results) on each rank's own GPU
            all.add(new Object[] {alternating, p2pOff, new CudaCollectivesTest.Case(4, "rhd", Protocol.SIMPLE,
                    Collective.ALL_REDUCE, DataType.INT64, RedOp.SUM, 10_003, false, 0)});
        }
        all.add(new Object[] {pairs, false, new CudaCollectivesTest.Case(4, "ring", Protocol.LL, Collective.BROADCAST,
                DataType.UINT8, null, 3001, true, 2)});
        return all;
    }

    @ParameterizedTest(name = "GPUs {0} P2P off {1}: {2}")
    @MethodSource("cases")
    void collectivesAcrossGpusAreTheHostEnginesBitwise(int[] layout, boolean p2pOff, CudaCollectivesTest.Case k) {
        List<CudaDevice> devices = on(layout);
        byte[][] inputs = CudaCollectivesTest.inputs(k);
        byte[] recvInit = CudaCollectivesTest.recvInit(k);
        byte[][] want = CudaCollectivesTest.onHost(k, inputs, recvInit);
        Communicator[] comms = Communicator.initAllCuda(devices, CudaCollectivesTest.config(k).withP2pDisable(p2pOff));
        CudaStream[] streams = new CudaStream[k.n()];
        try {
            for (int r = 0; r < k.n(); r++) {
                streams[r] = new CudaStream(devices.get(r));
            }
            byte[][] got = CudaCollectivesTest.execute(k, comms, streams, devices, inputs, recvInit);
            for (int r = 0; r < k.n(); r++) {
                assertThat(got[r]).as(k + ": rank " + r + " on GPU " + layout[r]).isEqualTo(want[r]);
            }
        } finally {
            close(comms, streams);
        }
    }

    /**
     * Ranks that are threads of one process on several GPUs, meeting through a bootstrap
     * ({@code initCuda} on each thread, as one thread per GPU calls {@code ncclCommInitRank}): the
     * same results as {@code initAllCuda}'s, with peer access, through host memory, and through
     * the socket proxy (JCCL_P2P_DISABLE and JCCL_SHM_DISABLE).
     */
    @ParameterizedTest(name = "P2P off {0}, SHM off {1}")
    @org.junit.jupiter.params.provider.CsvSource({"false,false", "true,false", "true,true"})
    void initCudaThreadsOnSeveralGpusMeetThroughTheBootstrap(boolean p2pOff, boolean shmOff) throws Exception {
        int[] layout = {0, 1, 0, 1};
        List<CudaDevice> devices = on(layout);
        List<CudaCollectivesTest.Case> cases = List.of(
                new CudaCollectivesTest.Case(4, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 1001,
                        false, 0),
                new CudaCollectivesTest.Case(4, "tree", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.INT32, RedOp.SUM,
                        20_003, true, 0),
                new CudaCollectivesTest.Case(4, "ring", Protocol.SIMPLE, Collective.ALL_GATHER, DataType.UINT8, null, 3001,
                        false, 0));
        for (CudaCollectivesTest.Case k : cases) {
            Config c = CudaCollectivesTest.config(k).withP2pDisable(p2pOff).withShmDisable(shmOff).withSocketIfname("lo")
                    .withBootstrapTimeout(Duration.ofSeconds(60)).withTimeout(Duration.ofSeconds(60));
            Communicator[] comms = new Communicator[k.n()];
            CudaStream[] streams = new CudaStream[k.n()];
            try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(c)) {
                List<Object> made = CudaCollectivesTest.onThreads(k.n(), r -> Communicator.initCuda(root.id(), k.n(), r,
                        devices.get(r), c));
                for (int r = 0; r < k.n(); r++) {
                    assertThat(made.get(r)).as("rank " + r).isInstanceOf(Communicator.class);
                    comms[r] = (Communicator) made.get(r);
                    assertThat(comms[r].choiceFor(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32).protocol())
                            .as("LL128 left out across GPUs").isNotEqualTo(Protocol.LL128.id());
                    streams[r] = new CudaStream(devices.get(r));
                }
                byte[][] inputs = CudaCollectivesTest.inputs(k);
                byte[] recvInit = CudaCollectivesTest.recvInit(k);
                byte[][] want = CudaCollectivesTest.onHost(k, inputs, recvInit);
                byte[][] got = CudaCollectivesTest.execute(k, comms, streams, devices, inputs, recvInit);
                for (int r = 0; r < k.n(); r++) {
                    assertThat(got[r]).as(k + ": rank " + r + " on GPU " + layout[r]).isEqualTo(want[r]);
                }
            } finally {
                close(comms, streams);
            }
        }
    }

    /** LL128's lines are atomic only inside a GPU: left out across GPUs, refused when nothing else is allowed. */
    @Test
    void ll128IsLeftOutAcrossGpusAndRefusedAlone() {
        assertThatThrownBy(() -> Communicator.initAllCuda(on(0, 1), Config.defaults().withProtocols("LL128")))
                .isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_USAGE))
                .hasMessageContaining("LL128").hasMessageContaining("allow LL or Simple");
        Communicator[] comms = Communicator.initAllCuda(on(0, 1), Config.defaults().withProtocols("LL128,Simple"));
        try {
            for (long count : new long[] {1, 1 << 12, 1 << 20, 1 << 26}) {
                assertThat(comms[0].choiceFor(Collective.ALL_REDUCE, count, DataType.FLOAT32).protocol())
                        .as(count + " floats").isEqualTo(Protocol.SIMPLE.id());
            }
        } finally {
            close(comms, new CudaStream[0]);
        }
        // one GPU keeps it
        Communicator[] same = Communicator.initAllCuda(on(1, 1), Config.defaults().withProtocols("LL128"));
        try {
            assertThat(same[0].choiceFor(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32).protocol()).isEqualTo(Protocol.LL128.id());
        } finally {
            close(same, new CudaStream[0]);
        }
    }

    /** JCCL_DEBUG=INFO names how each rank reaches each other: device memory on one GPU, peer access or host memory across. */
    @Test
    void infoNamesEachPairsTransport() throws java.io.IOException {
        for (boolean p2pOff : new boolean[] {false, true}) {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("jccl-info", ".log");
            try {
                Communicator[] comms = Communicator.initAllCuda(on(0, 0, 1), Config.defaults().withDebug(Config.Debug.INFO)
                        .withDebugFile(file.toString()).withP2pDisable(p2pOff));
                close(comms, new CudaStream[0]);
                String across = p2pOff ? "SHM/pinned host memory to GPU " : "P2P/peer access to GPU ";
                assertThat(java.nio.file.Files.readString(file))
                        .contains("[0] jccl INFO INIT GPU " + gpus.get(0).pciBusId() + " -> rank 1: P2P/device memory")
                        .contains("[1] jccl INFO INIT GPU " + gpus.get(0).pciBusId() + " -> rank 2: " + across + gpus.get(1).pciBusId())
                        .contains("[2] jccl INFO INIT GPU " + gpus.get(1).pciBusId() + " -> rank 0: " + across + gpus.get(0).pciBusId());
            } finally {
                java.nio.file.Files.deleteIfExists(file);
            }
        }
    }

    /**
     * With a topology file the ranks stand for its GPUs and plan on the channels its search found,
     * as the host engine does: INFO prints the same rings and trees, and ring and tree all-reduce
     * across the two GPUs come out exact.
     */
    @Test
    void plansLieOnTheChannelsOfATopologyFile() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("jccl-graph", ".log");
        String topo = "src/test/resources/topo/pcie-4gpu.xml";
        try {
            Config base = Config.defaults().withTopoFile(topo).withDebug(Config.Debug.INFO).withDebugSubsys("GRAPH")
                    .withDebugFile(file.toString()).withChannels(2, 2);
            io.jccl.topo.Layout expected = io.jccl.engine.JobChannels.of(base, io.jccl.topo.ServerLayout.single(4));
            List<CudaDevice> devices = on(0, 1, 0, 1);
            for (String algo : List.of("ring", "tree")) {
                Communicator[] comms = Communicator.initAllCuda(devices, base.withAlgorithms(algo));
                CudaStream[] s = new CudaStream[4];
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment[] buf = new MemorySegment[4];
                    int count = 3001;
                    Group.start();
                    for (int r = 0; r < 4; r++) {
                        s[r] = new CudaStream(devices.get(r));
                        int[] v = new int[count];
                        for (int i = 0; i < count; i++) {
                            v[i] = r * 1000 + i;
                        }
                        buf[r] = CudaCollectivesTest.buffer(devices.get(r), arena, bytes(v));
                        comms[r].allReduce(buf[r], buf[r], count, DataType.INT32, RedOp.SUM, s[r]);
                    }
                    Group.end();
                    int[] want = new int[count];
                    for (int i = 0; i < count; i++) {
                        want[i] = 6000 + 4 * i;
                    }
                    for (int r = 0; r < 4; r++) {
                        s[r].synchronize();
                        assertThat(CudaCollectivesTest.read(devices.get(r), buf[r], 4 * count)).as(algo + " rank " + r)
                                .isEqualTo(bytes(want));
                    }
                } finally {
                    close(comms, s);
                }
            }
            String log = java.nio.file.Files.readString(file);
            for (String ring : expected.describeRings()) {
                assertThat(log).contains("[0] jccl INFO GRAPH " + ring);
            }
            assertThat(log).contains("[2] jccl INFO GRAPH " + expected.describeTrees(2));
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    /** Each rank's buffers and stream must be of its own GPU; the error names the rank and both GPUs. */
    @Test
    void buffersAndStreamsOfAnotherGpuAreRefused() {
        Communicator[] comms = Communicator.initAllCuda(on(0, 1), Config.defaults());
        try (Arena arena = Arena.ofShared(); CudaStream s0 = new CudaStream(gpus.get(0)); CudaStream s1 = new CudaStream(gpus.get(1))) {
            MemorySegment onGpu0 = gpus.get(0).allocate(4096, arena);
            MemorySegment onGpu1 = gpus.get(1).allocate(4096, arena);
            assertThatThrownBy(() -> comms[1].allReduce(onGpu0, onGpu0, 64, DataType.FLOAT32, RedOp.SUM, s1))
                    .isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("rank 1").hasMessageContaining("sendbuff")
                    .hasMessageContaining("is memory of GPU " + gpus.get(0).ordinal() + ", not of GPU " + gpus.get(1).ordinal());
            assertThatThrownBy(() -> comms[1].allReduce(onGpu1, onGpu1, 64, DataType.FLOAT32, RedOp.SUM, s0))
                    .isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("rank 1").hasMessageContaining("stream").hasMessageContaining("where this rank runs");
        } finally {
            close(comms, new CudaStream[0]);
        }
        assertThatThrownBy(() -> Communicator.initAllCuda(java.util.Arrays.asList(gpus.get(0), null), Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("devices").hasMessageContaining("rank 1");
        assertThatThrownBy(() -> Communicator.initAllCuda(List.of(), Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("devices").hasMessageContaining("is empty");
    }

    /**
     * A kernel that fails raises its own GPU's abort word only: a rank on the other GPU waiting for
     * it must still stop at once (the waiting stream spreads the failure), not at its timeout.
     * Ranks 0 and 2 on GPU 0, rank 1 on GPU 1; a ring broadcast from rank 0 goes 0 → 1 → 2, rank 1
     * expects more bytes than rank 0 sends, so rank 2 waits for a message that never comes.
     */
    @Test
    void aFailureOnOneGpuStopsTheRanksOnTheOther() {
        Duration timeout = Duration.ofSeconds(60);
        List<CudaDevice> devices = on(0, 1, 0);
        Communicator[] comms = Communicator.initAllCuda(devices, Config.defaults().withTimeout(timeout)
                .withProtocols("Simple").withAlgorithms("ring").withChannels(1, 1));
        CudaStream[] s = new CudaStream[3];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] buf = new MemorySegment[3];
            for (int r = 0; r < 3; r++) {
                s[r] = new CudaStream(devices.get(r));
                buf[r] = devices.get(r).allocate(4096, arena);
            }
            long start = System.nanoTime();
            Group.start();
            for (int r = 0; r < 3; r++) {
                comms[r].broadcast(buf[r], buf[r], r == 1 ? 65 : 64, DataType.FLOAT32, 0, s[r]);
            }
            Group.end();
            assertThatThrownBy(s[2]::synchronize).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.REMOTE_ERROR))
                    .hasMessageContaining("rank 2").hasMessageContaining("another rank failed");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("rank 2 stopped before its timeout")
                    .isLessThan(timeout.dividedBy(2));
            assertThatThrownBy(s[1]::synchronize).isInstanceOf(JcclException.class)
                    .hasMessageContaining("256 bytes").hasMessageContaining("260");
            s[0].synchronize();
        } finally {
            close(comms, s);
        }
    }

    /** Split keeps each rank's GPU: the colors here are one per GPU, so each child runs on one. */
    @Test
    void splitKeepsEachRanksGpu() {
        List<CudaDevice> devices = on(0, 1, 0, 1);
        Communicator[] comms = Communicator.initAllCuda(devices, Config.defaults());
        Communicator[] child = new Communicator[4];
        CudaStream[] s = new CudaStream[4];
        try (Arena arena = Arena.ofShared()) {
            onThreads(child, r -> comms[r].split(r % 2, r));
            for (int r = 0; r < 4; r++) {
                assertThat(child[r].size()).isEqualTo(2);
                assertThat(child[r].rank()).isEqualTo(r / 2);
            }
            MemorySegment[] buf = new MemorySegment[4];
            Group.start();
            for (int r = 0; r < 4; r++) {
                s[r] = new CudaStream(devices.get(r));
                int[] value = {r + 1, 10 * (r + 1)};
                buf[r] = CudaCollectivesTest.buffer(devices.get(r), arena, bytes(value));
                child[r].allReduce(buf[r], buf[r], 2, DataType.INT32, RedOp.SUM, s[r]);
            }
            Group.end();
            for (int r = 0; r < 4; r++) {
                s[r].synchronize();
                int other = r % 2 == 0 ? 2 - r : 4 - r; // the other rank of its color: 0<->2, 1<->3
                int sum = r + 1 + other + 1;
                assertThat(CudaCollectivesTest.read(devices.get(r), buf[r], 8)).as("rank " + r).isEqualTo(bytes(new int[] {sum, 10 * sum}));
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            for (Communicator c : child) {
                if (c != null) {
                    c.close();
                }
            }
            close(comms, s);
        }
    }

    /** Ranks on GPUs 0, 1, 0, 1 drop rank 2: the others keep their GPUs, renumbered 0, 1, 2, and finish() flushes their work. */
    @Test
    void shrinkKeepsEachRanksGpuAndFinishFlushes() {
        List<CudaDevice> devices = on(0, 1, 0, 1);
        Communicator[] comms = Communicator.initAllCuda(devices, Config.defaults());
        int[] keep = {0, 1, 3};
        Communicator[] child = new Communicator[3];
        CudaStream[] s = new CudaStream[4];
        try (Arena arena = Arena.ofShared()) {
            onThreads(child, i -> comms[keep[i]].shrink(new int[] {2}));
            MemorySegment[] buf = new MemorySegment[3];
            for (int i = 0; i < 3; i++) {
                assertThat(child[i].rank()).isEqualTo(i);
                assertThat(child[i].size()).isEqualTo(3);
                assertThat(comms[keep[i]].state()).isEqualTo(Communicator.State.FAILED);
            }
            Group.start();
            for (int i = 0; i < 3; i++) {
                CudaDevice d = devices.get(keep[i]);
                s[i] = new CudaStream(d);
                buf[i] = CudaCollectivesTest.buffer(d, arena, bytes(new int[] {i + 1, 10 * (i + 1)}));
                child[i].allReduce(buf[i], buf[i], 2, DataType.INT32, RedOp.SUM, s[i]);
            }
            Group.end();
            for (int i = 0; i < 3; i++) {
                child[i].finish();
                assertThat(child[i].asyncError()).isNull();
                assertThat(CudaCollectivesTest.read(devices.get(keep[i]), buf[i], 8)).as("rank " + i).isEqualTo(bytes(new int[] {6, 60}));
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            for (Communicator c : child) {
                if (c != null) {
                    c.close();
                }
            }
            close(comms, s);
        }
    }

    /**
     * {@code call} of each i below {@code out.length} on a thread of its own (calls that meet, as
     * split and shrink do), its result in {@code out[i]}; fails naming the first that threw.
     */
    private static void onThreads(Communicator[] out, java.util.function.IntFunction<Communicator> call) throws InterruptedException {
        Thread[] threads = new Thread[out.length];
        RuntimeException[] failed = new RuntimeException[out.length];
        for (int i = 0; i < out.length; i++) {
            int at = i;
            threads[i] = Thread.ofPlatform().start(() -> {
                try {
                    out[at] = call.apply(at);
                } catch (RuntimeException e) {
                    failed[at] = e;
                }
            });
        }
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(60));
        }
        for (int i = 0; i < out.length; i++) {
            assertThat(failed[i]).as("caller " + i).isNull();
            assertThat(out[i]).as("caller " + i).isNotNull();
        }
    }

    private static byte[] bytes(int[] values) {
        return MemorySegment.ofArray(values).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** Closes what was made (a failed init leaves nulls). */
    private static void close(Communicator[] comms, CudaStream[] streams) {
        for (Communicator c : comms) {
            if (c != null) {
                c.close();
            }
        }
        for (CudaStream s : streams) {
            if (s != null) {
                s.close();
            }
        }
    }
}
