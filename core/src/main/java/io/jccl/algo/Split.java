// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

/** Balanced partition of n elements into parts: the first n % parts parts get one more. */
final class Split {
    private Split() {
    }

    static long start(long n, int parts, int i) {
        long base = n / parts;
        long extra = n % parts;
        return i * base + Math.min(i, extra);
    }

    static long size(long n, int parts, int i) {
        return n / parts + (i < n % parts ? 1 : 0);
    }
}
