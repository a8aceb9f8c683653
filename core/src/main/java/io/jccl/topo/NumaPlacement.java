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
        List<TopoNode> domains = system.nodes(NodeType.CPU);
        if (domains.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology", "has no CPU (NUMA domain)");
        }
        if (nranks < 1) {
            throw new IllegalArgumentException("nranks " + nranks);
        }
        List<CpuSet> sets = new ArrayList<>();
        long[] weight = new long[domains.size()];
        long total = 0;
        for (int d = 0; d < domains.size(); d++) {
            String aff = domains.get(d).cpu().affinity();
            CpuSet set;
            try {
                set = aff.isBlank() ? new CpuSet(new BitSet()) : CpuSet.fromCpumap(aff);
            } catch (IllegalArgumentException e) {
                set = new CpuSet(new BitSet());
            }
            sets.add(set);
            // A domain whose CPUs are unknown counts as one CPU, so that it still takes ranks.
            weight[d] = Math.max(1, set.count());
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
