// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A rank of a job whose ranks make different calls, after one all-reduce they agree on (so that
 * they meet): by {@code args[0]}, rank 1 makes another collective (a reduce to itself), count, type
 * (int32 where the others use float32: the same bytes) or operation, or (root) rank 0 takes rank 1
 * for a broadcast's root where the others take rank 0. Prints {@code failed after N ms: } and its
 * error and exits 3, or {@code returned} and exits 0.
 */
public final class MismatchRank {
    private static final long COUNT = 1024;

    private MismatchRank() {
    }

    public static void main(String[] args) {
        Communicator c = Communicator.fromEnvironment();
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment a = arena.allocate(COUNT * 4);
            MemorySegment b = arena.allocate(COUNT * 4);
            c.allReduce(a, b, COUNT, DataType.FLOAT32, RedOp.SUM, s);
            s.synchronize();
            boolean odd = c.rank() == 1;
            long t0 = System.nanoTime();
            try {
                switch (args[0]) {
                    case "collective" -> {
                        if (odd) {
                            c.reduce(a, b, COUNT, DataType.FLOAT32, RedOp.SUM, 1, s);
                        } else {
                            c.allReduce(a, b, COUNT, DataType.FLOAT32, RedOp.SUM, s);
                        }
                    }
                    case "count" -> c.allReduce(a, b, odd ? COUNT / 2 : COUNT, DataType.FLOAT32, RedOp.SUM, s);
                    case "type" -> c.allReduce(a, b, COUNT, odd ? DataType.INT32 : DataType.FLOAT32, RedOp.SUM, s);
                    case "op" -> c.allReduce(a, b, COUNT, DataType.FLOAT32, odd ? RedOp.MAX : RedOp.SUM, s);
                    case "root" -> c.broadcast(a, b, COUNT, DataType.FLOAT32, c.rank() == 0 ? 1 : 0, s);
                    default -> throw new IllegalArgumentException(args[0]);
                }
                s.synchronize();
                System.out.println("returned");
            } catch (RuntimeException e) {
                System.out.println("failed after " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + e);
                System.out.flush();
                c.abort();
                System.exit(3);
            }
        }
        c.close();
    }
}
