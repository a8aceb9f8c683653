// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bootstrap.CommId;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * One rank of {@link IbRegisteredBuffersTest}, in its own process over the IB net on the fake
 * libibverbs: {@code args[0]} is the root's id, {@code args[1]} {@code registered} or
 * {@code plain}. It runs a broadcast from rank 0, an all-reduce and an all-gather on one 16 MiB
 * user buffer (input in its first half, output in its second), registered with the communicator
 * or not, each result checked element by element, while the fake counts the bytes its RDMA writes
 * took out of that buffer ({@code jccl_fake_ib_watch}). Prints
 * {@code bytes sent N, from the user buffer U} and exits 0, or prints the failure and exits 2.
 */
public final class RegisteredRank {
    static final long HALF = 8L << 20;

    private RegisteredRank() {
    }

    public static void main(String[] args) {
        int rank = Integer.parseInt(System.getenv("JCCL_RANK"));
        int n = Integer.parseInt(System.getenv("JCCL_NRANKS"));
        boolean register = args[1].equals("registered");
        try (Communicator comm = Communicator.init(CommId.parse(args[0]), n, rank, Config.fromEnvironment());
             Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(2 * HALF, 4096);
            MemorySegment in = buf.asSlice(0, HALF);
            MemorySegment out = buf.asSlice(HALF, HALF);
            Registration reg = register ? comm.register(buf) : null;
            hook("jccl_fake_ib_watch", FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG))
                    .invokeExact(buf.address(), buf.byteSize());
            long before = rdmaBytes();
            long count = HALF / 4;
            fill(in, count, rank);
            comm.broadcast(in, out, count, DataType.INT32, 0, s);
            s.synchronize();
            expect(out, count, i -> value(0, i), "broadcast");
            comm.allReduce(in, out, count, DataType.INT32, RedOp.SUM, s);
            s.synchronize();
            expect(out, count, i -> {
                int sum = 0;
                for (int r = 0; r < n; r++) {
                    sum += value(r, i);
                }
                return sum;
            }, "all-reduce");
            long part = count / n;
            comm.allGather(in.asSlice(0, part * 4), out, part, DataType.INT32, s);
            s.synchronize();
            expect(out, part * n, i -> value((int) (i / part), i % part), "all-gather");
            long sent = rdmaBytes() - before;
            long fromUser = (long) hook("jccl_fake_ib_watched_bytes", FunctionDescriptor.of(ValueLayout.JAVA_LONG)).invokeExact();
            if (reg != null) {
                comm.deregister(reg);
            }
            System.out.println("bytes sent " + sent + ", from the user buffer " + fromUser);
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(2);
        }
        System.exit(0);
    }

    interface Want {
        int at(long i);
    }

    private static int value(int rank, long i) {
        return (int) (i * 31 + rank * 1_000_003L);
    }

    private static void fill(MemorySegment s, long count, int rank) {
        for (long i = 0; i < count; i++) {
            s.setAtIndex(ValueLayout.JAVA_INT, i, value(rank, i));
        }
    }

    private static void expect(MemorySegment s, long count, Want want, String what) {
        for (long i = 0; i < count; i++) {
            int got = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (got != want.at(i)) {
                throw new AssertionError(what + ": element " + i + " is " + got + ", not " + want.at(i));
            }
        }
    }

    private static long rdmaBytes() throws Throwable {
        return (long) hook("jccl_fake_ib_rdma_bytes", FunctionDescriptor.of(ValueLayout.JAVA_LONG)).invokeExact();
    }

    private static MethodHandle hook(String name, FunctionDescriptor d) {
        return IbVerbs.LIBRARY.downcall(name, d);
    }
}
