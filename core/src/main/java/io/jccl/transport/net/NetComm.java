// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/** One end of one connection of a {@link Net}. */
public interface NetComm {
    /** The tag the sender connected with: which connection this is. */
    long tag();
}
