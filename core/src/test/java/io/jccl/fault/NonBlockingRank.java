// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * A rank that inits without blocking ({@code withBlocking(false)}) from the launcher's
 * environment: prints {@code returned STATE} as soon as init returns, polls {@code state()} (no
 * stream exists yet), then either prints {@code ready}, runs a checked all-reduce and prints
 * {@code ok} (exit 0), or prints {@code failed: } and {@code asyncError()} (exit 3). The rank
 * named by the first argument, if any, is given an interface that does not exist: its init fails;
 * the rank named by the second starts its init 2 s late (after the failure).
 */
public final class NonBlockingRank {
    private NonBlockingRank() {
    }

    public static void main(String[] args) throws InterruptedException {
        int bad = args.length > 0 ? Integer.parseInt(args[0]) : -1;
        Config config = Config.fromEnvironment().withBlocking(false);
        int rank = Integer.parseInt(System.getenv("JCCL_RANK"));
        if (rank == bad) {
            config = config.withSocketIfname("=nosuchif0");
        }
        if (args.length > 1 && rank == Integer.parseInt(args[1])) {
            Thread.sleep(2_000);
        }
        Communicator c = Communicator.fromEnvironment(config);
        System.out.println("returned " + c.state());
        System.out.flush();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (c.state() == Communicator.State.IN_PROGRESS && System.nanoTime() < until) {
            Thread.sleep(2);
        }
        if (c.state() != Communicator.State.READY) {
            System.out.println("failed: " + c.state() + " " + c.asyncError());
            System.out.flush();
            c.close();
            System.exit(3);
        }
        System.out.println("ready");
        int n = 1000;
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(n * 4L);
            for (int i = 0; i < n; i++) {
                buf.setAtIndex(ValueLayout.JAVA_INT, i, c.rank() + i);
            }
            c.allReduce(buf, buf, n, DataType.INT32, RedOp.SUM, s);
            c.finish();
            for (int i = 0; i < n; i++) {
                int want = c.size() * (c.size() - 1) / 2 + c.size() * i;
                if (buf.getAtIndex(ValueLayout.JAVA_INT, i) != want) {
                    System.out.println("wrong: element " + i);
                    System.exit(4);
                }
            }
        }
        System.out.println("ok");
        System.out.flush();
        c.close();
        System.exit(0);
    }
}
