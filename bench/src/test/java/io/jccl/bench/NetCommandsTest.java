// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code jccl fabric}, {@code netbench} and {@code tcpprobe} without namespaces: options, usage errors, a loopback probe. */
@Timeout(60)
class NetCommandsTest {
    @Test
    void fabricOptionsAndTheCommandAfterTheDashes() {
        FabricCommand.Options o = FabricCommand.parse(List.of("--servers", "4", "--ranks", "2", "--intra", "1000", "--inter", "250",
                "--shm", "--", "perf", "allgather", "-b", "16M"));
        assertThat(o).isEqualTo(new FabricCommand.Options(4, 2, 1000, 250, Fabric.DEFAULT_BURST_KIB, Placement.CONTIGUOUS,
                Fabric.Nic.RAIL, true, 600,
                List.of("perf", "allgather", "-b", "16M")));
        assertThat(FabricCommand.parse(List.of("--", "perf", "allreduce")).servers()).isEqualTo(2);
        assertThat(FabricCommand.parse(List.of("--burst", "256", "--", "perf")).burst()).isEqualTo(256);
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--burst", "1", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("jccl fabric: option --burst");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--servers", "2"))).isInstanceOf(UsageException.class)
                .hasMessageContaining("after '--'");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--ranks", "0", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessageContaining("--ranks");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--bogus", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessageContaining("--bogus");
    }

    @Test
    void fabricPlacementAndNicOptions() {
        FabricCommand.Options o = FabricCommand.parse(List.of("--placement", "random:7", "--nic", "shared", "--", "perf"));
        assertThat(o.placement()).isEqualTo(Placement.random(7));
        assertThat(o.nic()).isEqualTo(Fabric.Nic.SHARED);
        assertThat(FabricCommand.parse(List.of("--placement=interleaved", "--nic=rail", "--", "perf")))
                .extracting(FabricCommand.Options::placement, FabricCommand.Options::nic)
                .containsExactly(Placement.INTERLEAVED, Fabric.Nic.RAIL);
        assertThat(FabricCommand.parse(List.of("--", "perf"))).extracting(FabricCommand.Options::placement, FabricCommand.Options::nic)
                .containsExactly(Placement.CONTIGUOUS, Fabric.Nic.RAIL);
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--placement", "random:", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessage("jccl fabric: option --placement: 'random:' needs a seed: random:SEED, SEED an integer >= 0 (like random:7)");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--placement", "cyclic", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessage("jccl fabric: option --placement: 'cyclic' is not contiguous, interleaved or random:SEED");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--placement", "random:-3", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("jccl fabric: option --placement: the seed of 'random:-3'");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--nic", "per-gpu", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessage("jccl fabric: option --nic: 'per-gpu' is not rail or shared");
        assertThatThrownBy(() -> FabricCommand.parse(List.of("--nic", "--", "perf"))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("jccl fabric: option --nic needs a value");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertThat(PerfEndToEndTest.run("fabric", "--servers", "2").status()).isEqualTo(2);
        assertThat(PerfEndToEndTest.run("netbench", "-b", "8M", "-e", "4M").status()).isEqualTo(2);
        assertThat(PerfEndToEndTest.run("tcpprobe").status()).isEqualTo(2);
        assertThat(PerfEndToEndTest.run("tcpprobe", "--connect", "nohostport").status()).isEqualTo(2);
        assertThat(PerfEndToEndTest.run("fabric", "--help").out()).contains("--intra MBIT").contains("--placement P").contains("--nic N");
        assertThat(PerfEndToEndTest.run("fabric", "--nic", "x", "--", "perf").status()).isEqualTo(2);
        assertThat(PerfEndToEndTest.run("netbench", "--help").out()).contains("# netbench: rate R Mbit/s");
    }

    @Test
    void aProbeOverLoopbackMeasuresTheStream() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CompletableFuture<String> rx = CompletableFuture.supplyAsync(() -> {
            try {
                return TcpProbe.receive(port, 30_000_000_000L);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        TcpProbe.send(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 300_000_000L, 30_000_000_000L);
        String line = rx.get(30, TimeUnit.SECONDS);
        assertThat(line).matches("# tcp \\d+ B in [0-9.]+ s: [0-9.]+ Mbit/s");
        assertThat(TcpProbe.mbits(line)).isPositive();
        assertThat(TcpProbe.mbits("nothing here")).isNaN();
    }

    @Test
    void netbenchSummaryTakesBusBandwidthFromTheTimeColumn() {
        String table = """
                # a header
                     1048576        262144     float     sum      -1    29172    0.04    0.04       0    28807    0.04    0.04       0  ring/Simple
                    16777216       4194304     float     sum      -1   476172    0.04    0.04       0   546041    0.03    0.03       0  ring/Simple
                """;
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        double[] last = NetBenchCommand.summarize(table, 300, new java.io.PrintStream(b, true));
        assertThat(last[0]).isEqualTo(16777216);
        assertThat(last[1]).isCloseTo(16777216 * 8 / 476172.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(b.toString()).contains("# busbw/tcp 1048576: 287.6 Mbit/s / 300.0 Mbit/s = 0.959");
    }
}
