// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/**
 * A send or receive posted on an IB comm: one of the comm's ring, reused. For a send, where its
 * bytes lie (registered memory, a bounce copy, or inline); for a receive, the most it takes and,
 * once done, what the sender's completion said.
 */
final class IbRequest implements NetRequest {
    final IbComm comm;
    final int slot;
    /** The message's number on the connection. */
    long seq;
    /** Local address and key of the bytes (a send's source, a receive's buffer). */
    long address;
    int lkey;
    /** A send's bytes go inline in the work request (no key needed). */
    boolean inline;
    long size;
    long max;
    int stamp;
    /** Posted and not yet reported done by test. */
    boolean busy;
    /** Its completion came. */
    boolean done;

    IbRequest(IbComm comm, int slot) {
        this.comm = comm;
        this.slot = slot;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int stamp() {
        return stamp;
    }
}
