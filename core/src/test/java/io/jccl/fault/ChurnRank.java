// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A rank of a job under fault injection ({@link RankProcesses}): all-reduces from the launcher's
 * environment until one fails, cycling through sizes that take every path of the protocol rank 0
 * forces (one line, several slots, Simple's by-reference and single-copy messages from 64 KiB),
 * out of place and in place, every result checked. Prints {@code looping} once a whole cycle
 * passed; on failure prints {@code failed: } and the exception at once (before closing, so the
 * line's time is the failure's), then closes and exits 3. A wrong element exits 4. With the
 * argument {@code shrink} it goes on after a failure instead: {@link Communicator#shrink()} of the
 * ranks still alive, 20 checked all-reduces on the new communicator, {@code shrunk: rank r of n},
 * exit 0 (a shrink that fails prints {@code shrink failed: } and exits 5).
 */
public final class ChurnRank {
    /** Elements per call: a line, a few slots, by reference (96 KiB), many slots (1 MiB). */
    private static final long[] COUNTS = {1, 1000, 24_576, 262_144};

    private ChurnRank() {
    }

    public static void main(String[] args) {
        Communicator comm = Communicator.fromEnvironment();
        int rank = comm.rank();
        int n = comm.size();
        long max = COUNTS[COUNTS.length - 1];
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment in = arena.allocate(max * 4);
            MemorySegment out = arena.allocate(max * 4);
            for (long i = 0; ; i++) {
                long count = COUNTS[(int) (i % COUNTS.length)];
                boolean inPlace = (i / COUNTS.length) % 2 == 1;
                fill(in, count, rank);
                try {
                    comm.allReduce(in, inPlace ? in : out, count, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                } catch (RuntimeException e) {
                    System.out.println("failed: " + e);
                    System.out.flush();
                    if (args.length > 0 && args[0].equals("shrink")) {
                        goOn(comm, arena);
                    }
                    comm.close();
                    System.exit(3);
                }
                check(inPlace ? in : out, count, n, i);
                if (i == COUNTS.length * 2 - 1) {
                    System.out.println("looping");
                    System.out.flush();
                }
            }
        }
    }

    /** Shrinks to the ranks still alive and runs checked all-reduces there; exits 0, or 5 if the shrink fails. */
    private static void goOn(Communicator comm, Arena arena) {
        Communicator next;
        try {
            next = comm.shrink();
        } catch (RuntimeException e) {
            System.out.println("shrink failed: " + e);
            System.out.flush();
            comm.close();
            System.exit(5);
            return;
        }
        comm.close();
        long count = COUNTS[2];
        MemorySegment buf = arena.allocate(count * 4);
        try (HostStream s = new HostStream()) {
            for (int i = 0; i < 20; i++) {
                fill(buf, count, next.rank());
                next.allReduce(buf, buf, count, DataType.INT32, RedOp.SUM, s);
                s.synchronize();
                check(buf, count, next.size(), i);
            }
        } catch (RuntimeException e) {
            System.out.println("shrink failed: after it, " + e);
            System.out.flush();
            next.close();
            System.exit(5);
        }
        System.out.println("shrunk: rank " + next.rank() + " of " + next.size());
        System.out.flush();
        next.close();
        System.exit(0);
    }

    private static int value(int rank, long i) {
        return (int) (rank * 1_000_003L + i * 7 + 1);
    }

    private static void fill(MemorySegment s, long count, int rank) {
        for (long i = 0; i < count; i++) {
            s.setAtIndex(ValueLayout.JAVA_INT, i, value(rank, i));
        }
    }

    private static void check(MemorySegment s, long count, int n, long call) {
        for (long i = 0; i < count; i++) {
            long want = 0;
            for (int r = 0; r < n; r++) {
                want += value(r, i);
            }
            int got = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (got != (int) want) {
                System.out.println("wrong: call " + call + " element " + i + " of " + count + " is " + got + ", expected " + (int) want);
                System.out.flush();
                System.exit(4);
            }
        }
    }
}
