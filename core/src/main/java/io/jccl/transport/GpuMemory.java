// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

/**
 * What the transports need of the GPU a local rank of the CUDA engine runs on, to place the FIFOs
 * of its connections there: its identity, its context, zeroed device memory that lives as long as
 * the communicator, and peer access to another GPU's memory.
 */
public interface GpuMemory {
    /** The GPU's PCI bus id (how ranks in several processes name it). */
    String busId();

    /** The GPU's ordinal in this process's driver. */
    int ordinal();

    /** Makes the GPU's context current on the calling thread. */
    void makeCurrent();

    /** Device memory of the communicator's lifetime, zeroed before any kernel sees it. */
    long zeroed(long bytes);

    /** Lets this GPU's kernels write {@code other}'s memory (once per pair; the caller checked that they may). */
    void reach(GpuMemory other);
}
