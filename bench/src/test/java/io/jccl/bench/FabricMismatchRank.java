// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One rank of {@link NamespaceMismatchTest}: from the launcher's environment, one all-reduce all
 * ranks agree on (so that they meet), then a call in which they differ by {@code args[0]}: rank 1
 * makes another collective, count, type or operation, or (root) rank 0 takes rank 1 for the
 * broadcast's root where the others take rank 0. Prints {@code failed after N ms: } and the
 * error and exits 3, or {@code returned} and exits 0.
 */
public final class FabricMismatchRank {
    private static final long COUNT = 1024;

    private FabricMismatchRank() {
    }

    public static void main(String[] args) {
        String kind = args[0];
        try (Communicator c = Communicator.fromEnvironment(); Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment a = arena.allocate(COUNT * 4);
            MemorySegment b = arena.allocate(COUNT * 4);
            c.allReduce(a, b, COUNT, DataType.FLOAT32, RedOp.SUM, s);
            s.synchronize();
            boolean odd = c.rank() == 1;
            long t0 = System.nanoTime();
            try {
                switch (kind) {
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
                    default -> throw new IllegalArgumentException(kind);
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
    }
}
