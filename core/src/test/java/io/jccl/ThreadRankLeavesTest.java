// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rank that is a thread of this process and closes (leaves) or aborts while the others still
 * call: it frees the FIFOs it receives on, and the others must fail naming it, not report the
 * closed memory ("Already closed") as an internal error. Spark's barrier tasks in local mode are
 * such ranks (spark/ SparkBarrierTest).
 */
@Timeout(60)
class ThreadRankLeavesTest {
    private static final Config CONFIG = Config.defaults().withTimeout(Duration.ofSeconds(3));

    @Test
    void theOthersFailNamingARankThatClosedBetweenCalls() throws Exception {
        assertTheOthersNameRank1(c -> c.close());
    }

    @Test
    void theOthersFailNamingARankThatAbortedBetweenCalls() throws Exception {
        assertTheOthersNameRank1(c -> c.abort());
    }

    @Test
    void theOthersFailNamingARankThatClosedBeforeAnyCall() throws Exception {
        // No FIFO exists yet: the others wait out JCCL_TIMEOUT (3 s), some of them on a rank that
        // itself waits on rank 1, and each names rank 1.
        assertTheOthersNameRank1(c -> c.close(), false);
    }

    private static void assertTheOthersNameRank1(java.util.function.Consumer<Communicator> leave) throws Exception {
        assertTheOthersNameRank1(leave, true);
    }

    private static void assertTheOthersNameRank1(java.util.function.Consumer<Communicator> leave, boolean callFirst)
            throws Exception {
        Communicator[] comms = Communicator.initAll(4, CONFIG);
        try {
            if (callFirst) {
                // One call first, so that every FIFO exists and the later one writes into rank 1's.
                assertThat(CommunicatorInitTest.ranks(4, r -> CommunicatorInitTest.sumOfRanks(comms[r]))).containsOnly(10);
            }
            leave.accept(comms[1]);
            int[] others = {0, 2, 3};
            List<String> failures = CommunicatorInitTest.ranks(3, i -> {
                try {
                    CommunicatorInitTest.sumOfRanks(comms[others[i]]);
                    return "rank " + others[i] + " completed";
                } catch (JcclException e) {
                    return e.getMessage();
                }
            });
            assertThat(failures).allSatisfy(m -> assertThat(m).contains("rank 1").doesNotContain("Already closed")
                    .doesNotContain("completed"));
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }
}
