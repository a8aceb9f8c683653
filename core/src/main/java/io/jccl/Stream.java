// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * An ordered queue of operations: those issued on one stream run in issue order, asynchronously to
 * the caller. The host engine's is {@link HostStream}; the CUDA engine's wraps a CUDA stream.
 * Code written against {@code Stream} runs on either engine (the tests call this one with a
 * {@link HostStream}):
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="stream"}
 */
public interface Stream {
    /** Waits until every operation issued on this stream so far has finished; rethrows a failure. */
    void synchronize();

    /** Whether every operation issued so far has finished (never blocks). */
    boolean query();
}
