// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.engine.Planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.HostStream;
import io.jccl.RedOp;
import io.jccl.engine.CollectiveArgs;
import io.jccl.kernels.Kernels;
import io.jccl.kernels.WorkLayout;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executor kernels' own source, compiled by g++ against a host emulation of what they use from
 * CUDA (test resources jccl_emulation.h, emu_block.cpp and emulator.cpp: a thread per CUDA thread,
 * per-block barriers and __shared__ variables, warp operations and LL128's whole-line stores made
 * collective), run on descriptors packed
 * by {@link WorkPacker} for every rank at once, in a shared file mapped where the descriptors say
 * device memory is. Every rank's output must be bitwise the host engine's for the same plan and
 * inputs. This checks the kernels' logic (steps, tiles, the three wire formats, slots wrapping,
 * reductions) without a GPU; the GPU's memory model and its arithmetic instructions are what the
 * gpu-tagged CudaCollectivesTest adds.
 */
class KernelEmulationTest {
    private static final long BASE = 0x2000_0000_0000L;
    private static final int THREADS = 64;
    private static Path emulator;

    @BeforeAll
    static void build(@TempDir Path dir) throws Exception {
        emulator = EmulationBuild.compile(dir, "emulator.cpp", "emulator", "the kernels' host emulation", "-rdynamic");
    }

    /** A call; {@code startSeq}: messages every FIFO has carried before it (0: fresh FIFOs). */
    record Case(int n, String algorithm, Protocol protocol, Collective collective, DataType type, RedOp op, long count,
                boolean inPlace, int root, long startSeq) {
        Case(int n, String algorithm, Protocol protocol, Collective collective, DataType type, RedOp op, long count,
             boolean inPlace, int root) {
            this(n, algorithm, protocol, collective, type, op, count, inPlace, root, 0);
        }

        @Override
        public String toString() {
            return n + " ranks " + collective.cliName() + " " + algorithm + "/" + protocol.id() + " " + type + " " + op
                    + " x" + count + (inPlace ? " in place" : "") + (collective.rooted() ? " root " + root : "")
                    + (startSeq > 0 ? " after " + startSeq + " messages" : "");
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(2, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 1000, false, 0),
                new Case(4, "ring", Protocol.LL128, Collective.ALL_REDUCE, DataType.BFLOAT16, RedOp.AVG, 3001, true, 0),
                new Case(4, "tree", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.FLOAT16, RedOp.PROD, 5000, false, 0),
                new Case(3, "ring", Protocol.SIMPLE, Collective.REDUCE_SCATTER, DataType.INT8, RedOp.MIN, 777, false, 0),
                new Case(4, "ring", Protocol.LL, Collective.ALL_GATHER, DataType.UINT64, null, 123, false, 0),
                new Case(2, "ring", Protocol.LL128, Collective.BROADCAST, DataType.FLOAT64, null, 20_000, false, 1),
                new Case(4, "direct", Protocol.SIMPLE, Collective.ALL_TO_ALL, DataType.INT32, null, 1000, false, 0),
                new Case(4, "ring", Protocol.LL, Collective.REDUCE, DataType.FLOAT8_E4M3, RedOp.preMulSum(0.3), 999, false, 2),
                // The split tree: each block runs a reducing and a broadcasting lane on two teams of its threads.
                new Case(4, "splittree", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.MAX, 4097, false, 0),
                new Case(5, "splittree", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 70_001, false, 0),
                new Case(3, "splittree", Protocol.LL128, Collective.ALL_REDUCE, DataType.BFLOAT16, RedOp.AVG, 9001, true, 0),
                new Case(2, "ring", Protocol.LL128, Collective.ALL_REDUCE, DataType.FLOAT8_E5M2, RedOp.SUM, 10_001, true, 0),
                new Case(3, "ring", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.UINT32, RedOp.AVG, 70_001, false, 0),
                new Case(2, "ring", Protocol.LL, Collective.GATHER, DataType.INT64, null, 300, false, 1),
                // LL's 32-bit flags: through the 2^32 wrap (flag 0) and into a 2^31 clean interval
                new Case(2, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 5000, false, 0, (1L << 32) - 5),
                new Case(3, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.INT32, RedOp.SUM, 5000, false, 0, (1L << 31) - 3),
                new Case(2, "ring", Protocol.LL128, Collective.ALL_REDUCE, DataType.FLOAT64, RedOp.MIN, 5000, false, 0, (1L << 32) - 5),
                new Case(2, "ring", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 100_000, false, 0, 1L << 40),
                // Plans that keep partial results in scratch: the butterfly folding rank 2 of 3 into
                // rank 1, recursive halving-doubling's halves, on every protocol.
                new Case(3, "butterfly", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 70_001, false, 0),
                new Case(4, "butterfly", Protocol.LL, Collective.ALL_REDUCE, DataType.INT32, RedOp.AVG, 3001, true, 0),
                new Case(5, "rhd", Protocol.LL128, Collective.ALL_REDUCE, DataType.FLOAT16, RedOp.MAX, 10_001, false, 0),
                new Case(4, "rhd", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.FLOAT64, RedOp.preMulSum(0.7), 50_000, true, 0));
    }

