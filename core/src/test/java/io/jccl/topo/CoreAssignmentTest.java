// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CoreAssignmentTest {
    private static CpuSet cpus(String list) {
        return CpuSet.fromCpulist(list);
    }

    private static final List<CpuSet> TWO_CORES = List.of(cpus("0-1"));
    private static final List<CpuSet> TWO_SOCKETS = List.of(cpus("0-3"), cpus("4-7"));

    @Test
    void twoRanksOnTwoCoresTakeOneCoreEach() {
        assertThat(CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, 0, 2, 1)).containsExactly(0);
        assertThat(CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, 1, 2, 1)).containsExactly(1);
    }

    @Test
    void ranksTakeConsecutiveCoresOfTheirDomainWhileTheyFit() {
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 0, 0, 2, 2)).containsExactly(0, 1);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 0, 1, 2, 2)).containsExactly(2, 3);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 1, 0, 2, 2)).containsExactly(4, 5);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 1, 1, 2, 2)).containsExactly(6, 7);
        // One rank alone in its domain takes all of it.
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 1, 0, 1, 4)).containsExactly(4, 5, 6, 7);
    }

    @Test
    void whenTheThreadsOutnumberTheCoresEachRanksFirstThreadStillHasItsOwn() {
        // 2 ranks of 2 threads on 2 cores: thread by thread, so rank 0 stays on core 0, rank 1 on core 1.
        assertThat(CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, 0, 2, 2)).containsExactly(0, 0);
        assertThat(CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, 1, 2, 2)).containsExactly(1, 1);
        // 4 ranks on 2 cores: round robin.
        int[] first = new int[4];
        for (int i = 0; i < 4; i++) {
            first[i] = CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, i, 4, 1)[0];
        }
        assertThat(first).containsExactly(0, 1, 0, 1);
        // 3 ranks of 2 threads on a domain of 4: the first threads on 4, 5, 6, the second on 7, 4, 5.
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 1, 0, 3, 2)).containsExactly(4, 7);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 1, 1, 3, 2)).containsExactly(5, 4);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("0-7"), 1, 2, 3, 2)).containsExactly(6, 5);
    }

    @Test
    void onlyAllowedCpusAreDealt() {
        // taskset -c 1,3,5: domain 0 has 1 and 3, domain 1 has 5.
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("1,3,5"), 0, 0, 2, 1)).containsExactly(1);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("1,3,5"), 0, 1, 2, 1)).containsExactly(3);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("1,3,5"), 1, 0, 1, 2)).containsExactly(5, 5);
    }

    @Test
    void aDomainWithNoAllowedCpuDealsTheWholeAllowedSet() {
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("2-3"), 1, 0, 2, 1)).containsExactly(2);
        assertThat(CoreAssignment.cores(TWO_SOCKETS, cpus("2-3"), 1, 1, 2, 1)).containsExactly(3);
        // A domain whose CPUs the topology does not give.
        assertThat(CoreAssignment.cores(List.of(new CpuSet(new java.util.BitSet())), cpus("6-7"), 0, 1, 2, 1)).containsExactly(7);
    }

    @Test
    void refusesAnEmptyAllowedSetAndOutOfRangeArguments() {
        assertThatThrownBy(() -> CoreAssignment.cores(TWO_CORES, cpus(""), 0, 0, 1, 1)).isInstanceOf(JcclException.class)
                .hasMessageContaining("allowed CPUs").hasMessageContaining("empty");
        assertThatThrownBy(() -> CoreAssignment.cores(TWO_CORES, cpus("0-1"), 1, 0, 1, 1)).isInstanceOf(JcclException.class)
                .hasMessageContaining("'domain' 1 is not one of the 1 NUMA domain(s)");
        assertThatThrownBy(() -> CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, 2, 2, 1)).isInstanceOf(JcclException.class)
                .hasMessageContaining("'index' 2 is not a rank of the 2 of domain 0");
        assertThatThrownBy(() -> CoreAssignment.cores(TWO_CORES, cpus("0-1"), 0, 0, 1, 0)).isInstanceOf(JcclException.class)
                .hasMessageContaining("'threadsPerRank' 0 is below 1");
    }
}
