// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.json.JsonReader;
import io.jccl.sim.ScaledPrediction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.jccl.bench.PerfEndToEndTest.run;
import static org.assertj.core.api.Assertions.assertThat;

class SimulateCommandTest {
    @Test
    void printsPerfsColumnsWithThePredictedTimeForEachSize() {
        PerfEndToEndTest.Run r = run("simulate", "allreduce", "--fabric", "2x4", "--intra", "800", "--inter", "200", "-b", "1K",
                "-e", "1M", "-f", "4");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("# jccl simulate allreduce: 8 ranks on emulated fabric 2 x 4").contains("predicted, not measured");
        List<String[]> rows = r.rows();
        assertThat(rows).hasSize(6);
        long size = 1024;
        double last = 0;
        for (String[] row : rows) {
            assertThat(row).hasSize(14);
            assertThat(Long.parseLong(row[0])).isEqualTo(size);
            double t = Double.parseDouble(row[PerfTable.TIME]);
            assertThat(t).isPositive();
            // busbw = size / time x 2(n-1)/n, as perf computes it
            assertThat(Double.parseDouble(row[7])).isCloseTo(size / (t * 1e3) * 14 / 8.0, org.assertj.core.api.Assertions.within(0.01));
            assertThat(row[PerfTable.WRONG]).isEqualTo("N/A");
            last = t;
            size *= 4;
        }
        assertThat(last).as("1 MiB over 1 KiB").isGreaterThan(Double.parseDouble(rows.getFirst()[PerfTable.TIME]));
    }