    /** One-channel domains with small FIFOs, as the host matrix uses: many tiles, slots wrap many times. */
    private static Config config(Case k) {
        Config c = Config.defaults().withProtocols(k.protocol().id()).withChannels(1, 1)
                .withBuffSize("Simple", 256 << 10).withBuffSize("LL", 32 << 10).withBuffSize("LL128", 64 << 10)
                .withTimeout(java.time.Duration.ofSeconds(60));
        return k.collective() == Collective.ALL_REDUCE ? c.withAlgorithms(k.algorithm()) : c;
    }

    /**
     * The split tree at the GPU's block sizes ({@link CudaTuning#threads}: 512, LL128 640), whose
     * teams are several warps each and uneven (LL 352 + 160, Simple 320 + 192, LL128 448 + 192), where
     * the 64-thread blocks of {@link #cases} give each team one warp: a team's barriers then count
     * many warps, and LL128's header is polled by the team's first warp while the others wait. With
     * -Pfull (jccl.test.full) 60 more, seeded: 2 to 8 ranks, every protocol, six types and five
     * reductions, 2 to 200 001 elements, in place or not (63 calls in 223 s on 2 cores).
     */
    static List<Case> gpuBlockCases() {
        List<Case> l = new ArrayList<>(List.of(
                new Case(4, "splittree", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 20_001, false, 0),
                new Case(4, "splittree", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.INT32, RedOp.MAX, 150_001, true, 0),
                new Case(3, "splittree", Protocol.LL128, Collective.ALL_REDUCE, DataType.FLOAT16, RedOp.SUM, 40_001, false, 0)));
        if (Boolean.getBoolean("jccl.test.full")) {
            Random rnd = new Random(20261123);
            DataType[] types = {DataType.FLOAT32, DataType.INT32, DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT64,
                DataType.INT8};
            RedOp[] ops = {RedOp.SUM, RedOp.MAX, RedOp.MIN, RedOp.AVG, RedOp.PROD};
            for (int i = 0; i < 60; i++) {
                l.add(new Case(2 + rnd.nextInt(7), "splittree", Protocol.values()[rnd.nextInt(3)], Collective.ALL_REDUCE,
                        types[rnd.nextInt(types.length)], ops[rnd.nextInt(ops.length)],
                        1 + (long) Math.exp(rnd.nextDouble() * Math.log(200_000)), rnd.nextBoolean(), 0));
            }
        }
        return l;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theKernelsComputeWhatTheHostEngineComputes(Case k, @TempDir Path dir) throws Exception {
        checkAgainstTheHostEngine(k, THREADS, dir);
    }

    @ParameterizedTest
    @MethodSource("gpuBlockCases")
    void theSplitTreesTeamsOfTheGpusBlockSizesComputeWhatTheHostEngineComputes(Case k, @TempDir Path dir) throws Exception {
        checkAgainstTheHostEngine(k, CudaTuning.threads(k.protocol()), dir);
    }

    private static void checkAgainstTheHostEngine(Case k, int threads, Path dir) throws Exception {
        int n = k.n();
        Random rnd = new Random(k.toString().hashCode());
        long inCount = k.collective().inputCount(k.count(), n, k.root(), k.root());
        long outCount = k.collective().outputCount(k.count(), n, k.root(), k.root());
        long elems = Math.max(Math.max(inCount, outCount), k.count());
        int bytes = (int) k.type().bytes(elems);
        byte[][] inputs = new byte[n][];
        for (int r = 0; r < n; r++) {
            MemorySegment s = MemorySegment.ofArray(new byte[bytes]);
            CudaCollectivesTest.fill(k.type(), s, elems, rnd);
            inputs[r] = s.toArray(ValueLayout.JAVA_BYTE);
        }
        byte[][] host = host(k, inputs, bytes);
        Emulated e = emulated(k, config(k), r -> k.count(), inputs, bytes, threads, dir);
        for (int r = 0; r < n; r++) {
            if (e.status()[r] != null) {
                fail(k + ": rank " + r + ": " + e.status()[r]);
            }
            assertThat(e.outputs()[r]).as(k + ": rank " + r).isEqualTo(host[r]);
            if (!k.inPlace()) {
                // Out of place the send buffer is the caller's, read only (partial results go to scratch).
                assertThat(e.inputsAfter()[r]).as(k + ": rank " + r + "'s send buffer").isEqualTo(inputs[r]);
            }
        }
    }

    @Test
    void aSizeMismatchAndASilentPeerAreReportedByTheKernel(@TempDir Path dir) throws Exception {
        Case k = new Case(2, "ring", Protocol.LL, Collective.BROADCAST, DataType.FLOAT32, null, 64, false, 0);
        byte[][] inputs = {new byte[4096], new byte[4096]};
        Emulated mismatch = emulated(k, config(k), r -> r == 1 ? 65L : 64L, inputs, 4096, THREADS, dir.resolve("m"));
        assertThat(mismatch.status()[0]).isNull();
        assertThat(mismatch.status()[1]).contains("remote_error").contains("rank 0 sent 256 bytes")
                .contains("expects 260");
        Case ar = new Case(2, "ring", Protocol.LL128, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 64, false, 0);
        Config quick = config(ar).withTimeout(java.time.Duration.ofSeconds(1));
        Emulated silent = emulated(ar, quick, r -> r == 1 ? -1L : 64L, inputs, 4096, THREADS, dir.resolve("t"));
        assertThat(silent.status()[0]).contains("timeout").contains("waiting for rank 1");
    }

    @Test
    void aGroupOfCollectivesRunsAsOneLaunchPerRank(@TempDir Path dir) throws Exception {
        // three all-reduces and a reduce-scatter of one group, one launch per rank, compared with
        // the host engine running the same group
        int n = 3;
        List<Case> ks = List.of(
                new Case(n, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 3000, false, 0),
                new Case(n, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.MAX, 10, true, 0),
                new Case(n, "ring", Protocol.LL, Collective.REDUCE_SCATTER, DataType.FLOAT32, RedOp.AVG, 700, false, 0),
                new Case(n, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.PROD, 5001, false, 0));
        Config cfg = config(ks.getFirst());
        List<byte[][]> inputs = new ArrayList<>();
        int[] bytes = new int[ks.size()];
        Random rnd = new Random(7);
        for (int op = 0; op < ks.size(); op++) {
            Case k = ks.get(op);
            long elems = Math.max(k.collective().inputCount(k.count(), n, 0, 0), k.collective().outputCount(k.count(), n, 0, 0));
            bytes[op] = (int) k.type().bytes(elems);
            byte[][] in = new byte[n][];
            for (int r = 0; r < n; r++) {
                MemorySegment s = MemorySegment.ofArray(new byte[bytes[op]]);
                CudaCollectivesTest.fill(k.type(), s, elems, rnd);
                in[r] = s.toArray(ValueLayout.JAVA_BYTE);
            }
            inputs.add(in);
        }
        List<byte[][]> host = host(ks, cfg, inputs, bytes);
        List<Emulated> e = emulated(ks, cfg, (op, r) -> ks.get(op).count(), inputs, bytes, THREADS, dir);
        assertThat(Files.readString(dir.resolve("launches")).lines()).hasSize(n)
                .allMatch(l -> l.split(" ")[3].equals("4"), "four operations in each rank's launch");
        for (int op = 0; op < ks.size(); op++) {
            for (int r = 0; r < n; r++) {
                assertThat(e.get(op).status()[r]).isNull();
                assertThat(e.get(op).outputs()[r]).as(ks.get(op) + ": rank " + r).isEqualTo(host.get(op)[r]);
            }
        }
    }

    /** Each rank's receive buffer, its send buffer after the call, and its kernel's failure (null if none). */
    record Emulated(byte[][] outputs, byte[][] inputsAfter, String[] status) {
    }

    private static byte[] recvInit(int bytes) {
        byte[] b = new byte[bytes];
        java.util.Arrays.fill(b, (byte) 0x5A);
        return b;
    }

    private static byte[][] host(Case k, byte[][] inputs, int bytes) {
        return host(List.of(k), config(k), List.<byte[][]>of(inputs), new int[] {bytes}).get(0);
    }

    /** The host engine running {@code ks} as one group per rank. */
    private static List<byte[][]> host(List<Case> ks, Config cfg, List<byte[][]> inputs, int[] bytes) {
        int n = ks.getFirst().n();
        int nops = ks.size();
        Communicator[] comms = Communicator.initAll(n, cfg);
        HostStream[] streams = new HostStream[n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[][] send = new MemorySegment[nops][n];
            MemorySegment[][] recv = new MemorySegment[nops][n];
            for (int r = 0; r < n; r++) {
                streams[r] = new HostStream();
                for (int op = 0; op < nops; op++) {
                    recv[op][r] = arena.allocate(bytes[op], 16).copyFrom(MemorySegment.ofArray(recvInit(bytes[op])));
                    send[op][r] = ks.get(op).inPlace() ? recv[op][r] : arena.allocate(bytes[op], 16);
                    send[op][r].copyFrom(MemorySegment.ofArray(inputs.get(op)[r]));
                }
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                for (int op = 0; op < nops; op++) {
                    issue(comms[r], ks.get(op), send[op][r], recv[op][r], streams[r]);
                }
            }
            Group.end();
            List<byte[][]> outs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                streams[r].synchronize();
            }
            for (int op = 0; op < nops; op++) {
                byte[][] out = new byte[n][];
                for (int r = 0; r < n; r++) {
                    out[r] = recv[op][r].toArray(ValueLayout.JAVA_BYTE);
                }
                outs.add(out);
            }
            return outs;
        } finally {
            for (int r = 0; r < n; r++) {
                comms[r].close();
                if (streams[r] != null) {
                    streams[r].close();
                }
            }
        }
    }

