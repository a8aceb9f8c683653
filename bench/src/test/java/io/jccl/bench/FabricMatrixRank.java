// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.bootstrap.Launch;
import io.jccl.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One rank of {@link NamespaceHostsTest}, in a namespace of a {@link Fabric}: bootstraps once from
 * the launcher's (torchrun-style) environment, then for each protocol makes a communicator through
 * that bootstrap with rank 0 forcing the protocol, and runs a sample of the correctness matrix
 * (collectives × types and operations × counts × in place and out of place), each result checked
 * exactly with the perf sweep's {@link DataCheck}. The sample rotates with {@code args[0]} (a
 * seed), so different layouts cover different cases; with {@code args[1]} = {@code every}, every
 * collective in both forms runs at every size of {@link #EVERY_BYTES} in each protocol (types,
 * operations and roots still rotate). Prints {@code ok N cases} and exits 0, or prints the first
 * failure and exits 2.
 */
public final class FabricMatrixRank {
    private static final Collective[] COLLECTIVES = Collective.values();
    private static final DataType[] TYPES = {DataType.INT32, DataType.FLOAT32, DataType.INT64, DataType.FLOAT64, DataType.UINT8,
        DataType.BFLOAT16};
    private static final RedOp[] OPS = {RedOp.SUM, RedOp.MAX, RedOp.MIN, RedOp.PROD, RedOp.AVG};
    /**
     * Bytes per case: one element, a few lines, enough that a message spans several 64 KiB socket
     * chunks and more than one Simple slot, and (in {@code every} mode) an odd size above the
     * by-reference threshold spanning several slots of every protocol.
     */
    private static final long[] BYTES = {16, 4000, 600_000};
    private static final long[] EVERY_BYTES = {16, 4000, 600_000, 2_100_008};
    private static final String[] PROTOCOLS = {"LL", "LL128", "Simple"};

    private FabricMatrixRank() {
    }

    public static void main(String[] args) {
        int seed = Integer.parseInt(args[0]);
        boolean every = args.length > 1 && args[1].equals("every");
        int cases = 0;
        try (Bootstrap b = Launch.bootstrap(System.getenv(), Config.fromEnvironment(), Set.of())) {
            for (int p = 0; p < PROTOCOLS.length; p++) {
                try (Communicator comm = Communicator.init(b, Config.fromEnvironment().withProtocols(PROTOCOLS[p]));
                     Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                    for (Case c : every ? every(seed + p) : sample(seed + p)) {
                        run(comm, c, arena, s);
                        cases++;
                    }
                }
            }
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(2);
        }
        System.out.println("ok " + cases + " cases");
        System.exit(0);
    }

    record Case(Collective collective, DataType type, RedOp op, long bytes, boolean inPlace, int root) {
    }

    /** Every collective in both forms, each with a type, operation, size and root rotating with the seed. */
    static List<Case> sample(int seed) {
        List<Case> out = new ArrayList<>();
        int k = seed * 7;
        for (Collective c : COLLECTIVES) {
            for (boolean inPlace : CollectiveCall.hasInPlace(c) ? new boolean[] {false, true} : new boolean[] {false}) {
                k++;
                out.add(new Case(c, TYPES[k % TYPES.length], OPS[(k / 2) % OPS.length], BYTES[(k / 3) % BYTES.length], inPlace,
                        k % 3));
            }
        }
        return out;
    }

    /** Every collective in both forms at every size of {@link #EVERY_BYTES}, type, operation and root rotating with the seed. */
    static List<Case> every(int seed) {
        List<Case> out = new ArrayList<>();
        int k = seed * 7;
        for (long bytes : EVERY_BYTES) {
            for (Case c : sample(k++)) {
                out.add(new Case(c.collective(), c.type(), c.op(), bytes, c.inPlace(), c.root()));
            }
        }
        return out;
    }

    private static void run(Communicator comm, Case c, Arena arena, HostStream s) {
        int n = comm.size();
        int root = c.root() % n;
        PerfSizes sizes = PerfSizes.of(c.collective(), c.type(), n, c.bytes());
        MemorySegment send = arena.allocate(Math.max(16, sizes.bytes()), 64);
        MemorySegment recv = arena.allocate(Math.max(16, sizes.bytes()), 64);
        CollectiveCall call = CollectiveCall.of(comm, sizes, c.op(), root, c.inPlace(), send, recv);
        DataCheck check = new DataCheck(c.collective(), c.type(), c.op(), n, root, sizes.count());
        DataCheck.poison(c.inPlace() ? recv : call.output());
        check.fillInput(comm.rank(), call.input(), call.input().byteSize() / c.type().size());
        call.issue(s);
        s.synchronize();
        long wrong = check.countWrong(comm.rank(), call.output());
        if (wrong != 0) {
            throw new AssertionError("rank " + comm.rank() + ": " + c + " with protocol " + comm.choiceFor(c.collective(),
                    sizes.count(), c.type()).protocol() + ": " + wrong + " wrong element(s)");
        }
    }
}
