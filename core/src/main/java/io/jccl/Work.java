package io.jccl;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One call issued by an {@code ...Async} method of {@link Communicator}, as the handle torch's
 * {@code async_op=True} returns: it completes when the call has run on its stream, in order with
 * the stream's other work, and {@link #join()} rethrows that call's own failure (the stream's
 * {@link Stream#synchronize()} reports it as well). It is the host stream's completion, not a
 * second queue: the call still runs on the stream it was issued on.
 *
 * <pre>{@code
 * Work w = comm.allReduceAsync(buf, buf, n, DataType.FLOAT32, RedOp.SUM, stream);
 * prepareNextBatch();                 // the all-reduce runs meanwhile
 * if (!w.await(Duration.ofSeconds(30))) {
 *     comm.abort();                   // give up on a call that does not finish
 * }
 * }</pre>
 */
public final class Work {
    private final int rank;
    private final String what;
    private final CompletableFuture<Void> done;

    Work(int rank, String what, CompletableFuture<Void> done) {
        this.rank = rank;
        this.what = what;
        this.done = done;
    }

    /** Whether the call has finished, successfully or not (never blocks). */
    public boolean isCompleted() {
        return done.isDone();
    }

    /** Waits until the call has finished; throws its failure as a {@link JcclException}. */
    public void join() {
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        }
    }

    /**
     * Waits at most {@code timeout} for the call; false if it has not finished by then (it goes
     * on: abort the communicator to stop it); throws its failure as a {@link JcclException}.
     */
    public boolean await(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw JcclException.invalidArgument(rank, "timeout", timeout == null ? "is null" : "is negative: " + timeout);
        }
        try {
            done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        }
    }

    /** A future that completes with the call (exceptionally with its {@link JcclException}); completing it does nothing to the call. */
    public CompletableFuture<Void> toCompletableFuture() {
        return done.handle((v, t) -> {
            if (t != null) {
                throw failure(t instanceof java.util.concurrent.CompletionException c && c.getCause() != null ? c.getCause() : t);
            }
            return v;
        });
    }

    private JcclException failure(Throwable t) {
        return t instanceof JcclException j ? j
                : new JcclException(ErrorCode.INTERNAL_ERROR, rank, what + " failed: " + t, t);
    }

    @Override
    public String toString() {
        return "Work[" + what + " of rank " + rank + (isCompleted() ? ", completed]" : "]");
    }
}
