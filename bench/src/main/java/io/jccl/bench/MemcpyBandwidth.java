// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The yardstick printed above the perf table: how fast one thread copies a buffer of the sweep's
 * largest size between two native segments ({@link MemorySegment#copy}), so that a bus bandwidth
 * can be read as a fraction of what this machine's memory gives one core.
 */
final class MemcpyBandwidth {
    static final int SAMPLES = 5;
    /** Small copies are repeated until a sample lasts this long, so the clock's grain does not show. */
    private static final long MIN_SAMPLE_NANOS = 2_000_000;

    private MemcpyBandwidth() {
    }

    /** GB/s (10^9 bytes per second), the median of {@link #SAMPLES} samples; 0 for 0 bytes. */
    static double measure(long bytes) {
        if (bytes <= 0) {
            return 0;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(bytes, 64);
            MemorySegment dst = arena.allocate(bytes, 64);
            // Touch every page first so the samples time copying, not page faults.
            src.fill((byte) 1);
            dst.fill((byte) 0);
            MemorySegment.copy(src, 0, dst, 0, bytes);
            double[] gbps = new double[SAMPLES];
            for (int s = 0; s < SAMPLES; s++) {
                long reps = 0;
                long t0 = System.nanoTime();
                long elapsed;
                do {
                    MemorySegment.copy(src, 0, dst, 0, bytes);
                    reps++;
                    elapsed = System.nanoTime() - t0;
                } while (elapsed < MIN_SAMPLE_NANOS);
                gbps[s] = (double) bytes * reps / elapsed;
            }
            Arrays.sort(gbps);
            return gbps[SAMPLES / 2];
        }
    }
}
