// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.jccl.bench.PerfEndToEndTest.run;
import static org.assertj.core.api.Assertions.assertThat;

class TimelineCommandTest {
    @Test
    void reportsTheSimulatedCallsLinksAndConnections(@TempDir Path dir) {
        Path file = dir.resolve("sim.timeline");
        PerfEndToEndTest.Run sim = run("simulate", "allreduce", "--fabric", "2x2", "--intra", "800", "--inter", "200", "-b", "1M",
                "-e", "1M", "--timeline", file.toString());
        assertThat(sim.status()).as(sim.err()).isZero();
        PerfEndToEndTest.Run r = run("timeline", file.toString(), "--fabric", "2x2", "--intra", "800", "--inter", "200");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("# jccl timeline: 1 file on emulated fabric 2 x 2").contains("the last call (3): 24 messages");
        // the tuner's hierarchical ring: every rank sends inside its server and to its peer on the other
        for (int rank = 0; rank < 4; rank++) {
            assertThat(r.out()).contains("rank " + rank + " out, intra").contains("rank " + rank + " out, inter");
        }
        assertThat(r.out()).contains("Simple ch0 0->1").contains("Simple ch0 0->2").doesNotContain("0->3");
        // busy over the call: a share of it, at most all of it
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("out, inter +[0-9]+ +[0-9]+ +([0-9.]+)%").matcher(r.out());
        int links = 0;
        while (m.find()) {
            assertThat(Double.parseDouble(m.group(1))).isGreaterThan(10).isLessThanOrEqualTo(100);
            links++;
        }
        assertThat(links).isEqualTo(4);
    }

    @Test
    void badCommandLinesAreRefusedNamingTheOption(@TempDir Path dir) {
        assertThat(run("timeline", "x.log").err()).contains("give the fabric: --fabric SxR");
        assertThat(run("timeline", "--fabric", "2x2", "--intra", "8", "--inter", "8").err()).contains("name the timeline files");
        assertThat(run("timeline", "x.log", "--fabric", "22", "--intra", "8", "--inter", "8").err())
                .contains("option --fabric takes SERVERSxRANKS");
        assertThat(run("timeline", "x.log", "--fabric", "2x2", "--intra", "8", "--inter", "8", "--nic", "ib").err())
                .contains("option --nic");
        PerfEndToEndTest.Run missing = run("timeline", dir.resolve("none.log").toString(), "--fabric", "2x2", "--intra", "8", "--inter", "8");
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.err()).contains("cannot read").contains("none.log");
    }
}
