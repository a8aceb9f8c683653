// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;
import io.jccl.transport.net.IbFake;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A rank of {@link IbPeerKillTest} on the fake libibverbs: all-reduces of {@code COUNT} int32
 * elements (the first argument) from the launcher's environment, in place, until one fails,
 * checking the first call's result. Prints {@code looping} once the first call passed; on failure
 * prints {@code failed: } and the exception at once (the line's time is the failure's), then
 * closes the communicator ({@code abort} as second argument: aborts it), prints
 * {@code closed in MS ms} and the fake's live verbs objects ({@code live qp=0 mr=0 ...}) and exits
 * 3. A wrong element exits 4.
 */
public final class IbKillRank {
    private IbKillRank() {
    }

    public static void main(String[] args) {
        long count = Long.parseLong(args[0]);
        boolean abort = args.length > 1 && args[1].equals("abort");
        Communicator comm = Communicator.fromEnvironment();
        int rank = comm.rank();
        int n = comm.size();
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(count * 4, 4096);
            for (long i = 0; ; i++) {
                if (i == 0) {
                    for (long k = 0; k < count; k++) {
                        buf.setAtIndex(ValueLayout.JAVA_INT, k, (int) (rank * 1_000_003L + k * 7 + 1));
                    }
                }
                try {
                    comm.allReduce(buf, buf, count, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                } catch (RuntimeException e) {
                    System.out.println("failed: " + e);
                    System.out.flush();
                    long start = System.nanoTime();
                    if (abort) {
                        comm.abort();
                    } else {
                        comm.close();
                    }
                    System.out.println("closed in " + (System.nanoTime() - start) / 1_000_000 + " ms");
                    System.out.println("live " + IbFake.live());
                    System.out.flush();
                    System.exit(3);
                }
                if (i == 0) {
                    for (long k = 0; k < count; k++) {
                        long want = 0;
                        for (int r = 0; r < n; r++) {
                            want += r * 1_000_003L + k * 7 + 1;
                        }
                        if (buf.getAtIndex(ValueLayout.JAVA_INT, k) != (int) want) {
                            System.out.println("wrong: element " + k + " of " + count);
                            System.out.flush();
                            System.exit(4);
                        }
                    }
                    System.out.println("looping");
                    System.out.flush();
                }
            }
        }
    }
}
