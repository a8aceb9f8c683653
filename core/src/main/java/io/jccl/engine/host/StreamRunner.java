package io.jccl.engine.host;

import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The ordered, asynchronous queue behind a host stream. Tasks run one at a time in order, by
 * whichever thread claims the queue first: the stream's own thread (so work progresses while the
 * caller does something else) or the caller itself inside {@link #synchronize()} (so a caller that
 * waits right away pays no thread hand-off). The stream's thread leaves a fresh task alone for a
 * short grace period to let such a caller take it.
 */
public final class StreamRunner implements AutoCloseable {
    private static final long GRACE_NANOS = 50_000;
    private static final long DEEP_IDLE_NANOS = 20_000_000;

    private record Task(Runnable body, long enqueuedNanos) {
    }

    private final ConcurrentLinkedQueue<Task> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean parked;
    private volatile boolean closed;
    private volatile Throwable failure;

    public StreamRunner(String name) {
        thread = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
        thread.start();
    }

    /** The stream's own thread: buffers used on this stream must be accessible from it. */
    public Thread thread() {
        return thread;
    }

    public void enqueue(Runnable body) {
        if (closed) {
            throw new JcclException(ErrorCode.INVALID_USAGE, JcclException.NO_RANK, "the stream is closed");
        }
        queue.add(new Task(body, System.nanoTime()));
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Runs every queued task if no other thread is running them; false if one is. */
    private boolean drain(boolean graceful) {
        Task head = queue.peek();
        if (head == null || (graceful && System.nanoTime() - head.enqueuedNanos() < GRACE_NANOS)) {
            return false;
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
                }
            }
        } finally {
            running.set(false);
        }
        return true;
    }

    /** Whether every task issued so far has finished. */
    public boolean idle() {
        return queue.isEmpty() && !running.get();
    }

    /** Waits until every task issued so far has run; rethrows the first failure since the last call. */
    public void synchronize() {
        int spins = 0;
        long park = 1_000;
        while (true) {
            drain(false);
            if (queue.isEmpty() && !running.get()) {
                break;
            }
            if (++spins < 256) {
                Thread.onSpinWait();
            } else if (spins < 320) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, 1_000_000);
            }
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
        long idleSince = System.nanoTime();
        long park = GRACE_NANOS / 4;
        while (!closed) {
            if (drain(true)) {
                idleSince = System.nanoTime();
                park = GRACE_NANOS / 4;
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
