// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/** A posted send or receive; owned by its comm and reused, never made per message. */
public interface NetRequest {
    /** Bytes sent, or received: valid once {@link Net#test} said done, until the comm's next post. */
    long size();

    /** The stamp the sender gave the message (a receive's, valid as {@link #size()}); 0 for none. */
    int stamp();
}
