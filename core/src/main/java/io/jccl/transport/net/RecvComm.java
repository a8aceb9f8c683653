// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/** The receiving end of a connection: {@link Net#accept} makes it, {@link Net#irecv} posts on it. */
public interface RecvComm extends NetComm {
}
