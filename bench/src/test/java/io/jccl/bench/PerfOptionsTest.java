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
        PerfOptions o = parse("allreduce", "--procs", "3");
        assertThat(o.ranks()).isEqualTo(3);
        assertThat(o.processes()).isEqualTo(3);
        assertThat(o.threads()).isEqualTo(1);
        o = parse("allreduce", "--procs=2", "-t", "3");
        assertThat(o.ranks()).isEqualTo(6);
        assertThat(o.threads()).isEqualTo(3);
        assertThat(o.withProcesses(4).ranks()).isEqualTo(12);
        // Under a launcher each process is one rank unless -t says otherwise.
        assertThat(PerfOptions.parse(List.of("allreduce"), java.util.Map.of("OMPI_COMM_WORLD_RANK", "0")).ranks()).isEqualTo(1);
        assertThat(parse("allreduce").ranks()).isEqualTo(2);
        assertThatThrownBy(() -> parse("allreduce", "--procs", "0")).hasMessageContaining("--procs");
        assertThatThrownBy(() -> parse("broadcast", "--procs", "2", "-r", "2")).hasMessageContaining("-r");
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
        assertThat(o.stepBytes()).isZero();
        assertThat(o.gpus()).isEqualTo(1);
        assertThat(o.aggIters()).isEqualTo(1);
        assertThat(o.average()).as("the slowest rank's; nccl-tests' default is 1, the average").isEqualTo(3);
        assertThat(o.blocking()).isZero();
        assertThat(o.graphs()).isZero();
        assertThat(o.cpuTime()).isFalse();
        assertThat(o.cycles()).isEqualTo(1);
        assertThat(o.register()).isZero();
        assertThat(o.timeout()).isZero();
        assertThat(o.minMillis()).isEqualTo(100);
        assertThat(o.csv()).isFalse();
    }

    @Test
    void ncclTestsFlagsMeanWhatTheyMeanThere() {
        PerfOptions o = parse("allreduce", "-g", "1", "-i", "1K", "-b", "1K", "-e", "4K", "-m", "4", "-a", "1", "-z", "2",
                "-G", "0", "-C", "1", "-N", "3", "-R", "1", "-J", "r.json", "-T", "30", "--csv");
        assertThat(o.stepBytes()).isEqualTo(1024);
        assertThat(o.sizes()).containsExactly(1024L, 2048L, 3072L, 4096L);
        assertThat(o.step()).isEqualTo("1024(bytes)");
        assertThat(o.aggIters()).isEqualTo(4);
        assertThat(o.average()).isEqualTo(1);
        assertThat(o.blocking()).isEqualTo(2);
        assertThat(o.cpuTime()).isTrue();
        assertThat(o.cycles()).isEqualTo(3);
        assertThat(o.register()).isEqualTo(1);
        assertThat(o.json()).hasToString("r.json");
        assertThat(o.timeout()).isEqualTo(30);
        assertThat(o.csv()).isTrue();
        // Long names and attached values, as nccl-tests' getopt takes them.
        PerfOptions l = parse("allreduce", "--ngpus=2", "--stepbytes", "8", "-e", "24", "--agg_iters=2", "--average", "0",
                "--blocking=3", "--cudagraph", "0", "--report_cputime=0", "--run_cycles", "0", "--local_register=0",
                "--output_file", "o.json", "--timeout=5", "-m8", "-a2");
        assertThat(l.gpus()).isEqualTo(2);
        assertThat(l.sizes()).containsExactly(8L, 16L, 24L);
        assertThat(l.aggIters()).isEqualTo(8);
        assertThat(l.average()).isEqualTo(2);
        assertThat(l.blocking()).isEqualTo(3);
        assertThat(l.cpuTime()).isFalse();
        assertThat(l.cycles()).isZero();
        assertThat(l.json()).hasToString("o.json");
        assertThat(l.timeout()).isEqualTo(5);
        assertThat(parse("allreduce", "--json", "j.json").json()).hasToString("j.json");
        // nccl-tests' ranks: threads × GPUs per thread (× processes).
        PerfOptions g = parse("allreduce", "-t", "3", "-g", "2");
        assertThat(g.ranks()).isEqualTo(6);
        assertThat(g.threads()).isEqualTo(3);
        assertThat(g.withProcesses(2).ranks()).isEqualTo(12);
        assertThat(java.util.stream.IntStream.range(0, 6).map(r -> CudaPerfCommand.gpuOf(g, r)).toArray())
                .containsExactly(0, 0, 0, 1, 1, 1);
        assertThat(parse("allreduce", "--min-time", "0").minMillis()).isZero();
        assertThat(parse("allreduce", "-f", "4").step()).isEqualTo("4(factor)");
    }

    @Test
    void theOldShortFormsAndFlagsJcclCannotHonourAreRefusedSayingWhy() {
        for (String[] old : List.of(new String[] {"-p", "2"}, new String[] {"-p2"}, new String[] {"--nprocs", "2"})) {
            List<String> args = new java.util.ArrayList<>(List.of("allreduce"));
            args.addAll(List.of(old));
            assertThatThrownBy(() -> PerfOptions.parse(args, java.util.Map.of())).as(String.join(" ", old))
                    .isInstanceOf(UsageException.class).hasMessageContaining("--procs P");
        }
        assertThatThrownBy(() -> parse("allreduce", "--min_time", "50")).isInstanceOf(UsageException.class)
                .hasMessageContaining("--min-time MS").hasMessageContaining("-T is nccl-tests' timeout");
        assertThat(parse("allreduce", "-G", "10").graphs()).isEqualTo(10);
        assertThatThrownBy(() -> parse("allreduce", "-G", "-1")).isInstanceOf(UsageException.class);
        assertThatThrownBy(() -> parse("allreduce", "-R", "2")).hasMessageContaining("-R 2: jccl has no symmetric registration");
        assertThatThrownBy(() -> parse("allreduce", "-i", "1K", "-f", "2")).hasMessageContaining("-i and -f");
        assertThatThrownBy(() -> parse("allreduce", "-i", "0")).hasMessageContaining("-i must be at least 1 byte");
        assertThatThrownBy(() -> parse("allreduce", "-a", "4")).hasMessageContaining("-a must be in 0..3, was 4");
        assertThatThrownBy(() -> parse("allreduce", "-z", "4")).hasMessageContaining("-z must be in 0..3");
        assertThatThrownBy(() -> parse("allreduce", "-C", "2")).hasMessageContaining("-C must be in 0..1");
        assertThatThrownBy(() -> parse("allreduce", "-m", "0")).hasMessageContaining("-m");
        assertThatThrownBy(() -> parse("allreduce", "-T", "soon")).hasMessageContaining("-T").hasMessageContaining("soon");
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
                "-w", "0", "-c", "0", "-J", "out.json");
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
