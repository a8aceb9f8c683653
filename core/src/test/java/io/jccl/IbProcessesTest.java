// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.transport.net.IbFake;
import org.junit.jupiter.api.Test;
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
 * ({@link ProcessRank}'s {@code check}), and the connections' log lines saying NET/IB. Runs in the
 * fake-verbs JVM.
 */
@Timeout(180)
class IbProcessesTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));

    @Test
    void twoProcessesRunEveryProtocolOverTheIbNet() throws Exception {
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
                pb.environment().put("JCCL_FAKE_IB_DEVICES", "fake_ib0:1");
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
                assertThat(out).as(all).contains("NET/IB: using fake_ib0:1/IB").contains("using NET/IB (1 device)")
                        .containsPattern("channel \\d\\d/\\w+ : rank \\d .* -> rank \\d .* \\[(send|receive)\\] via NET/IB/0")
                        .doesNotContain("NET/Socket");
            }
        } finally {
            procs.forEach(Process::destroyForcibly);
            roots.forEach(BootstrapRoot::close);
        }
    }
}
