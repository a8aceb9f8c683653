// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.topo.CpuSet;
import io.jccl.topo.HostCpus;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.ThreadAffinity;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What pinning a lane does to the thread that runs it, read back from the kernel: jccl's own
 * threads stay on their core; an application's thread is on it only until {@link RankCpus#release}
 * (the end of its synchronize), and one the application placed itself is left where it is.
 */
class RankCpusTest {
    private CpuSet allowed;

    @BeforeEach
    void needsTwoCpus() {
        Assumptions.assumeTrue(ThreadAffinity.available(), "sched_setaffinity is not available");
        allowed = ThreadAffinity.get();
        Assumptions.assumeTrue(allowed.count() >= 2, "one CPU: every placement is the same");
    }

    /** The CPUs of a new thread (which inherits this one's) at each step of {@code steps}: before, then after each. */
    private static List<CpuSet> onNewThread(Runnable... steps) throws Exception {
        List<CpuSet> seen = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread.ofPlatform().start(() -> {
            try {
                seen.add(ThreadAffinity.get());
                for (Runnable s : steps) {
                    s.run();
                    seen.add(ThreadAffinity.get());
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }).join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return seen;
    }

    private static CpuSet cpu(int c) {
        return CpuSet.fromCpulist(Integer.toString(c));
    }

    /** Lane 0's core of rank {@code rank} of 2 on this host, as the placement gives it. */
    private static CpuSet lane0(int rank) {
        return cpu(HostCpus.detect(false).place(rank, 2, 0).cores()[0]);
    }

    @Test
    void anApplicationsThreadRunsALaneOnItsCoreThenGetsItsCpusBack() throws Exception {
        RankCpus rank1 = RankCpus.of(Config.defaults(), ServerLayout.single(2), 1);
        List<CpuSet> seen = onNewThread(() -> rank1.pinLane(0), () -> rank1.pinLane(0), RankCpus::release);
        assertThat(lane0(1)).isNotEqualTo(lane0(0));
        assertThat(seen).containsExactly(allowed, lane0(1), lane0(1), allowed);
    }

    @Test
    void jcclsOwnThreadsStayOnTheirCore() throws Exception {
        RankCpus rank0 = RankCpus.of(Config.defaults(), ServerLayout.single(2), 0);
        RankCpus rank1 = RankCpus.of(Config.defaults(), ServerLayout.single(2), 1);
        // A stream's thread carrying both ranks' calls moves with them, and release leaves it.
        List<CpuSet> seen = onNewThread(RankCpus::ownThread, () -> rank0.pinLane(0), () -> rank1.pinLane(0),
                RankCpus::release);
        assertThat(seen).containsExactly(allowed, allowed, lane0(0), lane0(1), lane0(1));
    }

    @Test
    void aThreadTheApplicationPlacedIsLeftWhereItIs() throws Exception {
        RankCpus rank0 = RankCpus.of(Config.defaults(), ServerLayout.single(2), 0);
        CpuSet own = cpu(allowed.cpus().length() - 1);
        List<CpuSet> seen = onNewThread(() -> ThreadAffinity.set(own), () -> rank0.pinLane(0), RankCpus::release);
        assertThat(seen).containsExactly(allowed, own, own, own);
        // Unless JCCL_IGNORE_CPU_AFFINITY: then no thread's own CPUs count.
        RankCpus ignoring = RankCpus.of(Config.defaults().withIgnoreCpuAffinity(true), ServerLayout.single(2), 0);
        List<CpuSet> moved = onNewThread(() -> ThreadAffinity.set(own), () -> ignoring.pinLane(0), RankCpus::release);
        assertThat(moved.get(2).count()).isEqualTo(1);
        assertThat(moved.get(3)).isEqualTo(own);
    }

    @Test
    void withPinningOffNothingMoves() throws Exception {
        RankCpus off = RankCpus.of(Config.defaults().withCpuPinning(false), ServerLayout.single(2), 1);
        assertThat(off.domainCpus()).isNull();
        List<CpuSet> seen = onNewThread(RankCpus::ownThread, () -> off.pinLane(0), () -> off.pinLane(1));
        assertThat(seen).containsOnly(allowed);
    }
}
