// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;

/** Memory registered with a {@link Net} for one comm ({@link Net#register}), until {@link Net#deregister}. */
public interface MemoryHandle {
    /** The segment given to {@link Net#register}, the same object. */
    MemorySegment region();

    MemoryKind kind();
}
