// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.topo.ServerLayout;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimelineReportTest {
    /** 2 servers of 1 rank, 8 Mbit/s = 1 byte per µs each way, no burst. */
    private static final SimFabric TWO = new EmulatedFabric(ServerLayout.uniform(2, 1), 8, 8, EmulatedFabric.Nic.RAIL, 0);

    /** Two processes' lines, interleaved as two files read one after the other would not be: order must not matter. */
    private static final List<String> LINES = List.of(
            "h:1:9 [0] jccl TRACE NET timeline 100 isend Simple ch0 0->1 #0 1000 call a1",
            "h:2:9 [1] jccl TRACE NET timeline 150 irecv Simple ch0 0->1 #0 -1 call 0",
            "h:1:9 [0] jccl TRACE NET timeline 120 sent Simple ch0 0->1 #0 -1 call 0",
            "h:2:9 [1] jccl TRACE NET timeline 1200 arrived Simple ch0 0->1 #0 1000 call a1",
            "h:1:9 [0] jccl INFO NET channel 00/Simple : 0[1] -> 1[2] [send] via NET/Socket/0",
            "h:2:9 [1] jccl TRACE NET timeline 7100 arrived Simple ch0 0->1 #1 2000 call b2",
            "h:1:9 [0] jccl TRACE NET timeline 5000 isend Simple ch0 0->1 #1 2000 call b2",
            "h:1:9 [0] jccl TRACE NET timeline 7100 isend Simple ch0 0->1 #2 2000 call b2",
            "h:2:9 [1] jccl TRACE NET timeline 9000 arrived Simple ch0 0->1 #2 2000 call b2",
            "h:2:9 [1] jccl TRACE NET timeline 5000 isend Simple ch0 1->0 #0 4000 call b2",
            "h:1:9 [0] jccl TRACE NET timeline 9000 arrived Simple ch0 1->0 #0 4000 call b2",
            // handed to the net, never arrived: not a message of the report
            "h:1:9 [0] jccl TRACE NET timeline 9500 isend Simple ch0 0->1 #3 2000 call c3");

    @Test
    void pairsEachMessagesSendingAndArrivalWhateverTheLinesOrder() {
        List<TimelineReport.Message> m = TimelineReport.parse(LINES);
        assertThat(m).hasSize(4);
        assertThat(m.getFirst()).isEqualTo(new TimelineReport.Message("Simple", 0, 0, 1, 0, 1000, "a1", 100, Double.NaN, 1200));
        assertThat(m.stream().map(TimelineReport.Message::isend)).containsExactly(100.0, 5000.0, 5000.0, 7100.0);
        assertThat(TimelineReport.lastCall(m)).hasSize(3).allSatisfy(x -> assertThat(x.call()).isEqualTo("b2"));
    }

    @Test
    void reportsTheLastCallsSpanLinksBusyAndMessagesInFlight() {
        String r = TimelineReport.report(TimelineReport.parse(LINES), TWO);
        // call b2: 5000 to 9000 µs; each rank's link carried 4000 bytes at 1 B/µs, busy the whole span
        assertThat(r).contains("the last call (b2): 3 messages, 8000 bytes, 4000 µs");
        assertThat(r).containsPattern("rank 0 out, inter +2 +4000 +100\\.0% +100\\.0%");
        assertThat(r).containsPattern("rank 1 out, inter +1 +4000 +100\\.0% +100\\.0%");
        // 0->1: in flight 2100 and 1900 µs, median 2000; no port times in the engine's lines
        assertThat(r).containsPattern("Simple ch0 0->1 +2 +4000 +2000 +2100 +-");
        assertThat(r).containsPattern("Simple ch0 1->0 +1 +4000 +4000 +4000 +-");
    }

    @Test
    void theSimulatorsLinesCarryTheTimeAMessageWaitedForAPort() {
        List<String> sim = List.of("timeline 0.0 isend Simple ch1 0->1 #0 500 call 3", "timeline 250.5 wire Simple ch1 0->1 #0 500 call 3",
                "timeline 800.5 arrived Simple ch1 0->1 #0 500 call 3");
        List<TimelineReport.Message> m = TimelineReport.parse(sim);
        assertThat(m).containsExactly(new TimelineReport.Message("Simple", 1, 0, 1, 0, 500, "3", 0, 250.5, 800.5));
        assertThat(TimelineReport.report(m, TWO)).containsPattern("Simple ch1 0->1 +1 +500 +801 +801 +251\n");
    }

    @Test
    void badLinesAndRanksOffTheFabricAreRefusedNamingThem() {
        assertThat(TimelineReport.parse(List.of("nothing here", "a timeline of the project", "timeline notes"))).isEmpty();
        assertThatThrownBy(() -> TimelineReport.parse(List.of("h:1:9 [0] jccl TRACE NET timeline 12 isend Simple ch0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a timeline line: h:1:9 [0]");
        assertThatThrownBy(() -> TimelineReport.parse(List.of("timeline 12 isend Simple chX 0->1 #0 8 call 1",
                "timeline 13 arrived Simple chX 0->1 #0 8 call 1"))).hasMessageContaining("not a timeline line");
        List<TimelineReport.Message> far = TimelineReport.parse(List.of("timeline 1 isend Simple ch0 0->7 #0 8 call 1",
                "timeline 2 arrived Simple ch0 0->7 #0 8 call 1"));
        assertThatThrownBy(() -> TimelineReport.report(far, TWO)).hasMessageContaining("rank 0 or 7 is not on");
        assertThat(TimelineReport.report(List.of(), TWO)).contains("no message both sent and received");
    }
}
