// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The clear-to-send FIFO of a connection of the IB net: {@code n} slots in the sender's memory
 * ({@code n} = the comm's requests), into which the receiver RDMA-writes, for its {@code m}-th
 * receive, where the message may go: slot {@code m mod n} gets the buffer's address, size and
 * rkey, and last the message's number plus one. The sender writes message {@code m} only once
 * slot {@code m mod n} carries {@code m + 1}, so it never overruns a buffer nor writes into one
 * not posted; the receiver posts receive {@code m + n} only after message {@code m} arrived, by
 * which time the sender has read its slot. A stale slot carries an older number and is not taken.
 * The number is written last in one write request, as NCCL's FIFO relies on an RDMA write landing
 * in order.
 */
final class IbCts {
    private IbCts() {
    }

    /** Bytes of a slot: address, size, rkey, number; 32 to keep slots aligned. */
    static final int SLOT = 32;
    /** Bytes a receiver writes into a slot (the rest is padding). */
    static final int WRITTEN = 24;
    private static final long ADDRESS = 0;
    private static final long SIZE = 8;
    private static final long RKEY = 16;
    private static final long NUMBER = 20;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final VarHandle NUMBER_HANDLE = ValueLayout.JAVA_INT.varHandle();

    /** Where in a FIFO of {@code slots} slots message {@code m}'s slot starts. */
    static long offset(long m, int slots) {
        return (m % slots) * SLOT;
    }

    /** Fills the slot of receive {@code m} in {@code fifo} (the receiver's staging copy, which it then writes remotely). */
    static void fill(MemorySegment fifo, int slots, long m, long address, long size, int rkey) {
        long at = offset(m, slots);
        fifo.set(LONG, at + ADDRESS, address);
        fifo.set(LONG, at + SIZE, size);
        fifo.set(INT, at + RKEY, rkey);
        fifo.set(INT, at + NUMBER, number(m));
    }

    /** Whether message {@code m}'s slot in {@code fifo} has been written (acquire: its other fields may be read then). */
    static boolean ready(MemorySegment fifo, int slots, long m) {
        return (int) NUMBER_HANDLE.getAcquire(fifo, offset(m, slots) + NUMBER) == number(m);
    }

    static long address(MemorySegment fifo, int slots, long m) {
        return fifo.get(LONG, offset(m, slots) + ADDRESS);
    }

    static long size(MemorySegment fifo, int slots, long m) {
        return fifo.get(LONG, offset(m, slots) + SIZE);
    }

    static int rkey(MemorySegment fifo, int slots, long m) {
        return fifo.get(INT, offset(m, slots) + RKEY);
    }

    /** What slot {@code m} carries when written: never 0, which a fresh FIFO holds (until 2^32 messages wrap it). */
    private static int number(long m) {
        int n = (int) (m + 1);
        return n == 0 ? 1 : n;
    }
}
