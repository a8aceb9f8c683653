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
import io.jccl.HostStream;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.Stream;
import io.jccl.engine.FloatFormats;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CUDA engine on a GPU: 2, 4 and 8 ranks sharing GPU 0, every protocol, ring and tree, a seeded
 * sample of collectives, data types, reductions, counts and in-place forms; every rank's output
 * must be bitwise the host engine's for the same configuration (so the same plan) and inputs.
 * Tagged gpu: {@code mvn -B verify -Pgpu -pl kernels-ptx,core -am} runs it in a JVM of its own
 * (surefire execution gpu), away from the tests that load the stub libcuda. Without a GPU (or with
 * only the stub library) it is skipped with the reason printed.
 */
@Tag("gpu")
class CudaCollectivesTest {
    private static final long SEED = Long.getLong("jccl.test.seed", 20261122L);
    private static CudaDevice gpu;
    private static final Map<String, Communicator[]> HOST = new HashMap<>();
    private static final Map<String, Communicator[]> CUDA = new HashMap<>();
    private static final Map<Integer, HostStream[]> HOST_STREAMS = new HashMap<>();
    private static final Map<Integer, CudaStream[]> CUDA_STREAMS = new HashMap<>();

    @BeforeAll
    static void needsAGpu() {
        if (!CudaDevice.available()) {
            String why = "no CUDA GPU: the driver (JCCL_CUDA_LIB, else libcuda.so.1) is missing, is the stub, or"
                    + " reports no device" + (System.getProperty("jccl.cuda.lib") == null ? ""
                    : "; this JVM loaded " + System.getProperty("jccl.cuda.lib") + " (run with -Pgpu, no -Dtest)");
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        useDevice(CudaDevice.open(0));
        System.err.println("CudaCollectivesTest seed " + SEED);
    }

    /** The device these tests run on (FakeDriverEngineTest runs them on the fake driver's). */
    static void useDevice(CudaDevice device) {
        gpu = device;
    }

    @AfterAll
    static void closeAll() {
        for (Communicator[] cs : HOST.values()) {
            for (Communicator c : cs) {
                c.close();
            }
        }
        for (Communicator[] cs : CUDA.values()) {
            for (Communicator c : cs) {
                c.close();
            }
        }
        HOST_STREAMS.values().forEach(ss -> java.util.Arrays.stream(ss).forEach(HostStream::close));
        CUDA_STREAMS.values().forEach(ss -> java.util.Arrays.stream(ss).forEach(CudaStream::close));
        HOST.clear();
        CUDA.clear();
        HOST_STREAMS.clear();
        CUDA_STREAMS.clear();
    }

    record Case(int n, String algorithm, Protocol protocol, Collective collective, DataType type, RedOp op, long count,
                boolean inPlace, int root) {
        @Override
        public String toString() {
            return n + " ranks " + collective.cliName() + " " + algorithm + "/" + protocol.id() + " " + type + " " + op
                    + " x" + count + (inPlace ? " in place" : "") + (collective.rooted() ? " root " + root : "");
        }
    }

    static List<Case> cases() {
        Random rnd = new Random(SEED);
        List<Case> all = new ArrayList<>();
        Collective[] colls = {Collective.ALL_REDUCE, Collective.BROADCAST, Collective.REDUCE, Collective.ALL_GATHER,
                Collective.REDUCE_SCATTER, Collective.ALL_TO_ALL, Collective.GATHER, Collective.SCATTER};
        long[] counts = {1, 7, 1000, 100_003, 1_048_579};
        int per = Boolean.getBoolean("jccl.test.full") ? 24 : 6;
        for (int n : new int[] {2, 4, 8}) {
            for (Protocol p : Protocol.values()) {
                for (String algorithm : new String[] {"ring", "tree", "splittree", "butterfly", "rhd"}) {
                    for (int i = 0; i < per; i++) {
                        Collective c = !algorithm.equals("ring") ? Collective.ALL_REDUCE : colls[(i + n) % colls.length];
                        DataType t = DataType.values()[rnd.nextInt(DataType.values().length)];
                        RedOp op = c.reduces() ? op(i, t) : null;
                        long count = counts[rnd.nextInt(counts.length)];
                        boolean inPlace = (c == Collective.ALL_REDUCE || c == Collective.BROADCAST || c == Collective.REDUCE)
                                && rnd.nextBoolean();
                        all.add(new Case(n, algorithm, p, c, t, op, count, inPlace, rnd.nextInt(n)));
                    }
                }
            }
        }
        return all;
    }

    private static RedOp op(int i, DataType t) {
        return switch (i % 6) {
            case 0 -> RedOp.SUM;
            case 1 -> RedOp.PROD;
            case 2 -> RedOp.MIN;
            case 3 -> RedOp.MAX;
            case 4 -> RedOp.AVG;
            default -> RedOp.preMulSum(t.isFloatingPoint() ? 0.3 : 3);
        };
    }

    /** The configuration both engines run {@code k} with: its algorithm and protocol forced, on two channels. */
    static Config config(Case k) {
        Config c = Config.defaults().withProtocols(k.protocol().id()).withChannels(2, 2);
        return k.collective() == Collective.ALL_REDUCE ? c.withAlgorithms(k.algorithm()) : c;
    }

    private static String key(Case k) {
        return k.n() + "/" + (k.collective() == Collective.ALL_REDUCE ? k.algorithm() : "-") + "/" + k.protocol();
    }

    /** Random values of the type, never NaN (NaN payloads are the one documented difference). */
    static void fill(DataType t, MemorySegment s, long count, Random rnd) {
        for (long i = 0; i < count; i++) {
            float f = (float) ((rnd.nextDouble() - 0.5) * 8);
            switch (t) {
                case INT8, UINT8 -> s.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
                case INT32, UINT32 -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, rnd.nextInt());
                case INT64, UINT64 -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, rnd.nextLong());
                case FLOAT16 -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, Float.floatToFloat16(f));
                case BFLOAT16 -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, FloatFormats.floatToBfloat16(f));
                case FLOAT32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, f);
                case FLOAT64 -> s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, (rnd.nextDouble() - 0.5) * 8);
                case FLOAT8_E4M3 -> s.set(ValueLayout.JAVA_BYTE, i, FloatFormats.floatToE4m3(f));
                case FLOAT8_E5M2 -> s.set(ValueLayout.JAVA_BYTE, i, FloatFormats.floatToE5m2(f));
            }
        }
    }

    /** Runs a collective on every rank and returns each rank's receive buffer. */
    private static byte[][] run(Case k, boolean onGpu, byte[][] inputs, byte[] recvInit) {
        int n = k.n();
        Communicator[] comms = onGpu ? CUDA.computeIfAbsent(key(k), x -> Communicator.initAllCuda(n, gpu, config(k)))
                : HOST.computeIfAbsent(key(k), x -> Communicator.initAll(n, config(k)));
        Stream[] streams = onGpu ? CUDA_STREAMS.computeIfAbsent(n, x -> {
            CudaStream[] s = new CudaStream[n];
            for (int r = 0; r < n; r++) {
                s[r] = new CudaStream(gpu);
            }
            return s;
        }) : HOST_STREAMS.computeIfAbsent(n, x -> {
            HostStream[] s = new HostStream[n];
            for (int r = 0; r < n; r++) {
                s[r] = new HostStream();
            }
            return s;
        });
        return execute(k, comms, streams, onGpu ? java.util.Collections.nCopies(n, gpu) : null, inputs, recvInit);
    }

    /**
     * Runs {@code k} on {@code comms}, rank r issuing on {@code streams[r]} with its buffers on
     * {@code gpus.get(r)} (host memory when {@code gpus} is null); returns each rank's receive buffer.
     */
    static byte[][] execute(Case k, Communicator[] comms, Stream[] streams, List<CudaDevice> gpus, byte[][] inputs,
                            byte[] recvInit) {
        int n = k.n();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] send = new MemorySegment[n];
            MemorySegment[] recv = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                CudaDevice on = gpus == null ? null : gpus.get(r);
                recv[r] = buffer(on, arena, recvInit);
                send[r] = k.inPlace() ? recv[r] : buffer(on, arena, inputs[r]);
                if (k.inPlace()) {
                    write(on, recv[r], inputs[r]);
                }
            }
            long count = k.count();
            Group.start();
            try {
                for (int r = 0; r < n; r++) {
                    Communicator c = comms[r];
                    switch (k.collective()) {
                        case ALL_REDUCE -> c.allReduce(send[r], recv[r], count, k.type(), k.op(), streams[r]);
                        case BROADCAST -> c.broadcast(send[r], recv[r], count, k.type(), k.root(), streams[r]);
                        case REDUCE -> c.reduce(send[r], recv[r], count, k.type(), k.op(), k.root(), streams[r]);
                        case ALL_GATHER -> c.allGather(send[r], recv[r], count, k.type(), streams[r]);
                        case REDUCE_SCATTER -> c.reduceScatter(send[r], recv[r], count, k.type(), k.op(), streams[r]);
                        case ALL_TO_ALL -> c.allToAll(send[r], recv[r], count, k.type(), streams[r]);
                        case GATHER -> c.gather(send[r], recv[r], count, k.type(), k.root(), streams[r]);
                        case SCATTER -> c.scatter(send[r], recv[r], count, k.type(), k.root(), streams[r]);
                        default -> throw new AssertionError(k.collective());
                    }
                }
            } finally {
                Group.end();
            }
            for (Stream s : streams) {
                s.synchronize();
            }
            byte[][] out = new byte[n][];
            for (int r = 0; r < n; r++) {
                out[r] = read(gpus == null ? null : gpus.get(r), recv[r], recvInit.length);
            }
            return out;
        }
    }

    private static MemorySegment buffer(boolean onGpu, Arena arena, byte[] init) {
        return buffer(onGpu ? gpu : null, arena, init);
    }

    /** A buffer holding {@code init}: device memory of {@code on}, or host memory when it is null. */
    static MemorySegment buffer(CudaDevice on, Arena arena, byte[] init) {
        MemorySegment m = on != null ? on.allocate(Math.max(16, init.length), arena) : arena.allocate(Math.max(16, init.length), 16);
        write(on, m, init);
        return m;
    }

    private static void write(CudaDevice on, MemorySegment m, byte[] data) {
        if (on != null) {
            on.copyToDevice(m, MemorySegment.ofArray(data));
        } else {
            m.asSlice(0, data.length).copyFrom(MemorySegment.ofArray(data));
        }
    }

    private static byte[] read(boolean onGpu, MemorySegment m, int bytes) {
        return read(onGpu ? gpu : null, m, bytes);
    }

    static byte[] read(CudaDevice on, MemorySegment m, int bytes) {
        byte[] b = new byte[bytes];
        if (on != null) {
            on.copyToHost(MemorySegment.ofArray(b), m);
        } else {
            MemorySegment.ofArray(b).copyFrom(m.asSlice(0, bytes));
        }
        return b;
    }

    /** Closes every rank and the streams made so far (a failed set-up leaves the rest null). */
    private static void closeRanks(Communicator[] comms, CudaStream[] streams) {
        for (int r = 0; r < comms.length; r++) {
            comms[r].close();
            if (streams[r] != null) {
                streams[r].close();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyRanksOutputIsTheHostEnginesBitwise(Case k) {
        compare(k);
    }

    /** Runs {@code k} on both engines with the same inputs and compares every rank's receive buffer. */
    static void compare(Case k) {
        byte[][] inputs = inputs(k);
        byte[] recvInit = recvInit(k);
        byte[][] host = run(k, false, inputs, recvInit);
        byte[][] device = run(k, true, inputs, recvInit);
        for (int r = 0; r < k.n(); r++) {
            assertThat(device[r]).as(k + ": rank " + r).isEqualTo(host[r]);
        }
    }

    /** Every rank's seeded input for {@code k}, as many elements as its largest buffer. */
    static byte[][] inputs(Case k) {
        int n = k.n();
        Random rnd = new Random(SEED ^ k.toString().hashCode());
        long elems = elements(k);
        byte[][] inputs = new byte[n][];
        for (int r = 0; r < n; r++) {
            MemorySegment s = MemorySegment.ofArray(new byte[(int) k.type().bytes(elems)]);
            fill(k.type(), s, elems, rnd);
            inputs[r] = s.toArray(ValueLayout.JAVA_BYTE);
        }
        return inputs;
    }

    /** Elements of every rank's buffers for {@code k}: the most its send or receive buffer needs. */
    private static long elements(Case k) {
        long in = k.collective().inputCount(k.count(), k.n(), k.root(), k.root());
        long out = k.collective().outputCount(k.count(), k.n(), k.root(), k.root());
        return Math.max(Math.max(in, out), k.count());
    }

    /** What every receive buffer of {@code k} holds before the call. */
    static byte[] recvInit(Case k) {
        byte[] recvInit = new byte[(int) k.type().bytes(elements(k))];
        java.util.Arrays.fill(recvInit, (byte) 0x5A);
        return recvInit;
    }

    /** The host engine's result of {@code k} for {@code inputs} (what the CUDA engine must match bitwise). */
    static byte[][] onHost(Case k, byte[][] inputs, byte[] recvInit) {
        return run(k, false, inputs, recvInit);
    }


    static List<Object[]> gpuSizedCases() {
        List<Object[]> all = new ArrayList<>();
        for (int n : new int[] {2, 8}) {
            for (Protocol p : Protocol.values()) {
                for (Collective c : new Collective[] {Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER}) {
                    all.add(new Object[] {n, p, c});
                }
            }
        }
        return all;
    }

    /**
     * Without channel bounds the engine sizes channels to the GPU (as many blocks as fit, for large
     * calls), a plan the host engine does not make; integer sums do not depend on the order of
     * reduction, so every rank's output must still be exactly the element-wise sum, or the blocks.
     */
    @ParameterizedTest(name = "{0} ranks {1} {2}")
    @MethodSource("gpuSizedCases")
    void channelsSizedToTheGpuGiveExactIntegerResults(int n, Protocol p, Collective c) {
        long count = c == Collective.ALL_REDUCE ? 3L << 20 : 3L << 17; // 12 MiB, or per rank's block 1.5 MiB
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults().withProtocols(p.id()));
        CudaStream[] s = new CudaStream[n];
        try (Arena arena = Arena.ofShared()) {
            assertThat(comms[0].config().channelBoundsGiven()).isFalse();
            assertThat(comms[0].choiceFor(c, count, DataType.INT32).channels()).as("channels").isGreaterThan(2);
            long in = c == Collective.ALL_GATHER ? count : c == Collective.REDUCE_SCATTER ? count * n : count;
            long out = c == Collective.ALL_GATHER ? count * n : count;
            int[][] inputs = new int[n][(int) in];
            MemorySegment[] send = new MemorySegment[n];
            MemorySegment[] recv = new MemorySegment[n];
            Random rnd = new Random(SEED + n * 31L + p.ordinal() * 7L + c.ordinal());
            for (int r = 0; r < n; r++) {
                s[r] = new CudaStream(gpu);
                for (int i = 0; i < in; i++) {
                    inputs[r][i] = rnd.nextInt();
                }
                send[r] = gpu.allocate(4 * in, arena);
                recv[r] = gpu.allocate(4 * out, arena);
                gpu.copyToDevice(send[r], MemorySegment.ofArray(inputs[r]));
                io.jccl.cuda.CudaDriver.memsetAsync(recv[r].address(), (byte) 0x5A, 4 * out, MemorySegment.NULL);
                io.jccl.cuda.CudaDriver.synchronize(MemorySegment.NULL);
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                switch (c) {
                    case ALL_REDUCE -> comms[r].allReduce(send[r], recv[r], count, DataType.INT32, RedOp.SUM, s[r]);
                    case ALL_GATHER -> comms[r].allGather(send[r], recv[r], count, DataType.INT32, s[r]);
                    default -> comms[r].reduceScatter(send[r], recv[r], count, DataType.INT32, RedOp.SUM, s[r]);
                }
            }
            Group.end();
            for (int r = 0; r < n; r++) {
                s[r].synchronize();
                int[] got = new int[(int) out];
                gpu.copyToHost(MemorySegment.ofArray(got), recv[r]);
                int[] want = new int[(int) out];
                for (int i = 0; i < out; i++) {
                    if (c == Collective.ALL_GATHER) {
                        want[i] = inputs[(int) (i / count)][(int) (i % count)];
                    } else {
                        int at = (int) (c == Collective.REDUCE_SCATTER ? r * count + i : i);
                        for (int q = 0; q < n; q++) {
                            want[i] += inputs[q][at];
                        }
                    }
                }
                assertThat(got).as(n + " ranks " + p + " " + c.cliName() + ": rank " + r).isEqualTo(want);
            }
        } finally {
            closeRanks(comms, s);
        }
    }

    /**
     * 8 ranks of 64 channels would be 512 blocks spinning for each other on a GPU that keeps far
     * fewer resident (132 on an H100, 16 on the fake driver): refused at the call, naming the way
     * out, instead of the blocks that never get a multiprocessor timing everyone out.
     */
    @Test
    void ranksWhoseBlocksCannotAllBeResidentAreRefused() {
        int n = 8;
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults().withChannels(64, 64));
        try (Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
            MemorySegment buf = gpu.allocate(4L << 20, arena);
            assertThatThrownBy(() -> comms[3].allReduce(buf, buf, 1 << 20, DataType.FLOAT32, RedOp.SUM, s))
                    .isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_USAGE))
                    .hasMessageContaining("rank 3").hasMessageContaining("512").hasMessageContaining("JCCL_MAX_NCHANNELS");
            assertThatThrownBy(() -> comms[3].send(buf, 64, DataType.UINT8, 4, s))
                    .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_MIN_NCHANNELS");
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void capturedCollectivesReplayedAHundredTimesAreExact() {
        CudaGraphsOnGpu.capturedCollectivesReplayExactly(gpu, 4, 100_000, 100);
    }

    @Test
    void whatCannotBeCapturedIsRefusedWithTheReason() {
        CudaGraphsOnGpu.whatCannotBeCapturedIsRefusedWithTheReason(gpu);
    }

    @Test
    void aGroupOfEveryRankOfTheGpuIsOneDirectLaunch() {
        DirectLaunchOnGpu.everyCollectiveInOneLaunch(gpu, 8, null);
    }

    @Test
    void aBadPartLaunchesNothingAndADirectLaunchOrdersTheRanksNextCalls() {
        DirectLaunchOnGpu.refusalsAndOrderAroundADirectLaunch(gpu, 8, null);
    }

    @Test
    void groupsCapturedFromEveryRanksStreamReplayExactly() {
        DirectLaunchOnGpu.groupsCapturedInOneGraphReplayExactly(gpu, 8, 100_000, 100, null);
    }

    @Test
    void sendRecvRingInOneGroupMovesEveryRanksBytes() {
        int n = 4;
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        CudaStream[] s = new CudaStream[n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] out = new MemorySegment[n];
            MemorySegment[] in = new MemorySegment[n];
            io.jccl.Registration[] regs = new io.jccl.Registration[n];
            int bytes = 3 << 20;
            for (int r = 0; r < n; r++) {
                s[r] = new CudaStream(gpu);
                byte[] data = new byte[bytes];
                new Random(r).nextBytes(data);
                out[r] = buffer(true, arena, data);
                in[r] = buffer(true, arena, new byte[bytes]);
                regs[r] = comms[r].register(out[r]);
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                comms[r].send(out[r], bytes, DataType.UINT8, (r + 1) % n, s[r]);
                comms[r].recv(in[r], bytes, DataType.UINT8, (r + n - 1) % n, s[r]);
            }
            Group.end();
            for (int r = 0; r < n; r++) {
                s[r].synchronize();
                byte[] want = new byte[bytes];
                new Random((r + n - 1) % n).nextBytes(want);
                assertThat(read(true, in[r], bytes)).isEqualTo(want);
                comms[r].deregister(regs[r]);
            }
        } finally {
            closeRanks(comms, s);
        }
    }

    /**
     * A caller that passes new buffers on every call (slices of a workspace, a caching allocator's
     * blocks) makes a new descriptor each time: each rank's device memory for them stays within
     * what {@link DescriptorCache} keeps plus the launches not yet finished, and every result stays
     * right while dropped descriptors' memory is taken again.
     */
    @Test
    void callsOnNewBuffersEveryTimeKeepEachRanksDescriptorMemoryBounded() {
        int n = 2;
        int count = 1000;
        int calls = DescriptorCache.MAX_ENTRIES + 64;
        int syncEvery = 16;
        int stride = 4; // elements between one call's buffers and the next's: 16 bytes, every address new
        CudaComm[] ranks = CudaComm.createAll(java.util.Collections.nCopies(n, Config.defaults()),
                java.util.Collections.nCopies(n, gpu));
        GpuStream[] s = new GpuStream[n];
        try (Arena arena = Arena.ofShared()) {
            long elems = (long) calls * stride + count;
            MemorySegment[] send = new MemorySegment[n];
            MemorySegment[] recv = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                s[r] = GpuStream.create(gpu);
                int[] data = new int[(int) elems];
                for (int j = 0; j < elems; j++) {
                    data[j] = r * 100_000 + j;
                }
                send[r] = gpu.allocate(4 * elems, arena);
                gpu.copyToDevice(send[r], MemorySegment.ofArray(data));
                recv[r] = gpu.allocate(4 * elems, arena);
            }
            long one = 0;
            for (int call = 0; call < calls; call++) {
                for (int r = 0; r < n; r++) {
                    MemorySegment in = send[r].asSlice(4L * call * stride, 4L * count);
                    MemorySegment out = recv[r].asSlice(4L * call * stride, 4L * count);
                    ranks[r].submit(List.of(new io.jccl.engine.CollectiveArgs(io.jccl.Collective.ALL_REDUCE, in, out, count,
                            DataType.INT32, RedOp.SUM, 0)), List.of(), s[r]);
                }
                if (call == 0) {
                    one = ranks[0].descriptorBytes();
                }
                if (call % syncEvery == syncEvery - 1 || call == calls - 1) {
                    for (int r = 0; r < n; r++) {
                        s[r].synchronize();
                        int[] got = new int[count];
                        gpu.copyToHost(MemorySegment.ofArray(got), recv[r].asSlice(4L * call * stride, 4L * count));
                        for (int e = 0; e < count; e++) {
                            int j = call * stride + e;
                            assertThat(got[e]).as("call " + call + " rank " + r + " element " + e).isEqualTo(100_000 + 2 * j);
                        }
                    }
                }
            }
            for (int r = 0; r < n; r++) {
                assertThat(ranks[r].descriptorBytes()).as("rank " + r + "'s descriptors after " + calls + " calls, "
                        + one + " bytes each").isGreaterThan(0).isLessThanOrEqualTo((DescriptorCache.MAX_ENTRIES + syncEvery + 1) * one);
            }
        } finally {
            for (int r = 0; r < n; r++) {
                ranks[r].close();
                if (s[r] != null) {
                    s[r].close();
                }
            }
        }
    }

    @Test
    void collectivesRunInOrderWithTheCallersWorkOnItsOwnBlockingStreams() {
        int n = 4;
        int count = 1 << 16;
        Communicator[] comms = Communicator.initAllCuda(n, gpu, Config.defaults());
        MemorySegment[] handles = new MemorySegment[n];
        try (Arena arena = Arena.ofShared()) {
            CudaStream[] s = new CudaStream[n];
            MemorySegment[] buf = new MemorySegment[n];
            gpu.makeCurrent();
            for (int r = 0; r < n; r++) {
                handles[r] = io.jccl.cuda.CudaDriver.createStream(0); // blocking: syncs with the legacy stream
                s[r] = CudaStream.wrap(gpu, handles[r]);
                buf[r] = gpu.allocate(4L * count, arena);
            }
            for (int round = 1; round <= 3; round++) {
                for (int r = 0; r < n; r++) {
                    // the caller's own work first, then the collective, on the same stream
                    io.jccl.cuda.CudaDriver.memsetAsync(buf[r].address(), (byte) round, 4L * count, handles[r]);
                    comms[r].allReduce(buf[r], buf[r], count, DataType.INT32, RedOp.SUM, s[r]);
                }
                for (int r = 0; r < n; r++) {
                    s[r].synchronize();
                    int[] got = new int[count];
                    gpu.copyToHost(MemorySegment.ofArray(got), buf[r]);
                    int want = n * (round * 0x01010101);
                    assertThat(got).as("round " + round + " rank " + r).containsOnly(want);
                }
            }
        } finally {
            for (int r = 0; r < n; r++) {
                comms[r].close();
                if (handles[r] != null) {
                    io.jccl.cuda.CudaDriver.destroyStream(handles[r]);
                }
            }
        }
    }

    @Test
    void hostMemoryAndSharedStreamsAreRefusedNamingTheArgument() {
        Communicator[] comms = Communicator.initAllCuda(2, gpu, Config.defaults());
        try (Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
            MemorySegment host = arena.allocate(64);
            MemorySegment dev = gpu.allocate(64, arena);
            assertThatThrownBy(() -> comms[0].allReduce(host, host, 16, DataType.FLOAT32, RedOp.SUM, s))
                    .isInstanceOf(JcclException.class).hasMessageContaining("sendbuff");
            assertThatThrownBy(() -> comms[0].register(host)).isInstanceOf(JcclException.class).hasMessageContaining("buffer");
            assertThatThrownBy(() -> comms[0].allReduce(dev, dev, 16, DataType.FLOAT32, RedOp.SUM, new HostStream()))
                    .isInstanceOf(JcclException.class).hasMessageContaining("CudaStream");
            comms[0].allReduce(dev, dev, 16, DataType.FLOAT32, RedOp.SUM, s);
            assertThatThrownBy(() -> comms[1].allReduce(dev, dev, 16, DataType.FLOAT32, RedOp.SUM, s))
                    .isInstanceOf(JcclException.class).hasMessageContaining("stream").hasMessageContaining("rank 0");
            comms[0].abort();
            assertThatThrownBy(s::synchronize).isInstanceOf(JcclException.class);
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void aRankThatNeverCallsTimesOutAndMismatchedSizesAreNamed() {
        Config c = Config.defaults().withTimeout(Duration.ofSeconds(2)).withProtocols("LL");
        Communicator[] comms = Communicator.initAllCuda(2, gpu, c);
        try (Arena arena = Arena.ofShared(); CudaStream s0 = new CudaStream(gpu)) {
            MemorySegment dev = gpu.allocate(4096, arena);
            comms[0].allReduce(dev, dev, 64, DataType.FLOAT32, RedOp.SUM, s0);
            // The kernel's watchdog gives up after 2 s: asyncError() says so without a synchronize.
            long until = System.nanoTime() + 30_000_000_000L;
            while (comms[0].asyncError() == null && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertThat(comms[0].asyncError()).isNotNull().satisfies(e -> assertThat(e.code()).isEqualTo(ErrorCode.TIMEOUT));
            assertThat(comms[0].state()).isEqualTo(Communicator.State.FAILED);
            assertThatThrownBy(s0::synchronize).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                    .hasMessageContaining("rank 1");
        } finally {
            for (Communicator x : comms) {
                x.close();
            }
        }
        Communicator[] pair = Communicator.initAllCuda(2, gpu, c);
        try (Arena arena = Arena.ofShared(); CudaStream s0 = new CudaStream(gpu); CudaStream s1 = new CudaStream(gpu)) {
            MemorySegment a = gpu.allocate(4096, arena);
            MemorySegment b = gpu.allocate(4096, arena);
            Group.start();
            pair[0].broadcast(a, a, 64, DataType.FLOAT32, 0, s0);
            pair[1].broadcast(b, b, 65, DataType.FLOAT32, 0, s1);
            Group.end();
            assertThatThrownBy(s1::synchronize).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.REMOTE_ERROR))
                    .hasMessageContaining("256 bytes").hasMessageContaining("260");
        } finally {
            for (Communicator x : pair) {
                x.close();
            }
        }
    }

    @Test
    void ranksOfTwoProcessesSharingTheGpuConnectThroughCudaIpc() throws Exception {
        List<String> out = CudaProcesses.check(2, null, Map.of("JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "300000"));
        assertThat(out.get(1)).contains("via P2P/CUDA IPC");
    }

    @Test
    void withP2pDisabledRanksOfThreeProcessesConnectThroughPinnedHostMemory() throws Exception {
        List<String> out = CudaProcesses.check(3, null, Map.of("JCCL_DEBUG", "INFO", "JCCL_P2P_DISABLE", "1",
                "JCCL_TEST_COUNT", "100001"));
        assertThat(out.get(0)).contains("via SHM/pinned host memory");
    }

    /** The CUDA library this JVM loaded when a test named one (the fake driver), for the ranks' processes to load too. */
    private static String gpuLibrary() {
        return System.getProperty("jccl.cuda.lib");
    }

    @Test
    void anAbortInOneProcessFailsTheOtherNamingTheRankThatAborted() throws Exception {
        assertThat(CudaProcesses.abortOne(gpuLibrary())).containsPattern("rank 1 \\(pid \\d+ on [^)]+\\) aborted the communicator");
    }

    @Test
    void aRankWhoseProcessIsKilledIsNamedBySurvivorWithinSeconds() throws Exception {
        assertThat(CudaProcesses.killOne(null, Map.of())).containsPattern("rank 1 \\(pid \\d+ on [^)]+\\)(: its process)? died"); // the watchdog's words, or the keep-alive's
    }

    @Test
    void withP2pAndShmOffRanksOfTwoProcessesConnectThroughTheSocketProxy() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(CudaProcesses.SOCKETS_ONLY);
        env.putAll(Map.of("JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "100001"));
        List<String> out = CudaProcesses.checkWithoutLl128(gpuLibrary(), List.of(env, env));
        assertThat(out.get(1)).contains("[1] jccl INFO INIT rank 0 (pid").contains("via NET/Socket (pinned host memory");
    }

    @Test
    void capturedCallsOfTwoProcessesReplayOverTheSocketProxyAndPinnedHostMemory() throws Exception {
        Map<String, String> sockets = new java.util.HashMap<>(CudaProcesses.SOCKETS_ONLY);
        sockets.putAll(Map.of("JCCL_TEST_GRAPH", "1", "JCCL_TEST_COUNT", "100001"));
        CudaProcesses.checkWithoutLl128(gpuLibrary(), List.of(sockets, sockets));
        CudaProcesses.check(2, gpuLibrary(), Map.of("JCCL_P2P_DISABLE", "1", "JCCL_TEST_GRAPH", "1", "JCCL_TEST_COUNT", "100001"));
    }

    @Test
    void ranksOfTwoHostsConnectThroughTheSocketProxyAndWithinAHostAsBefore() throws Exception {
        // JCCL_HOSTID makes hosts of processes: ranks 0 and 1 share host a (CUDA IPC), rank 2 is
        // host b (sockets), so one communicator mixes GPU-scope and system-scope connections.
        Map<String, String> a = Map.of("JCCL_HOSTID", "gpu-host-a", "JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "100001");
        List<String> out = CudaProcesses.checkWithoutLl128(gpuLibrary(), List.of(a, a,
                Map.of("JCCL_HOSTID", "gpu-host-b", "JCCL_TEST_COUNT", "100001")));
        assertThat(out.get(0)).contains("[0] jccl INFO INIT rank 1 (pid").containsPattern("rank 1 \\(pid[^\n]*via P2P/CUDA IPC")
                .containsPattern("rank 2 \\(pid[^\n]*via NET/Socket");
    }

    @Test
    void aRankKilledBehindTheSocketProxyIsNamedBySurvivorWithinSeconds() throws Exception {
        // No pid to watch across hosts: the broken socket tells, and the survivor's kernels stop.
        String out = CudaProcesses.killOne(gpuLibrary(), CudaProcesses.SOCKETS_ONLY);
        assertThat(out).contains("remote_error").containsPattern("lost (its connection with )?rank 1 \\(pid \\d+ on [^)]+\\)"); // the proxy's words, or the keep-alive's
    }

    /** Each rank's result of {@code body} run on its own thread, or the exception it threw. */
    static List<Object> onThreads(int n, java.util.function.IntFunction<Object> body) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(n);
        try {
            List<java.util.concurrent.Future<Object>> fs = new java.util.ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                fs.add(pool.submit(() -> {
                    try {
                        return body.apply(rank);
                    } catch (RuntimeException e) {
                        return e;
                    }
                }));
            }
            List<Object> out = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<Object> f : fs) {
                out.add(f.get(120, java.util.concurrent.TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void initCudaRanksOnThreadsOfOneProcessShareItsFifos() throws Exception {
        io.jccl.Config c = io.jccl.Config.defaults().withSocketIfname("lo").withBootstrapTimeout(java.time.Duration.ofSeconds(30));
        try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(c)) {
            List<Object> sums = onThreads(2, r -> {
                try (io.jccl.Communicator comm = io.jccl.Communicator.initCuda(root.id(), 2, r, gpu, c);
                     java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
                    java.lang.foreign.MemorySegment host = arena.allocate(4L * 100, 4);
                    for (int i = 0; i < 100; i++) {
                        host.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i, (r + 1) * i);
                    }
                    java.lang.foreign.MemorySegment buf = gpu.allocate(4L * 100, arena);
                    gpu.copyToDevice(buf, host);
                    comm.allReduce(buf, buf, 100, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                    gpu.copyToHost(host, buf);
                    return host.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 99);
                }
            });
            assertThat(sums).containsExactly(3 * 99, 3 * 99);
        }
    }

    @Test
    void withP2pAndShmOffRanksReachEachOtherThroughTheSocketProxy() throws Exception {
        // NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 leave the net transport: each end's FIFO in pinned
        // host memory, the proxy's threads carrying the messages over loopback TCP between them.
        io.jccl.Config c = io.jccl.Config.defaults().withSocketIfname("lo").withBootstrapTimeout(java.time.Duration.ofSeconds(30))
                .withP2pDisable(true).withShmDisable(true).withTimeout(java.time.Duration.ofSeconds(60));
        int n = 3;
        int count = 50_003; // many LL messages a channel, and Simple slots reused
        for (String proto : List.of("LL", "Simple")) {
            for (String algo : List.of("ring", "tree")) {
                io.jccl.Config forced = c.withProtocols(proto).withAlgorithms(algo).withChannels(2, 2);
                try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(forced)) {
                    List<Object> wrong = onThreads(n, r -> {
                        try (io.jccl.Communicator comm = io.jccl.Communicator.initCuda(root.id(), n, r, gpu, forced);
                             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
                            java.lang.foreign.MemorySegment host = arena.allocate(4L * count, 4);
                            for (int i = 0; i < count; i++) {
                                host.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i, (r + 1) * (i - count / 2));
                            }
                            java.lang.foreign.MemorySegment in = gpu.allocate(4L * count, arena);
                            java.lang.foreign.MemorySegment out = gpu.allocate(4L * count, arena);
                            gpu.copyToDevice(in, host);
                            for (int call = 0; call < 2; call++) {
                                comm.allReduce(in, out, count, DataType.INT32, RedOp.SUM, s);
                            }
                            s.synchronize();
                            gpu.copyToHost(host, out);
                            int bad = 0;
                            for (int i = 0; i < count; i++) {
                                bad += host.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i) != n * (n + 1) / 2 * (i - count / 2) ? 1 : 0;
                            }
                            return bad;
                        }
                    });
                    assertThat(wrong).as("%s/%s: wrong elements per rank", algo, proto).containsOnly(0);
                }
            }
        }
        // LL128's lines are atomic only inside a GPU: forced alone over sockets, init refuses it
        io.jccl.Config ll128 = c.withProtocols("LL128");
        try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(ll128)) {
            List<Object> out = onThreads(2, r -> io.jccl.Communicator.initCuda(root.id(), 2, r, gpu, ll128));
            assertThat(out).allSatisfy(o -> assertThat(o).isInstanceOf(io.jccl.JcclException.class));
            assertThat(((Exception) out.get(0)).getMessage()).contains("rank 0").contains("LL128").contains("socket");
        }
    }

    /** Rank {@code r} of a pair all-reduces 100 int32 of value r + 1 over {@code comm}; returns element 99. */
    private static int sumOf(io.jccl.Communicator comm, CudaDevice gpu, int r) {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
            java.lang.foreign.MemorySegment host = arena.allocate(400, 4);
            for (int i = 0; i < 100; i++) {
                host.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i, r + 1);
            }
            java.lang.foreign.MemorySegment buf = gpu.allocate(400, arena);
            gpu.copyToDevice(buf, host);
            comm.allReduce(buf, buf, 100, DataType.INT32, RedOp.SUM, s);
            s.synchronize();
            gpu.copyToHost(host, buf);
            return host.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 99);
        }
    }

    @Test
    void splitMakesCudaRanksOfEachColorFromThreadsAndFromTheBootstrap() throws Exception {
        // initAllCuda: 4 ranks as 2 rows of 2 (rank r joins row r % 2, ranked by -r there), rank 3 in none
        io.jccl.Communicator[] all = io.jccl.Communicator.initAllCuda(4, gpu, io.jccl.Config.defaults());
        try {
            List<Object> rows = onThreads(4, r -> {
                io.jccl.Communicator row = all[r].split(r == 3 ? io.jccl.Communicator.SPLIT_NO_COLOR : r % 2, -r);
                if (row == null) {
                    return "none";
                }
                try (row) {
                    return row.rank() + "/" + row.size() + ":" + sumOf(row, gpu, r);
                }
            });
            // row 0: ranks 0 and 2 (2 first, by key); row 1: rank 1 alone
            assertThat(rows).containsExactly("1/2:4", "0/1:2", "0/2:4", "none");
        } finally {
            for (io.jccl.Communicator c : all) {
                c.close();
            }
        }
        // initCuda: the same split through the bootstrap
        io.jccl.Config c = io.jccl.Config.defaults().withSocketIfname("lo").withBootstrapTimeout(java.time.Duration.ofSeconds(30));
        try (io.jccl.bootstrap.BootstrapRoot root = io.jccl.bootstrap.BootstrapRoot.start(c)) {
            List<Object> rows = onThreads(4, r -> {
                try (io.jccl.Communicator comm = io.jccl.Communicator.initCuda(root.id(), 4, r, gpu, c)) {
                    io.jccl.Communicator row = comm.split(r % 2, r);
                    try (row) {
                        return row.rank() + "/" + row.size() + ":" + sumOf(row, gpu, r);
                    }
                }
            });
            assertThat(rows).containsExactly("0/2:4", "0/2:6", "1/2:4", "1/2:6");
        }
    }
}
