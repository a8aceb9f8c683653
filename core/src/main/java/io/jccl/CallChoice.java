// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * How a communicator runs calls of one shape: the algorithm and protocol (by their
 * {@code JCCL_ALGO}/{@code JCCL_PROTO} names), the channels, and what decided ({@code model},
 * {@code table} for a calibrated tuning table, {@code rules} for NCCL tuner-plugin rules), as
 * {@link Communicator#choiceFor} tells it; every rank answers alike:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="call-choice"}
 */
public record CallChoice(String algorithm, String protocol, int channels, String source) {
    @Override
    public String toString() {
        return algorithm + "/" + protocol + " x" + channels + " (" + source + ")";
    }
}
