// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

/** Sizes of the test matrices: sampled by default, whole with -Pfull (system property jccl.test.full). */
final class Matrix {
    static final boolean FULL = Boolean.getBoolean("jccl.test.full");

    private Matrix() {
    }

    static int[] rankCounts() {
        return FULL ? new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 31, 32, 33, 64}
                : new int[] {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32, 33, 64};
    }
}
