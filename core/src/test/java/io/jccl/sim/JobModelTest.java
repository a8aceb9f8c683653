// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.engine.JobChannels;
import io.jccl.proto.Protocol;
import io.jccl.topo.ServerLayout;
import io.jccl.tune.Choice;
import io.jccl.tune.Tuner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobModelTest {
    /** Two servers of four ranks, 0.1 GB/s inside a server and 0.025 GB/s out of it (the emulated fabric's 800/200 Mbit/s). */
    private static final ServerLayout TWO_BY_FOUR = ServerLayout.uniform(2, 4);
    private static final Config LINKS = Config.defaults().withIntraServer(0.1, Double.NaN).withInterServer(0.025, Double.NaN);

    private static Tuner tuner(Config config, ServerLayout layout) {
        return Tuner.create(config, layout, 2, null).withTopology(JobChannels.of(config, layout));
    }

    @Test
    void theHostJobIsTheEmulatedFabricOfItsLinksEachServerItsOwnMachine() {
        CallSimulator job = JobModel.host(tuner(LINKS, TWO_BY_FOUR), 0, false);
        SimFabric f = job.simulator().fabric();
        assertThat(f.describe()).contains("800 Mbit/s").contains("200 Mbit/s").contains("each its own machine");
        assertThat(f.machineOf(0)).isZero();
        assertThat(f.machineOf(5)).isEqualTo(1);
        // The same links emulated on one machine share its 2 cores: never faster than each server
        // having its own, but for the few µs by which a greedy schedule of the cores (each piece of
        // work on the core free first, in the order it comes) may order the work otherwise.
        SimCosts host = Calibration.bundled().costs("host");
        CallSimulator emulated = CallSimulator.host(new EmulatedFabric(TWO_BY_FOUR, 800, 200, EmulatedFabric.Nic.RAIL, 0), host, LINKS);
        for (long count : new long[] {1 << 10, 1 << 18, 1 << 22}) {
            CallSimulator.Prediction mine = job.predict(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE);
            CallSimulator.Prediction one = emulated.predict(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE);
            assertThat(mine.micros()).as("count " + count).isPositive().isLessThanOrEqualTo(one.micros() * 1.001);
        }
        // 4 Mi floats: the 200 Mbit/s links bound it, at least 2 (n-1)/n of the data over one of them
        double wire = 2.0 * 7 / 8 * (4 << 22) / (0.025 * 1000);
        assertThat(job.predict(Collective.ALL_REDUCE, 4 << 20, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE).micros())
                .isGreaterThan(wire / 4);
    }

    @Test
    void aJobOfSeveralServersNeedsTheirRate() {
        assertThatThrownBy(() -> JobModel.host(tuner(Config.defaults(), TWO_BY_FOUR), 3, false))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_INTER_BW").hasMessageContaining("rank 3");
        // one server: unshaped links, only the cores bound it
        CallSimulator one = JobModel.host(tuner(Config.defaults(), ServerLayout.single(4)), 0, false);
        assertThat(one.predict(Collective.ALL_GATHER, 1 << 16, DataType.FLOAT32).micros()).isPositive();
    }

    @Test
    void ranksOfOneHostArePricedAtSharedMemorysCostsUnlessTheyUseSockets() {
        ServerLayout one = ServerLayout.single(4);
        assertThat(JobModel.host(tuner(Config.defaults(), one), 0, false).simulator().costs().name()).isEqualTo("shm");
        assertThat(JobModel.host(tuner(Config.defaults(), one), 0, true).simulator().costs().name()).isEqualTo("host");
        assertThat(JobModel.host(tuner(Config.defaults().withIntraServer(0.1, Double.NaN), one), 0, false).simulator().costs().name())
                .isEqualTo("host");
        assertThat(JobModel.host(tuner(LINKS, TWO_BY_FOUR), 0, false).simulator().costs().name()).isEqualTo("host");
        // the same ring all-reduce of 4 MiB: a socket's system calls cost far more than a shared ring's copies
        double shm = JobModel.host(tuner(Config.defaults(), one), 0, false)
                .predict(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE).micros();
        double sockets = JobModel.host(tuner(Config.defaults(), one), 0, true)
                .predict(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE).micros();
        assertThat(sockets).isGreaterThan(3 * shm);
    }

    @Test
    void theGpuJobReadsItsNodeFromTheTopologyFile() {
        Path dgx = Path.of("src/test/resources/topo/dgx-h100.xml");
        Config c = Config.defaults().withTopoFile(dgx.toString());
        CallSimulator job = JobModel.gpu(Tuner.create(c, ServerLayout.uniform(2, 8)), 0);
        assertThat(job.simulator().fabric().nranks()).isEqualTo(16);
        double small = job.predict(Collective.ALL_REDUCE, 1 << 10, DataType.FLOAT32).micros();
        double large = job.predict(Collective.ALL_REDUCE, 1 << 26, DataType.FLOAT32).micros();
        assertThat(large).isGreaterThan(small * 10);
        assertThatThrownBy(() -> JobModel.gpu(Tuner.create(Config.defaults(), ServerLayout.single(8)), 1))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_TOPO_FILE").hasMessageContaining("is not set");
        assertThatThrownBy(() -> JobModel.gpu(Tuner.create(c, ServerLayout.single(4)), 1))
                .isInstanceOf(JcclException.class).hasMessageContaining("8 GPUs a node").hasMessageContaining("one rank per GPU");
    }

    @Test
    void aGpuJobPastTheBudgetIsPredictedFromItsNodesFewer() {
        Config c = Config.defaults().withTopoFile(Path.of("src/test/resources/topo/dgx-h100.xml").toString());
        Tuner t = Tuner.create(c, ServerLayout.uniform(16, 8));
        CallSimulator job = JobModel.gpu(t, 0);
        long count = 1 << 18;
        long steps = job.steps(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE);
        CallSimulator.Estimate exact = job.estimate(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE,
                steps, JobModel.gpuOnNodes(t, 0));
        assertThat(exact.exact()).isTrue();
        // a step less: the ring at its step from 4 and 8 nodes of the same file, within 2 % (docs/simulator.md, Scale)
        CallSimulator.Estimate scaled = job.estimate(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE,
                steps - 1, JobModel.gpuOnNodes(t, 0));
        assertThat(scaled.exact()).isFalse();
        assertThat(scaled.how()).startsWith("from exact runs on 32 and 64 ranks at its step");
        assertThat(scaled.choice()).isEqualTo(exact.choice());
        assertThat(scaled.micros()).isCloseTo(exact.micros(), org.assertj.core.api.Assertions.within(0.02 * exact.micros()));
        assertThatThrownBy(() -> job.estimate(Collective.ALL_REDUCE, count, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE, steps - 1,
                null)).hasMessageContaining("128 ranks, 1048576 B, ring/Simple: ").hasMessageContaining("over the budget of")
                .hasMessageContaining("no smaller job stands for this one");
    }

    @Test
    void withTunerSimTheFastestSimulatedCandidateWins() {
        Config config = LINKS.withTunerSimulates(true);
        Tuner plain = tuner(LINKS, TWO_BY_FOUR);
        Tuner priced = JobModel.priced(tuner(config, TWO_BY_FOUR), (t, r) -> JobModel.host(t, r, false));
        CallSimulator job = JobModel.host(plain, 0, false);
        boolean differs = false;
        for (long count : new long[] {1 << 8, 1 << 16, 4 << 20}) {
            Choice c = priced.choose(Collective.ALL_REDUCE, count, 4, 0);
            assertThat(c.source()).as("count " + count).isEqualTo(Choice.Source.SIMULATED);
            double best = Double.POSITIVE_INFINITY;
            Algorithm bestAlgo = null;
            Protocol bestProto = null;
            for (Algorithm a : Algorithms.weighed(Collective.ALL_REDUCE, TWO_BY_FOUR)) {
                for (Protocol p : Protocol.values()) {
                    double t = job.micros(Collective.ALL_REDUCE, count, 4, a, p);
                    if (t < best) {
                        best = t;
                        bestAlgo = a;
                        bestProto = p;
                    }
                }
            }
            assertThat(c.algorithm()).as("count " + count).isEqualTo(bestAlgo);
            assertThat(c.protocol()).as("count " + count).isEqualTo(bestProto);
            assertThat(c.predictedMicros()).isEqualTo(best);
            // the choice the job then simulates is the one priced, at the price
            assertThat(JobModel.host(priced, 0, false).predict(Collective.ALL_REDUCE, count, DataType.FLOAT32).micros()).isEqualTo(best);
            Choice model = plain.choose(Collective.ALL_REDUCE, count, 4, 0);
            assertThat(model.source()).isEqualTo(Choice.Source.MODEL);
            differs |= model.algorithm() != c.algorithm() || model.protocol() != c.protocol();
        }
        assertThat(differs).as("the simulator and the model disagree somewhere on this fabric").isTrue();
        // off by default: the same tuner unpriced
        assertThat(JobModel.priced(plain, (t, r) -> JobModel.host(t, r, false))).isSameAs(plain);
    }

    @Test
    void shapesTooLargeToSimulateQuicklyAreLeftToTheModel() {
        ServerLayout big = ServerLayout.uniform(16, 8);
        Config config = LINKS.withTunerSimulates(true);
        Tuner priced = JobModel.priced(tuner(config, big), (t, r) -> JobModel.host(t, r, false));
        Choice c = priced.choose(Collective.ALL_REDUCE, 1L << 26, 4, 0);
        assertThat(c.source()).isEqualTo(Choice.Source.MODEL);
        assertThat(c).isEqualTo(tuner(LINKS, big).choose(Collective.ALL_REDUCE, 1L << 26, 4, 0));
    }
}
