// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

/**
 * One lane of one rank's plan as the simulator walks it, in primitive arrays: the steps of each of
 * its segments (run {@code repeat} times over consecutive tiles), each step's cost on the lane, its
 * bytes per message, and the connections it takes messages from and sends them on. Made once
 * per run from the plan; a thousand ranks' lanes hold tens of millions of steps, so no step is an
 * object here.
 *
 * <pre>
 *  steps of segment s: [segmentStart[s], segmentStart[s+1])     repeated segmentRepeat[s] times
 *  step i: micros[i], bytes[i], connections[connStart[i] .. connStart[i] + recvs[i])  received
 *                               connections[connStart[i] + recvs[i] .. connStart[i+1]) sent on
 * </pre>
 */
final class LaneProgram {
    final int rank;
    final int lane;
    final int[] segmentStart;
    final long[] segmentRepeat;
    final double[] micros;
    final long[] bytes;
    final byte[] recvs;
    final int[] connStart;
    final int[] connections;

    LaneProgram(int rank, int lane, int[] segmentStart, long[] segmentRepeat, double[] micros, long[] bytes, byte[] recvs,
                int[] connStart, int[] connections) {
        this.rank = rank;
        this.lane = lane;
        this.segmentStart = segmentStart;
        this.segmentRepeat = segmentRepeat;
        this.micros = micros;
        this.bytes = bytes;
        this.recvs = recvs;
        this.connStart = connStart;
        this.connections = connections;
    }

    int segments() {
        return segmentRepeat.length;
    }

    /** Steps this lane runs, repeats counted. */
    long stepsRun() {
        long s = 0;
        for (int i = 0; i < segmentRepeat.length; i++) {
            s += (segmentStart[i + 1] - segmentStart[i]) * segmentRepeat[i];
        }
        return s;
    }
}
