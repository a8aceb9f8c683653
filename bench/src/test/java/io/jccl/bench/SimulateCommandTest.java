// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.json.JsonReader;
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
}