    private static void issue(Communicator c, Case k, MemorySegment send, MemorySegment recv, io.jccl.Stream s) {
        long count = k.count();
        switch (k.collective()) {
            case ALL_REDUCE -> c.allReduce(send, recv, count, k.type(), k.op(), s);
            case BROADCAST -> c.broadcast(send, recv, count, k.type(), k.root(), s);
            case REDUCE -> c.reduce(send, recv, count, k.type(), k.op(), k.root(), s);
            case ALL_GATHER -> c.allGather(send, recv, count, k.type(), s);
            case REDUCE_SCATTER -> c.reduceScatter(send, recv, count, k.type(), k.op(), s);
            case ALL_TO_ALL -> c.allToAll(send, recv, count, k.type(), s);
            case GATHER -> c.gather(send, recv, count, k.type(), k.root(), s);
            case SCATTER -> c.scatter(send, recv, count, k.type(), k.root(), s);
            default -> throw new AssertionError(k.collective());
        }
    }

    /** A bump allocator over the arena file: device addresses are BASE + offset. */
    private static final class Space {
        long used;

        long take(long bytes) {
            long at = (used + 255) & ~255L;
            used = at + bytes;
            return at;
        }
    }

    /**
     * Runs rank r's call of {@code counts.apply(r)} elements (a negative count: rank r makes no call)
     * on blocks of {@code threads}.
     */
    private static Emulated emulated(Case k, Config cfg, java.util.function.IntFunction<Long> counts, byte[][] inputs,
                                     int bytes, int threads, Path dir) throws Exception {
        return emulated(List.of(k), cfg, (op, r) -> counts.apply(r), List.<byte[][]>of(inputs), new int[] {bytes}, threads, dir)
                .get(0);
    }

