// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The GID a RoCE port uses: the configured index, else RoCE v2 with IPv4, else RoCE v2, else any in use, else 0. */
class IbGidsTest {
    private static final String V1 = "IB/RoCE v1";

    /** fe80::1 (link-local IPv6). */
    private static byte[] linkLocal() {
        byte[] g = new byte[16];
        g[0] = (byte) 0xfe;
        g[1] = (byte) 0x80;
        g[15] = 1;
        return g;
    }

    /** ::ffff:10.0.0.{last}. */
    private static byte[] ipv4(int last) {
        byte[] g = new byte[16];
        g[10] = (byte) 0xff;
        g[11] = (byte) 0xff;
        g[12] = 10;
        g[15] = (byte) last;
        return g;
    }

    /** A port's table as mlx5 fills it: v1 and v2 of the link-local address, then v1 and v2 of an IPv4 one. */
    private static final List<IbGids.Gid> TABLE = List.of(new IbGids.Gid(0, linkLocal(), V1), new IbGids.Gid(1, linkLocal(), IbGids.ROCE_V2),
            new IbGids.Gid(2, ipv4(7), V1), new IbGids.Gid(3, ipv4(7), IbGids.ROCE_V2), new IbGids.Gid(4, new byte[16], null));

    @Test
    void roceV2WithAnIpv4AddressComesFirst() {
        assertThat(IbGids.choose(TABLE, -1, "mlx5_0:1")).isEqualTo(3);
        assertThat(TABLE.get(3).ipv4()).isTrue();
        assertThat(TABLE.get(1).ipv4()).isFalse();
    }

    @Test
    void thenRoceV2ThenAnyGidInUseThenZero() {
        assertThat(IbGids.choose(TABLE.subList(0, 3), -1, "p")).as("RoCE v2 of the link-local address").isEqualTo(1);
        assertThat(IbGids.choose(List.of(new IbGids.Gid(0, new byte[16], null), new IbGids.Gid(1, ipv4(9), V1)), -1, "p"))
                .as("no RoCE v2: the first GID in use").isEqualTo(1);
        assertThat(IbGids.choose(List.of(new IbGids.Gid(0, new byte[16], null)), -1, "p")).isZero();
        assertThat(IbGids.choose(List.of(), -1, "p")).isZero();
        // A RoCE v2 entry that is all zero is unused, not chosen.
        assertThat(IbGids.choose(List.of(new IbGids.Gid(0, new byte[16], IbGids.ROCE_V2), new IbGids.Gid(1, linkLocal(), V1)), -1, "p"))
                .isEqualTo(1);
    }

    @Test
    void aConfiguredIndexWinsAndMustExist() {
        assertThat(IbGids.choose(TABLE, 0, "p")).isZero();
        assertThat(IbGids.choose(TABLE, 4, "p")).isEqualTo(4);
        assertThatThrownBy(() -> IbGids.choose(TABLE, 5, "mlx5_0:1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("JCCL_IB_GID_INDEX 5 is beyond the 5 GIDs of mlx5_0:1");
    }
}
