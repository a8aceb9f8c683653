// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.HostStream;
import io.jccl.RedOp;
import io.jccl.Collective;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;

/**
 * Ranks as threads running batches of one collective call together, as {@code jccl perf} runs them
 * (each rank issues on its own stream and synchronizes on its own thread): the caller is rank 0,
 * the other ranks are threads of this team that wait for the next batch. For benchmarks that time
 * one batch per invocation (JMH). Out-of-place calls on native buffers.
 *
 * <pre>{@code
 * try (RankTeam t = RankTeam.start(Config.defaults(), 2, Collective.ALL_REDUCE, DataType.FLOAT32, 1 << 20)) {
 *     t.runBatch(64);
 * }
 * }</pre>
 */
public final class RankTeam implements AutoCloseable {
    private final Communicator[] comms;
    private final HostStream[] streams;
    private final CollectiveCall[] calls;
    private final Arena arena = Arena.ofShared();
    private final Phaser start;
    private final Phaser done;
    private final List<Thread> threads = new ArrayList<>();
    private volatile int batch;
    private volatile boolean closing;
    private volatile Throwable failure;

    private RankTeam(Config config, int ranks, Collective c, DataType type, long bytes) {
        comms = Communicator.initAll(ranks, config);
        streams = new HostStream[ranks];
        calls = new CollectiveCall[ranks];
        PerfSizes sizes = PerfSizes.of(c, type, ranks, bytes);
        for (int r = 0; r < ranks; r++) {
            streams[r] = new HostStream();
            MemorySegment send = arena.allocate(Math.max(1, sizes.bytes()), 64);
            MemorySegment recv = arena.allocate(Math.max(1, sizes.bytes()), 64);
            calls[r] = CollectiveCall.of(comms[r], sizes, RedOp.SUM, 0, false, send, recv);
        }
        start = new Phaser(ranks);
        done = new Phaser(ranks);
        for (int r = 1; r < ranks; r++) {
            int rank = r;
            threads.add(Thread.ofPlatform().daemon().name("jccl-team-rank-" + r).start(() -> worker(rank)));
        }
    }

    /** Ranks of {@code config} ready to call {@code c} on {@code bytes} (nccl-tests' size) of {@code type}. */
    public static RankTeam start(Config config, int ranks, Collective c, DataType type, long bytes) {
        return new RankTeam(config, ranks, c, type, bytes);
    }

    /** How rank 0 runs calls of this shape (every rank runs them alike). */
    public io.jccl.CallChoice choice() {
        return comms[0].choiceFor(calls[0].collective(), calls[0].count(), calls[0].type());
    }

    private void worker(int rank) {
        while (true) {
            start.arriveAndAwaitAdvance();
            if (closing) {
                return;
            }
            try {
                runOwn(rank, batch);
            } catch (Throwable e) {
                failure = e;
            }
            done.arriveAndAwaitAdvance();
        }
    }

    private void runOwn(int rank, int n) {
        for (int i = 0; i < n; i++) {
            calls[rank].issue(streams[rank]);
        }
        streams[rank].synchronize();
    }

    /** Every rank issues {@code n} calls and synchronizes; returns when all have finished. */
    public void runBatch(int n) {
        batch = n;
        start.arriveAndAwaitAdvance();
        Throwable mine = null;
        try {
            runOwn(0, n);
        } catch (Throwable e) {
            mine = e;
        }
        done.arriveAndAwaitAdvance();
        Throwable f = mine != null ? mine : failure;
        if (f != null) {
            throw new IllegalStateException("a rank failed: " + f.getMessage(), f);
        }
    }

    @Override
    public void close() {
        closing = true;
        start.arriveAndDeregister();
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (HostStream s : streams) {
            s.close();
        }
        for (Communicator c : comms) {
            c.close();
        }
        arena.close();
    }
}
