// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaStream;

import io.jccl.CudaDevice;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.RedOp;
import io.jccl.bootstrap.CommId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One CUDA rank in a process of its own, started by {@link CudaProcesses}; rank and size
 * come from the jccl launcher's variables, the GPU is 0 (with JCCL_TEST_GPUS=k, the process's
 * rank p and size n stand for ranks p*k to p*k+k-1 of k*n, threads on GPUs 0 to k-1), the driver
 * what {@code jccl.cuda.lib} names (the fake one) or the real one. {@code check ID_LL ID_LL128 ID_SIMPLE}: one communicator
 * per protocol (rank 0's configuration forces it), each running all-reduce, broadcast, all-gather,
 * reduce-scatter, all-to-all, a send/recv ring in one group and a send/recv exchange of two
 * ungrouped calls, every element checked exactly; prints {@code rank R ok PROTOCOL} each and exits 0, or
 * prints the failure and exits 2. {@code loop}: one communicator from the launcher's environment,
 * all-reduces until one fails; prints {@code looping} after the first, then the failure, and exits 3.
 * {@code abort}: rank 1 makes one all-reduce, aborts, prints {@code aborted} and stays alive 10 s;
 * the others {@code loop}. {@code late}: rank 0 sends to rank 1, prints {@code sent}, closes and
 * exits; rank 1 receives 2 s later, checks and prints {@code ok late} (exit 0, else 2). With
 * JCCL_TEST_GRAPH=1, {@code check} captures each collective in a CUDA graph and launches it twice
 * (the transports between processes, the socket proxy's among them, serve replayed calls).
 */
public final class CudaProcessRank {
    private CudaProcessRank() {
    }

    public static void main(String[] args) {
        if (args[0].equals("loop") || args[0].equals("abort") && !System.getenv("JCCL_RANK").equals("1")) {
            loop();
        }
        if (args[0].equals("abort")) {
            abortAfterOne();
        }
        if (args[0].equals("late")) {
            lateReceive();
        }
        try {
            int process = Integer.parseInt(System.getenv("JCCL_RANK"));
            int processes = Integer.parseInt(System.getenv("JCCL_NRANKS"));
            int perProcess = Integer.parseInt(System.getenv().getOrDefault("JCCL_TEST_GPUS", "1"));
            if (perProcess == 1) {
                checkRank(process, processes, CudaDevice.open(0), args);
            } else {
                // ranks p*k .. p*k+k-1, one thread and one GPU each, meeting through the bootstrap
                java.util.List<Thread> threads = new java.util.ArrayList<>();
                Throwable[] failed = new Throwable[perProcess];
                for (int g = 0; g < perProcess; g++) {
                    int gpu = g;
                    threads.add(Thread.ofPlatform().start(() -> {
                        try {
                            checkRank(process * perProcess + gpu, processes * perProcess, CudaDevice.open(gpu), args);
                        } catch (Throwable e) {
                            failed[gpu] = e;
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
                for (Throwable e : failed) {
                    if (e != null) {
                        throw e;
                    }
                }
            }
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            e.printStackTrace(System.out);
            System.out.flush();
            System.exit(2);
        }
        System.exit(0);
    }

    /** Rank {@code rank} of {@code n} on {@code gpu}: {@code check}'s communicators, one per protocol; prints {@code rank R ok P} each. */
    private static void checkRank(int rank, int n, CudaDevice gpu, String[] args) {
        String[] protocols = {"LL", "LL128", "Simple"};
        long count = Long.parseLong(System.getenv().getOrDefault("JCCL_TEST_COUNT", "5000"));
        for (int p = 0; p < 3; p++) {
            // Only rank 0's protocol counts: the others ask for another one, in vain.
            Config c = Config.fromEnvironment().withProtocols(rank == 0 ? protocols[p] : protocols[(p + 1) % 3]);
            Communicator made;
            try {
                made = Communicator.initCuda(CommId.parse(args[1 + p]), n, rank, gpu, c);
            } catch (io.jccl.JcclException e) {
                // Over sockets, or between GPUs through host memory, LL128 alone is refused at init, on every rank.
                if (protocols[p].equals("LL128") && e.code() == io.jccl.ErrorCode.INVALID_USAGE
                        && e.getMessage().contains("atomic only inside a GPU")) {
                    System.out.println("rank " + rank + " refused LL128: " + e.getMessage());
                    continue;
                }
                throw e;
            }
            try (Communicator comm = made) {
                String chosen = comm.choiceFor(io.jccl.Collective.ALL_REDUCE, count, DataType.INT32).protocol();
                if (!chosen.equals(protocols[p])) {
                    throw new AssertionError("rank " + rank + " runs " + chosen + ", rank 0 asked for " + protocols[p]);
                }
                collectives(comm, gpu, count);
            }
            System.out.println("rank " + rank + " ok " + protocols[p]);
        }
    }

    private static void loop() {
        try {
            CudaDevice gpu = CudaDevice.open(0);
            try (Communicator comm = Communicator.fromEnvironmentCuda(gpu, Config.fromEnvironment());
                 Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
                MemorySegment buf = gpu.allocate(4000, arena);
                for (long i = 0; ; i++) {
                    comm.allReduce(buf, buf, 1000, DataType.INT32, RedOp.SUM, s);
                    s.synchronize();
                    if (i == 0) {
                        System.out.println("looping");
                        System.out.flush();
                    }
                }
            }
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(3);
        }
    }

    /** A sender that closes and exits before its receiver gets to the message: the message must wait for it. */
    private static void lateReceive() {
        try {
            CudaDevice gpu = CudaDevice.open(0);
            try (Communicator comm = Communicator.fromEnvironmentCuda(gpu, Config.fromEnvironment());
                 Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
                int count = 1000;
                MemorySegment host = arena.allocate(4L * count, 4);
                MemorySegment buf = gpu.allocate(4L * count, arena);
                if (comm.rank() == 0) {
                    for (int i = 0; i < count; i++) {
                        host.setAtIndex(ValueLayout.JAVA_INT, i, value(0, i));
                    }
                    gpu.copyToDevice(buf, host);
                    comm.send(buf, count, DataType.INT32, 1, s);
                    s.synchronize();
                    System.out.println("sent");
                } else {
                    Thread.sleep(2000);
                    comm.recv(buf, count, DataType.INT32, 0, s);
                    check(comm, gpu, s, host, buf, count, "late receive", i -> value(0, i));
                    System.out.println("ok late");
                }
            }
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(2);
        }
        System.exit(0);
    }

    /** One all-reduce, then {@link Communicator#abort()}; prints {@code aborted} and stays alive for 10 s, then exits 0. */
    private static void abortAfterOne() {
        try {
            CudaDevice gpu = CudaDevice.open(0);
            Communicator comm = Communicator.fromEnvironmentCuda(gpu, Config.fromEnvironment());
            try (Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
                MemorySegment buf = gpu.allocate(4000, arena);
                comm.allReduce(buf, buf, 1000, DataType.INT32, RedOp.SUM, s);
                s.synchronize();
                comm.abort();
            }
            System.out.println("aborted");
            System.out.flush();
            // Alive until the test has seen the other rank fail (it then closes this process's
            // stdin), and 10 s at most.
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException e) {
                    return;
                }
                System.exit(0);
            });
            while (System.in.read() >= 0) {
                // until EOF
            }
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(2);
        }
        System.exit(0);
    }

    static int value(int rank, long i) {
        return (rank + 1) * 1000 + (int) (i % 977);
    }

    /** Issues {@code call} on {@code s}: at once, or with JCCL_TEST_GRAPH=1 captured in a graph launched twice. */
    private static void issue(CudaStream s, Runnable call) {
        if (!"1".equals(System.getenv("JCCL_TEST_GRAPH"))) {
            call.run();
            return;
        }
        try (io.jccl.CudaGraph g = io.jccl.CudaGraph.capture(s, call)) {
            g.launch(s);
            g.launch(s);
            s.synchronize();
        }
    }

    private static void collectives(Communicator comm, CudaDevice gpu, long count) {
        int rank = comm.rank();
        int n = comm.size();
        try (Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
            long elements = count * n;
            MemorySegment host = arena.allocate(elements * 4, 16);
            MemorySegment in = gpu.allocate(elements * 4, arena);
            MemorySegment out = gpu.allocate(elements * 4, arena);
            for (long i = 0; i < elements; i++) {
                host.setAtIndex(ValueLayout.JAVA_INT, i, value(rank, i));
            }
            gpu.copyToDevice(in, host);

            issue(s, () -> comm.allReduce(in, out, count, DataType.INT32, RedOp.SUM, s));
            check(comm, gpu, s, host, out, count, "all-reduce", i -> {
                long want = 0;
                for (int r = 0; r < n; r++) {
                    want += value(r, i);
                }
                return (int) want;
            });
            issue(s, () -> comm.broadcast(in, out, count, DataType.INT32, n - 1, s));
            check(comm, gpu, s, host, out, count, "broadcast", i -> value(n - 1, i));
            issue(s, () -> comm.allGather(in, out, count, DataType.INT32, s));
            check(comm, gpu, s, host, out, elements, "all-gather", i -> value((int) (i / count), i % count));
            issue(s, () -> comm.reduceScatter(in, out, count, DataType.INT32, RedOp.SUM, s));
            check(comm, gpu, s, host, out, count, "reduce-scatter", i -> {
                long want = 0;
                for (int r = 0; r < n; r++) {
                    want += value(r, rank * count + i);
                }
                return (int) want;
            });
            issue(s, () -> comm.allToAll(in, out, count, DataType.INT32, s));
            // block r of the output is block `rank` of rank r's input
            check(comm, gpu, s, host, out, elements, "all-to-all", i -> value((int) (i / count), rank * count + i % count));

            int next = (rank + 1) % n;
            int prev = (rank + n - 1) % n;
            Group.start();
            comm.send(in, count, DataType.INT32, next, s);
            comm.recv(out, count, DataType.INT32, prev, s);
            Group.end();
            check(comm, gpu, s, host, out, count, "send/recv ring", i -> value(prev, i));

            if (n % 2 == 0) {
                // pairs (0,1), (2,3): the lower sends first, the higher receives first, no group
                int peer = rank ^ 1;
                if (rank < peer) {
                    comm.send(in, count, DataType.INT32, peer, s);
                    comm.recv(out, count, DataType.INT32, peer, s);
                } else {
                    comm.recv(out, count, DataType.INT32, peer, s);
                    comm.send(in, count, DataType.INT32, peer, s);
                }
                check(comm, gpu, s, host, out, count, "send/recv pair", i -> value(peer, i));
            }
        }
    }

    private static void check(Communicator comm, CudaDevice gpu, CudaStream s, MemorySegment host, MemorySegment out,
                              long elements, String what, java.util.function.LongToIntFunction want) {
        s.synchronize();
        gpu.copyToHost(host.asSlice(0, elements * 4), out);
        for (long i = 0; i < elements; i++) {
            int got = host.getAtIndex(ValueLayout.JAVA_INT, i);
            if (got != want.applyAsInt(i)) {
                throw new AssertionError("rank " + comm.rank() + " " + what + ": element " + i + " is " + got + ", expected "
                        + want.applyAsInt(i));
            }
        }
    }
}
