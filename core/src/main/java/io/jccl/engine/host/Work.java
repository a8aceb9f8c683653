// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;

import java.lang.foreign.MemorySegment;

/**
 * One planned operation of one rank: the plan, the protocol its messages travel in, the user buffers
 * its regions index (per operation of a group), the element size, the reduction (null when nothing is reduced), and whether input
 * regions may be sent by reference (only when no output overlaps an input: the call does not write
 * its input), and for a collective the call itself, its sequence number on the communicator and
 * the stamp its messages carry (0: not stamped, as send/recv groups and JCCL_CHECK_CALLS=0).
 */
record Work(Plan plan, Protocol protocol, MemorySegment[] inputs, MemorySegment[] outputs, int elementSize, Reduction reduction,
            boolean inputStable, java.util.function.Supplier<String> about, io.jccl.engine.CollectiveArgs call, long seq,
            int stamp) {
    /** What the operation is, for error messages: built only when one is thrown, not on every call. */
    String description() {
        return about.get();
    }
}
