// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clear-to-send FIFO's slots and the flow control they make: a message is written only into a
 * buffer posted for it, a slot's old content is never taken for a new message, and a receiver
 * with {@code n} requests and a sender that waits for its slot never get ahead of each other.
 */
class IbCtsTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void aSlotCarriesTheBufferOnceItsReceiveWasPosted() {
        int n = 4;
        MemorySegment fifo = arena.allocate((long) IbCts.SLOT * n, IbCts.SLOT);
        assertThat(IbCts.ready(fifo, n, 0)).as("a fresh FIFO").isFalse();
        IbCts.fill(fifo, n, 0, 0x1000_2000L, 65536, 0x1234);
        assertThat(IbCts.ready(fifo, n, 0)).isTrue();
        assertThat(IbCts.address(fifo, n, 0)).isEqualTo(0x1000_2000L);
        assertThat(IbCts.size(fifo, n, 0)).isEqualTo(65536);
        assertThat(IbCts.rkey(fifo, n, 0)).isEqualTo(0x1234);
        assertThat(IbCts.ready(fifo, n, 1)).isFalse();
        assertThat(IbCts.ready(fifo, n, 4)).as("message 4 shares slot 0 and must not take message 0's buffer").isFalse();
        IbCts.fill(fifo, n, 4, 0x3000, 8, 0x99);
        assertThat(IbCts.ready(fifo, n, 4)).isTrue();
        assertThat(IbCts.ready(fifo, n, 0)).isFalse();
        assertThat(IbCts.address(fifo, n, 4)).isEqualTo(0x3000);
        assertThat(IbCts.offset(5, n)).isEqualTo(IbCts.SLOT);
        assertThat(IbCts.WRITTEN).isLessThanOrEqualTo(IbCts.SLOT);
    }

    /**
     * A receiver with {@code n} requests and a sender with {@code n} requests, stepped in a random
     * order over one FIFO: every message goes into the buffer posted for it, in order, never
     * beyond its size; the sender never writes a message whose receive is not posted.
     */
    @Test
    void senderAndReceiverNeverOverrunEachOther() {
        int n = 8;
        MemorySegment fifo = arena.allocate((long) IbCts.SLOT * n, IbCts.SLOT);
        Random random = new Random(27);
        long received = 0;
        long posted = 0;
        long written = 0;
        long sent = 0;
        ArrayDeque<Long> inFlight = new ArrayDeque<>(); // messages written, not yet completed at the receiver
        List<Long> arrivals = new ArrayList<>();
        int total = 10_000;
        while (received < total) {
            switch (random.nextInt(4)) {
                case 0 -> { // the receiver posts, while it has a free request
                    if (posted - received < n && posted < total) {
                        IbCts.fill(fifo, n, posted, 0x10_0000L + posted * 64, 64 + posted % 7, (int) posted);
                        posted++;
                    }
                }
                case 1 -> { // the sender posts a send, while it has a free request
                    if (sent - received < n && sent < total) {
                        sent++;
                    }
                }
                case 2 -> { // the sender writes what it may
                    while (written < sent && IbCts.ready(fifo, n, written)) {
                        assertThat(written).as("a write before its receive was posted").isLessThan(posted);
                        assertThat(IbCts.address(fifo, n, written)).isEqualTo(0x10_0000L + written * 64);
                        assertThat(IbCts.size(fifo, n, written)).isEqualTo(64 + written % 7);
                        assertThat(IbCts.rkey(fifo, n, written)).isEqualTo((int) written);
                        inFlight.add(written++);
                    }
                }
                default -> { // a write completes at the receiver
                    if (!inFlight.isEmpty()) {
                        arrivals.add(inFlight.poll());
                        received++;
                    }
                }
            }
            assertThat(posted - received).isBetween(0L, (long) n);
            assertThat(written).isLessThanOrEqualTo(posted);
        }
        for (int i = 0; i < total; i++) {
            assertThat(arrivals.get(i)).isEqualTo(i);
        }
    }
}
