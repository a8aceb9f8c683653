// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

/**
 * When one call issued on a stream has run, as its stream knows it: a host stream by marks among
 * its tasks, a CUDA stream by an event recorded after the call's launches.
 */
public interface CallCompletion {
    /** Whether the call has finished (never blocks); once it has, throws its failure, if any. */
    boolean done();

    /** Waits at most {@code nanos} for the call; whether it finished; throws its failure. */
    boolean await(long nanos);
}
