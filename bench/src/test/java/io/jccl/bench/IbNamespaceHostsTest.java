// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IB net ({@code JCCL_NET=IB}) on the fake libibverbs ({@link FakeIbverbs}) between hosts
 * made of network namespaces ({@link Fabric}), one process per rank: each rank runs the
 * correctness matrix's {@code every} mode ({@link FabricMatrixRank}: every collective in and out
 * of place at sizes from one element to several slots of each protocol, every protocol), every
 * element checked; ranks of one host talk through /dev/shm, ranks of different hosts through
 * RDMA writes over InfiniBand LIDs or RoCE GIDs, with one and two queue pairs per connection; the
 * logs must say NET/IB and never NET/Socket. And {@code jccl perf --procs 2} over the IB net
 * prints no wrong element.
 */
@Timeout(300)
class IbNamespaceHostsTest {
    @ParameterizedTest(name = "{0} hosts x {1} ranks on {2}, {3} queue pair(s)")
    @CsvSource({"2, 1, fake_ib0:1, 1, IB", "2, 2, fake_roce0:1:eth, 2, RoCE", "4, 1, fake_ib0:1, 2, IB"})
    void theMatrixIsRightOverTheIbNetAcrossNamespaceHosts(int hosts, int perHost, String devices, int qps, String link)
            throws Exception {
        Map<String, String> ib = FakeIbverbs.environment(devices, qps);
        List<Process> procs = new ArrayList<>();
        Fabric f = Namespaces.build(hosts, perHost, 0, 0);
        int cases = 3 * FabricMatrixRank.every(0).size();
        try (f) {
            for (int g = 0; g < f.size(); g++) {
                Map<String, String> env = new HashMap<>(f.rankEnvironment(g, true));
                env.putAll(ib);
                env.putAll(Map.of("JCCL_TIMEOUT", "60", "JCCL_BOOTSTRAP_TIMEOUT", "60", "JCCL_DEBUG", "INFO",
                        "JCCL_DEBUG_SUBSYS", "NET,INIT"));
                procs.add(f.start(g, Namespaces.java(FabricMatrixRank.class, "" + (hosts * 10 + perHost), "every"), env, true));
            }
            Namespaces.Outcome o = Namespaces.awaitRanks(procs, 240, out -> out.contains("ok " + cases + " cases")
                    && !out.contains("NET/Socket") && out.contains("NET/IB: using ") && out.contains(":1/" + link)
                    && out.contains("via NET/IB/0")
                    && out.contains("via NET/IB (1 proxy thread(s) per direction, " + qps + " queue pair(s) per connection)"));
            assertThat(o.ok()).as(o.output()).isTrue();
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
        assertThat(Namespaces.anyLeft(f)).as("namespaces left").isFalse();
    }

    @Test
    void perfOverTwoProcessesOnTheIbNetFindsNoWrongElement() throws Exception {
        List<String> cmd = Namespaces.java(Main.class, "perf", "allreduce", "--procs", "2", "-b", "8", "-e", "2M", "-f", "8",
                "-n", "2", "-w", "1", "-c", "1", "--min-time", "0", "--jit_warmup", "0");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(FakeIbverbs.environment("fake_ib0:1", 1));
        // One process per host: no /dev/shm between them, every byte over the net.
        pb.environment().putAll(Map.of("JCCL_SHM_DISABLE", "1", "JCCL_DEBUG", "INFO", "JCCL_DEBUG_SUBSYS", "NET"));
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(200, TimeUnit.SECONDS)).as(out).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).contains("via NET/IB/0").doesNotContain("NET/Socket").contains("# Out of bounds values : 0 OK");
            List<String[]> rows = new PerfEndToEndTest.Run(0, out, "").rows().stream()
                    .filter(row -> row.length == 14 && row[0].matches("\\d+")).toList();
            assertThat(rows).as(out).hasSize(7).allSatisfy(row -> {
                assertThat(row[PerfTable.WRONG]).as(String.join(" ", row)).isEqualTo("0");
                assertThat(row[PerfTable.IN_PLACE_WRONG]).as(String.join(" ", row)).isEqualTo("0");
            });
        } finally {
            p.destroyForcibly();
        }
    }
}
