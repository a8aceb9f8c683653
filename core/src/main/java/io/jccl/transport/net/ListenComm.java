// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/** A listener of a {@link Net}: its handle goes to the other ranks through the bootstrap. */
public interface ListenComm {
    NetHandle handle();
}
