// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/**
 * A schedule run {@code repeat} times over consecutive tiles: the i-th run adds
 * {@code firstShift + i * stride} elements to the offset of every region it touches.
 */
public record Segment(Schedule schedule, long firstShift, long stride, long repeat) {
    public Segment {
        if (firstShift < 0 || stride < 0 || repeat < 1) {
            throw new IllegalArgumentException("segment shift " + firstShift + " stride " + stride + " repeat " + repeat);
        }
    }

    /** The element shift of the i-th run. */
    public long shift(long i) {
        return firstShift + i * stride;
    }
}
