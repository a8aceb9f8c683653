// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The IB handshake's record: read back as written; a stranger's bytes or an impossible count refused. */
class IbConnInfoTest {
    private static IbConnInfo sample(int qps) {
        byte[] gid = new byte[16];
        for (int i = 0; i < 16; i++) {
            gid[i] = (byte) (i * 17);
        }
        int[] qpns = new int[qps];
        for (int i = 0; i < qps; i++) {
            qpns[i] = 0x100 + i;
        }
        return new IbConnInfo(7, gid, 5, 0xabcdef, qpns, 0x7f00_1234_5000L, 0xdead, 8);
    }

    @Test
    void itReadsBackWhatItWrote() throws IOException {
        for (int q : new int[] {1, 4, IbConnInfo.MAX_QPS}) {
            IbConnInfo info = sample(q);
            byte[] bytes = info.encode();
            assertThat(bytes).hasSize(IbConnInfo.bytes(q));
            assertThat(IbConnInfo.qpCount(java.util.Arrays.copyOf(bytes, IbConnInfo.bytes(0)))).isEqualTo(q);
            IbConnInfo back = IbConnInfo.decode(bytes);
            assertThat(back).isEqualTo(info);
            assertThat(back.qpns()).containsExactly(info.qpns());
            assertThat(back.gid()).containsExactly(info.gid());
            assertThat(back.fifo()).isEqualTo(0x7f00_1234_5000L);
        }
    }

    @Test
    void strangersAndImpossibleCountsAreRefused() {
        byte[] bytes = sample(2).encode();
        byte[] stranger = bytes.clone();
        stranger[0] ^= 1;
        assertThatThrownBy(() -> IbConnInfo.decode(stranger)).isInstanceOf(IOException.class).hasMessage("not an IB connection's handshake");
        byte[] many = bytes.clone();
        ByteBuffer.wrap(many).putInt(IbConnInfo.bytes(0) - 4, 1000);
        assertThatThrownBy(() -> IbConnInfo.decode(many)).isInstanceOf(IOException.class).hasMessage("a handshake with 1000 queue pairs");
        assertThatThrownBy(() -> IbConnInfo.decode(java.util.Arrays.copyOf(bytes, bytes.length - 4)))
                .isInstanceOf(IOException.class).hasMessageContaining("for 2 queue pairs");
        assertThatThrownBy(() -> new IbConnInfo(0, new byte[15], 5, 0, new int[1], 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
