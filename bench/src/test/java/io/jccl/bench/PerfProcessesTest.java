// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.jccl.bench.PerfEndToEndTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code jccl perf --procs}: ranks in processes this JVM starts, talking through /dev/shm, the data checked. */
@Timeout(180)
class PerfProcessesTest {
    @Test
    void allReduceOverTwoProcessesIsRightAtEverySize() {
        PerfEndToEndTest.Run r = run("perf", "allreduce", "--procs", "2", "-b", "8", "-e", "1M", "-f", "4", "-n", "2", "-w", "1", "-c", "2");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("# jccl perf allreduce: 2 rank(s) as 2 processes of 1 thread(s)")
                .contains("# Out of bounds values : 0 OK");
        List<String[]> rows = r.rows();
        assertThat(rows).as(r.out()).hasSize(9);
        long size = 8;
        for (String[] row : rows) {
            assertThat(row).as(String.join(" ", row)).hasSize(14);
            assertThat(Long.parseLong(row[0])).isEqualTo(size);
            assertThat(row[PerfTable.WRONG]).as("out-of-place #wrong at " + size).isEqualTo("0");
            assertThat(row[PerfTable.IN_PLACE_WRONG]).as("in-place #wrong at " + size).isEqualTo("0");
            assertThat(Double.parseDouble(row[PerfTable.TIME])).isPositive();
            size *= 4;
        }
    }

    @Test
    void threadsPerProcessCombineWithProcesses() {
        PerfEndToEndTest.Run r = run("perf", "allgather", "--procs", "2", "-t", "2", "-b", "64", "-e", "64K", "-f", "32", "-n", "2",
                "-w", "1", "-c", "1");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("4 rank(s) as 2 processes of 2 thread(s)").contains("# Out of bounds values : 0 OK");
        assertThat(r.rows()).hasSize(3).allSatisfy(row -> assertThat(row[PerfTable.WRONG]).isEqualTo("0"));
    }

    @Test
    void plotIsRefusedWithProcesses() {
        PerfEndToEndTest.Run r = run("perf", "allreduce", "--procs", "2", "--plot", "x.svg");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("--plot runs in one process");
    }
}
