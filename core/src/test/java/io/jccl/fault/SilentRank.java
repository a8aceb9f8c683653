// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A rank of a job in which rank 1 never makes its call: rank 0 all-reduces and prints
 * {@code failed: } and the error it gets (a timeout); rank 1 prints {@code silent} and sleeps
 * until it is killed. Exits 0 only if rank 0's call succeeded, which it must not.
 */
public final class SilentRank {
    private SilentRank() {
    }

    public static void main(String[] args) throws InterruptedException {
        Communicator comm = Communicator.fromEnvironment();
        if (comm.rank() == 1) {
            System.out.println("silent");
            System.out.flush();
            Thread.sleep(120_000);
            return;
        }
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(4096);
            comm.allReduce(buf, buf, 1024, DataType.FLOAT32, RedOp.SUM, s);
            s.synchronize();
            System.out.println("returned");
        } catch (RuntimeException e) {
            System.out.println("failed: " + e);
            System.out.flush();
            comm.abort();
            System.exit(3);
        }
    }
}
