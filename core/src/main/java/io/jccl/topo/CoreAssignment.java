// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;

import java.util.BitSet;
import java.util.List;

/**
 * Which core each thread of a rank runs on: the allowed CPUs of the rank's NUMA domain, dealt out
 * in order to the domain's ranks. While every thread of the domain's ranks has a core of its own,
 * rank {@code index} takes {@code threadsPerRank} cores in a row from core {@code
 * index·threadsPerRank}. When they do not fit, the cores go round robin thread by thread: first
 * thread 0 of every rank, then thread 1, and so on, so that each rank's first thread (the one
 * that runs lane 0, the busiest) lands on a core of its own while the ranks fit. A domain none of
 * whose CPUs is allowed (or whose CPUs the topology does not give) deals out the whole allowed
 * set instead, so that a job confined by a cgroup or by {@code taskset} still spreads its
 * threads. A pure function: it reads nothing of the machine.
 *
 * <pre>{@code
 * // 2 domains of 4 CPUs, all allowed; the second rank of domain 1, 2 threads per rank:
 * int[] c = CoreAssignment.cores(List.of(cpus("0-3"), cpus("4-7")), cpus("0-7"), 1, 1, 2, 2);   // {6, 7}
 * }</pre>
 */
public final class CoreAssignment {
    private CoreAssignment() {
    }

    /**
     * The cores of one rank's threads, thread {@code t} at index {@code t}.
     *
     * @param domains        each NUMA domain's CPUs (empty where the topology does not say)
     * @param allowed        the CPUs this process may run on
     * @param domain         the rank's domain, an index into {@code domains}
     * @param index          the rank's place among the ranks of its domain on this host
     * @param ranksInDomain  how many ranks of this host the domain has
     * @param threadsPerRank how many threads each of them runs
     * @throws JcclException naming the argument that is out of range, or an empty {@code allowed}
     */
    public static int[] cores(List<CpuSet> domains, CpuSet allowed, int domain, int index, int ranksInDomain,
                              int threadsPerRank) {
        if (allowed.count() == 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "allowed CPUs", "is empty: no CPU to run on");
        }
        if (domain < 0 || domain >= domains.size()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "domain", domain + " is not one of the "
                    + domains.size() + " NUMA domain(s)");
        }
        if (ranksInDomain < 1 || index < 0 || index >= ranksInDomain) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "index", index + " is not a rank of the "
                    + ranksInDomain + " of domain " + domain);
        }
        if (threadsPerRank < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "threadsPerRank", threadsPerRank + " is below 1");
        }
        int[] usable = usable(domains.get(domain), allowed);
        // long: ranks × threads may pass int on a large domain with many ranks.
        boolean fit = (long) ranksInDomain * threadsPerRank <= usable.length;
        int[] cores = new int[threadsPerRank];
        for (int t = 0; t < threadsPerRank; t++) {
            long slot = fit ? (long) index * threadsPerRank + t : (long) t * ranksInDomain + index;
            cores[t] = usable[(int) (slot % usable.length)];
        }
        return cores;
    }

    /** The allowed CPUs of {@code domain} in order, or every allowed CPU when it has none. */
    static int[] usable(CpuSet domain, CpuSet allowed) {
        BitSet b = domain.cpus();
        b.and(allowed.cpus());
        if (b.isEmpty()) {
            b = allowed.cpus();
        }
        return b.stream().toArray();
    }
}
