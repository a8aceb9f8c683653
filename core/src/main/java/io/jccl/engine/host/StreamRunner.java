// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.engine.EngineStream;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The ordered, asynchronous queue behind a host stream. Tasks run one at a time in order, by
 * whichever thread claims the queue first: the stream's own thread (so work progresses while the
 * caller does something else) or the caller itself inside {@link #synchronize()} (so a caller that
 * waits right away pays no thread hand-off). The stream's thread takes the queue only once the
 * caller has stopped issuing for {@link #GRACE_NANOS}, or once a task has waited
 * {@link #MAX_DEFER_NANOS}: a caller still issuing a batch then runs it itself in synchronize(),
 * instead of competing for the cores with the thread that runs it (two busy threads per rank cost
 * a core each).
 */
public final class StreamRunner implements EngineStream, AutoCloseable {
    private static final long GRACE_NANOS = 50_000;
    /**
     * Tasks a stream holds before {@link #enqueue} waits: a caller that issues thousands of calls
     * while the stream's thread runs them keeps two busy threads per rank, and on few cores a
     * waiting lane's yield then hands its core to the issuing thread for a whole time slice (a
     * CUDA stream's launch queue, some 1024 launches deep, blocks the same way). The issuing
     * thread only parks: running the tasks itself could deadlock a thread that drives several
     * ranks. Such a thread must use groups, as with NCCL: issuing over 1024 calls to one rank
     * before the others' would wait until JCCL_TIMEOUT fails them.
     */
    static final int MAX_PENDING = 1024;
    private static final long MAX_DEFER_NANOS = 1_000_000;
    private static final long DEEP_IDLE_NANOS = 20_000_000;

    private record Task(Runnable body, long enqueuedNanos) {
    }

    private final ConcurrentLinkedQueue<Task> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean parked;
    private volatile boolean closed;
    /** A thread parked in {@link #synchronize()}: woken by whichever thread finishes running the queue. */
    private volatile Thread syncWaiter;
    private volatile Throwable failure;
    /** Tasks that failed so far, and the last such failure: what {@link #completion} reports to its call. */
    private volatile long failures;
    private volatile Throwable lastFailure;
    private volatile long lastEnqueueNanos;
    private final AtomicInteger pending = new AtomicInteger();
    /** A thread parked in {@link #enqueue} until the queue shrinks. */
    private volatile Thread enqueueWaiter;
    /** Times the stream's thread slept while another thread ran the queue (written by that thread alone). */
    private volatile long waitsWhileRun;

    public StreamRunner(String name) {
        thread = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
        thread.start();
    }

    @Override
    public String apiName() {
        return "HostStream";
    }

    /** The stream's own thread: buffers used on this stream must be accessible from it. */
    public Thread thread() {
        return thread;
    }

    public void enqueue(Runnable body) {
        if (closed) {
            throw new JcclException(ErrorCode.INVALID_USAGE, JcclException.NO_RANK, "the stream is closed");
        }
        if (pending.get() >= MAX_PENDING) {
            awaitRoom();
        }
        long now = System.nanoTime();
        lastEnqueueNanos = now;
        pending.incrementAndGet();
        queue.add(new Task(body, now));
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    private void awaitRoom() {
        Thread me = Thread.currentThread();
        // Until the queue is empty: the caller then issues the next burst while the stream's thread
        // waits out its grace period, so the two alternate instead of competing for the cores.
        while (pending.get() > 0) {
            enqueueWaiter = me;
            // This thread is about to sleep: the stream's thread must run the queue now, even if
            // it is in a timed sleep (where enqueue does not wake it).
            LockSupport.unpark(thread);
            if (pending.get() > 0) {
                LockSupport.parkNanos(1_000_000);
            }
            enqueueWaiter = null;
        }
    }

    /** Runs every queued task if no other thread is running them; false if one is. */
    private boolean drain(boolean graceful) {
        Task head = queue.peek();
        if (head == null) {
            return false;
        }
        if (graceful) {
            long now = System.nanoTime();
            if (now - lastEnqueueNanos < GRACE_NANOS && now - head.enqueuedNanos() < MAX_DEFER_NANOS) {
                return false;
            }
        }
        if (!running.compareAndSet(false, true)) {
            return false;
        }
        try {
            Task t;
            while ((t = queue.poll()) != null) {
                try {
                    t.body().run();
                } catch (Throwable e) {
                    if (failure == null) {
                        failure = e;
                    }
                    lastFailure = e;
                    failures++; // only the thread holding the queue writes it
                }
                if (pending.decrementAndGet() == 0) {
                    Thread w = enqueueWaiter;
                    if (w != null) {
                        LockSupport.unpark(w);
                    }
                }
            }
        } finally {
            if (Thread.currentThread() != thread) {
                // A caller that ran the queue leaves its lanes' cores (RankCpus).
                RankCpus.release();
            }
            running.set(false);
            Thread w = syncWaiter;
            if (w != null && w != Thread.currentThread()) {
                LockSupport.unpark(w);
            }
            if (Thread.currentThread() != thread && !queue.isEmpty()) {
                // Tasks came in after this thread's last look: the stream's thread sleeps until told.
                LockSupport.unpark(thread);
            }
        }
        return true;
    }

    /**
     * Issues {@code issue} (which enqueues tasks on this stream) between two marks, and returns
     * what completes once its tasks have run: normally, or with the failure of one of them. The
     * marks are tasks of this stream, so they run in order with the call's own; a failure of
     * earlier work is not the call's. {@link #synchronize()} still reports the failure too.
     */
    public CompletableFuture<Void> completion(Runnable issue) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        long[] before = new long[1];
        enqueue(() -> before[0] = failures);
        try {
            issue.run();
        } finally {
            enqueue(() -> {
                if (failures != before[0]) {
                    done.completeExceptionally(lastFailure);
                } else {
                    done.complete(null);
                }
            });
        }
        return done;
    }

    /** Times the stream's own thread slept while another thread ran its queue: each one a wake-up that cost a core. */
    long waitsWhileRun() {
        return waitsWhileRun;
    }

    /** Whether every task issued so far has finished. */
    public boolean idle() {
        return queue.isEmpty() && !running.get();
    }

    /** Waits until every task issued so far has run; rethrows the first failure since the last call. */
    public void synchronize() {
        int spins = 0;
        while (true) {
            drain(false);
            if (queue.isEmpty() && !running.get()) {
                break;
            }
            if (++spins < 256) {
                Thread.onSpinWait();
                continue;
            }
            // Another thread (the stream's own) is running the queue: sleep until it is done
            // instead of spinning or polling on a core it may need; its drain wakes this thread.
            // Tasks left with no one running them are this thread's to run, at the loop's top.
            syncWaiter = Thread.currentThread();
            if (running.get()) {
                LockSupport.parkNanos(DEEP_IDLE_NANOS);
            }
            syncWaiter = null;
        }
        Throwable f = failure;
        if (f != null) {
            failure = null;
            if (f instanceof JcclException j) {
                throw j;
            }
            throw new JcclException(ErrorCode.INTERNAL_ERROR, JcclException.NO_RANK, "stream task failed: " + f, f);
        }
    }

    private void loop() {
        RankCpus.ownThread();
        long idleSince = System.nanoTime();
        long park = GRACE_NANOS / 4;
        while (!closed) {
            if (drain(true)) {
                idleSince = System.nanoTime();
                park = GRACE_NANOS / 4;
                continue;
            }
            if (!queue.isEmpty()) {
                if (running.get()) {
                    // Another thread (a caller in synchronize()) runs the queue, for as long as the
                    // call takes. Polling it would take the cores from that call (each wake-up costs
                    // tens of µs on a loaded machine); the runner wakes this thread if it leaves
                    // tasks behind, and an enqueue does since it is marked parked.
                    parked = true;
                    if (running.get() && !queue.isEmpty()) {
                        LockSupport.parkNanos(this, DEEP_IDLE_NANOS);
                        waitsWhileRun++;
                    }
                    parked = false;
                } else {
                    // Tasks in their grace period: take them as soon as it ends.
                    LockSupport.parkNanos(GRACE_NANOS / 4);
                }
                idleSince = System.nanoTime();
                continue;
            }
            if (System.nanoTime() - idleSince < DEEP_IDLE_NANOS) {
                // Sleep only, no spinning: on a machine with few cores an idle stream thread that
                // spins takes the core from a rank thread whose peer is waiting on it. Not marked
                // parked: waking it on every enqueue would cost the caller a system call, where
                // the caller itself usually runs the task in synchronize().
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, 1_000_000);
            } else {
                parked = true;
                if (queue.isEmpty() && !closed) {
                    LockSupport.park(this);
                }
                parked = false;
                idleSince = System.nanoTime();
                park = GRACE_NANOS / 4;
            }
        }
    }

    /** Stops the stream's thread once queued tasks have run. */
    @Override
    public void close() {
        if (!closed) {
            synchronize();
            closed = true;
            LockSupport.unpark(thread);
        }
    }
}
