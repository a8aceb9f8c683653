// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.kernels.Kernels;
import io.jccl.kernels.WorkLayout;
import io.jccl.proto.Protocol;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one FIFO layout against the kernels' header (the source of jccl_work.h that travels in
 * io.jccl.kernels; the header's agreement with WorkLayout is kernels-ptx's LayoutProbeTest), and
 * against the host FIFOs that write it: a Simple message's size word and its slot, a sender's
 * tail, a receiver's head, where the kernels read them.
 */
class FifoLayoutTest {
    private static Map<String, Long> defines() {
        String h = new String(Kernels.resource("jccl_work.h"), StandardCharsets.US_ASCII);
        Matcher m = Pattern.compile("(?m)^#define (JCCL_FIFO_\\w+)[ \\t]+(\\d+)").matcher(h);
        Map<String, Long> d = new HashMap<>();
        while (m.find()) {
            d.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return d;
    }

    @Test
    void theKernelsHeaderHasTheseOffsets() {
        Map<String, Long> d = defines();
        assertThat(d).containsOnlyKeys("JCCL_FIFO_HEAD", "JCCL_FIFO_TAIL", "JCCL_FIFO_SIZES", "JCCL_FIFO_SLOTS");
        assertThat(d.get("JCCL_FIFO_HEAD")).isEqualTo(FifoLayout.HEAD).isEqualTo(WorkLayout.FIFO_HEAD);
        assertThat(d.get("JCCL_FIFO_TAIL")).isEqualTo(FifoLayout.TAIL).isEqualTo(WorkLayout.FIFO_TAIL);
        assertThat(d.get("JCCL_FIFO_SIZES")).isEqualTo(FifoLayout.SIZES).isEqualTo(WorkLayout.FIFO_SIZES);
        assertThat(d.get("JCCL_FIFO_SLOTS")).isEqualTo(FifoLayout.SLOTS).isEqualTo(WorkLayout.FIFO_SLOTS);
    }

    @Test
    void wordsDoNotOverlapAndCountersHaveLinesOfTheirOwn() {
        assertThat(FifoLayout.TAIL - FifoLayout.HEAD).isGreaterThanOrEqualTo(FifoLayout.CACHE_LINE);
        assertThat(FifoLayout.SIZES - FifoLayout.TAIL).isGreaterThanOrEqualTo(FifoLayout.CACHE_LINE);
        assertThat(FifoLayout.SIZES + Protocol.STEPS * 8L).isLessThanOrEqualTo(FifoLayout.CONTROL);
        long[] control = {FifoLayout.ATTACHED, FifoLayout.ABORT, FifoLayout.SENDER_PID, FifoLayout.SENDER_PROBE,
                FifoLayout.CROSS_VERDICT};
        for (int i = 1; i < control.length; i++) {
            assertThat(control[i] - control[i - 1]).isEqualTo(8);
        }
        assertThat(FifoLayout.CROSS_VERDICT + 8).isLessThanOrEqualTo(FifoLayout.SLOTS);
        assertThat(FifoLayout.SLOTS % FifoLayout.CACHE_LINE).isZero();
        assertThat(FifoLayout.bytes(1000)).isEqualTo(FifoLayout.SLOTS + Protocol.STEPS * 1000L);
        assertThat(FifoLayout.slot(Protocol.STEPS + 3, 1000)).isEqualTo(FifoLayout.SLOTS + 3000);
    }

    @Test
    void aHostSimpleFifoWritesWhereTheKernelsRead() {
        long slot = 4096;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mem = a.allocate(FifoLayout.bytes(slot), 4096);
            Fifo f = Fifo.over(Protocol.SIMPLE, a, mem, 0, 0, 1, Protocol.STEPS * slot);
            MemorySegment data = a.allocate(100);
            for (int m = 0; m < Protocol.STEPS + 3; m++) {
                data.fill((byte) (m + 1));
                assertThat(f.hasRoom()).isTrue();
                f.send(data, 0, 100 - m, false);
                long at = FifoLayout.slot(m, slot);
                assertThat(mem.get(ValueLayout.JAVA_LONG, FifoLayout.size(m))).isEqualTo(100 - m);
                assertThat(mem.get(ValueLayout.JAVA_BYTE, at)).isEqualTo((byte) (m + 1));
                assertThat(mem.get(ValueLayout.JAVA_LONG, FifoLayout.TAIL)).isEqualTo(m + 1);
                assertThat(f.hasData()).isTrue();
                f.release();
                assertThat(mem.get(ValueLayout.JAVA_LONG, FifoLayout.HEAD)).isEqualTo(m + 1);
            }
        }
    }

    @Test
    void abortWordsNameTheRankAndTheOneItLost() {
        long w = FifoLayout.abortWord(3, 7);
        assertThat(FifoLayout.abortedBy(w)).isEqualTo(3);
        assertThat(FifoLayout.abortLost(w)).isEqualTo(7);
        assertThat(FifoLayout.abortLost(FifoLayout.abortWord(0, -1))).isEqualTo(-1);
        assertThat(FifoLayout.abortWord(0, -1)).isNotZero();
    }
}
