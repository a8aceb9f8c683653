// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * What a call would cost, as {@link Communicator#estimate} predicts it without running it (NCCL's
 * {@code ncclGroupSimulateEnd}): how the communicator would run it, the µs the simulator predicts
 * for one such call once calls follow each other, and the fabric it was played on (so that a
 * reader knows which links and which calibration the figure rests on):
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="call-estimate"}
 *
 * @param choice the algorithm, protocol and channels simulated: the communicator's own choice
 * @param micros predicted µs per call
 * @param fabric the modelled fabric, in words
 * @param how    {@code exact} where every step of the call was played; past the simulator's step
 *               budget (a job of thousands of GPUs), from which exact runs on fewer nodes it was
 *               predicted, or that the tuner's model priced it and why
 */
public record CallEstimate(CallChoice choice, double micros, String fabric, String how) {
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%s: %.1f us on %s%s", choice, micros, fabric, how.equals(io.jccl.sim.CallSimulator.Estimate.EXACT) ? "" : " (" + how + ")");
    }
}
