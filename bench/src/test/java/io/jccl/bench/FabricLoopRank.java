// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One rank of {@link DroppedLinkTest}: checked all-reduces from the launcher's environment until
 * one fails. Prints {@code looping} once 20 passed; on failure prints {@code failed: } and the
 * error at once and exits 3; a wrong element exits 4.
 */
public final class FabricLoopRank {
    private FabricLoopRank() {
    }

    public static void main(String[] args) {
        int n = 4096;
        try (Communicator c = Communicator.fromEnvironment(); Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(n * 4L);
            for (long k = 0; ; k++) {
                for (int i = 0; i < n; i++) {
                    buf.setAtIndex(ValueLayout.JAVA_INT, i, (int) (c.rank() + i + k));
                }
                try {
                    c.allReduce(buf, buf, n, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                } catch (RuntimeException e) {
                    System.out.println("failed: " + e);
                    System.out.flush();
                    System.exit(3);
                }
                for (int i = 0; i < n; i++) {
                    long want = (long) c.size() * (i + k) + (long) c.size() * (c.size() - 1) / 2;
                    if (buf.getAtIndex(ValueLayout.JAVA_INT, i) != (int) want) {
                        System.out.println("wrong: element " + i + " of call " + k);
                        System.exit(4);
                    }
                }
                if (k == 20) {
                    System.out.println("looping");
                    System.out.flush();
                }
            }
        }
    }
}
