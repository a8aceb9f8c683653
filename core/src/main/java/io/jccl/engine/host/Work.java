package io.jccl.engine.host;

import io.jccl.plan.Plan;

import java.lang.foreign.MemorySegment;

/**
 * One planned operation of one rank: the plan, the user buffers its regions index (per operation of
 * a group), the element size, and the reduction (null when nothing is reduced).
 */
record Work(Plan plan, MemorySegment[] inputs, MemorySegment[] outputs, int elementSize, Reduction reduction,
            String description) {
}
