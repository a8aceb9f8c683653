// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** JCCL_IB_HCA's grammar as NCCL reads NCCL_IB_HCA: prefixes, ports, = for exact names, ^ to exclude. */
class IbHcaFilterTest {
    @Test
    void namesArePrefixesAndAPortNarrowsToThatPort() {
        IbHcaFilter f = IbHcaFilter.parse("mlx5_0:1,mlx5_1");
        assertThat(f.exclude()).isFalse();
        assertThat(f.exact()).isFalse();
        assertThat(f.entries()).containsExactly(new IbHcaFilter.Entry("mlx5_0", 1), new IbHcaFilter.Entry("mlx5_1", -1));
        assertThat(f.allows("mlx5_0", 1)).isTrue();
        assertThat(f.allows("mlx5_0", 2)).isFalse();
        assertThat(f.allows("mlx5_1", 2)).isTrue();
        assertThat(f.allows("mlx5_10", 1)).as("mlx5_1 is a prefix of mlx5_10").isTrue();
        assertThat(f.allows("mlx4_0", 1)).isFalse();
        assertThat(f.mayAllow("mlx5_0")).isTrue();
        assertThat(f.mayAllow("bnxt_re0")).isFalse();
        assertThat(IbHcaFilter.parse("mlx5").allows("mlx5_3", 2)).isTrue();
    }

    @Test
    void anEqualsSignMeansExactNames() {
        IbHcaFilter f = IbHcaFilter.parse("=mlx5_1");
        assertThat(f.exact()).isTrue();
        assertThat(f.allows("mlx5_1", 1)).isTrue();
        assertThat(f.allows("mlx5_10", 1)).isFalse();
    }

    @Test
    void aCaretExcludesWhatTheListNames() {
        IbHcaFilter f = IbHcaFilter.parse("^mlx5_0:2,mlx4");
        assertThat(f.exclude()).isTrue();
        assertThat(f.allows("mlx5_0", 1)).isTrue();
        assertThat(f.allows("mlx5_0", 2)).isFalse();
        assertThat(f.allows("mlx4_0", 1)).isFalse();
        assertThat(f.mayAllow("mlx5_0")).as("port 1 is still allowed").isTrue();
        assertThat(f.mayAllow("mlx4_1")).isFalse();
        IbHcaFilter exact = IbHcaFilter.parse("^=mlx5_1");
        assertThat(exact.exclude()).isTrue();
        assertThat(exact.exact()).isTrue();
        assertThat(exact.allows("mlx5_1", 1)).isFalse();
        assertThat(exact.allows("mlx5_10", 1)).isTrue();
    }

    @Test
    void unsetAllowsEveryPort() {
        assertThat(IbHcaFilter.ALL.allows("anything", 7)).isTrue();
        assertThat(IbHcaFilter.ALL.mayAllow("anything")).isTrue();
    }

    @Test
    void itWritesWhatItReads() {
        for (String s : List.of("mlx5_0:1,mlx5_1", "^=mlx5_0:1", "=a,b:2", "^mlx4")) {
            assertThat(IbHcaFilter.parse(s).toString()).isEqualTo(s);
            assertThat(IbHcaFilter.parse(s.replace(",", " , "))).isEqualTo(IbHcaFilter.parse(s));
        }
    }

    @Test
    void emptyNamesAndBadPortsAreRefused() {
        for (String bad : List.of("", "^", "=", "mlx5_0,", ",mlx5_0", ":1", "mlx5_0:", "mlx5_0:x", "mlx5_0:0", "mlx5_0:-1")) {
            assertThatThrownBy(() -> IbHcaFilter.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
