// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.Config;
import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The IB net's settings as a communicator reads them: defaults as NCCL's, NCCL_ names read where
 * the JCCL_ ones are unset, refused values named; and JCCL_NET's choice of net.
 */
class IbSettingsTest {
    private static final NetSetup SETUP = new NetSetup(InetAddress.getLoopbackAddress(), 7,
            "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII), t -> "connection " + t, w -> { });

    @Test
    void defaultsAreNccls() {
        IbOptions o = IbOptions.of(Config.defaults());
        assertThat(o).isEqualTo(new IbOptions(IbHcaFilter.ALL, -1, 0, 0, 20, 7, 1));
    }

    @Test
    void ncclNamesAreReadWhereJcclsAreUnset() {
        IbOptions o = IbOptions.of(Config.fromVariables(Map.of("NCCL_IB_HCA", "=mlx5_0:1", "NCCL_IB_GID_INDEX", "3", "NCCL_IB_TC", "106",
                "NCCL_IB_SL", "2", "NCCL_IB_TIMEOUT", "18", "NCCL_IB_RETRY_CNT", "5", "NCCL_IB_QPS_PER_CONNECTION", "2")));
        assertThat(o).isEqualTo(new IbOptions(IbHcaFilter.parse("=mlx5_0:1"), 3, 106, 2, 18, 5, 2));
        IbOptions j = IbOptions.of(Config.fromVariables(Map.of("NCCL_IB_TIMEOUT", "18", "JCCL_IB_TIMEOUT", "22",
                "JCCL_IB_HCA", "^mlx4", "NCCL_IB_HCA", "mlx5")));
        assertThat(j.timeout()).as("JCCL_ wins").isEqualTo(22);
        assertThat(j.hca()).isEqualTo(IbHcaFilter.parse("^mlx4"));
    }

    @Test
    void refusedValuesNameTheVariable() {
        for (Map.Entry<String, String> bad : List.of(Map.entry("NCCL_IB_TIMEOUT", "32"), Map.entry("JCCL_IB_RETRY_CNT", "8"),
                Map.entry("JCCL_IB_SL", "16"), Map.entry("JCCL_IB_TC", "-1"), Map.entry("JCCL_IB_GID_INDEX", "-2"),
                Map.entry("JCCL_IB_QPS_PER_CONNECTION", "129"), Map.entry("NCCL_IB_HCA", "mlx5_0:0"), Map.entry("JCCL_NET", "Verbs"))) {
            assertThatThrownBy(() -> Config.fromVariables(Map.ofEntries(bad))).as(bad.toString()).isInstanceOf(JcclException.class)
                    .hasMessageContaining("argument '" + bad.getKey() + "' is '" + bad.getValue() + "': must be");
        }
    }

    @Test
    void jcclNetSocketGivesSockets() {
        for (String v : List.of("Socket", "socket", "SOCKET")) {
            try (Net n = Nets.open(Config.fromVariables(Map.of("NCCL_NET", v)), SETUP)) {
                assertThat(n.name()).isEqualTo("Socket");
            }
        }
    }

    @Test
    void aForcedIbWithNoUsableDeviceFailsSayingWhy() {
        // No device is named so: whether libibverbs loads here or not, IB cannot be had.
        Config c = Config.fromVariables(Map.of("JCCL_NET", "ib", "JCCL_IB_HCA", "=no_such_hca"));
        assertThatThrownBy(() -> Nets.open(c, SETUP)).isInstanceOf(JcclException.class)
                .hasMessageContaining("JCCL_NET is 'IB', but ")
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf("no active InfiniBand or RoCE port matches JCCL_IB_HCA==no_such_hca",
                        "libibverbs cannot be loaded"));
    }

    @Test
    void unsetFallsBackToSocketsWhereNoPortIsUsable() {
        try (Net n = Nets.open(Config.fromVariables(Map.of("JCCL_IB_HCA", "=no_such_hca")), SETUP)) {
            assertThat(n.name()).isEqualTo("Socket");
        }
    }
}
