// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import java.util.Map;
import java.util.TreeMap;

/**
 * The user buffers a rank registered (as ncclCommRegister): address ranges whose memory kind was
 * checked once, so calls on them skip the driver query. Thread-safe.
 */
final class BufferRegistry {
    /** start address -> end address (exclusive), with a count of registrations of that range. */
    private final TreeMap<Long, long[]> ranges = new TreeMap<>();

    synchronized void add(long start, long bytes) {
        long[] r = ranges.get(start);
        if (r != null && r[0] == start + bytes) {
            r[1]++;
        } else {
            ranges.put(start, new long[] {start + bytes, 1});
        }
    }

    /** Removes one registration of exactly this range; false if there is none. */
    synchronized boolean remove(long start, long bytes) {
        long[] r = ranges.get(start);
        if (r == null || r[0] != start + bytes) {
            return false;
        }
        if (--r[1] == 0) {
            ranges.remove(start);
        }
        return true;
    }

    /** Whether {@code [start, start + bytes)} lies inside one registered range. */
    synchronized boolean covers(long start, long bytes) {
        Map.Entry<Long, long[]> e = ranges.floorEntry(start);
        return e != null && start + bytes <= e.getValue()[0];
    }

    synchronized int size() {
        return ranges.size();
    }
}
