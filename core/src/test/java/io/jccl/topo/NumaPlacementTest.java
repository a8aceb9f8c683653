// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NumaPlacementTest {
    @Test
    void ranksGoInBlocksOverTheSockets() {
        TopoSystem s = TopoSystemTest.load("cpu-2socket");
        NumaPlacement p = NumaPlacement.of(s, 8);
        assertThat(p.domains()).hasSize(2);
        assertThat(p.ranksOf(0)).containsExactly(0, 1, 2, 3);
        assertThat(p.ranksOf(1)).containsExactly(4, 5, 6, 7);
        assertThat(p.cpus(0).toCpulist()).isEqualTo("0-23,48-71");
        assertThat(p.cpus(1).toCpulist()).isEqualTo("24-47,72-95");
        NumaPlacement odd = NumaPlacement.of(s, 5);
        assertThat(odd.ranksOf(0)).containsExactly(0, 1, 2);
        assertThat(odd.ranksOf(1)).containsExactly(3, 4);
        assertThat(NumaPlacement.of(s, 1).ranksOf(1)).isEmpty();
    }

    @Test
    void sharesFollowTheCpusOfEachDomain() {
        // Domain 0 has 6 CPUs, domain 1 has 2, domain 2 does not say (counts as one).
        TopoSystem s = TopoSystem.fromXml(XmlElement.parse("""
                <system version="1">
                  <cpu numaid="0" affinity="0000003f" arch="x86_64"/>
                  <cpu numaid="1" affinity="000000c0" arch="x86_64"/>
                  <cpu numaid="3" arch="x86_64"/>
                </system>""", "t"));
        NumaPlacement p = NumaPlacement.of(s, 9);
        assertThat(p.ranksOf(0)).hasSize(6);
        assertThat(p.ranksOf(1)).hasSize(2);
        assertThat(p.ranksOf(2)).containsExactly(8);
        assertThat(p.domainOf(5)).isZero();
        assertThat(p.domainOf(6)).isEqualTo(1);
        assertThat(p.domains().get(2).cpu().numaId()).isEqualTo(3);
        assertThat(p.cpus(2).count()).isZero();
    }

    @Test
    void sharesFollowTheAllowedCpusAndAForbiddenDomainTakesNoRank() {
        TopoSystem s = TopoSystemTest.load("cpu-2socket");
        // 12 allowed CPUs in domain 0, 4 in domain 1: 3 ranks to 1.
        NumaPlacement p = NumaPlacement.of(s, CpuSet.fromCpulist("0-11,24-27"), 4);
        assertThat(p.ranksOf(0)).containsExactly(0, 1, 2);
        assertThat(p.ranksOf(1)).containsExactly(3);
        assertThat(p.cpus(0).toCpulist()).isEqualTo("0-11");
        assertThat(p.cpus(1).toCpulist()).isEqualTo("24-27");
        NumaPlacement one = NumaPlacement.of(s, CpuSet.fromCpulist("72-75"), 3);
        assertThat(one.ranksOf(0)).isEmpty();
        assertThat(one.ranksOf(1)).containsExactly(0, 1, 2);
        // None of the domains' CPUs allowed: weighed as if all were, CPUs as the topology gives them.
        NumaPlacement other = NumaPlacement.of(s, CpuSet.fromCpulist("500"), 2);
        assertThat(other.ranksOf(0)).containsExactly(0);
        assertThat(other.cpus(1).toCpulist()).isEqualTo("24-47,72-95");
    }

    @Test
    void refusesWhatCannotBePlaced() {
        assertThatThrownBy(() -> NumaPlacement.of(TopoSystem.fromXml(XmlElement.parse("<system version=\"1\"/>", "t")), 2))
                .isInstanceOf(JcclException.class).hasMessageContaining("no CPU");
        assertThatThrownBy(() -> NumaPlacement.of(TopoSystemTest.load("cpu-2socket"), 0)).hasMessageContaining("nranks 0");
    }
}
