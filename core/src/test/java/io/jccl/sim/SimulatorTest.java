// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.plan.Call;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Segment;
import io.jccl.plan.Buf;
import io.jccl.plan.Step;
import io.jccl.proto.Protocol;
import io.jccl.topo.Channels;
import io.jccl.topo.ServerLayout;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SimulatorTest {
    /** Nothing costs anything but the wire and a latency of {@code latency} µs per message. */
    static SimCosts wireOnly(double latency) {
        return new SimCosts("test", 0, 0, 0, 0, new double[] {1e9, 1e9, 1e9}, 1e9, new double[] {1, 1, 1}, 1, latency, latency, 0,
                new double[] {1e9, 1e9, 1e9}, new double[] {1e9, 1e9, 1e9}, 0);
    }

    private static Plan plan(Collective c, Algorithm a, ServerLayout layout, int channels, long count, long maxMessage) {
        return Algorithms.plan(new Call(c, layout.nranks(), count, 0), a, Channels.flat(layout, channels), maxMessage);
    }

    @Test
    void twoRanksOfARingAllReduceTakeTwoHopsAndTheirBytesOnTheWire() {
        // 2 servers x 1 rank, 8 Mbit/s = 1 byte per µs, no burst: each half of the buffer crosses once each way.
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 1), 8, 8, EmulatedFabric.Nic.RAIL, 0);
        long count = 1 << 16;
        Plan p = plan(Collective.ALL_REDUCE, Algorithm.RING, f.layout(), 1, count, count);
        Simulator.Result r = new Simulator(f, wireOnly(50)).run(i -> p, Protocol.SIMPLE, 4, 1);
        // reduce-scatter: count/2 elements out, then the reduced half back: 2 x (4 B x count/2 / 1 B/µs + 50 µs)
        assertThat(r.firstMicros()).isCloseTo(2 * (4.0 * count / 2 + 50), within(1e-6));
        assertThat(r.messages()).isEqualTo(4);
    }

    @Test
    void theTimelineTellsEveryMessageWhenSentOnTheWireAndArrived() {
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 1), 8, 8, EmulatedFabric.Nic.RAIL, 0);
        long count = 1 << 16;
        Plan p = plan(Collective.ALL_REDUCE, Algorithm.RING, f.layout(), 1, count, count);
        List<double[]> seen = new java.util.ArrayList<>();
        Simulator.Result r = new Simulator(f, wireOnly(50)).withTimeline((proto, ch, from, to, seq, bytes, call, sent, wire, arrived) -> {
            assertThat(proto).isEqualTo(Protocol.SIMPLE);
            // two messages a call on each connection
            assertThat(call).isEqualTo((int) seq / 2);
            seen.add(new double[] {ch, from, to, seq, bytes, sent, wire, arrived});
        }).run(i -> p, Protocol.SIMPLE, 4, 2);
        assertThat(seen).hasSize((int) r.messages()).hasSize(8);
        double half = 4.0 * count / 2;
        for (double[] m : seen) {
            assertThat(m[0]).isZero();
            assertThat(m[2]).isEqualTo(1 - m[1]);
            assertThat(m[4]).isEqualTo(half);
            // alone on its link at 1 B/µs: out when sent, in its bytes and the latency later
            assertThat(m[6]).isEqualTo(m[5]);
            assertThat(m[7]).isCloseTo(m[6] + half + 50, within(1e-6));
        }
        // each connection numbers its messages 0, 1, ... across both calls; the second hop of
        // the first call leaves when the first arrived
        for (int from = 0; from < 2; from++) {
            int rank = from;
            List<double[]> mine = seen.stream().filter(m -> m[1] == rank).toList();
            assertThat(mine.stream().mapToDouble(m -> m[3]).toArray()).containsExactly(0, 1, 2, 3);
            assertThat(mine.get(0)[5]).isCloseTo(0, within(1e-3));
            assertThat(mine.get(1)[5]).isCloseTo(half + 50, within(1e-3));
        }
        assertThat(new Simulator(f, wireOnly(50)).withTimeline(null).run(i -> p, Protocol.SIMPLE, 4, 2)).isEqualTo(r);
    }

    @Test
    void backToBackCallsOverlapTheirLatencyButNotTheirBytes() {
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 1), 8, 8, EmulatedFabric.Nic.RAIL, 0);
        long count = 1 << 12;
        Plan p = plan(Collective.ALL_REDUCE, Algorithm.RING, f.layout(), 1, count, count);
        Simulator.Result one = new Simulator(f, wireOnly(50)).run(i -> p, Protocol.SIMPLE, 4, 1);
        Simulator.Result many = new Simulator(f, wireOnly(50)).run(i -> p, Protocol.SIMPLE, 4, 6);
        assertThat(many.firstMicros()).isCloseTo(one.firstMicros(), within(1e-6));
        // a rank's link carries count x 4 B per call whatever the latency: the steady time is at least that
        assertThat(many.micros()).isGreaterThanOrEqualTo(4.0 * count - 1e-6).isLessThanOrEqualTo(one.firstMicros() + 1e-6);
    }

    @Test
    void aBurstLetsAnIdleLinkSendAtOnceButNotFasterThanItsRateInTheLongRun() {
        SimFabric shaped = new EmulatedFabric(ServerLayout.uniform(2, 1), 8, 8, EmulatedFabric.Nic.RAIL, 64);
        long count = 1 << 10; // 4 KiB per call and rank, 2 KiB per message
        Plan p = plan(Collective.ALL_REDUCE, Algorithm.RING, shaped.layout(), 1, count, count);
        Simulator.Result r = new Simulator(shaped, wireOnly(5000)).run(i -> p, Protocol.SIMPLE, 4, 8);
        // the first message finds the burst spent (2 KiB at 1 B/µs), the second one refilled by the
        // 5000 µs the first took to arrive; then the 2 hops' latency bounds each call
        assertThat(r.firstMicros()).isCloseTo(2048 + 2 * 5000, within(1e-6));
        assertThat(r.micros()).isCloseTo(10000, within(1e-6));
        Simulator.Result big = new Simulator(shaped, wireOnly(0)).run(i -> plan(Collective.ALL_REDUCE, Algorithm.RING,
                shaped.layout(), 1, 1 << 20, 1 << 20), Protocol.SIMPLE, 4, 8);
        assertThat(big.micros()).isCloseTo(4.0 * (1 << 20), within(1.0));
    }

    /** A plan in which rank {@code i} sends one message of {@code count} elements to {@code to[i]} (-1: none). */
    private static Plan oneEach(int[] to, long count) {
        Schedule.Builder b = new Schedule.Builder(to.length, 1);
        for (int i = 0; i < to.length; i++) {
            if (to[i] >= 0) {
                b.add(i, 0, Step.send(new Region(Buf.INPUT, 0, 0, count), new Link(to[i], 0)));
                b.add(to[i], 0, Step.recv(new Link(i, 0), new Region(Buf.OUTPUT, 0, 0, count)));
            }
        }
        return Plan.shared("one each", Collective.ALL_TO_ALL, to.length, 1, List.of(new Segment(b.build(), 0, 0, 1)));
    }

    @Test
    void ranksOfAServerShareItsNicWhereItIsShared() {
        ServerLayout l = ServerLayout.uniform(2, 2);
        long count = 1 << 16;
        Plan p = oneEach(new int[] {2, 3, -1, -1}, count);
        double rail = new Simulator(new EmulatedFabric(l, 0, 8, EmulatedFabric.Nic.RAIL, 0), wireOnly(0))
                .run(i -> p, Protocol.SIMPLE, 4, 1).micros();
        double shared = new Simulator(new EmulatedFabric(l, 0, 8, EmulatedFabric.Nic.SHARED, 0), wireOnly(0))
                .run(i -> p, Protocol.SIMPLE, 4, 1).micros();
        // ranks 0 and 1 each send 4 B x count to the other server: at once on their own links, in turn on their server's
        assertThat(rail).isCloseTo(4.0 * count, within(1e-6));
        assertThat(shared).isCloseTo(2 * 4.0 * count, within(1e-6));
    }

    @Test
    void connectionsThroughOneNicShareItAndTheCoresWorkWithoutAGap() {
        // 2 x 2 on one machine of one core; the NIC shared at 1 B/µs; a socket's bytes cost the core
        // 0.25 µs each at each end. Ranks 0 and 1 send to rank 3 on the other server, rank 2 to rank 3
        // inside it, all three at once.
        ServerLayout l = ServerLayout.uniform(2, 2);
        long count = 1 << 12;
        double bytes = 4.0 * count;
        Plan p = oneEach(new int[] {3, 3, 3, -1}, count);
        SimCosts oneCore = new SimCosts("test", 0, 0, 0, 0, new double[] {1e9, 1e9, 1e9}, 1e9, new double[] {1, 1, 1}, 1, 0, 0, 1,
                new double[] {0.004, 0.004, 0.004}, new double[] {0.004, 0.004, 0.004}, 0);
        double[] arrived = new double[4];
        new Simulator(new EmulatedFabric(l, 0, 8, EmulatedFabric.Nic.SHARED, 0), oneCore)
                .withTimeline((proto, ch, from, to, seq, size, call, sent, wire, at) -> arrived[from] = at)
                .run(i -> p, Protocol.SIMPLE, 4, 1);
        // the NIC carries rank 0's and rank 1's messages side by side, as two TCP flows: first
        // come first served, rank 0's would arrive at bytes and rank 1's at 2 x bytes
        assertThat(arrived[0]).isCloseTo(2 * bytes, within(1e-6));
        assertThat(arrived[1]).isCloseTo(2 * bytes, within(1e-6));
        // the core works without a gap: both ends of all three messages by 6 x bytes / 4
        assertThat(arrived[2]).isCloseTo(1.5 * bytes, within(1e-6));
    }

    @Test
    void aMessageWaitingForItsReceiversLinkDoesNotHoldItsSendersLink() {
        // one node of 4 GPUs, 1 GB/s each way (1,000 B/µs). Rank 1 sends M (10 units) to rank 2;
        // rank 3 sends rank 0 a word that starts it; rank 0 then sends A (1 unit) to rank 2,
        // whose link M holds, and B (1 unit) to rank 1, whose link is free.
        long unit = 1 << 16;
        double b = 4.0 * unit / 1000;
        Schedule.Builder s = new Schedule.Builder(4, 1);
        s.add(1, 0, Step.send(new Region(Buf.INPUT, 0, 0, 10 * unit), new Link(2, 0)));
        s.add(2, 0, Step.recv(new Link(1, 0), new Region(Buf.OUTPUT, 0, 0, 10 * unit)));
        s.add(3, 0, Step.send(new Region(Buf.INPUT, 0, 0, 1), new Link(0, 0)));
        s.add(0, 0, Step.recv(new Link(3, 0), new Region(Buf.OUTPUT, 0, 0, 1)));
        s.add(0, 0, Step.send(new Region(Buf.INPUT, 0, 0, unit), new Link(2, 0)));
        s.add(2, 0, Step.recv(new Link(0, 0), new Region(Buf.OUTPUT, 0, 10 * unit, unit)));
        s.add(0, 0, Step.send(new Region(Buf.INPUT, 0, 0, unit), new Link(1, 0)));
        s.add(1, 0, Step.recv(new Link(0, 0), new Region(Buf.OUTPUT, 0, 0, unit)));
        Plan p = Plan.shared("held", Collective.ALL_TO_ALL, 4, 1, List.of(new Segment(s.build(), 0, 0, 1)));
        double[][] arrived = new double[4][4];
        new Simulator(new ClusterFabric(1, 4, 1, 1, 8, ClusterFabric.Net.parse("fat-tree")), wireOnly(0))
                .withTimeline((proto, ch, from, to, seq, size, call, sent, wire, at) -> arrived[from][to] = at)
                .run(i -> p, Protocol.SIMPLE, 4, 1);
        // A crosses rank 0's link at once and waits in the switch for rank 2's, behind M
        assertThat(arrived[1][2]).isCloseTo(10 * b, within(1e-3));
        assertThat(arrived[0][2]).isCloseTo(11 * b, within(0.01));
        // B follows A on rank 0's link (and the word's 4 B), not A's wait: held as a circuit, it would arrive at 12 b
        assertThat(arrived[0][1]).isCloseTo(2 * b, within(0.01));
    }

    @Test
    void anOversubscribedSpineSlowsTrafficBetweenLeavesByItsRatio() {
        // 4 nodes of 1 GPU, 2 nodes per leaf: nodes 0 and 1 send to 2 and 3 over the spine, at once
        long count = 1 << 18;
        Plan p = oneEach(new int[] {2, 3, -1, -1}, count);
        double[] t = new double[2];
        int k = 0;
        for (String net : new String[] {"fat-tree:1:2", "fat-tree:2:2"}) {
            ClusterFabric f = new ClusterFabric(4, 1, 100, 1, 8, ClusterFabric.Net.parse(net));
            t[k++] = new Simulator(f, wireOnly(0)).run(i -> p, Protocol.SIMPLE, 4, 1).micros();
        }
        // 2 uplink ports at 1:1 take both messages at once, 1 port at 2:1 one after the other
        assertThat(t[0]).isCloseTo(4.0 * count / 1000, within(1e-3));
        assertThat(t[1] / t[0]).isCloseTo(2.0, within(1e-6));
    }

    @Test
    void runsAreTheSameEveryTime() {
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 4), 800, 200, EmulatedFabric.Nic.SHARED);
        SimCosts host = Calibration.bundled().costs("host");
        for (Algorithm a : List.of(Algorithm.RING, Algorithm.TREE, Algorithm.HIER_RING, Algorithm.TORUS_2D, Algorithm.RHD)) {
            Plan p = plan(Collective.ALL_REDUCE, a, f.layout(), 2, 1 << 18, 1 << 14);
            Simulator.Result r1 = new Simulator(f, host).run(p, Protocol.SIMPLE, 4);
            Simulator.Result r2 = new Simulator(f, host).run(p, Protocol.SIMPLE, 4);
            assertThat(r1).as(a.id()).isEqualTo(r2);
            assertThat(r1.micros()).as(a.id()).isPositive();
        }
    }

    @Test
    void aRankWhosePlanFailsFailsTheRunWithItsOwnErrorAndAPlanOfAnotherJobIsRefused() {
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 2), 8, 8, EmulatedFabric.Nic.RAIL, 0);
        Plan p = plan(Collective.ALL_REDUCE, Algorithm.RING, f.layout(), 2, 1024, 1024);
        Simulator sim = new Simulator(f, wireOnly(1));
        // ranks are planned on a second thread, ahead of the one reading them: its error is the run's
        assertThatThrownBy(() -> sim.run(r -> {
            if (r == 2) {
                throw new IllegalStateException("rank 2 cannot plan");
            }
            return p;
        }, Protocol.SIMPLE, 4)).isInstanceOf(IllegalStateException.class).hasMessage("rank 2 cannot plan");
        Plan other = plan(Collective.ALL_REDUCE, Algorithm.RING, ServerLayout.uniform(2, 1), 1, 1024, 1024);
        assertThatThrownBy(() -> sim.run(other, Protocol.SIMPLE, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a plan of 2 ranks");
        // and the simulator plays the right plan afterwards, the same as before
        assertThat(sim.run(p, Protocol.SIMPLE, 4).micros()).isEqualTo(sim.run(p, Protocol.SIMPLE, 4).micros()).isPositive();
    }

    @Test
    void aPlanThatWaitsForAMessageNobodySendsIsReportedNamingTheRank() {
        Schedule.Builder b = new Schedule.Builder(2, 1);
        b.add(1, 0, Step.recv(new Link(0, 0), new Region(Buf.OUTPUT, 0, 0, 4)));
        Plan p = Plan.shared("broken", Collective.ALL_REDUCE, 2, 1, List.of(new Segment(b.build(), 0, 0, 1)));
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 1), 8, 8, EmulatedFabric.Nic.RAIL);
        assertThatThrownBy(() -> new Simulator(f, wireOnly(1)).run(p, Protocol.SIMPLE, 4))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("rank 1 lane 0 waits at step 0");
    }

    @Test
    void aSenderWaitsForFreeSlotsInItsReceiversFifo() {
        // rank 0 sends 64 messages to rank 1, which takes 10 µs over each; the FIFO holds 16 (over the network)
        Schedule.Builder b = new Schedule.Builder(2, 1);
        b.add(0, 0, Step.send(new Region(Buf.INPUT, 0, 0, 1), new Link(1, 0)));
        b.add(1, 0, Step.recv(new Link(0, 0), new Region(Buf.OUTPUT, 0, 0, 1)));
        Plan p = Plan.shared("p", Collective.ALL_REDUCE, 2, 1, List.of(new Segment(b.build(), 0, 1, 64)));
        SimCosts slowReceiver = new SimCosts("test", 0, 0, 0, 10, new double[] {1e9, 1e9, 1e9}, 1e9, new double[] {1, 1, 1}, 1, 0, 0,
                0, new double[] {1e9, 1e9, 1e9}, new double[] {1e9, 1e9, 1e9}, 0);
        SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 1), 0, 0, EmulatedFabric.Nic.RAIL);
        Simulator.Result r = new Simulator(f, slowReceiver).run(i -> p, Protocol.SIMPLE, 4, 1);
        assertThat(r.firstMicros()).isCloseTo(640, within(1e-6));
    }

    @Test
    void theCalibrationFileNamesWhatIsWrong() {
        assertThat(Calibration.bundled().costs("host").sharedCores()).isPositive();
        assertThat(Calibration.bundled().costs("gpu").sharedCores()).isZero();
        assertThatThrownBy(() -> Calibration.bundled().costs("tpu")).hasMessageContaining("no engine \"tpu\"")
                .hasMessageContaining("host");
        assertThatThrownBy(() -> Calibration.parse("{\"host\": {\"launchUs\": 1}}", "mine.json"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mine.json: host.stepUs is missing");
        assertThatThrownBy(() -> Calibration.parse("{\"host\": 3}", "mine.json")).hasMessageContaining("\"host\" is not an object");
        // the network's cost per byte is per protocol (LL's proxies pack and unpack lines); one number for all is refused
        String bundled = new String(readBundled(), java.nio.charset.StandardCharsets.UTF_8);
        String old = bundled.replaceFirst("\"netSendGBps\": \\{[^}]*}", "\"netSendGBps\": 1.1");
        assertThat(old).isNotEqualTo(bundled);
        assertThatThrownBy(() -> Calibration.parse(old, "old.json")).hasMessageContaining("old.json: host.netSendGBps must be an object");
    }

    /** Per wire byte, a host core spends more on an LL message over a socket than on a Simple one: the proxies repack LL's lines. */
    @Test
    void aSocketsLlBytesCostTheCoresMoreThanSimplesBytes() {
        SimCosts host = Calibration.bundled().costs("host");
        assertThat(host.netMicros(1 << 20, true, Protocol.LL)).isGreaterThan(2 * host.netMicros(1 << 20, true, Protocol.SIMPLE));
        assertThat(host.netMicros(1 << 20, false, Protocol.LL)).isGreaterThan(2 * host.netMicros(1 << 20, false, Protocol.SIMPLE));
        // and so the simulated LL ring all-reduce of 16 MiB over 2 unshaped servers is CPU-bound well above Simple's
        CallSimulator s = CallSimulator.host(new EmulatedFabric(ServerLayout.uniform(2, 1), 0, 0, EmulatedFabric.Nic.RAIL), host,
                Config.defaults());
        double ll = s.predict(Collective.ALL_REDUCE, 4 << 20, DataType.FLOAT32, Algorithm.RING, Protocol.LL).micros();
        double simple = s.predict(Collective.ALL_REDUCE, 4 << 20, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE).micros();
        assertThat(ll).isGreaterThan(3 * simple);
    }

    private static byte[] readBundled() {
        try (java.io.InputStream in = Calibration.class.getResourceAsStream("calibration.json")) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
