// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The CPUs the ranks of this host may run on: the machine's NUMA domains (detected from sysfs once
 * per process) and the CPUs allowed to this process, and from them the cores of each rank's
 * threads ({@link #place}).
 *
 * <pre>{@code
 * HostCpus host = HostCpus.detect(false);                   // this thread's affinity, as NCCL's
 * HostCpus.Placement p = host.place(1, 2, 1);               // the second of this host's 2 ranks, 1 thread
 * ThreadAffinity.set(p.core(0));                            // on one core of its NUMA domain
 * }</pre>
 */
public final class HostCpus {
    /** The machine, detected by the first caller of {@link #detect}: its NUMA domains do not change. */
    private static volatile TopoSystem machine;

    private final TopoSystem system;
    private final CpuSet allowed;

    /**
     * @param system  the machine's topology (its CPU nodes are the NUMA domains)
     * @param allowed the CPUs this process may run on
     * @throws JcclException if {@code allowed} is empty
     */
    public HostCpus(TopoSystem system, CpuSet allowed) {
        if (allowed.count() == 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "allowed CPUs", "is empty: no CPU to run on");
        }
        this.system = system;
        this.allowed = allowed;
    }

    /**
     * This machine: the calling thread's CPUs ({@code sched_getaffinity}, as set by {@code taskset},
     * {@code numactl}, MPI or a cgroup), or with {@code ignoreAffinity} (JCCL_IGNORE_CPU_AFFINITY)
     * every online CPU.
     *
     * @throws JcclException if the affinity cannot be read
     */
    public static HostCpus detect(boolean ignoreAffinity) {
        TopoSystem s = machine;
        if (s == null) {
            s = TopoSystem.detect(GpuProbe.NONE);
            machine = s;
        }
        return new HostCpus(s, ignoreAffinity ? online(s) : ThreadAffinity.get());
    }

    /** Every online CPU: sysfs's list, else the CPUs of the NUMA domains. */
    private static CpuSet online(TopoSystem s) {
        String list = Sysfs.read(Path.of("/sys/devices/system/cpu/online")).orElse("");
        try {
            CpuSet c = CpuSet.fromCpulist(list);
            if (c.count() > 0) {
                return c;
            }
        } catch (IllegalArgumentException e) {
            // fall through to the domains
        }
        BitSet all = new BitSet();
        NumaPlacement p = NumaPlacement.of(s, 1);
        for (int d = 0; d < p.domains().size(); d++) {
            all.or(p.cpus(d).cpus());
        }
        if (all.isEmpty()) {
            all.set(0, Runtime.getRuntime().availableProcessors());
        }
        return new CpuSet(all);
    }

    /** The CPUs this process may run on. */
    public CpuSet allowed() {
        return allowed;
    }

    /**
     * Where one rank's threads go.
     *
     * @param domain the rank's NUMA domain, an index into the system's CPU nodes
     * @param cpus   the domain's CPUs the rank may use (the whole allowed set when none of the
     *               domain's is allowed)
     * @param cores  thread {@code t}'s core is {@code cores[t % cores.length]}
     */
    public record Placement(int domain, CpuSet cpus, int[] cores) {
        /** The core of thread {@code t}, as a set to pin to. */
        public CpuSet core(int t) {
            BitSet b = new BitSet();
            b.set(cores[Math.floorMod(t, cores.length)]);
            return new CpuSet(b);
        }

        /** The cores of the rank's threads, as a list ("0" or "2-3"). */
        public CpuSet coreSet() {
            BitSet b = new BitSet();
            for (int c : cores) {
                b.set(c);
            }
            return new CpuSet(b);
        }
    }

    /**
     * The cores of the threads of rank {@code localIndex} of this host's {@code ranksOnHost}
     * ranks: the ranks go over the NUMA domains in blocks by their allowed CPUs ({@link
     * NumaPlacement}), and within its domain each rank takes {@code threadsPerRank} cores of its
     * own while they fit ({@link CoreAssignment}). Ranks of this host in other processes compute
     * the same from their own local index, so that they do not all take the same cores.
     *
     * @param threadsPerRank the threads a rank runs at most; 0: as many as the domain's cores
     *                       share out evenly (at least 1)
     * @throws JcclException naming the argument that is out of range
     */
    public Placement place(int localIndex, int ranksOnHost, int threadsPerRank) {
        if (ranksOnHost < 1 || localIndex < 0 || localIndex >= ranksOnHost) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "localIndex", localIndex + " is not one of the "
                    + ranksOnHost + " rank(s) of this host");
        }
        if (threadsPerRank < 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "threadsPerRank", threadsPerRank + " is negative");
        }
        NumaPlacement numa = NumaPlacement.of(system, allowed, ranksOnHost);
        int domain = numa.domainOf(localIndex);
        List<CpuSet> domains = new ArrayList<>();
        for (int d = 0; d < numa.domains().size(); d++) {
            domains.add(numa.cpus(d));
        }
        List<Integer> mates = numa.ranksOf(domain);
        int index = mates.indexOf(localIndex);
        int[] usable = CoreAssignment.usable(domains.get(domain), allowed);
        if (!domains.get(domain).cpus().intersects(allowed.cpus())) {
            // No domain has an allowed CPU (the topology is another machine's, or gives no CPUs):
            // every rank of the host deals from the allowed set, as one domain.
            domains = List.of(allowed);
            domain = 0;
            index = localIndex;
            mates = java.util.Collections.nCopies(ranksOnHost, 0);
        }
        int threads = threadsPerRank > 0 ? threadsPerRank : Math.max(1, usable.length / mates.size());
        int[] cores = CoreAssignment.cores(domains, allowed, domain, index, mates.size(), threads);
        BitSet cpus = new BitSet();
        for (int c : usable) {
            cpus.set(c);
        }
        return new Placement(numa.domainOf(localIndex), new CpuSet(cpus), cores);
    }
}
