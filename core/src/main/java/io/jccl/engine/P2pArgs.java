// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.DataType;

import java.lang.foreign.MemorySegment;

/** A send or a receive as the API checked it. */
public record P2pArgs(boolean send, MemorySegment buffer, long count, DataType type, int peer) {
    public long bytes() {
        return type.bytes(count);
    }
}
