// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import java.lang.foreign.MemorySegment;

/** Facts about user memory that the API's checks and the engines both need. */
public final class Memory {
    private Memory() {
    }

    /** Whether the first {@code aBytes} of {@code a} and the first {@code bBytes} of {@code b} share memory. */
    public static boolean overlap(MemorySegment a, long aBytes, MemorySegment b, long bBytes) {
        if (a == null || b == null || aBytes == 0 || bBytes == 0 || a.heapBase().orElse(null) != b.heapBase().orElse(null)) {
            return false;
        }
        return a.address() < b.address() + bBytes && b.address() < a.address() + aBytes;
    }
}
