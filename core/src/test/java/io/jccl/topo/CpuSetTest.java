// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuSetTest {
    @Test
    void readsAndWritesSysfsForms() {
        CpuSet s = CpuSet.fromCpumap("000000ff,ffff0000,00ffffff");
        assertThat(s.toCpulist()).isEqualTo("0-23,48-71");
        assertThat(s.count()).isEqualTo(48);
        assertThat(s.toCpumap()).isEqualTo("000000ff,ffff0000,00ffffff");
        assertThat(CpuSet.fromCpulist("0-23,48-71")).isEqualTo(s);
        assertThat(CpuSet.fromCpumap("3").toCpulist()).isEqualTo("0-1");
        assertThat(CpuSet.fromCpulist("5").toCpumap()).isEqualTo("00000020");
        assertThat(CpuSet.fromCpulist("").count()).isZero();
        assertThat(CpuSet.fromCpulist("").toCpumap()).isEqualTo("00000000");
    }

    @Test
    void refusesWhatIsNotAMapOrAList() {
        assertThatThrownBy(() -> CpuSet.fromCpumap("zz")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zz");
        assertThatThrownBy(() -> CpuSet.fromCpulist("3-x")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3-x");
    }
}
