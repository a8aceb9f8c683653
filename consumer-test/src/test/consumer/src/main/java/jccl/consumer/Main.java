// SPDX-License-Identifier: Apache-2.0
package jccl.consumer;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.Jccl;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Two ranks, threads of this process, all-reduce 1000 ints (rank r contributes i * (r + 1) at
 * element i, so the sum is 3i); prints the version, where it ran and the result, and exits 1 when
 * any element is wrong.
 */
public final class Main {
    public static void main(String[] args) throws InterruptedException {
        int count = 1000;
        Communicator[] comms = Communicator.initAll(2, Config.defaults());
        int[][] sums = new int[comms.length][];
        Throwable[] failures = new Throwable[comms.length];
        Thread[] threads = new Thread[comms.length];
        for (int r = 0; r < comms.length; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try (Communicator comm = comms[rank]; Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                    MemorySegment send = arena.allocate(ValueLayout.JAVA_INT, count);
                    MemorySegment recv = arena.allocate(ValueLayout.JAVA_INT, count);
                    for (int i = 0; i < count; i++) {
                        send.setAtIndex(ValueLayout.JAVA_INT, i, i * (rank + 1));
                    }
                    comm.allReduce(send, recv, count, DataType.INT32, RedOp.SUM, stream);
                    stream.synchronize();
                    sums[rank] = recv.toArray(ValueLayout.JAVA_INT);
                } catch (Throwable t) {
                    failures[rank] = t;
                }
            });
            threads[r].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int wrong = 0;
        for (int r = 0; r < comms.length; r++) {
            if (failures[r] != null) {
                failures[r].printStackTrace();
                wrong++;
                continue;
            }
            for (int i = 0; i < count; i++) {
                wrong += sums[r][i] == 3 * i ? 0 : 1;
            }
        }
        System.out.println("jccl " + Jccl.version() + " (code " + Jccl.versionCode() + ") "
                + (Main.class.getModule().isNamed() ? "module path" : "class path")
                + ": all-reduce of " + count + " ints on 2 ranks, " + wrong + " wrong, rank 0 ends "
                + Arrays.toString(Arrays.copyOfRange(sums[0] == null ? new int[0] : sums[0], Math.max(0, count - 2), count)));
        System.exit(wrong == 0 ? 0 : 1);
    }
}
