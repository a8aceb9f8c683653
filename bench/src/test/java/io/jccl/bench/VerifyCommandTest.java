// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VerifyCommandTest {
    @Test
    void aSmallMatrixPassesAndFillsEveryRow() {
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("verify", "-n", "1-5,8", "-c", "1,2", "-m", "1,4", "--counts", "0,3,10");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains(" 0 failed").contains("allreduce").contains("splittree").contains("sendrecv");
        Map<String, VerifyCommand.Tally> table = VerifyCommand.tally(
                VerifyOptions.parse(List.of("-n", "2,3", "-c", "2", "-m", "3", "--counts", "5")));
        assertThat(table.keySet()).contains("allreduce ring", "allreduce tree", "allreduce splittree", "broadcast ring",
                "reduce ring", "allgather ring", "reducescatter ring", "alltoall direct", "gather direct",
                "scatter direct", "sendrecv direct");
        for (Map.Entry<String, VerifyCommand.Tally> e : table.entrySet()) {
            VerifyCommand.Tally t = e.getValue();
            // Two rank counts, both buffer forms (all-to-all: one); send/recv: 3 random groups each.
            long expected = e.getKey().startsWith("alltoall") ? 2 : e.getKey().startsWith("sendrecv") ? 6 : 4;
            assertThat(t.cases).as(e.getKey()).isEqualTo(expected);
            assertThat(t.passed).as(e.getKey()).isEqualTo(t.cases);
            assertThat(t.firstFault).as(e.getKey()).isNull();
            if (!e.getKey().startsWith("sendrecv")) {
                assertThat(t.steps).as(e.getKey()).isPositive();
                assertThat(t.elements).as(e.getKey()).isPositive();
            }
        }
    }

    @Test
    void defaultListsAreTrimmedForLargeRankCountsOnly() {
        VerifyOptions d = VerifyOptions.parse(List.of());
        assertThat(d.ranks()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 31, 32, 33, 64);
        assertThat(d.channels()).containsExactly(1, 2, 3);
        assertThat(d.countsFor(16)).containsExactly(0L, 1L, 7L, 1001L);
        assertThat(d.countsFor(64)).containsExactly(0L, 1L, 7L, 97L);
        assertThat(d.messagesFor(16, 7)).containsExactly(1L, 3L, 64L);
        assertThat(d.messagesFor(16, 1001)).containsExactly(3L, 64L);
        assertThat(d.messagesFor(64, 97)).containsExactly(64L);
        VerifyOptions given = VerifyOptions.parse(List.of("-n", "64", "--counts", "500", "-m", "1"));
        assertThat(given.countsFor(64)).containsExactly(500L);
        assertThat(given.messagesFor(64, 500)).containsExactly(1L);
    }

    @Test
    void badOptionsNameTheOption() {
        assertThatThrownBy(() -> VerifyOptions.parse(List.of("-z"))).isInstanceOf(UsageException.class).hasMessageContaining("-z");
        assertThatThrownBy(() -> VerifyOptions.parse(List.of("-n", "3-1"))).hasMessageContaining("-n");
        assertThatThrownBy(() -> VerifyOptions.parse(List.of("-c", "x"))).hasMessageContaining("-c");
        assertThatThrownBy(() -> VerifyOptions.parse(List.of("-m", "0"))).hasMessageContaining("-m");
        assertThatThrownBy(() -> VerifyOptions.parse(List.of("--counts"))).hasMessageContaining("--counts");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("verify", "--bogus");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("--bogus");
    }
}
