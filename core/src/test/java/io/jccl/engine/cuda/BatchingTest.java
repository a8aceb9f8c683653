// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Connection;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which operations of a group may share one launch: connections must keep their lane. */
class BatchingTest {
    /** Rank 0 sends one element to rank 1 on channel 0 from {@code lane}; rank 1 receives on the same lane. */
    private static Plan oneMessage(int lane) {
        Schedule.Builder b = new Schedule.Builder(2, 2);
        b.add(0, lane, Step.send(Region.input(0, 1), new Link(1, 0)));
        b.add(1, lane, Step.recv(new Link(0, 0), Region.output(0, 1)));
        return Plan.shared("test", Collective.BROADCAST, 2, 2, List.of(new Segment(b.build(), 0, 0, 1)));
    }

    @Test
    void connectionLanesNameTheLaneOfBothEnds() {
        Map<Connection, Integer> m = CudaDomain.connectionLanes(oneMessage(1));
        assertThat(m).containsExactly(Map.entry(new Connection(0, 0, 1), 1));
    }

    @Test
    void aConnectionMovedToAnotherLaneSplitsTheBatch() {
        Map<Connection, Integer> lane0 = CudaDomain.connectionLanes(oneMessage(0));
        Map<Connection, Integer> lane1 = CudaDomain.connectionLanes(oneMessage(1));
        assertThat(CudaComm.lanesAgree(List.of(lane0, lane0))).isTrue();
        assertThat(CudaComm.lanesAgree(List.of(lane0, lane1))).isFalse();
    }

    @Test
    void ringCollectivesOnTheSameChannelsShareALaunch() {
        int n = 4;
        Plan allReduce = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1000, 0), Algorithm.RING, Channels.flat(n, 2), 64);
        Plan allGather = Algorithms.plan(new Call(Collective.ALL_GATHER, n, 1000, 0), Algorithm.RING, Channels.flat(n, 2), 64);
        Plan oneChannel = Algorithms.plan(new Call(Collective.ALL_REDUCE, n, 1000, 0), Algorithm.RING, Channels.flat(n, 1), 64);
        assertThat(CudaComm.lanesAgree(List.of(CudaDomain.connectionLanes(allReduce), CudaDomain.connectionLanes(allGather),
                CudaDomain.connectionLanes(oneChannel)))).isTrue();
    }
}
