// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hosts made of network namespaces ({@link Fabric}, unshaped): 2 and 4 hosts with 1 and 2 ranks
 * per host, one process per rank. Ranks of one host share its identity, so they talk through
 * /dev/shm; ranks of different hosts through the socket transport over the veth links (some
 * layouts with several proxy threads and sockets per connection). Each rank runs a sample of the
 * correctness matrix ({@link FabricMatrixRank}: every collective in and out of place, rotating
 * types, operations, sizes up to several socket chunks, in every protocol), every element checked.
 */
@Timeout(180)
class NamespaceHostsTest {
    @ParameterizedTest(name = "{0} hosts x {1} ranks, {2} thread(s) x {3} socket(s)")
    @CsvSource({"2, 1, 1, 1", "2, 2, 2, 2", "4, 1, 1, 2", "4, 2, 1, 1"})
    void theSampledMatrixIsRightAcrossNamespaceHosts(int hosts, int perHost, int threads, int socks) throws Exception {
        List<Process> procs = new ArrayList<>();
        Fabric f = Namespaces.build(hosts, perHost, 0, 0);
        try (f) {
            for (int g = 0; g < f.size(); g++) {
                Map<String, String> env = new java.util.HashMap<>(f.rankEnvironment(g, true));
                env.putAll(Map.of("JCCL_SOCKET_NTHREADS", "" + threads, "JCCL_NSOCKS_PERTHREAD", "" + socks, "JCCL_TIMEOUT", "40",
                        "JCCL_BOOTSTRAP_TIMEOUT", "60"));
                procs.add(f.start(g, Namespaces.java(FabricMatrixRank.class, "" + (hosts * 10 + perHost)), env, true));
            }
            Namespaces.Outcome o = Namespaces.awaitRanks(procs, 150,
                    out -> out.contains("ok " + 3 * FabricMatrixRank.sample(0).size() + " cases"));
            assertThat(o.ok()).as(o.output()).isTrue();
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
        assertThat(Namespaces.anyLeft(f)).as("namespaces left").isFalse();
    }
}
