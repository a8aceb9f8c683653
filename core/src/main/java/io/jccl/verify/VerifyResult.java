// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

import java.util.List;

/**
 * What the verifier found: the faults (empty when the plan is correct), and how much it executed.
 * Each fault names the rank, lane, tile and step, or the output element, at fault.
 */
public record VerifyResult(List<String> faults, long steps, long messages, long elementsMoved) {
    public VerifyResult {
        faults = List.copyOf(faults);
    }

    public boolean ok() {
        return faults.isEmpty();
    }

    /** The faults, one a line; "ok" when there are none. */
    public String describe() {
        return ok() ? "ok" : String.join("\n", faults);
    }
}
