// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.Collective;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PerfOptionsTest {
    private static PerfOptions parse(String... args) {
        return PerfOptions.parse(List.of(args), java.util.Map.of());
    }

    @Test
    void processesMultiplyTheRanksAndDefaultToOneThreadEach() {
        PerfOptions o = parse("allreduce", "-p", "3");
        assertThat(o.ranks()).isEqualTo(3);
        assertThat(o.processes()).isEqualTo(3);
        assertThat(o.threads()).isEqualTo(1);
        o = parse("allreduce", "-p", "2", "-t", "3");
        assertThat(o.ranks()).isEqualTo(6);
        assertThat(o.threads()).isEqualTo(3);
        assertThat(o.withProcesses(4).ranks()).isEqualTo(12);
        // Under a launcher each process is one rank unless -t says otherwise.
        assertThat(PerfOptions.parse(List.of("allreduce"), java.util.Map.of("OMPI_COMM_WORLD_RANK", "0")).ranks()).isEqualTo(1);
        assertThat(parse("allreduce").ranks()).isEqualTo(2);
        assertThatThrownBy(() -> parse("allreduce", "-p", "0")).hasMessageContaining("-p");
        assertThatThrownBy(() -> parse("broadcast", "-p", "2", "-r", "2")).hasMessageContaining("-r");
    }

    @Test
    void defaultsAreNcclTestsOnesExceptTheSizes() {
        PerfOptions o = parse("allreduce");
        assertThat(o.collective()).isEqualTo(Collective.ALL_REDUCE);
        assertThat(o.ranks()).isEqualTo(2);
        assertThat(o.minBytes()).isEqualTo(8);
        assertThat(o.maxBytes()).isEqualTo(64L << 20);
        assertThat(o.stepFactor()).isEqualTo(2);
        assertThat(o.type()).isEqualTo(DataType.FLOAT32);
        assertThat(o.op()).isEqualTo(RedOp.SUM);
        assertThat(o.root()).isZero();
        assertThat(o.iters()).isEqualTo(20);
        assertThat(o.warmup()).isEqualTo(5);
        assertThat(o.check()).isEqualTo(1);
        assertThat(o.json()).isNull();
    }

    @Test
    void sizesTakeBinarySuffixesInEverySpelling() {
        assertThat(parse("allgather", "-b", "1K", "-e", "64M").minBytes()).isEqualTo(1024);
        assertThat(parse("allgather", "-b", "1K", "-e", "64M").maxBytes()).isEqualTo(64L << 20);
        assertThat(parse("allgather", "-b8", "-e1G").maxBytes()).isEqualTo(1L << 30);
        assertThat(parse("allgather", "--minbytes=4k", "--maxbytes", "8K").minBytes()).isEqualTo(4096);
        assertThat(parse("allgather", "-b", "8").minBytes()).isEqualTo(8);
    }

    @Test
    void everyOptionIsRead() {
        PerfOptions o = parse("reduce", "-t", "4", "-f", "4", "-d", "half", "-o", "max", "-r", "3", "-n", "7",
                "-w", "0", "-c", "0", "--json", "out.json");
        assertThat(o.collective()).isEqualTo(Collective.REDUCE);
        assertThat(o.ranks()).isEqualTo(4);
        assertThat(o.stepFactor()).isEqualTo(4);
        assertThat(o.type()).isEqualTo(DataType.FLOAT16);
        assertThat(o.op()).isEqualTo(RedOp.MAX);
        assertThat(o.root()).isEqualTo(3);
        assertThat(o.iters()).isEqualTo(7);
        assertThat(o.warmup()).isZero();
        assertThat(o.check()).isZero();
        assertThat(o.json()).hasToString("out.json");
    }

    @Test
    void theSweepMultipliesUpToTheLargestSize() {
        assertThat(parse("allreduce", "-b", "8", "-e", "64").sizes()).containsExactly(8L, 16L, 32L, 64L);
        assertThat(parse("allreduce", "-b", "8", "-e", "100", "-f", "4").sizes()).containsExactly(8L, 32L);
        assertThat(parse("allreduce", "-b", "1M", "-e", "1M").sizes()).containsExactly(1L << 20);
        assertThat(parse("allreduce", "-b", "0", "-e", "16").sizes()).containsExactly(0L);
        assertThat(parse("allreduce", "-b", "8", "-e", "64M", "-f", "4").sizes()).hasSize(12).endsWith(32L << 20);
    }

    @Test
    void badOptionsNameTheOption() {
        assertThatThrownBy(() -> parse("allreduce", "-x", "3")).isInstanceOf(UsageException.class)
                .hasMessageContaining("'-x'");
        assertThatThrownBy(() -> parse("allreduce", "--frobnicate")).hasMessageContaining("--frobnicate");
        assertThatThrownBy(() -> parse("allreduce", "-b", "12Q")).isInstanceOf(UsageException.class)
                .hasMessageContaining("-b").hasMessageContaining("12Q");
        assertThatThrownBy(() -> parse("allreduce", "-e", "-3")).hasMessageContaining("-e");
        assertThatThrownBy(() -> parse("allreduce", "-d", "quad")).hasMessageContaining("-d").hasMessageContaining("quad");
        assertThatThrownBy(() -> parse("allreduce", "-o", "xor")).hasMessageContaining("-o").hasMessageContaining("xor");
        assertThatThrownBy(() -> parse("allreduce", "-n")).hasMessageContaining("-n needs a value");
        assertThatThrownBy(() -> parse("allreduce", "-n", "many")).hasMessageContaining("-n").hasMessageContaining("many");
        assertThatThrownBy(() -> parse("allreduce", "-t", "0")).hasMessageContaining("-t");
        assertThatThrownBy(() -> parse("allreduce", "-f", "1")).hasMessageContaining("-f");
        assertThatThrownBy(() -> parse("allreduce", "-b", "1M", "-e", "1K")).hasMessageContaining("-b").hasMessageContaining("-e");
        assertThatThrownBy(() -> parse("broadcast", "-t", "2", "-r", "2")).hasMessageContaining("-r");
        assertThatThrownBy(() -> parse("allreduce", "stray")).hasMessageContaining("stray");
    }

    @Test
    void theCollectiveMustBeOneOfNcclTests() {
        assertThatThrownBy(() -> parse()).isInstanceOf(UsageException.class).hasMessageContaining("COLLECTIVE");
        assertThatThrownBy(() -> parse("allsort")).isInstanceOf(UsageException.class).hasMessageContaining("allsort");
        for (String c : List.of("allreduce", "allgather", "reducescatter", "broadcast", "reduce", "alltoall", "gather",
                "scatter", "sendrecv")) {
            assertThat(parse(c).collective().cliName()).isEqualTo(c);
        }
    }
}
