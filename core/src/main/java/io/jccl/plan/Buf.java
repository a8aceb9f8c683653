// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/** The user buffers a step reads or writes. */
public enum Buf {
    /** The send buffer of the call (or of point-to-point operation {@link Region#op()}). */
    INPUT,
    /** The receive buffer. */
    OUTPUT,
    /**
     * Working memory of the rank, {@link Plan#scratch()} elements the engine provides for the call:
     * where algorithms that must keep a partial result (recursive halving, butterfly, the two-phase
     * reduce-scatter) keep it. Unlike the user buffers, scratch regions are not shifted per tile
     * (each tile reuses the same scratch), may be written many times by one lane, and are never
     * sent by reference.
     */
    SCRATCH
}
