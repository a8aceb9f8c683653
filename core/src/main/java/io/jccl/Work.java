// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.CallCompletion;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One call issued by an {@code ...Async} method of {@link Communicator}, as the handle torch's
 * {@code async_op=True} returns: it completes when the call has run on its stream, in order with
 * the stream's other work, and {@link #join()} rethrows that call's own failure (the stream's
 * {@link Stream#synchronize()} reports it as well). It is the stream's own completion, not a
 * second queue: marks among a {@link HostStream}'s tasks, a CUDA event recorded after the call's
 * launches on a {@link CudaStream} (whose failures are its communicator's: a CUDA rank that fails
 * fails every call after).
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="work"}
 */
public final class Work {
    private final int rank;
    private final String what;
    private final CallCompletion completion;
    /** The host stream's future of the call; null on a CUDA stream, whose event is polled. */
    private final CompletableFuture<Void> future;

    private Work(int rank, String what, CallCompletion completion, CompletableFuture<Void> future) {
        this.rank = rank;
        this.what = what;
        this.completion = completion;
        this.future = future;
    }

    /** A call on a CUDA stream: its event says when it ran, its communicator whether it failed. */
    static Work of(int rank, String what, CallCompletion completion) {
        return new Work(rank, what, completion, null);
    }

    /** A call on a host stream, whose marks complete {@code future}. */
    static Work of(int rank, String what, CompletableFuture<Void> future) {
        Work[] self = new Work[1];
        CallCompletion c = new CallCompletion() {
            @Override
            public boolean done() {
                return future.isDone() && await(0);
            }

            @Override
            public boolean await(long nanos) {
                try {
                    future.get(nanos, TimeUnit.NANOSECONDS);
                    return true;
                } catch (TimeoutException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted while waiting for " + what, e);
                } catch (ExecutionException e) {
                    throw self[0].failure(e.getCause());
                }
            }
        };
        self[0] = new Work(rank, what, c, future);
        return self[0];
    }

    /** Whether the call has finished, successfully or not (never blocks). */
    public boolean isCompleted() {
        try {
            return completion.done();
        } catch (JcclException e) {
            return true;
        }
    }

    /** Waits until the call has finished; throws its failure as a {@link JcclException}. */
    public void join() {
        completion.await(Long.MAX_VALUE);
    }

    /**
     * Waits at most {@code timeout} for the call; false if it has not finished by then (it goes
     * on: abort the communicator to stop it); throws its failure as a {@link JcclException}.
     */
    public boolean await(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw JcclException.invalidArgument(rank, "timeout", timeout == null ? "is null" : "is negative: " + timeout);
        }
        return completion.await(timeout.toNanos());
    }

    /**
     * A future that completes with the call (exceptionally with its {@link JcclException});
     * completing it does nothing to the call. On a CUDA stream a thread of the common pool waits
     * for the call's event.
     */
    public CompletableFuture<Void> toCompletableFuture() {
        if (future == null) {
            return CompletableFuture.runAsync(this::join);
        }
        return future.handle((v, t) -> {
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
