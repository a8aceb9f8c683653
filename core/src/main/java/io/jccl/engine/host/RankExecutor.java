// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.transport.Wait;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one rank's operations on the host engine, in the order they were issued on the rank
 * whatever stream carries them (every rank issues the same operations in the same order, so the
 * FIFOs they share stay in step): lane 0 of an operation on the thread running the stream, the
 * other lanes on the rank's lane workers ({@link LaneWorker}), each lane a {@link LaneExecutor}.
 * A failure fails the rank and aborts its communicator, naming what each wait saw.
 */
final class RankExecutor {
    final HostDomain domain;
    final int rank;
    /** This rank's own settings: its timeout (plans follow the domain's shared config). */
    final Config config;
    private final Arena arena = Arena.ofShared();
    private final LaneExecutor lane0;
    private final List<LaneWorker> workers = new ArrayList<>();
    private volatile long completed;
    private volatile Throwable failure;
    /** The collective started last ({@link #current()}), and the number of the operation started last. */
    private volatile Work current;
    private volatile long started;
    /** This rank's scratch memory for plans that keep partial results ({@code Buf.SCRATCH}); grown as needed. */
    private MemorySegment scratch = MemorySegment.NULL;
    /** What a wait of this rank that gave up means. */
    final WaitFailures failures;
    /** The cores this rank's lanes run on. */
    final RankCpus cpus;

    RankExecutor(HostDomain domain, int rank, Config config, RankCpus cpus) {
        this.domain = domain;
        this.rank = rank;
        this.config = config;
        this.cpus = cpus;
        domain.placed(cpus);
        this.failures = new WaitFailures(domain, rank, config.timeout());
        this.lane0 = new LaneExecutor(this, 0);
    }

    /** The memory of the FIFOs this rank receives on, and of its scratch. */
    Arena arena() {
        return arena;
    }

    /** What the stream runs for the {@code seq}-th operation of this rank (numbered from 1). */
    Runnable task(long seq, List<Work> works) {
        return () -> execute(seq, works);
    }

    /** Throws if this rank's operations cannot run: it failed, or its communicator was aborted. */
    void checkUsable() {
        Throwable f = failure;
        if (f != null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator failed and must be closed: " + f.getMessage(), f);
        }
        if (domain.aborted()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator was aborted and must be closed: "
                    + domain.abortCause());
        }
    }

    /** The number of the last operation that ran (operations run in their issue order). */
    long completed() {
        return completed;
    }

    /** What this rank's operations failed with, or null. */
    Throwable failure() {
        return failure;
    }

    void stopWorkers() {
        synchronized (workers) {
            for (LaneWorker w : workers) {
                w.stop();
            }
        }
    }

    private void execute(long seq, List<Work> works) {
        // Lane 0 runs on whichever thread runs the stream: the stream's own or the caller's.
        cpus.pinLane(0);
        Wait order = Wait.forLane(domain, rank, domain.otherProcessRanks, config.timeout().toNanos());
        order.begin();
        while (completed != seq - 1 && failure == null) {
            if (!order.pause()) {
                // Ops of this rank on other streams that were issued first have not run; an abort
                // fails the operation below (checkUsable).
                if (order.end() == Wait.End.DEADLINE) {
                    fail(new JcclException(ErrorCode.TIMEOUT, rank, "operation " + seq + " waited "
                            + config.timeout().toSeconds() + " s for the operations issued before it on other streams"));
                } else if (order.end() != Wait.End.ABORTED) {
                    fail(failures.waitFailed(order, "operation " + seq, "waiting for the operations issued before it on other streams"));
                }
                break;
            }
        }
        started = seq;
        try {
            checkUsable();
            for (Work w : works) {
                run(w);
            }
        } catch (Throwable e) {
            String closedUnder = e instanceof IllegalStateException ? domain.closedUnder() : null;
            if (closedUnder != null) {
                // A rank of this process that aborted or left has closed its arena (the FIFOs it
                // receives on) under this one: report that rank, not the closed arena.
                JcclException j = new JcclException(ErrorCode.REMOTE_ERROR, rank, "operation " + seq + " failed: "
                        + closedUnder, e);
                fail(j);
                throw j;
            }
            fail(e);
            throw e;
        } finally {
            completed = seq;
        }
    }

    private void fail(Throwable e) {
        if (failure == null) {
            failure = e;
        }
        // A failure that started here (not another rank's abort reaching this one) is told to the peers.
        boolean first = !domain.aborted();
        String cause = "rank " + rank + " failed: " + e.getMessage();
        domain.abort(cause, rank, -1);
        if (first) {
            domain.comms[rank].tellPeers(cause);
        }
    }

    /** The collective this rank started last, or null (published for the ranks that wait on it). */
    Work current() {
        return current;
    }

    /** The number of the operation started last (0 before the first). */
    long lastStarted() {
        return started;
    }

    /** The number of the operation under way, or 0 between operations. */
    long running() {
        long s = started;
        return s != completed ? s : 0;
    }

    private void run(Work w) {
        if (w.call() != null) {
            current = w;
        }
        // Operations of a rank run one at a time, so its scratch is grown here, before any lane reads it.
        long need = w.plan().scratch() * w.elementSize();
        if (need > scratch.byteSize()) {
            scratch = arena.allocate(Math.max(need, 2 * scratch.byteSize()), 64);
        }
        int lanes = w.plan().lanes();
        if (lanes == 1) {
            lane0.run(w, scratch);
            return;
        }
        synchronized (workers) {
            while (workers.size() < lanes - 1) {
                workers.add(new LaneWorker(this, workers.size() + 1));
            }
        }
        LaneWorker.Job job = new LaneWorker.Job(w, scratch, lanes - 1);
        for (int l = 1; l < lanes; l++) {
            workers.get(l - 1).post(job);
        }
        Throwable mine = null;
        try {
            lane0.run(w, scratch);
        } catch (Throwable e) {
            mine = e;
            domain.abort("rank " + rank + " failed: " + e.getMessage(), rank, -1);
        }
        // The lanes' own waits have deadlines and see every abort, so this one needs neither: the
        // lanes end, failed or not.
        Wait helpers = new Wait(Wait.NOTHING, Wait.NO_DEADLINE, Wait.Pacing.HELPERS);
        helpers.begin();
        while (job.remaining.get() > 0) {
            helpers.pause();
        }
        Throwable f = mine != null ? mine : job.failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f != null) {
            throw new JcclException(ErrorCode.INTERNAL_ERROR, rank, "lane failed: " + f, f);
        }
    }
}