    @Test
    void allAddsARowPerAlgorithmAndProtocolAndJsonHoldsThemAll(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("sim.json");
        Path svg = dir.resolve("sim.svg");
        PerfEndToEndTest.Run r = run("simulate", "allgather", "--gpus", "2,4x8", "-b", "1M", "-e", "4M", "-f", "4", "--all",
                "--json", json.toString(), "--plot", svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        // per rank count and size: the tuner's row, then ring, pipeline, hier2phase x 3 protocols (PAT is weighed at one GPU per node)
        assertThat(r.rows()).hasSize(2 * 2 * (1 + 3 * 3));
        assertThat(r.rows().stream().map(PerfEndToEndTest::algo).distinct()).contains("ring", "pipeline", "hier2phase");
        Map<String, Object> doc = JsonReader.object(Files.readString(json));
        assertThat((List<?>) doc.get("rows")).hasSize(40);
        assertThat(Files.readString(svg)).startsWith("<svg").contains("busbw against ranks").contains("time against size")
                .endsWith("</svg>\n");
    }

    @Test
    void aRailNetworkIsSimulatedAndNamed() {
        PerfEndToEndTest.Run r = run("simulate", "allreduce", "--gpus", "4x8", "--net", "rail:2", "-b", "64K", "-e", "64K");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("32 ranks on 4 nodes x 8 GPUs").contains("rail:2");
        assertThat(r.rows()).hasSize(1);
        assertThat(Double.parseDouble(r.rows().getFirst()[PerfTable.TIME])).isPositive();
    }

    @Test
    void badCommandLinesAreRefusedNamingTheOption() {
        assertThat(run("simulate", "allreduce").err()).contains("give a fabric");
        assertThat(run("simulate", "allreduce", "--fabric", "2x4").err()).contains("--fabric needs --intra MBIT and --inter MBIT");
        assertThat(run("simulate", "allreduce", "--fabric", "24", "--intra", "1", "--inter", "1").err())
                .contains("option --fabric takes NODESxRANKS");
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "--net", "torus").err()).contains("option --net: network 'torus'");
        assertThat(run("simulate", "sendrecv", "--gpus", "2x8").err()).contains("not simulated");
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "--fabric", "2x2").err()).contains("give one fabric");
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "--calibration", "/nonexistent.json").err())
                .contains("calibration: /nonexistent.json");
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "--calibration", "/nonexistent.json").status()).isEqualTo(1);
        assertThat(run("simulate", "allreduce", "--topo", "x.xml").err()).contains("--topo needs --nodes N");
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "-b", "1K", "-e", "4K", "--timeline", "t").err())
                .contains("--timeline plays one call: give one size (-b = -e)");
    }

    @Test
    void theTimelineHasEveryMessageOfTheCallsAsTheEnginesTraceHasThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sim.timeline");
        PerfEndToEndTest.Run r = run("simulate", "allreduce", "--fabric", "2x1", "--intra", "800", "--inter", "200", "-b", "1M",
                "-e", "1M", "--timeline", file.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.rows().getFirst()[PerfTable.ALGO_PROTO]).isEqualTo("ring/Simple");
        List<String> lines = Files.readAllLines(file);
        // 4 calls of a ring all-reduce of 2 ranks: each rank sends its half, then the reduced half;
        // 3 events a message, in the order they were sent
        assertThat(lines).hasSize(4 * 2 * 2 * 3);
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "timeline ([0-9]+\\.[0-9]) (isend|wire|arrived) Simple ch0 ([01])->([01]) #([0-7]) 524288 call ([0-3])");
        for (int k = 0; k < lines.size(); k += 3) {
            double[] t = new double[3];
            String conn = null;
            for (int e = 0; e < 3; e++) {
                java.util.regex.Matcher m = line.matcher(lines.get(k + e));
                assertThat(m.matches()).as(lines.get(k + e)).isTrue();
                assertThat(m.group(2)).isEqualTo(List.of("isend", "wire", "arrived").get(e));
                assertThat(m.group(4)).isNotEqualTo(m.group(3));
                // message n of a connection is in call n / 2
                assertThat(Integer.parseInt(m.group(6))).isEqualTo(Integer.parseInt(m.group(5)) / 2);
                String c = m.group(3) + m.group(5);
                assertThat(conn == null || conn.equals(c)).as("one message's events together").isTrue();
                conn = c;
                t[e] = Double.parseDouble(m.group(1));
            }
            // on the wire no earlier than sent; half a MiB at 200 Mbit/s (25 B/µs) less a 64 KiB burst takes 18 ms at least
            assertThat(t[1]).isGreaterThanOrEqualTo(t[0]);
            assertThat(t[2] - t[1]).isGreaterThan((524288 - 65536) / 25.0);
        }
    }

    @Test
    void aTopologyFileGivesTheNodesGpusNvlinkAndNics() {
        Path xml = Path.of("../core/src/test/resources/topo/dgx-h100.xml").toAbsolutePath().normalize();
        PerfEndToEndTest.Run r = run("simulate", "allreduce", "--topo", xml.toString(), "--nodes", "4", "-b", "16M", "-e", "16M");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("32 ranks on 4 nodes x 8 GPUs").contains("8 NICs");
        assertThat(r.rows()).hasSize(1);
    }

    @Test
    void aFileOfPciClassesAloneIsRefusedSayingWhatItLacks(@TempDir Path dir) throws Exception {
        // as hand-written files for NCCL_TOPO_FILE are: GPUs and NICs by PCI class, for NCCL to probe
        Path xml = dir.resolve("bare.xml");
        Files.writeString(xml, """
                <system version="1">
                  <cpu numaid="0" affinity="0000ffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="85">
                    <pci busid="ffff:ff:01.0" class="0x060400" link_speed="8 GT/s" link_width="16">
                      <pci busid="0000:11:00.0" class="0x030200" link_speed="8 GT/s" link_width="16"/>
                      <pci busid="0000:13:00.0" class="0x020000" link_speed="8 GT/s" link_width="16"/>
                    </pci>
                  </cpu>
                </system>
                """);
        PerfEndToEndTest.Run r = run("simulate", "allreduce", "--topo", xml.toString(), "--nodes", "2", "-b", "1M", "-e", "1M");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("the topology has 0 GPUs and 0 network ports").contains("<gpu> or <nic><net> element")
                .contains("NCCL_TOPO_DUMP_FILE");
    }

    @Test
    void pastTheBudgetAGpuClusterIsPredictedFromExactRunsOnFewerNodesAndSaysSo(@TempDir Path dir) throws Exception {
        PerfEndToEndTest.Run exact = run("simulate", "allreduce", "--gpus", "32x8", "-b", "2M", "-e", "2M");
        assertThat(exact.status()).as(exact.err()).isZero();
        assertThat(exact.out()).doesNotContain("from exact runs");
        Path json = dir.resolve("sim.json");
        // the tuner's tree plays 131,072 steps here; 100 K pays for the probes on 8 and 16 nodes
        PerfEndToEndTest.Run scaled = run("simulate", "allreduce", "--gpus", "32x8", "-b", "2M", "-e", "2M", "--budget", "100K",
                "--json", json.toString());
        assertThat(scaled.status()).as(scaled.err()).isZero();
        assertThat(scaled.rows()).hasSize(1);
        assertThat(scaled.rows().getFirst()[PerfTable.ALGO_PROTO]).isEqualTo(exact.rows().getFirst()[PerfTable.ALGO_PROTO])
                .startsWith("tree/");
        assertThat(scaled.out()).contains("#   256 ranks, 2097152 B, tree/LL128: from exact runs on 64 and 128 ranks, by the tree's law");
        double e = Double.parseDouble(exact.rows().getFirst()[PerfTable.TIME]);
        double p = Double.parseDouble(scaled.rows().getFirst()[PerfTable.TIME]);
        // the probes sit on one leaf, as the target does; the law carries them one doubling
        assertThat(p).isCloseTo(e, org.assertj.core.api.Assertions.within(0.05 * e)).isNotEqualTo(e);
        List<?> rows = (List<?>) JsonReader.object(Files.readString(json)).get("rows");
        assertThat(((Map<?, ?>) rows.getFirst()).get("how").toString()).startsWith("from exact runs on 64 and 128 ranks");
    }

    @Test
    void pastTheBudgetWhatHasNoScaledMethodIsNotSimulatedAndSaysWhy() {
        // --all: the rings are predicted at their step, algorithms with no law get a line saying why instead of a row
        // (700 K: the ring's probes on 2 and 4 nodes play 643,072 steps, rhd on 32 nodes 2,097,152)
        PerfEndToEndTest.Run all = run("simulate", "allreduce", "--gpus", "32x8", "-b", "2M", "-e", "2M", "--budget", "700K", "--all");
        assertThat(all.status()).as(all.err()).isZero();
        assertThat(all.out()).contains("ring/Simple: from exact runs on 16 and 32 ranks at its step")
                .contains("# 256 ranks, 2097152 B, rhd/Simple: 2,097,152 steps, over the budget of 716,800; "
                        + "rhd has no scaled prediction of allreduce (" + ScaledPrediction.LAWS + "); "
                        + "not simulated (a --budget of the call's steps plays it step by step)");
        assertThat(all.rows()).allSatisfy(r -> assertThat(r[PerfTable.ALGO_PROTO]).doesNotStartWith("rhd/"));
        // the tuner's own choice past the budget with no way to predict it fails the command, naming the way out
        PerfEndToEndTest.Run tight = run("simulate", "allreduce", "--gpus", "32x8", "-b", "2M", "-e", "2M", "--budget", "1K");
        assertThat(tight.status()).isEqualTo(2);
        assertThat(tight.err()).contains("over the budget of 1,024;").contains("fit a budget of 1,024 steps");
        // the emulated fabric's ranks share one machine's cores: fewer ranks do not stand for more
        PerfEndToEndTest.Run host = run("simulate", "allreduce", "--fabric", "2x4", "--intra", "800", "--inter", "200", "-b", "1M",
                "-e", "1M", "--budget", "10");
        assertThat(host.status()).isEqualTo(2);
        assertThat(host.err()).contains("share one machine's cores").contains("not simulated");
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "--budget", "0").err()).contains("option --budget: at least 1 step");
        // a size under one element per rank is said, not silently left out
        PerfEndToEndTest.Run tiny = run("simulate", "allgather", "--gpus", "2x8", "-b", "64", "-e", "256", "-f", "4");
        assertThat(tiny.out()).contains("# 64 B: not simulated, under 16 B a rank's block on 16 ranks (perf rounds blocks down to 16 B)");
        assertThat(tiny.rows()).hasSize(1);
        assertThat(run("simulate", "allreduce", "--gpus", "2x8", "-b", "3", "-e", "3").out())
                .contains("# 3 B: not simulated, under one float element");
    }
}
