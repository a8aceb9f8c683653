package io.jccl.fault;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A rank of a job whose ranks make different calls: with no argument, rank 1 all-reduces int32
 * where the others all-reduce float32 (the same bytes); with {@code root}, a broadcast for which
 * rank 0 takes rank 1 for the root and the others rank 0. Prints {@code failed after N ms: } and
 * its error and exits 3, or {@code returned} and exits 0.
 */
public final class MismatchRank {
    private MismatchRank() {
    }

    public static void main(String[] args) {
        Communicator comm = Communicator.fromEnvironment();
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(4096);
            long t0 = System.nanoTime();
            try {
                if (args.length > 0 && args[0].equals("root")) {
                    comm.broadcast(buf, buf, 1024, DataType.FLOAT32, comm.rank() == 0 ? 1 : 0, s);
                } else {
                    comm.allReduce(buf, buf, 1024, comm.rank() == 1 ? DataType.INT32 : DataType.FLOAT32, RedOp.SUM, s);
                }
                s.synchronize();
                System.out.println("returned");
            } catch (RuntimeException e) {
                System.out.println("failed after " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + e);
                System.out.flush();
                comm.abort();
                System.exit(3);
            }
        }
        comm.close();
    }
}
