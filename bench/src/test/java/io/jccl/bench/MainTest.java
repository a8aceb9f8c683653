// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @Test
    void helpListsTheCommands() {
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("help");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("perf").contains("verify").contains("help");
        assertThat(PerfEndToEndTest.run("perf", "--help").out()).contains("-b").contains("-J, --output_file FILE");
        assertThat(PerfEndToEndTest.run("verify", "-h").out()).contains("--counts");
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("frobnicate");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("frobnicate");
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(PerfEndToEndTest.run().status()).isEqualTo(2);
    }
}
