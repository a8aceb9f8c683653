// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket transport fills a link: two namespace hosts whose links tc shapes to 300 Mbit/s, one
 * TCP stream's throughput and jccl's all-reduce bus bandwidth measured in the same run
 * ({@code jccl netbench}). Measured on the 2-core development VM: 0.98-1.01 of the TCP stream at
 * 1-16 MiB (docs/processes.md); the test asks for 0.75, leaving a quarter for a machine shared
 * with other builds, and checks that the shaping took effect (TCP near 300 Mbit/s).
 */
@Timeout(120)
class NetBandwidthTest {
    private static final Pattern RESULT = Pattern.compile(
            "# netbench: rate 300 Mbit/s, tcp ([0-9.]+) Mbit/s, allreduce busbw ([0-9.]+) Mbit/s at 8388608 B: ([0-9.]+) of tcp");

    @Test
    void allReduceBusBandwidthReachesMostOfTheTcpThroughput() {
        Namespaces.build(1, 1, 0, 0).close(); // skips with the reason where namespaces cannot be made
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("netbench", "--rate", "300", "--seconds", "2", "-b", "4M", "-e", "8M", "-f", "2",
                "-n", "2", "-w", "1");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Matcher m = RESULT.matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        double tcp = Double.parseDouble(m.group(1));
        double ratio = Double.parseDouble(m.group(3));
        assertThat(tcp).as("the link is shaped: " + r.out()).isBetween(300 * 0.7, 300 * 1.1);
        assertThat(ratio).as(r.out()).isGreaterThanOrEqualTo(0.75);
        assertThat(r.out()).contains("# Out of bounds values : 0 OK");
    }
}
