// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Config;
import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SharedSettingsTest {
    @Test
    void rankZerosChannelBoundsHoldEverywhereAndDefaultsStayDefaults() {
        Config rank0 = Config.defaults().withChannels(1, 3).withDefaultChannels(2, 5);
        Config other = Config.defaults().withChannels(7, 9);
        Config shared = SharedSettings.decode(SharedSettings.of(rank0).encode(), 1).applyTo(other);
        assertThat(shared.minChannels()).isEqualTo(2);
        assertThat(shared.maxChannels()).isEqualTo(5);
        assertThat(shared.channelBoundsGiven()).as("rank 0 left its bounds at defaults").isFalse();

        Config given = SharedSettings.decode(SharedSettings.of(Config.defaults().withChannels(4, 4)).encode(), 1)
                .applyTo(Config.defaults());
        assertThat(given.minChannels()).isEqualTo(4);
        assertThat(given.channelBoundsGiven()).isTrue();
    }

    @Test
    void rankZerosLinksBetweenAndInsideServersReachEveryRank() {
        Config rank0 = Config.defaults().withInterServer(0.025, 180).withIntraServer(0.1, 210);
        Config other = Config.defaults().withIntraServer(5, 1);
        Config shared = SharedSettings.decode(SharedSettings.of(rank0).encode(), 3).applyTo(other);
        assertThat(shared.interBandwidth()).isEqualTo(0.025);
        assertThat(shared.interLatency()).isEqualTo(180);
        assertThat(shared.intraBandwidth()).isEqualTo(0.1);
        assertThat(shared.intraLatency()).isEqualTo(210);
        Config unset = SharedSettings.decode(SharedSettings.of(Config.defaults()).encode(), 3).applyTo(other);
        assertThat(unset.intraBandwidth()).as("rank 0 left it to the model").isNaN();
        assertThat(unset.intraLatency()).isNaN();
    }

    @Test
    void truncatedOrForeignBytesAreRefusedNamingTheRank() {
        byte[] good = SharedSettings.of(Config.defaults()).encode();
        assertThatThrownBy(() -> SharedSettings.decode(java.util.Arrays.copyOf(good, good.length - 3), 2))
                .isInstanceOf(JcclException.class).hasMessageContaining("rank 2").hasMessageContaining("malformed");
        assertThatThrownBy(() -> SharedSettings.decode(new byte[] {1, 2, 3, 4, 5}, 1))
                .isInstanceOf(JcclException.class).hasMessageContaining("malformed");
    }
}
