// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code jccl fabric --nic} and {@code --placement} in namespaces: 2 servers × 2 ranks placed
 * interleaved (ranks 0 and 2 on server 0, 1 and 3 on server 1), intra-server links at 400 Mbit/s,
 * inter-server at 100. Ranks 0 and 2 each send one TCP stream to server 1 at once: with a NIC per
 * rank each stream runs near 100, with one NIC per server the two share 100. Bounds are loose (the
 * machine is shared; the two streams start a JVM start-up apart).
 */
@Timeout(120)
class FabricNicTest {
    private static final int INTRA = 400;
    private static final int INTER = 100;

    @Test
    void aSharedNicSplitsTheInterRateAmongItsServersRanks() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        Fabric f = Namespaces.build(2, 2, INTRA, INTER, Fabric.DEFAULT_BURST_KIB, Placement.INTERLEAVED, Fabric.Nic.SHARED);
        double intra;
        double[] across;
        try (f) {
            assertThat(f.ranksByServer()).isEqualTo("server 0: ranks 0 2; server 1: ranks 1 3");
            assertThat(f.address(1)).isEqualTo("10.99.1.1");
            assertThat(f.address(2)).isEqualTo("10.99.0.2");
            assertThat(f.rankEnvironment(2, false)).containsEntry("JCCL_HOSTID", f.rankEnvironment(0, false).get("JCCL_HOSTID"))
                    .containsEntry("LOCAL_RANK", "1");
            assertThat(f.rankEnvironment(1, false).get("JCCL_HOSTID")).isNotEqualTo(f.rankEnvironment(0, false).get("JCCL_HOSTID"));
            assertThat(f.toString()).contains("(placement interleaved, nic shared)");
            // Inside a server the stream does not cross the server's link (100 Mbit/s).
            intra = NetBenchCommand.tcp(f, 0, 2, 1, e);
            across = twoAtOnce(f, e);
        }
        assertThat(Namespaces.anyLeft(f)).as("namespaces left after close").isFalse();
        assertThat(intra).as("same server, shaped to 400 Mbit/s; " + err).isBetween(INTRA * 0.6, INTRA * 1.15);
        assertThat(across[0] + across[1]).as("two streams through one 100 Mbit/s link: %.1f + %.1f; %s", across[0], across[1], err)
                .isBetween(INTER * 0.6, INTER * 1.3);
    }

    @Test
    void railNicsGiveEachRankTheInterRate() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        double[] across;
        try (Fabric f = Namespaces.build(2, 2, INTRA, INTER, Fabric.DEFAULT_BURST_KIB, Placement.INTERLEAVED, Fabric.Nic.RAIL)) {
            across = twoAtOnce(f, e);
        }
        for (double mbits : across) {
            assertThat(mbits).as("each rank's own 100 Mbit/s link: %.1f and %.1f; %s", across[0], across[1], err)
                    .isBetween(INTER * 0.6, INTER * 1.15);
        }
    }

    /** Streams 0 -> 1 and 2 -> 3 (server 0 to server 1) for 3 s at once: their Mbit/s. */
    private static double[] twoAtOnce(Fabric f, PrintStream err) throws Exception {
        // A thread each: the common pool has one thread on a 2-core machine, which would run them in turn.
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Future<Double> a = pool.submit(() -> NetBenchCommand.tcp(f, 0, 1, 3, err));
            Future<Double> b = pool.submit(() -> NetBenchCommand.tcp(f, 2, 3, 3, err));
            return new double[] {a.get(60, TimeUnit.SECONDS), b.get(60, TimeUnit.SECONDS)};
        }
    }
}
