// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostCpusTest {
    /** Two sockets: domain 0 is CPUs 0-23 and 48-71, domain 1 CPUs 24-47 and 72-95. */
    private static final TopoSystem TWO_SOCKETS = TopoSystemTest.load("cpu-2socket");

    @Test
    void ranksOfAHostSpreadOverTheDomainsWithCoresOfTheirOwn() {
        HostCpus host = new HostCpus(TWO_SOCKETS, CpuSet.fromCpulist("0-95"));
        HostCpus.Placement r0 = host.place(0, 4, 0);
        HostCpus.Placement r1 = host.place(1, 4, 0);
        HostCpus.Placement r2 = host.place(2, 4, 0);
        HostCpus.Placement r3 = host.place(3, 4, 0);
        assertThat(r0.domain()).isZero();
        assertThat(r1.domain()).isZero();
        assertThat(r2.domain()).isEqualTo(1);
        assertThat(r0.cpus().toCpulist()).isEqualTo("0-23,48-71");
        assertThat(r3.cpus().toCpulist()).isEqualTo("24-47,72-95");
        // 48 CPUs per domain, 2 ranks each: 24 threads per rank.
        assertThat(r0.cores()).hasSize(24).startsWith(0, 1).endsWith(23);
        assertThat(r1.cores()).hasSize(24).startsWith(48).endsWith(71);
        assertThat(r2.cores()).startsWith(24);
        assertThat(r3.cores()).startsWith(72);
        assertThat(r1.core(0).toCpulist()).isEqualTo("48");
        assertThat(r1.core(24).toCpulist()).isEqualTo("48");
    }

    @Test
    void aTasksetConfinesTheRanksToItsCpus() {
        // taskset -c 30-33: all in domain 1, which then takes every rank.
        HostCpus host = new HostCpus(TWO_SOCKETS, CpuSet.fromCpulist("30-33"));
        for (int i = 0; i < 4; i++) {
            HostCpus.Placement p = host.place(i, 4, 0);
            assertThat(p.domain()).isEqualTo(1);
            assertThat(p.cpus().toCpulist()).isEqualTo("30-33");
            assertThat(p.cores()).containsExactly(30 + i);
        }
        // Four ranks in other processes on 2 CPUs: two on each, never all on one.
        HostCpus two = new HostCpus(TWO_SOCKETS, CpuSet.fromCpulist("0-1"));
        assertThat(new int[] {two.place(0, 4, 0).cores()[0], two.place(1, 4, 0).cores()[0], two.place(2, 4, 0).cores()[0],
                two.place(3, 4, 0).cores()[0]}).containsExactly(0, 1, 0, 1);
    }

    @Test
    void aTopologyOfAnotherMachineFallsBackToTheAllowedCpus() {
        // The file's domains hold CPUs 0-95; this process may run on 200-201 only.
        HostCpus host = new HostCpus(TWO_SOCKETS, CpuSet.fromCpulist("200-201"));
        assertThat(host.place(0, 2, 0).cores()).containsExactly(200);
        assertThat(host.place(1, 2, 0).cores()).containsExactly(201);
    }

    @Test
    void refusesBadArguments() {
        assertThatThrownBy(() -> new HostCpus(TWO_SOCKETS, CpuSet.fromCpulist(""))).isInstanceOf(JcclException.class)
                .hasMessageContaining("allowed CPUs");
        HostCpus host = new HostCpus(TWO_SOCKETS, CpuSet.fromCpulist("0-3"));
        assertThatThrownBy(() -> host.place(2, 2, 0)).isInstanceOf(JcclException.class)
                .hasMessageContaining("'localIndex' 2 is not one of the 2 rank(s) of this host");
        assertThatThrownBy(() -> host.place(0, 1, -1)).isInstanceOf(JcclException.class)
                .hasMessageContaining("'threadsPerRank' -1 is negative");
    }
}
