// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.CommId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One rank in a process of its own, started by {@link MultiProcessTest}; rank and size come from
 * the jccl launcher's variables. Modes:
 * <ul>
 * <li>{@code check ID_LL ID_LL128 ID_SIMPLE}: one communicator per protocol (rank 0's config
 * forces it), each running all-reduce (messages from one line to several slots), broadcast,
 * all-gather, reduce-scatter and a send/recv ring, every result checked; prints {@code ok} per
 * protocol and exits 0, or prints the failure and exits 2.</li>
 * <li>{@code checkenv}: one communicator from the launcher's environment, the same checks with
 * the tuner's protocols; prints how many socket-transport proxy threads ran ({@code net threads N})
 * and {@code ok env}.</li>
 * <li>{@code loop}: all-reduces until something fails; prints {@code looping} once the first
 * succeeded, then on failure the exception and exits 3.</li>
 * <li>{@code late}: rank 0 sends rank 1 a message, closes and exits; rank 1 receives it 2 s later,
 * checks it and prints {@code ok late}.</li>
 * <li>{@code abort}: rank 1 makes one all-reduce, then calls {@link Communicator#abort()} and stays
 * alive for 10 s (so that its peers learn of the abort, not of its death); the others
 * {@code loop}.</li>
 * </ul>
 */
public final class ProcessRank {
    private ProcessRank() {
    }

    public static void main(String[] args) {
        try {
            if (args[0].equals("check")) {
                check(args);
            } else if (args[0].equals("checkenv")) {
                try (Communicator comm = Communicator.fromEnvironment()) {
                    collectives(comm);
                    System.out.println("net threads " + netThreads());
                }
                System.out.println("ok env");
            } else if (args[0].equals("late")) {
                lateReceive();
            } else if (args[0].equals("barrier")) {
                barrierAndObjects();
            } else if (args[0].equals("abort") && System.getenv("JCCL_RANK").equals("1")) {
                abortAfterOne();
            } else {
                loop();
            }
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(args[0].startsWith("check") ? 2 : 3);
        }
        System.exit(0);
    }

    /**
     * Rank 1 comes 500 ms late to a barrier; each rank prints when it arrived and left (wall-clock
     * milliseconds, which the processes of one host share), then the ranks' all-gathered names.
     */
    private static void barrierAndObjects() throws InterruptedException {
        try (Communicator comm = Communicator.fromEnvironment()) {
            if (comm.rank() == 1) {
                Thread.sleep(500);
            }
            System.out.println("arrived " + System.currentTimeMillis());
            comm.barrier();
            System.out.println("left " + System.currentTimeMillis());
            java.util.List<String> names = comm.allGatherObject("rank-" + comm.rank(), null);
            System.out.println("names " + names);
        }
    }

    /** A sender that closes before its receiver gets to the message: the message must wait for it. */
    private static void lateReceive() throws InterruptedException {
        try (Communicator comm = Communicator.fromEnvironment(); Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(4000);
            if (comm.rank() == 0) {
                fill(buf, 1000, 0);
                comm.send(buf, 1000, DataType.INT32, 1, s);
                s.synchronize();
                return;
            }
            Thread.sleep(2000);
            comm.recv(buf, 1000, DataType.INT32, 0, s);
            s.synchronize();
            for (long i = 0; i < 1000; i++) {
                expect(buf, i, value(0, i), "late receive");
            }
        }
        System.out.println("ok late");
    }

    private static void check(String[] args) {
        String[] protocols = {"LL", "LL128", "Simple"};
        int rank = Integer.parseInt(System.getenv("JCCL_RANK"));
        int n = Integer.parseInt(System.getenv("JCCL_NRANKS"));
        for (int p = 0; p < 3; p++) {
            // Only rank 0's protocol setting counts: the others ask for another one, in vain.
            Config c = Config.fromEnvironment().withProtocols(rank == 0 ? protocols[p] : protocols[(p + 1) % 3])
                    .withBuffSize("LL", 32 << 10).withBuffSize("LL128", 64 << 10);
            try (Communicator comm = Communicator.init(CommId.parse(args[1 + p]), n, rank, c)) {
                String chosen = comm.choiceFor(io.jccl.Collective.ALL_REDUCE, 1000, DataType.INT32).protocol();
                if (!chosen.equals(protocols[p])) {
                    throw new AssertionError("rank " + rank + " runs " + chosen + ", rank 0 asked for " + protocols[p]);
                }
                collectives(comm);
            }
            System.out.println("ok " + protocols[p]);
        }
    }

    /** Live threads of the socket transport's sending side (jccl-net-send-*) in this process. */
    static long netThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("jccl-net-send-")).count();
    }

    /** All-reduce, broadcast, all-gather, reduce-scatter and a send/recv ring at several sizes, checked. */
    static void collectives(Communicator comm) {
        int rank = comm.rank();
        int n = comm.size();
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                for (long count : new long[] {1, 7, 1000, 300_000}) {
                    MemorySegment in = arena.allocate(count * 4 * n);
                    MemorySegment out = arena.allocate(count * 4 * n);
                    fill(in, count * n, rank);
                    comm.allReduce(in, out, count, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                    for (long i = 0; i < count; i++) {
                        long want = 0;
                        for (int r = 0; r < n; r++) {
                            want += value(r, i);
                        }
                        expect(out, i, (int) want, "allreduce " + count);
                    }
                    comm.broadcast(in, out, count, DataType.INT32, n - 1, s);
                    s.synchronize();
                    for (long i = 0; i < count; i++) {
                        expect(out, i, value(n - 1, i), "broadcast " + count);
                    }
                    comm.allGather(in, out, count, DataType.INT32, s);
                    s.synchronize();
                    for (int r = 0; r < n; r++) {
                        for (long i = 0; i < count; i++) {
                            expect(out, r * count + i, value(r, i), "allgather " + count);
                        }
                    }
                    comm.reduceScatter(in, out, count, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                    for (long i = 0; i < count; i++) {
                        long want = 0;
                        for (int r = 0; r < n; r++) {
                            want += value(r, rank * count + i);
                        }
                        expect(out, i, (int) want, "reducescatter " + count);
                    }
                    Group.start();
                    comm.send(in, count, DataType.INT32, (rank + 1) % n, s);
                    comm.recv(out, count, DataType.INT32, (rank - 1 + n) % n, s);
                    Group.end();
                    s.synchronize();
                    for (long i = 0; i < count; i++) {
                        expect(out, i, value((rank - 1 + n) % n, i), "send/recv " + count);
                    }
                }
        }
    }

    private static void loop() {
        try (Communicator comm = Communicator.fromEnvironment(); Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(4096 * 4);
            for (long i = 0; ; i++) {
                comm.allReduce(buf, buf, i % 2 == 0 ? 4096 : 16, DataType.INT32, RedOp.SUM, s);
                s.synchronize();
                if (i == 0) {
                    System.out.println("looping");
                    System.out.flush();
                }
            }
        }
    }

    private static void abortAfterOne() throws InterruptedException {
        Communicator comm = Communicator.fromEnvironment();
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(4096 * 4);
            comm.allReduce(buf, buf, 4096, DataType.INT32, RedOp.SUM, s);
            s.synchronize();
            System.out.println("looping");
            System.out.flush();
            Thread.sleep(300);
            comm.abort();
            System.out.println("aborted");
            System.out.flush();
            Thread.sleep(10_000);
        }
    }

    static int value(int rank, long i) {
        return (int) (rank * 1_000_003L + i * 7 + 1);
    }

    private static void fill(MemorySegment s, long count, int rank) {
        for (long i = 0; i < count; i++) {
            s.setAtIndex(ValueLayout.JAVA_INT, i, value(rank, i));
        }
    }

    private static void expect(MemorySegment s, long i, int want, String what) {
        int got = s.getAtIndex(ValueLayout.JAVA_INT, i);
        if (got != want) {
            throw new AssertionError(what + ": element " + i + " is " + got + ", expected " + want);
        }
    }
}
