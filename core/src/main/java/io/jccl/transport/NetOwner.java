// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

/**
 * What a {@link NetProxy} needs of the domain whose FIFOs it carries over the network: the host
 * engine's ({@code HostDomain}) or the CUDA engine's FIFOs in pinned host memory ({@link NetFifos}).
 */
public interface NetOwner {
    boolean aborted();

    /** Fails the domain: {@code cause} names rank {@code by}'s loss of rank {@code lost} (-1: none). */
    void abort(String cause, int by, int lost);

    /** The FIFO this process's rank {@code to} receives on from {@code from} (made on first use). */
    Fifo receiveFifo(Protocol protocol, int channel, int from, int to);

    /** Called on each proxy thread as it starts, before it serves a connection: where the owner pins it to its CPUs. */
    default void proxyThreadStarted() {
    }
}
