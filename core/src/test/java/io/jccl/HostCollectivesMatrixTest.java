// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.proto.Protocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The host engine's correctness matrix: every collective x data type x reduction x rank count x
 * count x in-place/out-of-place x algorithm, on random inputs (the seed is printed; set it with
 * -Djccl.test.seed). Integers and copies are checked exactly, floats within {@link Elements#tolerance}.
 * All ranks of an all-reduce must agree bitwise, and a second run on the same inputs must give the
 * same bits. By default every value of every dimension appears in a rotating sample; -Pfull runs
 * the whole product.
 */
class HostCollectivesMatrixTest {
    static final long SEED = Long.getLong("jccl.test.seed", System.nanoTime());
    private static final boolean FULL = Boolean.getBoolean("jccl.test.full");
    private static final int[] RANKS = {1, 2, 3, 4, 5, 8};
    private static final long[] COUNTS = {0, 1, 7, 1000, 1_048_579};
    /** The sampled matrix's usual large count: past the 32 KiB chunk of a 256 KiB buffer for every type. */
    private static final long SAMPLED_LARGE = 262_147;
    private static final RedOp[] OPS = {RedOp.SUM, RedOp.PROD, RedOp.MIN, RedOp.MAX, RedOp.AVG, null};
    private static final Harness HARNESS = new Harness(Config.defaults().withBuffSize(256 << 10));

    static {
        System.out.println("HostCollectivesMatrixTest seed " + SEED + (FULL ? " (full matrix)" : " (sampled)"));
    }

    /** One call; {@code servers} > 1 splits the n ranks into that many emulated servers (per-rank JCCL_HOSTID). */
    record Case(Collective coll, DataType type, RedOp op, int n, long count, boolean inPlace, Algorithm algo, Protocol proto,
                int channels, int root, int servers) {
        Case(Collective coll, DataType type, RedOp op, int n, long count, boolean inPlace, Algorithm algo, Protocol proto,
             int channels, int root) {
            this(coll, type, op, n, count, inPlace, algo, proto, channels, root, 1);
        }

        @Override
        public String toString() {
            return coll.cliName() + " " + type.name().toLowerCase() + (op == null ? "" : " " + op) + " n=" + n
                    + (servers > 1 ? " (" + servers + "x" + n / servers + ")" : "") + " count="
                    + count + (inPlace ? " in-place" : "") + " " + algo.id() + "/" + proto.id() + " ch=" + channels
                    + (coll.rooted() ? " root=" + root : "");
        }
    }

    /** The algorithms of this matrix; those laid on servers, and the recursive ones, have HierarchicalMatrixTest. */
    private static final java.util.Set<Algorithm> ALGORITHMS =
            java.util.EnumSet.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE, Algorithm.DIRECT);

    static RedOp op(int i, DataType t) {
        RedOp o = OPS[i % OPS.length];
        return o != null ? o : RedOp.preMulSum(t.isFloatingPoint() ? 0.5 : 3);
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        Random rnd = new Random(SEED);
        int k = 0;
        for (Collective c : Collective.values()) {
            if (c == Collective.SEND_RECV) {
                continue;
            }
            for (DataType t : DataType.values()) {
                int ops = c.reduces() ? OPS.length : 1;
                for (int o = 0; o < ops; o++) {
                    RedOp op = c.reduces() ? op(o, t) : null;
                    for (Algorithm a : Algorithms.supported(c)) {
                        if (!ALGORITHMS.contains(a)) {
                            continue;
                        }
                        for (Protocol p : Protocol.values()) {
                            if (FULL) {
                                for (int n : RANKS) {
                                    for (long count : COUNTS) {
                                        for (boolean ip : inPlaceChoices(c)) {
                                            cases.add(new Case(c, t, op, n, count, ip, a, p, 1 + rnd.nextInt(2), rnd.nextInt(n)));
                                        }
                                    }
                                }
                            } else {
                                // Rotate through every rank count, count and in-place choice. Counts
                                // past one slot's chunk only for some cases, to keep the run short:
                                // a quarter million elements (several chunks and turns of the slots
                                // at every type's size), and a third of those the full million.
                                k++;
                                int n = RANKS[k % RANKS.length];
                                long count = COUNTS[k % 4];
                                if (k % 23 == 0) {
                                    count = k % 69 == 0 ? COUNTS[4] : SAMPLED_LARGE;
                                }
                                boolean[] ip = inPlaceChoices(c);
                                cases.add(new Case(c, t, op, n, count, ip[(k / 3) % ip.length], a, p, 1 + (k / 5) % 2,
                                        rnd.nextInt(n)));
                            }
                        }
                    }
                }
            }
        }
        return cases;
    }

    static boolean[] inPlaceChoices(Collective c) {
        return c == Collective.ALL_TO_ALL ? new boolean[] {false} : new boolean[] {false, true};
    }

    @TestFactory
    List<DynamicTest> matrix() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> run(c))).toList();
    }

    @AfterAll
    static void close() {
        HARNESS.close();
    }

    private static void run(Case k) {
        run(HARNESS, k);
    }

    /** Runs one case twice on the harness's ranks and checks the results (and that all ranks agree bitwise). */
    static void run(Harness harness, Case k) {
        int n = k.n;
        Communicator[] comms = harness.comms(n, k.algo.id(), k.proto, k.channels, k.servers);
        HostStream[] streams = harness.streams(n);
        long es = k.type.size();
        Random rnd = new Random(SEED ^ k.toString().hashCode());
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] send = new MemorySegment[n];
            MemorySegment[] recv = new MemorySegment[n];
            MemorySegment[] original = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                long in = k.coll.inputCount(k.count, n, r, k.root);
                long out = k.coll.outputCount(k.count, n, r, k.root);
                // Every rank gets a full input so the reference can read it; only what the call
                // uses matters.
                long inAlloc = Math.max(in, k.coll == Collective.BROADCAST || k.coll == Collective.SCATTER
                        ? k.coll.inputCount(k.count, n, k.root, k.root) : in);
                original[r] = arena.allocate(Math.max(1, inAlloc * es), 8);
                Elements.fillRandom(k.type, original[r], inAlloc, rnd);
                layout(k, r, n, arena, original[r], inAlloc, out, send, recv);
            }
            runOnce(k, comms, streams, send, recv, original);
            check(k, send, recv, original);
            byte[][] first = new byte[n][];
            for (int r = 0; r < n; r++) {
                first[r] = recv[r] == null ? new byte[0] : Harness.bytes(recv[r], k.coll.outputCount(k.count, n, r, k.root) * es);
            }
            if (k.coll == Collective.ALL_REDUCE) {
                for (int r = 1; r < n; r++) {
                    assertThat(first[r]).as("rank %d differs from rank 0 (seed %d)", r, SEED).isEqualTo(first[0]);
                }
            }
            // Same inputs again: the same bits.
            for (int r = 0; r < n; r++) {
                restoreInput(k, r, n, send, original);
                if (recv[r] != null && !k.inPlace) {
                    recv[r].fill((byte) 0x5A);
                }
            }
            runOnce(k, comms, streams, send, recv, original);
            for (int r = 0; r < n; r++) {
                byte[] again = recv[r] == null ? new byte[0] : Harness.bytes(recv[r], k.coll.outputCount(k.count, n, r, k.root) * es);
                assertThat(again).as("rank %d: second run differs (seed %d)", r, SEED).isEqualTo(first[r]);
            }
        }
    }

    /** Allocates the call's buffers, aliased in NCCL's in-place forms, and copies the input in. */
    private static void layout(Case k, int r, int n, Arena arena, MemorySegment orig, long inAlloc, long out,
                               MemorySegment[] send, MemorySegment[] recv) {
        long es = k.type.size();
        long block = k.count * es;
        long in = k.coll.inputCount(k.count, n, r, k.root);
        boolean root = r == k.root;
        if (!k.inPlace) {
            send[r] = arena.allocate(Math.max(1, inAlloc * es), 8);
            send[r].copyFrom(orig);
            recv[r] = out == 0 ? null : arena.allocate(out * es, 8);
            if (recv[r] != null) {
                recv[r].fill((byte) 0x5A);
            }
            if (in == 0 && k.coll == Collective.BROADCAST) {
                send[r] = null;
            }
            return;
        }
        switch (k.coll) {
            case ALL_GATHER -> {
                recv[r] = arena.allocate(Math.max(1, out * es), 8);
                send[r] = recv[r].asSlice(r * block, block);
            }
            case GATHER -> {
                if (root) {
                    recv[r] = arena.allocate(Math.max(1, out * es), 8);
                    send[r] = recv[r].asSlice(r * block, block);
                } else {
                    send[r] = arena.allocate(Math.max(1, in * es), 8);
                }
            }
            case REDUCE_SCATTER -> {
                send[r] = arena.allocate(Math.max(1, in * es), 8);
                recv[r] = send[r].asSlice(r * block, block);
            }
            case SCATTER -> {
                if (root) {
                    send[r] = arena.allocate(Math.max(1, in * es), 8);
                    recv[r] = send[r].asSlice(r * block, block);
                } else {
                    recv[r] = arena.allocate(Math.max(1, out * es), 8);
                }
            }
            default -> {
                send[r] = arena.allocate(Math.max(1, Math.max(inAlloc, out) * es), 8);
                recv[r] = send[r];
            }
        }
        restoreInput(k, r, n, send, new MemorySegment[] {orig}, 0);
    }

    private static void restoreInput(Case k, int r, int n, MemorySegment[] send, MemorySegment[] original) {
        restoreInput(k, r, n, send, original, r);
    }

    private static void restoreInput(Case k, int r, int n, MemorySegment[] send, MemorySegment[] original, int from) {
        if (send[r] == null) {
            return;
        }
        long bytes = Math.min(send[r].byteSize(), original[from].byteSize());
        MemorySegment.copy(original[from], 0, send[r], 0, bytes);
    }

    private static void runOnce(Case k, Communicator[] comms, HostStream[] streams, MemorySegment[] send, MemorySegment[] recv,
                                MemorySegment[] original) {
        Harness.runAll(k.n, streams, r -> {
            Communicator c = comms[r];
            switch (k.coll) {
                case ALL_REDUCE -> c.allReduce(send[r], recv[r], k.count, k.type, k.op, streams[r]);
                case BROADCAST -> c.broadcast(send[r], recv[r], k.count, k.type, k.root, streams[r]);
                case REDUCE -> c.reduce(send[r], recv[r], k.count, k.type, k.op, k.root, streams[r]);
                case ALL_GATHER -> c.allGather(send[r], recv[r], k.count, k.type, streams[r]);
                case REDUCE_SCATTER -> c.reduceScatter(send[r], recv[r], k.count, k.type, k.op, streams[r]);
                case ALL_TO_ALL -> c.allToAll(send[r], recv[r], k.count, k.type, streams[r]);
                case GATHER -> c.gather(send[r], recv[r], k.count, k.type, k.root, streams[r]);
                case SCATTER -> c.scatter(send[r], recv[r], k.count, k.type, k.root, streams[r]);
                case SEND_RECV -> throw new IllegalStateException();
            }
        });
    }

    private static void check(Case k, MemorySegment[] send, MemorySegment[] recv, MemorySegment[] in) {
        int n = k.n;
        long c = k.count;
        for (int r = 0; r < n; r++) {
            MemorySegment out = recv[r];
            switch (k.coll) {
                case ALL_REDUCE -> checkReduced(k, r, out, 0, in, 0, c);
                case REDUCE -> {
                    if (r == k.root) {
                        checkReduced(k, r, out, 0, in, 0, c);
                    } else if (k.inPlace) {
                        checkCopy(k, r, send[r], 0, in[r], 0, c, "non-root input");
                    }
                }
                case REDUCE_SCATTER -> checkReduced(k, r, out, 0, in, r * c, c);
                case BROADCAST -> checkCopy(k, r, out, 0, in[k.root], 0, c, "broadcast");
                case ALL_GATHER -> {
                    for (int b = 0; b < n; b++) {
                        checkCopy(k, r, out, b * c, in[b], 0, c, "block " + b);
                    }
                }
                case ALL_TO_ALL -> {
                    for (int b = 0; b < n; b++) {
                        checkCopy(k, r, out, b * c, in[b], r * c, c, "block " + b);
                    }
                }
                case GATHER -> {
                    if (r == k.root) {
                        for (int b = 0; b < n; b++) {
                            checkCopy(k, r, out, b * c, in[b], 0, c, "block " + b);
                        }
                    }
                }
                case SCATTER -> checkCopy(k, r, out, 0, in[k.root], r * c, c, "scatter");
                case SEND_RECV -> throw new IllegalStateException();
            }
        }
    }

    private static void checkCopy(Case k, int r, MemorySegment out, long outAt, MemorySegment src, long srcAt, long count,
                                  String what) {
        long es = k.type.size();
        if (count == 0) {
            return;
        }
        byte[] got = out.asSlice(outAt * es, count * es).toArray(ValueLayout.JAVA_BYTE);
        byte[] want = src.asSlice(srcAt * es, count * es).toArray(ValueLayout.JAVA_BYTE);
        if (!Arrays.equals(got, want)) {
            int i = Arrays.mismatch(got, want);
            fail("%s: rank %d %s differs at byte %d (element %d): got %d want %d (seed %d)", k, r, what, i, i / es, got[i],
                    want[i], SEED);
        }
    }

    private static void checkReduced(Case k, int r, MemorySegment out, long outAt, MemorySegment[] in, long inAt, long count) {
        int n = k.n;
        DataType t = k.type;
        if (t.isFloatingPoint()) {
            double[] xs = new double[n];
            for (long i = 0; i < count; i++) {
                for (int s = 0; s < n; s++) {
                    xs[s] = Elements.getDouble(t, in[s], inAt + i);
                }
                double exact = Elements.reduceDouble(k.op, xs, t);
                double got = Elements.getDouble(t, out, outAt + i);
                double tol = Elements.tolerance(t, k.op, xs, exact);
                if (!(Math.abs(got - exact) <= tol)) {
                    fail("%s: rank %d element %d = %s, expected %s within %s; inputs %s (seed %d)", k, r, i, got, exact, tol,
                            Arrays.toString(xs), SEED);
                }
            }
        } else {
            long[] xs = new long[n];
            for (long i = 0; i < count; i++) {
                for (int s = 0; s < n; s++) {
                    xs[s] = Elements.getLong(t, in[s], inAt + i);
                }
                long want = Elements.reduceInt(t, k.op, xs);
                long got = Elements.getLong(t, out, outAt + i);
                if (got != want) {
                    fail("%s: rank %d element %d = %d, expected %d; inputs %s (seed %d)", k, r, i, got, want, Arrays.toString(xs), SEED);
                }
            }
        }
    }
}
