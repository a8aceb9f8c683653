// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.Collective;

import java.lang.foreign.MemorySegment;

/** A collective call as the API checked it: what every engine receives. {@code op} is null when nothing reduces. */
public record CollectiveArgs(Collective collective, MemorySegment send, MemorySegment recv, long count, DataType type,
                             RedOp op, int root) {
}
