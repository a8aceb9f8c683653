// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

/**
 * One line of the perf table.
 *
 * @param size      nccl-tests' size column: bytes of the larger of a rank's input and output
 * @param count     the count argument of the call (elements; per-rank block where there are blocks)
 * @param type      the data type's name as printed
 * @param redop     the reduction, or "none" for collectives that do not reduce
 * @param root      the root, or -1 for collectives without one
 * @param algorithm the algorithm the library chose for this size
 * @param protocol  the protocol it chose
 * @param inPlace   null where the collective has no in-place form
 */
public record PerfRow(long size, long count, String type, String redop, int root, String algorithm,
                      String protocol, PerfColumn outOfPlace, PerfColumn inPlace) {
}
