// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/** A thread that runs lane k (k >= 1) of its communicator's operations; lane 0 runs on the stream. */
final class LaneWorker {
    /** One operation handed to the lane workers; the stream thread waits for {@code remaining} to reach 0. */
    static final class Job {
        final Work work;
        final java.lang.foreign.MemorySegment scratch;
        final AtomicInteger remaining;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Job(Work work, java.lang.foreign.MemorySegment scratch, int lanes) {
            this.work = work;
            this.scratch = scratch;
            this.remaining = new AtomicInteger(lanes);
        }
    }

    private static final long DEEP_IDLE_NANOS = 20_000_000;

    private final LaneExecutor executor;
    private final RankExecutor rank;
    private final Thread thread;
    private volatile Job job;
    private volatile boolean parked;
    private volatile boolean stop;

    private final int lane;

    LaneWorker(RankExecutor rank, int lane) {
        this.rank = rank;
        this.lane = lane;
        this.executor = new LaneExecutor(rank, lane);
        this.thread = Thread.ofPlatform().name("jccl-rank" + rank.rank + "-lane" + lane).daemon().unstarted(this::loop);
        thread.start();
    }

    void post(Job j) {
        job = j;
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    void stop() {
        stop = true;
        LockSupport.unpark(thread);
    }

    private void loop() {
        RankCpus.ownThread();
        rank.cpus.pinLane(lane);
        long idleSince = System.nanoTime();
        int spins = 0;
        long park = 1_000;
        while (!stop) {
            Job j = job;
            if (j != null) {
                try {
                    executor.run(j.work, j.scratch);
                } catch (Throwable e) {
                    j.failure.compareAndSet(null, e);
                    rank.domain.abort("rank " + rank.rank + " failed: " + e.getMessage(), rank.rank, -1);
                } finally {
                    job = null;
                    j.remaining.decrementAndGet();
                }
                idleSince = System.nanoTime();
                spins = 0;
                park = 1_000;
                continue;
            }
            if (++spins < 256) {
                Thread.onSpinWait();
            } else if (spins < 320) {
                Thread.yield();
            } else if (System.nanoTime() - idleSince < DEEP_IDLE_NANOS) {
                // Registered as parked even for a timed sleep, so that new work wakes it at once.
                parked = true;
                LockSupport.parkNanos(park);
                parked = false;
                park = Math.min(park * 2, 1_000_000);
            } else {
                parked = true;
                if (job == null && !stop) {
                    LockSupport.park(this);
                }
                parked = false;
                idleSince = System.nanoTime();
                spins = 0;
            }
        }
    }
}
