// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.transport.net.IbFake;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two ranks in two processes claiming two hosts, so that they talk through the network transport,
 * with {@code JCCL_NET=IB} over the fake libibverbs ({@link IbFake}: RDMA between processes of
 * this host): every protocol and the main collectives of the host engine, every element checked
 * ({@link ProcessRank}'s {@code check}), and the connections' log lines saying NET/IB; on
 * InfiniBand (LIDs) and RoCE (GIDs), with one and with several queue pairs. Runs in the
 * fake-verbs JVM.
 */
@Timeout(180)
class IbProcessesTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));

    /** On an InfiniBand port with one queue pair per connection, and on a RoCE port with two. */
    @ParameterizedTest
    @CsvSource({"fake_ib0:1, 1, fake_ib0:1/IB", "fake_roce0:1:eth, 2, fake_roce0:1/RoCE"})
    void twoProcessesRunEveryProtocolOverTheIbNet(String device, int qps, String used) throws Exception {
        Path lib = IbFake.library();
        String[] hosts = {"A", "B"};
        int n = hosts.length;
        List<BootstrapRoot> roots = new ArrayList<>();
        List<Process> procs = new ArrayList<>();
        try {
            for (int p = 0; p < 3; p++) {
                roots.add(BootstrapRoot.start(LOOPBACK));
            }
            for (int r = 0; r < n; r++) {
                ProcessBuilder pb = ChildJvm.rank(roots.getFirst().id(), r, n, List.of("-Djccl.ibverbs.lib=" + lib),
                        ProcessRank.class.getName(), "check", roots.get(0).id().encode(), roots.get(1).id().encode(),
                        roots.get(2).id().encode());
                pb.environment().put("JCCL_HOSTID", hosts[r]);
                pb.environment().put("JCCL_NET", "IB");
                pb.environment().put("JCCL_FAKE_IB_DEVICES", device);
                pb.environment().put("JCCL_IB_QPS_PER_CONNECTION", Integer.toString(qps));
                pb.environment().put("JCCL_DEBUG", "INFO");
                pb.environment().put("JCCL_DEBUG_SUBSYS", "NET");
                procs.add(pb.start());
            }
            List<String> outs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                Process p = procs.get(r);
                assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("rank " + r + " finished").isTrue();
                outs.add("rank " + r + " (exit " + p.exitValue() + "):\n" + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            String all = String.join("\n", outs);
            for (int r = 0; r < n; r++) {
                String out = outs.get(r);
                assertThat(out).as(all).startsWith("rank " + r + " (exit 0)").contains("ok LL\n", "ok LL128\n", "ok Simple\n");
                assertThat(out).as(all).contains("NET/IB: using " + used).contains(qps + " queue pair(s) per connection").contains("using NET/IB (1 device)")
                        .containsPattern("channel \\d\\d/\\w+ : rank \\d .* -> rank \\d .* \\[(send|receive)\\] via NET/IB/0")
                        .doesNotContain("NET/Socket");
            }
        } finally {
            procs.forEach(Process::destroyForcibly);
            roots.forEach(BootstrapRoot::close);
        }
    }
}
