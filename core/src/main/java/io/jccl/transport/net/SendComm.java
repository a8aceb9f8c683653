// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/** The sending end of a connection: {@link Net#connect} makes it, {@link Net#isend} posts on it. */
public interface SendComm extends NetComm {
}