    /**
     * Runs the operations {@code ks} (one group: the same ranks, protocol and type) as one launch per
     * rank, as the engine batches a group; one result per operation.
     */
    private static List<Emulated> emulated(List<Case> ks, Config cfg, java.util.function.BiFunction<Integer, Integer, Long> counts,
                                           List<byte[][]> inputs, int[] bytes, int threads, Path dir) throws Exception {
        Files.createDirectories(dir);
        Case k0 = ks.getFirst();
        int n = k0.n();
        int nops = ks.size();
        Tuner tuner = Tuner.create(cfg, n, 1);
        Space space = new Space();
        long abort = space.take(64);
        long[] status = new long[n];
        long[] claim = new long[n];
        long[][] send = new long[nops][n];
        long[][] recv = new long[nops][n];
        for (int r = 0; r < n; r++) {
            status[r] = space.take(WorkLayout.STATUS.byteSize());
            claim[r] = space.take(16);
            for (int op = 0; op < nops; op++) {
                recv[op][r] = space.take(bytes[op]);
                send[op][r] = ks.get(op).inPlace() ? recv[op][r] : space.take(bytes[op]);
            }
        }
        Map<String, Long> fifos = new HashMap<>();
        List<byte[]> descs = new ArrayList<>();
        List<Long> descAt = new ArrayList<>();
        StringBuilder launches = new StringBuilder();
        for (int r = 0; r < n; r++) {
            List<Long> works = new ArrayList<>();
            int blocks = 0;
            Protocol proto = null;
            for (int op = 0; op < nops; op++) {
                Case k = ks.get(op);
                long count = counts.apply(op, r);
                if (count < 0) {
                    continue;
                }
                CollectiveArgs a = new CollectiveArgs(k.collective(), null, null, count, k.type(), k.op(), k.root());
                Planner.Planned planned = Planner.make(tuner, cfg, n, CudaTuning.fit(n, () -> Integer.MAX_VALUE), Planner.CallKey.of(a), r);
                Plan plan = planned.plan();
                Protocol p = planned.choice().protocol();
                assertThat(p).isEqualTo(k.protocol());
                if (plan.tiles(r) == 0) {
                    continue;
                }
                proto = p;
                long slot = p.slotBytes(p.buffSize(cfg));
                long perLane = p == Protocol.SIMPLE ? 0
                        : (WorkLayout.MAX_LINKS + 1) * ((p.maxMessageBytes(p.buffSize(cfg)) + 15) & ~15L);
                long scratch = space.take(Math.max(16, perLane * plan.lanes()));
                int rank = r;
                int redop = k.collective().reduces() ? k.op().kind().ordinal() : WorkLayout.OP_NONE;
                WorkPacker.Launch l = new WorkPacker.Launch(CudaTuning.kernelProtocol(p), k.type().size(), redop,
                        DeviceScalars.bits(k.type(), k.op()), n, r, new long[] {BASE + send[op][r]},
                        new long[] {BASE + recv[op][r]}, slot, BASE + scratch, perLane, BASE + status[r], BASE + claim[r],
                        BASE + abort, cfg.timeout().toNanos(),
                        plan.scratch() > 0 ? BASE + space.take(plan.scratch() * k.type().size()) : 0);
                WorkPacker.Fifos where = c -> {
                    int from = c.sending() ? rank : c.peer();
                    int to = c.sending() ? c.peer() : rank;
                    return BASE + fifos.computeIfAbsent(p + "/" + c.channel() + "/" + from + "/" + to,
                            x -> space.take(WorkLayout.FIFO_SLOTS + WorkLayout.STEPS * slot));
                };
                try (Arena a2 = Arena.ofConfined()) {
                    long size = WorkPacker.pack(plan, r, l, where, 0, a2).bytes().byteSize();
                    long at = space.take(size);
                    descs.add(WorkPacker.pack(plan, r, l, where, BASE + at, a2).bytes().toArray(ValueLayout.JAVA_BYTE));
                    descAt.add(at);
                    works.add(BASE + at);
                    blocks = Math.max(blocks, CudaTuning.blocks(plan));
                }
            }
            if (works.isEmpty()) {
                continue;
            }
            launches.append(Kernels.entry(CudaTuning.kernelProtocol(proto), k0.type().ordinal())).append(' ').append(blocks)
                    .append(' ').append(threads).append(' ').append(works.size());
            for (long w : works) {
                launches.append(' ').append(Long.toHexString(w));
            }
            launches.append('\n');
        }
        long total = (space.used + 4095) & ~4095L;
        Path file = dir.resolve("arena");
        Path list = dir.resolve("launches");
        Files.writeString(list, launches.toString());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, total, arena);
            for (int op = 0; op < nops; op++) {
                for (int r = 0; r < n; r++) {
                    m.asSlice(recv[op][r], bytes[op]).copyFrom(MemorySegment.ofArray(recvInit(bytes[op])));
                    m.asSlice(send[op][r], bytes[op]).copyFrom(MemorySegment.ofArray(inputs.get(op)[r]));
                }
            }
            for (int i = 0; i < descs.size(); i++) {
                m.asSlice(descAt.get(i), descs.get(i).length).copyFrom(MemorySegment.ofArray(descs.get(i)));
            }
            if (k0.startSeq() > 0) {
                for (Map.Entry<String, Long> f : fifos.entrySet()) {
                    Protocol p = Protocol.valueOf(f.getKey().substring(0, f.getKey().indexOf('/')));
                    carried(m.asSlice(f.getValue()), p, p.slotBytes(p.buffSize(cfg)), k0.startSeq());
                }
            }
            m.force();
            ProcessBuilder pb = new ProcessBuilder(emulator.toString(), file.toString(), "0x" + Long.toHexString(BASE),
                    Long.toString(total), list.toString()).redirectErrorStream(true);
            // A team stuck at a barrier aborts naming it, before the wait below gives up without a word.
            pb.environment().put("JCCL_EMU_BARRIER_LIMIT_S", "100");
            Process p = pb.start();
            boolean done = p.waitFor(120, TimeUnit.SECONDS);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!done) {
                p.destroyForcibly();
                fail(ks + ": the emulated kernels did not finish in 120 s");
            }
            assertThat(p.exitValue()).as(ks + ": " + out).isZero();
            String[] failures = new String[n];
            for (int r = 0; r < n; r++) {
                MemorySegment st = m.asSlice(status[r], WorkLayout.STATUS.byteSize());
                if (st.get(ValueLayout.JAVA_INT, 0) != WorkLayout.STATUS_OK) {
                    failures[r] = StatusReport.exception(r, st, cfg.timeout()).getMessage();
                }
            }
            List<Emulated> results = new ArrayList<>();
            for (int op = 0; op < nops; op++) {
                byte[][] result = new byte[n][];
                byte[][] inputsAfter = new byte[n][];
                for (int r = 0; r < n; r++) {
                    result[r] = m.asSlice(recv[op][r], bytes[op]).toArray(ValueLayout.JAVA_BYTE);
                    inputsAfter[r] = m.asSlice(send[op][r], bytes[op]).toArray(ValueLayout.JAVA_BYTE);
                }
                results.add(new Emulated(result, inputsAfter, failures));
            }
            return results;
        }
    }

    /**
     * A FIFO as it is after {@code seq} messages: both counters at {@code seq}, and every slot's line
     * flags those of the last message that used it (LL: 32-bit sequence + 1, wrapped; LL128:
     * 64-bit), as a long-lived connection leaves them.
     */
    private static void carried(MemorySegment fifo, Protocol p, long slotBytes, long seq) {
        fifo.set(ValueLayout.JAVA_LONG, WorkLayout.FIFO_HEAD, seq);
        fifo.set(ValueLayout.JAVA_LONG, WorkLayout.FIFO_TAIL, seq);
        if (p == Protocol.SIMPLE) {
            return;
        }
        for (int s = 0; s < WorkLayout.STEPS; s++) {
            long last = seq - 1 - Math.floorMod(seq - 1 - s, WorkLayout.STEPS);
            MemorySegment slot = fifo.asSlice(WorkLayout.FIFO_SLOTS + s * slotBytes, slotBytes);
            for (long line = 0; line < slotBytes / p.lineBytes(); line++) {
                if (p == Protocol.LL) {
                    int flag = (int) (last + 1);
                    slot.set(ValueLayout.JAVA_INT, line * 16 + 4, flag);
                    slot.set(ValueLayout.JAVA_INT, line * 16 + 12, flag);
                } else {
                    slot.set(ValueLayout.JAVA_LONG, line * 128 + 120, last + 1);
                }
            }
        }
    }
}
