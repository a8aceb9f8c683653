// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

/**
 * One half of a perf table row: the out-of-place or the in-place measurement of one size.
 *
 * @param timeUs average time of one iteration in microseconds, the slowest rank's
 * @param algbw  algorithm bandwidth, GB/s
 * @param busbw  bus bandwidth, GB/s
 * @param wrong  output elements that differed from the expected result, summed over ranks;
 *               null when the check was off ({@code -c 0})
 */
public record PerfColumn(double timeUs, double algbw, double busbw, Long wrong) {
}
