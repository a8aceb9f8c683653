// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The system calls themselves, each test on a thread of its own so that the test runner's threads stay as they were. */
class ThreadAffinityTest {
    @BeforeEach
    void needsTheCalls() {
        Assumptions.assumeTrue(ThreadAffinity.available(), "sched_getaffinity/sched_setaffinity are not in this C library");
    }

    /** Runs {@code body} on a new platform thread and rethrows what it threw. */
    private static void onOwnThread(Runnable body) throws Throwable {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join();
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    @Test
    void aPinnedThreadReadsBackItsCore() throws Throwable {
        onOwnThread(() -> {
            CpuSet before = ThreadAffinity.get();
            assertThat(before.count()).isPositive();
            int last = before.cpus().length() - 1;
            CpuSet one = CpuSet.fromCpulist(Integer.toString(last));
            ThreadAffinity.set(one);
            assertThat(ThreadAffinity.get()).isEqualTo(one);
            ThreadAffinity.set(before);
            assertThat(ThreadAffinity.get()).isEqualTo(before);
        });
    }

    @Test
    void aNewThreadInheritsItsCreatorsCpus() throws Throwable {
        onOwnThread(() -> {
            CpuSet one = CpuSet.fromCpulist(Integer.toString(ThreadAffinity.get().cpus().nextSetBit(0)));
            ThreadAffinity.set(one);
            AtomicReference<CpuSet> child = new AtomicReference<>();
            try {
                Thread.ofPlatform().start(() -> child.set(ThreadAffinity.get())).join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(child.get()).isEqualTo(one);
        });
    }

    @Test
    void anEmptyMaskIsRefusedBeforeTheKernelSeesIt() throws Throwable {
        onOwnThread(() -> {
            CpuSet before = ThreadAffinity.get();
            assertThatThrownBy(() -> ThreadAffinity.set(CpuSet.fromCpulist(""))).isInstanceOf(JcclException.class)
                    .hasMessageContaining("argument 'cpus' is empty");
            assertThat(ThreadAffinity.get()).isEqualTo(before);
        });
    }

    @Test
    void aMaskOfNoExistingCpuFailsNamingTheErrorAndChangesNothing() throws Throwable {
        onOwnThread(() -> {
            CpuSet before = ThreadAffinity.get();
            // Past any CPU of this machine and past glibc's 1024: the mask is sized to hold it.
            CpuSet none = CpuSet.fromCpulist("4000-4001");
            assertThatThrownBy(() -> ThreadAffinity.set(none)).isInstanceOfSatisfying(JcclException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.SYSTEM_ERROR))
                    .hasMessageContaining("sched_setaffinity failed pinning this thread to CPUs 4000-4001")
                    .hasMessageContaining("Invalid argument (errno 22)");
            assertThat(ThreadAffinity.get()).isEqualTo(before);
        });
    }

    @Test
    void masksReadIntoAndCompareWithoutMakingSets() throws Throwable {
        onOwnThread(() -> {
            CpuSet before = ThreadAffinity.get();
            ThreadAffinity.Mask into = ThreadAffinity.Mask.empty();
            assertThat(ThreadAffinity.read(into)).isSameAs(into);
            assertThat(into.cpus()).isEqualTo(before);
            assertThat(into.sameCpus(ThreadAffinity.Mask.of(before))).isTrue();
            CpuSet one = CpuSet.fromCpulist(Integer.toString(before.cpus().nextSetBit(0)));
            assertThat(into.sameCpus(ThreadAffinity.Mask.of(one))).isEqualTo(before.equals(one));
            // A mask sized for CPU 2000 holds the same CPUs as a small one when the rest is empty.
            assertThat(ThreadAffinity.Mask.of(CpuSet.fromCpulist("3")).sameCpus(ThreadAffinity.Mask.of(CpuSet.fromCpulist("3")))).isTrue();
            java.util.BitSet wide = new java.util.BitSet();
            wide.set(3);
            wide.set(2000);
            assertThat(ThreadAffinity.Mask.of(new CpuSet(wide)).sameCpus(ThreadAffinity.Mask.of(CpuSet.fromCpulist("3")))).isFalse();
            ThreadAffinity.set(ThreadAffinity.Mask.of(one));
            assertThat(ThreadAffinity.read(into).cpus()).isEqualTo(one);
            ThreadAffinity.set(ThreadAffinity.Mask.of(before));
        });
    }
}
