// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import java.lang.foreign.MemorySegment;

/**
 * A buffer registered with one rank of a communicator ({@link Communicator#register}), as the
 * handle {@code ncclCommRegister} returns: give it back to {@link Communicator#deregister} once no
 * call in flight uses the buffer; closing the communicator drops what is still registered. The
 * same buffer may be registered several times, each registration its own handle.
 *
 * <p>What it buys: on the host engine, large messages that the network transport sends out of the
 * buffer go without staging (on the IB net: RDMA straight from the buffer, whose memory region is
 * registered once per page range and shared); on the CUDA engine, calls on the buffer skip the
 * device-memory check.
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="registration"}
 */
public final class Registration {
    private final Communicator comm;
    private final MemorySegment buffer;
    private boolean released;

    Registration(Communicator comm, MemorySegment buffer) {
        this.comm = comm;
        this.buffer = buffer;
    }

    /** The buffer given to {@link Communicator#register}. */
    public MemorySegment buffer() {
        return buffer;
    }

    /** Whether it still holds: false once deregistered or its communicator closed. */
    public synchronized boolean registered() {
        return !released && !comm.isClosed();
    }

    Communicator communicator() {
        return comm;
    }

    /** Marks it released; false when it already was. */
    synchronized boolean release() {
        if (released) {
            return false;
        }
        released = true;
        return true;
    }

    @Override
    public String toString() {
        return "registration of " + buffer.byteSize() + " bytes at 0x" + Long.toHexString(buffer.address()) + " with rank "
                + comm.rank();
    }
}
