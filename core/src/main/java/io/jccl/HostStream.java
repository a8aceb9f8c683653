// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.host.StreamRunner;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The host engine's stream: operations issued on it run in order on its own thread, while the
 * caller goes on; {@link #synchronize()} waits for them (and runs them itself if the stream's
 * thread has not started them, which saves a thread hand-off for small calls). Buffers used on a
 * host stream must be accessible from other threads: heap arrays, or memory from a shared, global
 * or automatic arena, not a confined one.
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="host-stream"}
 */
public final class HostStream implements Stream, AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();

    private final StreamRunner runner;

    public HostStream() {
        runner = new StreamRunner("jccl-stream-" + IDS.incrementAndGet());
    }

    StreamRunner runner() {
        return runner;
    }

    @Override
    public void synchronize() {
        runner.synchronize();
    }

    @Override
    public boolean query() {
        return runner.idle();
    }

    /** Waits for the queued operations, then stops the stream's thread. */
    @Override
    public void close() {
        runner.close();
    }
}
