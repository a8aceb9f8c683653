// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Single-copy messages of a Simple FIFO in shared memory: the handshake, the reference in the slot,
 * both ways the receiver copies it out (straight to its destination, or into the slot), and the
 * fall-backs. Sender and receiver are this process here (cross-memory attach of one's own pid works
 * like any other); {@code MultiProcessTest} runs it between two JVMs.
 */
class SingleCopyTest {
    private static final long BUFF = 4 << 20;
    private static final long BYTES = 256 << 10;

    private static MemorySegment random(Arena a, long bytes, long seed) {
        MemorySegment s = a.allocate(bytes, 64);
        Random r = new Random(seed);
        for (long i = 0; i < bytes; i += 8) {
            s.set(ValueLayout.JAVA_LONG, i, r.nextLong());
        }
        return s;
    }

    /** A FIFO over "shared" memory (any segment: the FIFO is then one whose peer it cannot wake). */
    private static SimpleFifo shared(Arena a) {
        MemorySegment shm = a.allocate(Fifo.bytes(Protocol.SIMPLE.slotBytes(BUFF)), 4096);
        return (SimpleFifo) Fifo.over(Protocol.SIMPLE, a, shm, 0, 0, 1, BUFF);
    }

    /** Sends one message inline and takes it, so that the receiver probes the sender. */
    private static void firstMessage(Arena a, SimpleFifo f) {
        f.send(random(a, 64, 0), 0, 64, false);
        assertThat(f.hasData()).isTrue();
        f.release();
    }

    @Test
    void afterTheProbeLargeMessagesTravelAsAnAddressAndArriveWhole() {
        try (Arena a = Arena.ofConfined()) {
            SimpleFifo f = shared(a);
            assertThat(f.referable()).as("no reference before the receiver said it can read the sender").isFalse();
            f.offerCrossMemory();
            List<String> log = new ArrayList<>();
            f.logTo(log::add);
            firstMessage(a, f);
            assertThat(log).singleElement().asString().contains("single copy", "pid " + ProcessHandle.current().pid());
            assertThat(f.referable()).isTrue();

            MemorySegment msg = random(a, BYTES, 1);
            long slot = f.sendOffset();
            f.send(msg, 0, BYTES, true);
            assertThat(f.mem.get(ValueLayout.JAVA_LONG, slot)).as("the slot holds the message's address, not its data")
                    .isEqualTo(msg.address());
            assertThat(f.hasData()).isTrue();
            assertThat(f.recvSize()).isEqualTo(BYTES);
            MemorySegment out = a.allocate(BYTES, 64);
            f.copyTo(out, 0, BYTES);
            assertThat(out.mismatch(msg)).isEqualTo(-1);
            f.release();

            // A reducing step reads the message where the FIFO says: copied into the slot first.
            MemorySegment second = random(a, BYTES, 2);
            f.send(second, 0, BYTES, true);
            assertThat(f.hasData()).isTrue();
            MemorySegment in = f.recvSegment();
            assertThat(in).isSameAs(f.mem);
            assertThat(in.asSlice(f.recvOffset(), BYTES).mismatch(second)).isEqualTo(-1);
            // Asking again does not copy again (the slot now holds data, not an address).
            assertThat(f.recvSegment().asSlice(f.recvOffset(), BYTES).mismatch(second)).isEqualTo(-1);
            f.release();

            // A heap destination (cross-memory attach writes native memory only) still gets the data.
            MemorySegment third = random(a, BYTES, 3);
            f.send(third, 0, BYTES, true);
            assertThat(f.hasData()).isTrue();
            MemorySegment heap = MemorySegment.ofArray(new byte[(int) BYTES]);
            f.copyTo(heap, 0, BYTES);
            assertThat(heap.mismatch(third)).isEqualTo(-1);
            f.release();
        }
    }

    @Test
    void aSenderThatDoesNotOfferSingleCopyCopiesEveryMessage() {
        try (Arena a = Arena.ofConfined()) {
            SimpleFifo f = shared(a);
            List<String> log = new ArrayList<>();
            f.logTo(log::add);
            firstMessage(a, f);
            assertThat(log).singleElement().asString().contains("JCCL_CMA_DISABLE");
            assertThat(f.referable()).isFalse();
            MemorySegment msg = random(a, BYTES, 4);
            long slot = f.sendOffset();
            f.send(msg, 0, BYTES, true);
            assertThat(f.mem.asSlice(slot, BYTES).mismatch(msg)).as("the data is in the slot").isEqualTo(-1);
        }
    }

    @Test
    void aProcessThatCannotBeReadGetsCopiesAndAVanishedSenderIsAnError() throws Exception {
        try (Arena a = Arena.ofConfined()) {
            SimpleFifo f = shared(a);
            f.offerCrossMemory();
            // A process that has exited: its pid cannot be read.
            Process gone = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-version").start();
            gone.getInputStream().readAllBytes();
            gone.getErrorStream().readAllBytes();
            assertThat(gone.waitFor()).isZero();
            f.mem.set(ValueLayout.JAVA_LONG, Fifo.SENDER_PID, gone.pid());
            List<String> log = new ArrayList<>();
            f.logTo(log::add);
            firstMessage(a, f);
            assertThat(log).singleElement().asString().contains("may not read pid " + gone.pid());
            assertThat(f.referable()).isFalse();

            // Had the sender passed a reference before it went, the receiver finds it gone (its lane
            // then fails as a wait that saw the death does: PeerKillTest).
            SimpleFifo g = shared(a);
            g.offerCrossMemory();
            firstMessage(a, g);
            assertThat(g.referable()).isTrue();
            g.send(random(a, BYTES, 5), 0, BYTES, true);
            g.mem.set(ValueLayout.JAVA_LONG, Fifo.SENDER_PID, gone.pid());
            assertThat(g.hasData()).isTrue();
            assertThatThrownBy(() -> g.copyTo(a.allocate(BYTES), 0, BYTES))
                    .isInstanceOfSatisfying(PeerGone.class, e -> assertThat(e.rank).isZero())
                    .hasMessageContaining("of rank 0 on channel 0 out of its process (pid " + gone.pid())
                    .hasMessageContaining("(errno 3)");
        }
    }
}
