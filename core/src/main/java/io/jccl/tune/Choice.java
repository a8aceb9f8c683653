// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;

/**
 * How one call runs: its algorithm, protocol and number of channels, where that came from, and the
 * time the model or the simulator predicts for it (µs; NaN where the choice came from neither).
 */
public record Choice(Algorithm algorithm, Protocol protocol, int channels, Source source, double predictedMicros) {
    /** What decided. */
    public enum Source {
        /** The cost model. */
        MODEL,
        /** The simulator, playing each candidate's plan (JCCL_TUNER_SIM). */
        SIMULATED,
        /** A calibrated tuning table's best measured entry. */
        TABLE,
        /** A rule of an NCCL tuner-plugin CSV file. */
        RULES,
        /** Not tuned: send/recv exchanges always run direct, in Simple. */
        FIXED
    }

    @Override
    public String toString() {
        return algorithm.id() + "/" + protocol.id() + " x" + channels + " (" + source.name().toLowerCase()
                + (Double.isNaN(predictedMicros) ? "" : String.format(" %.2f us", predictedMicros)) + ")";
    }
}
