// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.bootstrap.CommId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Communicator#shrink(int[])} with ranks as threads ({@code initAll}) and through the
 * bootstrap ({@code init}), and the state of a communicator: non-blocking init, {@code state()},
 * {@code asyncError()}, {@code finish()}. Processes, lost ranks and the keep-alive are
 * io.jccl.fault's (LostRankShrinkTest, NonBlockingInitTest).
 */
@Timeout(60)
class ShrinkAndStateTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(20))
            .withTimeout(Duration.ofSeconds(10));

    @Test
    void threadRanksShrinkToTheOthersRenumberedInOrder() throws Exception {
        Communicator[] comms = Communicator.initAll(4, LOOPBACK);
        int[] keep = {0, 1, 3};
        List<Communicator> shrunk = CommunicatorInitTest.ranks(3, i -> comms[keep[i]].shrink(new int[] {2}));
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(shrunk.get(i).rank()).isEqualTo(i);
                assertThat(shrunk.get(i).size()).isEqualTo(3);
            }
            assertThat(CommunicatorInitTest.ranks(3, i -> CommunicatorInitTest.sumOfRanks(shrunk.get(i)))).containsOnly(1 + 2 + 3);
            // The old communicator is aborted: the ranks that shrank it refuse work on it.
            assertThat(comms[0].state()).isEqualTo(Communicator.State.FAILED);
            assertThat(comms[0].asyncError().getMessage()).contains("shrank the communicator, excluding ranks [2]");
            assertThatThrownBy(() -> CommunicatorInitTest.sumOfRanks(comms[1])).isInstanceOf(JcclException.class)
                    .hasMessageContaining("aborted and must be closed");
        } finally {
            shrunk.forEach(Communicator::close);
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void ranksThatExcludeDifferentRanksFailNamingTheDifference() throws Exception {
        Communicator[] comms = Communicator.initAll(4, LOOPBACK.withTimeout(Duration.ofSeconds(2)));
        try {
            List<Object> outcomes = CommunicatorInitTest.ranks(3, i -> {
                try {
                    return comms[i].shrink(i == 2 ? new int[] {1, 3} : new int[] {3});
                } catch (JcclException e) {
                    return e;
                }
            });
            assertThat(outcomes).allMatch(o -> o instanceof JcclException);
            assertThat(outcomes).anyMatch(o -> ((JcclException) o).getMessage().contains("every remaining rank must exclude the same ranks"));
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void badExclusionsAreRefusedNamingTheArgument() {
        Communicator[] comms = Communicator.initAll(2, LOOPBACK);
        try {
            assertThatThrownBy(() -> comms[0].shrink(null)).hasMessageContaining("excludeRanks").hasMessageContaining("null");
            assertThatThrownBy(() -> comms[0].shrink(new int[] {0})).hasMessageContaining("this rank itself");
            assertThatThrownBy(() -> comms[0].shrink(new int[] {2})).hasMessageContaining("excludeRanks")
                    .hasMessageContaining("not a rank of 0..1");
            assertThatThrownBy(() -> comms[0].shrink()).hasMessageContaining("no rank of this communicator is known to be lost");
            assertThat(comms[0].state()).isEqualTo(Communicator.State.READY);
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void ranksOfABootstrapShrinkThroughIt() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            List<Communicator> comms = CommunicatorInitTest.ranks(4, r -> Communicator.init(id, 4, r, LOOPBACK));
            int[] keep = {0, 2, 3};
            List<Communicator> shrunk = CommunicatorInitTest.ranks(3, i -> comms.get(keep[i]).shrink(new int[] {1}));
            try {
                assertThat(shrunk).extracting(Communicator::rank).containsExactly(0, 1, 2);
                assertThat(CommunicatorInitTest.ranks(3, i -> CommunicatorInitTest.sumOfRanks(shrunk.get(i)))).containsOnly(1 + 2 + 3);
            } finally {
                shrunk.forEach(Communicator::close);
                comms.forEach(Communicator::close);
            }
        }
    }

    @Test
    void aNonBlockingInitReturnsAtOnceAndBecomesReady() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId id = root.id();
            // One thread makes every rank: blocking inits would wait for each other forever.
            List<Communicator> comms = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                comms.add(Communicator.init(id, 3, r, LOOPBACK.withBlocking(false)));
            }
            try {
                Communicator first = comms.getFirst();
                if (first.state() == Communicator.State.IN_PROGRESS) {
                    assertThatThrownBy(() -> first.config()).isInstanceOf(JcclException.class)
                            .satisfies(e -> assertThat(((JcclException) e).code()).isIn(ErrorCode.IN_PROGRESS));
                }
                for (Communicator c : comms) {
                    awaitNot(c, Communicator.State.IN_PROGRESS);
                    assertThat(c.state()).as(String.valueOf(c.asyncError())).isEqualTo(Communicator.State.READY);
                    assertThat(c.asyncError()).isNull();
                }
                assertThat(CommunicatorInitTest.ranks(3, r -> CommunicatorInitTest.sumOfRanks(comms.get(r)))).containsOnly(1 + 2 + 3);
            } finally {
                comms.forEach(Communicator::close);
            }
        }
    }

    @Test
    void aNonBlockingInitThatFailsSaysWhyInAsyncError() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            Communicator c = Communicator.init(root.id(), 2, 0, LOOPBACK.withBlocking(false).withBootstrapTimeout(Duration.ofSeconds(1)));
            try {
                assertThat(c.rank()).isZero();
                assertThat(c.size()).isEqualTo(2);
                awaitNot(c, Communicator.State.IN_PROGRESS);
                assertThat(c.state()).isEqualTo(Communicator.State.FAILED);
                assertThat(c.asyncError().code()).isEqualTo(ErrorCode.TIMEOUT);
                assertThat(c.asyncError().getMessage()).contains("1");
                assertThatThrownBy(() -> CommunicatorInitTest.sumOfRanks(c)).isInstanceOf(JcclException.class)
                        .hasMessageContaining("failed to initialize");
            } finally {
                c.close();
            }
        }
    }

    private static void awaitNot(Communicator c, Communicator.State s) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (c.state() == s && System.nanoTime() < until) {
            Thread.sleep(5);
        }
    }

    @Test
    void finishWaitsForWhatWasIssued() throws Exception {
        Communicator[] comms = Communicator.initAll(2, LOOPBACK);
        int calls = 5;
        int count = 1 << 20;
        try (Arena arena = Arena.ofShared(); HostStream s0 = new HostStream(); HostStream s1 = new HostStream()) {
            HostStream[] streams = {s0, s1};
            CommunicatorInitTest.ranks(2, rank -> {
                MemorySegment[] bufs = new MemorySegment[calls];
                for (int k = 0; k < calls; k++) {
                    bufs[k] = arena.allocate(count * 4L);
                    for (int i = 0; i < count; i++) {
                        bufs[k].setAtIndex(ValueLayout.JAVA_INT, i, (rank + 1) * (k + 1));
                    }
                    comms[rank].allReduce(bufs[k], bufs[k], count, DataType.INT32, RedOp.SUM, streams[rank]);
                }
                comms[rank].finish(); // no synchronize: finish alone must wait for the five
                for (int k = calls - 1; k >= 0; k--) { // the last call first: the one least likely done
                    for (int i = count - 1; i >= 0; i -= 4099) {
                        assertThat(bufs[k].getAtIndex(ValueLayout.JAVA_INT, i)).as("call %d element %d", k, i).isEqualTo(3 * (k + 1));
                    }
                }
                return null;
            });
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }
}
