// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The emulated fabric itself, 2 servers × 2 ranks with intra-server links at 400 Mbit/s and
 * inter-server ones at 100: one TCP stream between ranks of one server runs near 400, between
 * servers near 100 (loose bounds: the machine is shared), so the two levels are shaped apart;
 * the ranks' identities group them by server; nothing is left once it is closed.
 */
@Timeout(120)
class FabricTest {
    @Test
    void intraAndInterServerLinksRunAtTheirOwnRates() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        Fabric f = Namespaces.build(2, 2, 400, 100);
        double intra;
        double inter;
        try (f) {
            assertThat(f.address(3)).isEqualTo("10.99.1.2");
            assertThat(f.rankEnvironment(1, false)).containsEntry("JCCL_HOSTID", f.rankEnvironment(0, false).get("JCCL_HOSTID"))
                    .containsEntry("JCCL_SHM_DISABLE", "1").containsEntry("RANK", "1").containsEntry("WORLD_SIZE", "4");
            assertThat(f.rankEnvironment(2, false).get("JCCL_HOSTID")).isNotEqualTo(f.rankEnvironment(0, false).get("JCCL_HOSTID"));
            // Each class passes one GSO segment at the veth's speed after idling, no more.
            Process tc = new ProcessBuilder("ip", "netns", "exec", f.namespace(0), "tc", "class", "show", "dev", Fabric.IFACE)
                    .redirectErrorStream(true).start();
            String classes = new String(tc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(tc.waitFor()).as(classes).isZero();
            assertThat(classes).contains("rate 400Mbit").contains("rate 100Mbit");
            // tc prints the burst in bytes as its clock rounds it (65450b for 64 KiB at 400 Mbit/s).
            Matcher m = Pattern.compile(" burst (\\d+)b ").matcher(classes);
            int bursts = 0;
            while (m.find()) {
                assertThat(Long.parseLong(m.group(1))).as(classes).isBetween(60_000L, 65_536L);
                bursts++;
            }
            assertThat(bursts).as(classes).isEqualTo(2);
            assertThat(f.toString()).endsWith("burst 64 KiB");
            assertThat(gsoMaxSize(f)).isEqualTo(65536);
            intra = NetBenchCommand.tcp(f, 0, 1, 1, e);
            inter = NetBenchCommand.tcp(f, 0, 2, 1, e);
            assertThat(Namespaces.anyLeft(f)).isTrue();
        }
        assertThat(Namespaces.anyLeft(f)).as("namespaces left after close").isFalse();
        assertThat(intra).as("same server, shaped to 400 Mbit/s; " + err).isBetween(400 * 0.6, 400 * 1.15);
        assertThat(inter).as("other server, shaped to 100 Mbit/s; " + err).isBetween(100 * 0.6, 100 * 1.15);
    }

    @Test
    void aBurstBelowOnePacketAlsoShrinksTheLinksPackets() throws Exception {
        // htb passes a whole packet however small its burst: with the veth's 64 KiB GSO packets a
        // 16 KiB burst would still let 64 KiB through at once.
        try (Fabric f = Namespaces.build(1, 2, 400, 0, 16)) {
            assertThat(gsoMaxSize(f)).isEqualTo(16384);
            assertThat(f.toString()).endsWith("burst 16 KiB");
        }
    }

    /** The largest GSO packet rank 0's link sends, as {@code ip -d link} reports it. */
    private static int gsoMaxSize(Fabric f) throws Exception {
        Process ip = new ProcessBuilder("ip", "-n", f.namespace(0), "-d", "link", "show", Fabric.IFACE).redirectErrorStream(true).start();
        String out = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ip.waitFor()).as(out).isZero();
        Matcher m = Pattern.compile(" gso_max_size (\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Integer.parseInt(m.group(1));
    }
}
