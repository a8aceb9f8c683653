// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;

/**
 * Makes the plan of a collective call on a channel structure, for the call's
 * {@link Call#ranks() planned ranks}. Ring (all-reduce, all-gather, reduce-scatter, broadcast,
 * reduce), tree and split tree plan per rank: what a rank's plan costs grows with its own steps
 * only. The others (hierarchical, recursive, PAT, pipeline, two-phase, direct) lay out every rank
 * and keep the planned ones' steps.
 */
@FunctionalInterface
public interface Generator {
    /**
     * @param call       the call every rank agrees on
     * @param channels   the rings and trees to lay the schedule on; a generator uses all channels
     * @param maxMessage the most elements one message may carry (a FIFO slot's capacity)
     */
    Plan plan(Call call, Channels channels, long maxMessage);
}
