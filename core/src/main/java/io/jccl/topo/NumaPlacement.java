// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Where the ranks of a CPU-only job go on one host: in contiguous blocks over the NUMA domains,
 * each domain taking a share in proportion to its CPUs (largest remainders first, then lower
 * domains), so that a ring through the ranks in order crosses between domains as few times as it
 * can and each rank's threads can be pinned to the CPUs of its domain.
 *
 * <pre>{@code
 * NumaPlacement p = NumaPlacement.of(TopoSystem.detect(GpuProbe.NONE), 8);
 * int domain = p.domainOf(5);          // index into p.domains()
 * CpuSet cpus = p.cpus(domain);        // where rank 5's threads belong
 * }</pre>
 */
public final class NumaPlacement {
    private final List<TopoNode> domains;
    private final List<CpuSet> cpus;
    private final int[] domainOf;

    private NumaPlacement(List<TopoNode> domains, List<CpuSet> cpus, int[] domainOf) {
        this.domains = domains;
        this.cpus = cpus;
        this.domainOf = domainOf;
    }

    /** {@code nranks} ranks over the NUMA domains of {@code system} (a system with at least one CPU node). */
    public static NumaPlacement of(TopoSystem system, int nranks) {
        return of(system, null, nranks);
    }

    /**
     * {@code nranks} ranks over the CPUs of {@code system}'s NUMA domains that {@code allowed}
     * holds (the CPUs this process may run on; null: all): each domain's share follows its allowed
     * CPUs, so a domain none of whose CPUs is allowed takes no rank, and {@link #cpus} are the
     * allowed ones. Where no domain's CPUs are known to be allowed (a topology that does not give
     * them, or that describes another machine), the domains are weighed as if all were allowed.
     */
    public static NumaPlacement of(TopoSystem system, CpuSet allowed, int nranks) {
        List<TopoNode> domains = system.nodes(NodeType.CPU);
        if (domains.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology", "has no CPU (NUMA domain)");
        }
        if (nranks < 1) {
            throw new IllegalArgumentException("nranks " + nranks);
        }
        List<CpuSet> all = new ArrayList<>();
        List<CpuSet> usable = new ArrayList<>();
        long allowedTotal = 0;
        for (TopoNode domain : domains) {
            String aff = domain.cpu().affinity();
            CpuSet set;
            try {
                set = aff.isBlank() ? new CpuSet(new BitSet()) : CpuSet.fromCpumap(aff);
            } catch (IllegalArgumentException e) {
                set = new CpuSet(new BitSet());
            }
            all.add(set);
            BitSet mine = set.cpus();
            if (allowed != null) {
                mine.and(allowed.cpus());
            }
            usable.add(new CpuSet(mine));
            allowedTotal += mine.cardinality();
        }
        boolean byAllowed = allowed != null && allowedTotal > 0;
        List<CpuSet> sets = byAllowed ? usable : all;
        long[] weight = new long[domains.size()];
        long total = 0;
        for (int d = 0; d < domains.size(); d++) {
            // A domain whose CPUs are unknown counts as one CPU, so that it still takes ranks; one
            // whose CPUs are all forbidden takes none.
            weight[d] = byAllowed ? sets.get(d).count() : Math.max(1, sets.get(d).count());
            total += weight[d];
        }
        int[] share = new int[domains.size()];
        int given = 0;
        for (int d = 0; d < share.length; d++) {
            share[d] = (int) (nranks * weight[d] / total);
            given += share[d];
        }
        while (given < nranks) {
            int best = 0;
            long bestRem = -1;
            for (int d = 0; d < share.length; d++) {
                long rem = nranks * weight[d] - share[d] * total;
                if (rem > bestRem) {
                    bestRem = rem;
                    best = d;
                }
            }
            share[best]++;
            given++;
        }
        int[] domainOf = new int[nranks];
        int r = 0;
        for (int d = 0; d < share.length; d++) {
            for (int i = 0; i < share[d]; i++) {
                domainOf[r++] = d;
            }
        }
        return new NumaPlacement(List.copyOf(domains), List.copyOf(sets), domainOf);
    }

    /** The NUMA domains (the system's CPU nodes), in order. */
    public List<TopoNode> domains() {
        return domains;
    }

    public int nranks() {
        return domainOf.length;
    }

    /** The index in {@link #domains()} of the domain of {@code rank}. */
    public int domainOf(int rank) {
        return domainOf[rank];
    }

    /** The ranks placed on domain {@code d}, in order. */
    public List<Integer> ranksOf(int d) {
        List<Integer> l = new ArrayList<>();
        for (int r = 0; r < domainOf.length; r++) {
            if (domainOf[r] == d) {
                l.add(r);
            }
        }
        return l;
    }

    /** The CPUs of domain {@code d} (empty when the topology does not say). */
    public CpuSet cpus(int d) {
        return cpus.get(d);
    }
}
