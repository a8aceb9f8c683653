// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;

/**
 * Where one proxy thread waits for the receiving comms it serves: {@link #await} returns when one
 * of them may progress (a frame arrived, a completion came), when {@link #wakeup} is called, or
 * after the given time, whichever is first. Used by its thread only, but {@link #wakeup}.
 */
public interface NetPoller extends AutoCloseable {
    void add(RecvComm comm) throws IOException;

    void remove(RecvComm comm);

    /** Waits at most {@code nanos} (0: only looks); true when something may progress. */
    boolean await(long nanos) throws IOException;

    /** Ends the current or next {@link #await} at once (any thread). */
    void wakeup();

    @Override
    void close();
}
