// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.bootstrap.CommId;
import io.jccl.bootstrap.InProcessAllGather;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code Communicator.init} from a {@link CommId} and from an out-of-band all-gather, with ranks as
 * threads of this process (they share in-process FIFOs; {@link MultiProcessTest} covers processes):
 * rank 0's settings used by all, split, abort from another thread.
 */
@Timeout(60)
class CommunicatorInitTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(20));

    /** Runs {@code body} for ranks 0..n-1, each in its own thread; returns their results by rank. */
    static <T> List<T> ranks(int n, IntFunction<T> body) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(n);
        try {
            List<CompletableFuture<T>> fs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                fs.add(CompletableFuture.supplyAsync(() -> body.apply(rank), ex));
            }
            List<T> out = new ArrayList<>();
            for (CompletableFuture<T> f : fs) {
                out.add(f.get(40, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            ex.shutdownNow();
        }
    }

    /** All-reduces (sum) of rank+1 over 4000 int32 on {@code c}; returns the first element, having checked the rest equal it. */
    static int sumOfRanks(Communicator c) {
        try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
            MemorySegment buf = arena.allocate(4000 * 4L);
            for (int i = 0; i < 4000; i++) {
                buf.setAtIndex(ValueLayout.JAVA_INT, i, c.rank() + 1);
            }
            c.allReduce(buf, buf, 4000, DataType.INT32, RedOp.SUM, s);
            s.synchronize();
            int first = buf.getAtIndex(ValueLayout.JAVA_INT, 0);
            for (int i = 0; i < 4000; i++) {
                assertThat(buf.getAtIndex(ValueLayout.JAVA_INT, i)).isEqualTo(first);
            }
            return first;
        }
    }

    @Test
    void ranksFromACommIdRunWithRank0sSettings() throws Exception {
        int n = 3;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            List<Communicator> comms = ranks(n, r -> Communicator.init(id, n, r,
                    LOOPBACK.withProtocols(r == 0 ? "LL128" : "Simple").withAlgorithms(r == 0 ? "ring" : "tree")));
            try {
                for (Communicator c : comms) {
                    CallChoice ch = c.choiceFor(io.jccl.Collective.ALL_REDUCE, 4000, DataType.INT32);
                    assertThat(ch.protocol()).as("rank " + c.rank()).isEqualTo("LL128");
                    assertThat(ch.algorithm()).isEqualTo("ring");
                    // Each rank keeps its own configuration object; only the plan follows rank 0.
                    assertThat(c.size()).isEqualTo(n);
                }
                assertThat(ranks(n, r -> sumOfRanks(comms.get(r)))).containsOnly(1 + 2 + 3);
            } finally {
                comms.forEach(Communicator::close);
            }
        }
    }

    @Test
    void ranksFromAnOutOfBandAllGather() throws Exception {
        int n = 4;
        List<InProcessAllGather> oob = InProcessAllGather.group(n, Duration.ofSeconds(20));
        List<Communicator> comms = ranks(n, r -> Communicator.init(oob.get(r), LOOPBACK));
        try {
            assertThat(comms).extracting(Communicator::rank).containsExactly(0, 1, 2, 3);
            assertThat(ranks(n, r -> sumOfRanks(comms.get(r)))).containsOnly(1 + 2 + 3 + 4);
        } finally {
            comms.forEach(Communicator::close);
        }
    }

    @Test
    void splitMakesCommunicatorsOfEachColorRankedByKey() throws Exception {
        int n = 4;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            List<Communicator> comms = ranks(n, r -> Communicator.init(id, n, r, LOOPBACK));
            try {
                checkSplits(comms);
            } finally {
                comms.forEach(Communicator::close);
            }
        }
    }

    @Test
    void theRanksOfInitAllSplitFromTheirThreads() throws Exception {
        List<Communicator> comms = List.of(Communicator.initAll(4, LOOPBACK));
        try {
            checkSplits(comms);
            // A split of a split: the first half of each half.
            List<Communicator> halves = ranks(4, r -> comms.get(r).split(r % 2, r));
            List<Communicator> quarters = ranks(4, r -> halves.get(r).split(halves.get(r).rank(), 0));
            try {
                assertThat(quarters).extracting(Communicator::size).containsOnly(1);
                assertThat(ranks(4, r -> sumOfRanks(quarters.get(r)))).containsOnly(1);
            } finally {
                halves.forEach(Communicator::close);
                quarters.forEach(Communicator::close);
            }
            assertThatThrownBy(() -> comms.get(0).split(-2, 0)).isInstanceOf(JcclException.class)
                    .hasMessageContaining("'color'").hasMessageContaining("-2");
        } finally {
            comms.forEach(Communicator::close);
        }
    }

    @Test
    void aSplitThatARankNeverCallsFailsNamingIt() {
        Communicator[] all = Communicator.initAll(3, LOOPBACK.withTimeout(Duration.ofMillis(300)));
        try {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> all[0].split(0, 0)).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                    .hasMessageContaining("ranks [1, 2]");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        } finally {
            for (Communicator c : all) {
                c.close();
            }
        }
    }

    /** Splits 4 ranks into halves (key reversed), then lets rank 3 out; checks ranks, sizes and sums. */
    private static void checkSplits(List<Communicator> comms) throws Exception {
        int n = comms.size();
        // Ranks 0 and 2 (key reversed), 1 and 3; then rank 3 alone leaves with no color.
        List<Communicator> halves = ranks(n, r -> comms.get(r).split(r % 2, -r));
        List<Communicator> lastOut = ranks(n, r -> comms.get(r).split(r == 3 ? Communicator.SPLIT_NO_COLOR : 0, r));
        try {
            assertThat(halves).extracting(Communicator::size).containsOnly(2);
            assertThat(halves).extracting(Communicator::rank).containsExactly(1, 1, 0, 0);
            List<Integer> sums = ranks(n, r -> sumOfRanks(halves.get(r)));
            // rank+1 within the half: new ranks 0 and 1 give 1 + 2 in both halves.
            assertThat(sums).containsOnly(3);
            assertThat(lastOut.get(3)).isNull();
            assertThat(lastOut.subList(0, 3)).extracting(Communicator::size).containsOnly(3);
            assertThat(ranks(3, r -> sumOfRanks(lastOut.get(r)))).containsOnly(6);
        } finally {
            halves.forEach(Communicator::close);
            lastOut.subList(0, 3).forEach(Communicator::close);
        }
    }

    @Test
    void abortFromAnotherThreadUnblocksARankStuckInACollective() throws Exception {
        int n = 2;
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            List<Communicator> comms = ranks(n, r -> Communicator.init(id, n, r, LOOPBACK.withTimeout(Duration.ofSeconds(60))));
            try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                MemorySegment buf = arena.allocate(1024);
                Communicator c = comms.getFirst();
                c.allReduce(buf, buf, 256, DataType.INT32, RedOp.SUM, s); // rank 1 never calls
                CompletableFuture.runAsync(() -> {
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    c.abort();
                });
                long t0 = System.nanoTime();
                assertThatThrownBy(s::synchronize).isInstanceOf(RuntimeException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
                assertThatThrownBy(() -> c.allReduce(buf, buf, 1, DataType.INT32, RedOp.SUM, s)).isInstanceOf(JcclException.class);
            } finally {
                comms.forEach(Communicator::close);
            }
        }
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> Communicator.init((CommId) null, 2, 0, LOOPBACK)).hasMessageContaining("'id'");
        assertThatThrownBy(() -> Communicator.init((io.jccl.bootstrap.OutOfBandAllGather) null, LOOPBACK)).hasMessageContaining("'oob'");
        assertThatThrownBy(() -> Communicator.init(CommId.parse("127.0.0.1:1#" + "A".repeat(43)), 2, 5, LOOPBACK))
                .hasMessageContaining("rank");
    }
}
