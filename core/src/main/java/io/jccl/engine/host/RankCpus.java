// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.log.Log;
import io.jccl.topo.CpuSet;
import io.jccl.topo.HostCpus;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.ThreadAffinity;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where one rank's threads run: each lane's thread pinned to a core of the rank's NUMA domain, a
 * core of its own while the host's ranks' lanes fit ({@link HostCpus#place}), decided at init from
 * the CPUs the initializing thread may run on. Pinning is what keeps two ranks that wait on each
 * other from sharing one core for a whole run while the other idles (docs/results.md, "Pinned
 * threads"). A thread that cannot be pinned runs where the scheduler puts it: the first such
 * failure in the process is logged at INFO (INIT), and a job never fails for it.
 *
 * <p>Lane 0 runs on whichever thread runs the stream: the stream's own (pinned for good, as lane
 * workers are) or an application's thread inside {@code synchronize}, which is pinned while it
 * runs the queue and then given its own CPUs back ({@link #release}), so that neither it nor the
 * threads it starts later stay confined to one core. That costs such a thread three system calls
 * per {@code synchronize} that runs calls (read its CPUs, pin, give them back).
 */
final class RankCpus {
    /** Not pinned by jccl: the thread keeps its own affinity. */
    private static final int NONE = -1;
    private static final AtomicBoolean FAILURE_LOGGED = new AtomicBoolean();
    private static final ThreadLocal<ThreadState> STATE = ThreadLocal.withInitial(ThreadState::new);

    /** What jccl did to one thread's affinity. */
    private static final class ThreadState {
        /** The core it is pinned to here ({@link #NONE}: none), so that a pinned thread makes no system call. */
        int core = NONE;
        /** One of jccl's own threads (a stream's, a lane worker): it stays pinned. */
        boolean own;
        /** An application's thread pinned while it runs lanes: {@link #saved} holds its own CPUs. */
        boolean holding;
        /** Where an application's thread's CPUs are read into, reused by each synchronize. */
        ThreadAffinity.Mask saved;
    }

    private final int rank;
    private final Log log;
    /** Null when the CPUs could not be read: nothing is pinned. */
    private final HostCpus.Placement placement;
    /** Each lane's core as the kernel takes it, made once. */
    private final ThreadAffinity.Mask[] masks;
    /**
     * The CPUs the initializing thread could use: an application's thread confined to others was
     * placed by the application, and stays where it is. Null with JCCL_IGNORE_CPU_AFFINITY.
     */
    private final ThreadAffinity.Mask allowed;
    /** Set when pinning failed once: this rank stops trying (each try is a system call). */
    private volatile boolean failed;

    private RankCpus(int rank, Log log, HostCpus.Placement placement, CpuSet allowed) {
        this.rank = rank;
        this.log = log;
        this.placement = placement;
        this.allowed = allowed == null ? null : ThreadAffinity.Mask.of(allowed);
        int n = placement == null ? 0 : placement.cores().length;
        this.masks = new ThreadAffinity.Mask[n];
        for (int i = 0; i < n; i++) {
            masks[i] = ThreadAffinity.Mask.of(placement.core(i));
        }
    }

    /**
     * Rank {@code rank}'s cores, as its place among the ranks of its host in {@code layout} gives
     * them (so that ranks of one host in different processes take different cores); on the
     * calling (initializing) thread, whose affinity bounds them unless JCCL_IGNORE_CPU_AFFINITY.
     */
    static RankCpus of(Config config, ServerLayout layout, int rank) {
        Log log = Log.of(config, rank);
        HostCpus.Placement p = null;
        CpuSet allowed = null;
        try {
            if (!config.cpuPinning()) {
                log.info(Config.Subsys.INIT, "CPU affinity: threads not pinned (JCCL_CPU_PINNING=0)");
            } else if (ThreadAffinity.available()) {
                HostCpus host = HostCpus.detect(config.ignoreCpuAffinity());
                p = host.place(layout.localIndex(rank), layout.localSize(layout.serverOf(rank)), 0);
                // With JCCL_IGNORE_CPU_AFFINITY no thread's own CPUs count, the application's included.
                allowed = config.ignoreCpuAffinity() ? null : host.allowed();
                HostCpus.Placement placed = p;
                log.info(Config.Subsys.INIT, () -> "CPU affinity " + placed.cpus() + " (NUMA domain " + placed.domain()
                        + "; allowed " + host.allowed() + (config.ignoreCpuAffinity() ? ", JCCL_IGNORE_CPU_AFFINITY" : "")
                        + "): lane threads on core(s) " + placed.coreSet());
            } else {
                failed(log, rank, "sched_setaffinity is not available: threads are not pinned");
            }
        } catch (JcclException e) {
            failed(log, rank, "cannot place threads on cores (" + e.detail() + "): threads are not pinned");
            p = null;
        }
        return new RankCpus(rank, log, p, allowed);
    }

    /** The CPUs of this rank's NUMA domain that it may use, or null when nothing is pinned. */
    CpuSet domainCpus() {
        return placement == null ? null : placement.cpus();
    }

    /** Marks the calling thread as one of jccl's own (a stream's or a lane worker): what pins it stays. */
    static void ownThread() {
        STATE.get().own = true;
    }

    /**
     * Pins the calling thread, which runs this rank's lane {@code lane}, to that lane's core; no
     * system call when it is there already. A thread that runs another rank's lanes later (a
     * stream carrying several ranks' calls) moves with them.
     */
    void pinLane(int lane) {
        if (masks.length == 0 || failed) {
            return;
        }
        ThreadState s = STATE.get();
        int i = lane % masks.length;
        int core = placement.cores()[i];
        if (s.core == core) {
            return;
        }
        if (!s.own && !s.holding) {
            try {
                s.saved = ThreadAffinity.read(s.saved != null ? s.saved : ThreadAffinity.Mask.empty());
            } catch (JcclException e) {
                failed = true;
                failed(log, rank, "cannot read the CPUs of " + Thread.currentThread().getName() + " (" + e.detail()
                        + "): it runs rank " + rank + "'s lanes unpinned");
                return;
            }
            if (allowed != null && !s.saved.sameCpus(allowed)) {
                // The application placed this thread itself: it stays where it was put (and is
                // not read again while it runs this lane).
                s.core = core;
                return;
            }
        }
        if (pin(masks[i], log, rank, "lane " + lane + " of rank " + rank)) {
            s.core = core;
            s.holding = !s.own;
        } else {
            failed = true;
        }
    }

    /** Gives an application's thread that ran lanes its own CPUs back; nothing for jccl's own threads. */
    static void release() {
        ThreadState s = STATE.get();
        if (s.holding) {
            s.holding = false;
            s.core = NONE;
            pin(s.saved, null, Log.NO_RANK, "an application's thread back");
        }
    }

    /** Pins the calling thread to {@code cpus}; a failure is logged once per process (where {@code log} is given) and otherwise ignored. */
    static boolean pin(CpuSet cpus, Log log, int rank, String what) {
        return pin(ThreadAffinity.Mask.of(cpus), log, rank, what);
    }

    private static boolean pin(ThreadAffinity.Mask mask, Log log, int rank, String what) {
        try {
            ThreadAffinity.set(mask);
            return true;
        } catch (JcclException e) {
            failed(log, rank, "cannot pin " + what + " (" + Thread.currentThread().getName() + ") to CPU(s) " + mask
                    + ": " + e.detail() + "; it runs unpinned");
            return false;
        }
    }

    private static void failed(Log log, int rank, String message) {
        if (log != null && !FAILURE_LOGGED.getAndSet(true)) {
            log.info(Config.Subsys.INIT, message);
        }
    }
}
