// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.util.List;

/**
 * Everything one {@code jccl perf} run measured: the options, the single-thread memcpy bandwidth of
 * the largest size, and one row per size.
 */
public record PerfReport(PerfOptions options, double memcpyGBps, List<PerfRow> rows) {
    public PerfReport {
        rows = List.copyOf(rows);
    }

    /** Mean bus bandwidth over every measured column, in-place included (as nccl-tests averages). */
    public double avgBusbw() {
        double sum = 0;
        int n = 0;
        for (PerfRow r : rows) {
            for (PerfColumn c : new PerfColumn[] {r.outOfPlace(), r.inPlace()}) {
                if (c != null) {
                    sum += c.busbw();
                    n++;
                }
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Wrong elements over the whole run (nccl-tests' "out of bounds values"). */
    public long outOfBounds() {
        long sum = 0;
        for (PerfRow r : rows) {
            for (PerfColumn c : new PerfColumn[] {r.outOfPlace(), r.inPlace()}) {
                if (c != null && c.wrong() != null) {
                    sum += c.wrong();
                }
            }
        }
        return sum;
    }
}
