// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The wire formats of the three protocols, one sender and one receiver on this thread. */
class FifoTest {
    private static final long BUFF = 64 << 10;

    private static MemorySegment random(Arena a, long bytes, long seed) {
        MemorySegment s = a.allocate(Math.max(1, bytes));
        Random r = new Random(seed);
        for (long i = 0; i < bytes; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
        return s;
    }

    private static byte[] received(Fifo f) {
        return f.recvSegment().asSlice(f.recvOffset(), f.recvSize()).toArray(ValueLayout.JAVA_BYTE);
    }

    private static void setCounters(Fifo f, long seq) {
        f.mem.set(ValueLayout.JAVA_LONG, Fifo.HEAD, seq);
        f.mem.set(ValueLayout.JAVA_LONG, Fifo.TAIL, seq);
    }

    /** Sends messages of awkward sizes (line boundaries, the slot's capacity) through every slot, twice. */
    @ParameterizedTest
    @EnumSource(Protocol.class)
    void messagesOfEverySizeArriveWholeInOrder(Protocol p) {
        try (Arena a = Arena.ofConfined()) {
            Fifo f = Fifo.create(p, a, 0, 0, 1, BUFF);
            long cap = p.maxMessageBytes(BUFF);
            long[] sizes = {0, 1, 3, 7, 8, 9, 15, 16, 111, 112, 113, 119, 120, 121, 232, 233, 1000, cap - 1, cap};
            int seed = 0;
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < sizes.length; i += Protocol.STEPS) {
                    int batch = Math.min(Protocol.STEPS, sizes.length - i);
                    byte[][] sent = new byte[batch][];
                    for (int k = 0; k < batch; k++) {
                        assertThat(f.hasRoom()).isTrue();
                        MemorySegment m = random(a, sizes[i + k], ++seed);
                        sent[k] = m.asSlice(0, sizes[i + k]).toArray(ValueLayout.JAVA_BYTE);
                        f.send(m, 0, sizes[i + k], false);
                    }
                    if (batch == Protocol.STEPS) {
                        assertThat(f.hasRoom()).as("all slots full").isFalse();
                    }
                    for (int k = 0; k < batch; k++) {
                        assertThat(f.hasData()).isTrue();
                        assertThat(f.recvSize()).isEqualTo(sizes[i + k]);
                        assertThat(received(f)).as("%s message of %d bytes", p, sizes[i + k]).isEqualTo(sent[k]);
                        f.release();
                    }
                    assertThat(f.hasData()).isFalse();
                }
            }
        }
    }

    @Test
    void anLlMessageIsIncompleteWhileAnyPairLacksItsFlag() {
        try (Arena a = Arena.ofConfined()) {
            LlFifo f = (LlFifo) Fifo.create(Protocol.LL, a, 0, 0, 1, BUFF);
            MemorySegment m = random(a, 20, 1);
            f.send(m, 0, 20, false);
            // Line 0 is the header, lines 1..3 the 20 bytes; the flag of message 0 is 1.
            long second = Fifo.SLOTS + 3 * 16 + 8;
            long good = f.mem.get(ValueLayout.JAVA_LONG, second);
            assertThat(good >>> 32).isEqualTo(1);
            f.mem.set(ValueLayout.JAVA_LONG, second, good & 0xFFFF_FFFFL);
            assertThat(f.hasData()).as("last pair's flag still stale").isFalse();
            f.mem.set(ValueLayout.JAVA_LONG, second, good);
            assertThat(f.hasData()).isTrue();
            assertThat(received(f)).isEqualTo(m.asSlice(0, 20).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void anLl128LineCarriesDataThenItsFlagInTheLastWord() {
        try (Arena a = Arena.ofConfined()) {
            Fifo f = Fifo.create(Protocol.LL128, a, 0, 0, 1, BUFF);
            f.send(random(a, 8, 0), 0, 8, false);
            f.hasData();
            f.release();
            MemorySegment m = random(a, 300, 2);
            f.send(m, 0, 300, false);
            long base = Fifo.SLOTS + f.slotBytes;
            assertThat(f.mem.get(ValueLayout.JAVA_LONG, base)).as("size header").isEqualTo(300);
            for (int line = 0; line < 3; line++) {
                assertThat(f.mem.get(ValueLayout.JAVA_LONG, base + 128L * line + 120)).as("flag of line %d", line).isEqualTo(2);
            }
            assertThat(f.mem.asSlice(base + 8, 112).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(m.asSlice(0, 112).toArray(ValueLayout.JAVA_BYTE));
            assertThat(f.mem.asSlice(base + 128, 120).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(m.asSlice(112, 120).toArray(ValueLayout.JAVA_BYTE));
            f.mem.set(ValueLayout.JAVA_LONG, base + 2 * 128 + 120, 1);
            assertThat(f.hasData()).as("third line's flag is stale").isFalse();
            f.mem.set(ValueLayout.JAVA_LONG, base + 2 * 128 + 120, 2);
            assertThat(f.hasData()).isTrue();
            assertThat(received(f)).isEqualTo(m.asSlice(0, 300).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void aHeaderAnnouncingMoreThanASlotHoldsIsTakenAsIsAndNothingElseIsRead() {
        try (Arena a = Arena.ofConfined()) {
            for (Protocol p : new Protocol[] {Protocol.LL, Protocol.LL128}) {
                Fifo f = Fifo.create(p, a, 0, 0, 1, BUFF);
                f.send(random(a, 16, 3), 0, 16, false);
                for (long bogus : new long[] {-5, p.maxMessageBytes(BUFF) + 1, Long.MAX_VALUE}) {
                    if (p == Protocol.LL128) {
                        f.mem.set(ValueLayout.JAVA_LONG, Fifo.SLOTS, bogus);
                    } else {
                        f.mem.set(ValueLayout.JAVA_LONG, Fifo.SLOTS, (1L << 32) | (bogus & 0xFFFF_FFFFL));
                        f.mem.set(ValueLayout.JAVA_LONG, Fifo.SLOTS + 8, (1L << 32) | (bogus >>> 32));
                    }
                    ((LineFifo) f).lines = -1;
                    assertThat(f.hasData()).isTrue();
                    // The low 40 bits are the size (beyond any slot here: nothing past the header is read), the rest the stamp.
                    assertThat(f.recvSize()).as("%s header %d", p, bogus).isEqualTo(bogus & FifoLayout.SIZE_MASK)
                            .isGreaterThan(p.maxMessageBytes(BUFF));
                    assertThat(f.recvStamp()).isEqualTo(FifoLayout.stamp(bogus));
                }
            }
        }
    }

    @Test
    void theLlCleanFlagMatchesNoMessageOfItsInterval() {
        for (long seq : new long[] {Protocol.LL_CLEAN_INTERVAL, 2 * Protocol.LL_CLEAN_INTERVAL + 5, 7 * Protocol.LL_CLEAN_INTERVAL + 7}) {
            long clean = Protocol.llCleanFlag(seq) & 0xFFFF_FFFFL;
            for (long j : new long[] {0, 1, 2, 1L << 27, (1L << 28) - 1}) {
                assertThat(clean).isNotEqualTo(Protocol.LL.flag(seq + Protocol.STEPS * j));
            }
            // ... and would match exactly one interval later, which is why the next interval cleans again.
            assertThat(clean).isEqualTo(Protocol.LL.flag(seq + Protocol.STEPS * (1L << 28)));
            assertThat(Protocol.llNeedsClean(seq)).isTrue();
            assertThat(Protocol.llNeedsClean(seq - seq % Protocol.LL_CLEAN_INTERVAL + Protocol.STEPS)).isFalse();
        }
        assertThat(Protocol.llNeedsClean(3)).as("the first interval starts from zeroed memory").isFalse();
    }

    @Test
    void llSlotsAreCleanedWhenAnIntervalStartsAndMessagesCrossTheFlagWrap() {
        for (long start : new long[] {Protocol.LL_CLEAN_INTERVAL - 3, (1L << 32) - 3}) {
            try (Arena a = Arena.ofConfined()) {
                Fifo f = Fifo.create(Protocol.LL, a, 0, 0, 1, BUFF);
                setCounters(f, start);
                for (long seq = start; seq < start + 2 * Protocol.STEPS; seq++) {
                    MemorySegment m = random(a, 24, seq);
                    f.send(m, 0, 24, false);
                    long base = Fifo.SLOTS + (seq % Protocol.STEPS) * f.slotBytes;
                    long lastWord = f.mem.get(ValueLayout.JAVA_LONG, base + f.slotBytes - 8) >>> 32;
                    if (Protocol.llNeedsClean(seq)) {
                        assertThat(lastWord).as("slot of %d cleaned", seq).isEqualTo(Protocol.llCleanFlag(seq) & 0xFFFF_FFFFL);
                    }
                    assertThat(f.hasData()).isTrue();
                    assertThat(received(f)).isEqualTo(m.asSlice(0, 24).toArray(ValueLayout.JAVA_BYTE));
                    f.release();
                }
            }
        }
    }
}
