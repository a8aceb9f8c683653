// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.CudaDevice;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** {@code jccl perf --engine}: parsing, and the CUDA sweep's refusals where it cannot run. */
class PerfEngineTest {
    @Test
    void engineOptionIsParsedAndStripped() {
        assertThat(PerfEngine.of(List.of("allreduce", "-t", "8"))).isEqualTo(PerfEngine.HOST);
        assertThat(PerfEngine.of(List.of("allreduce", "--engine", "cuda", "-t", "8"))).isEqualTo(PerfEngine.CUDA);
        assertThat(PerfEngine.of(List.of("allreduce", "--engine=host"))).isEqualTo(PerfEngine.HOST);
        assertThat(PerfEngine.strip(List.of("allreduce", "--engine", "cuda", "-t", "8", "--engine=cuda")))
                .containsExactly("allreduce", "-t", "8");
        assertThatThrownBy(() -> PerfEngine.of(List.of("allreduce", "--engine", "tpu")))
                .isInstanceOf(UsageException.class).hasMessageContaining("'tpu' is not an engine");
        assertThatThrownBy(() -> PerfEngine.of(List.of("allreduce", "--engine")))
                .isInstanceOf(UsageException.class).hasMessageContaining("needs a value");
    }

    @Test
    void theCudaSweepRefusesWhatItDoesNotDo() {
        // --procs runs one rank per process; --table times its ranks in one process
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("perf", "allreduce", "--engine", "cuda", "--procs", "2", "-t", "2");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("one rank per process").contains("leave out -t");
        PerfEndToEndTest.Run t = PerfEndToEndTest.run("perf", "allreduce", "--engine", "cuda", "--procs", "2", "--table", "t.json");
        assertThat(t.status()).isEqualTo(2);
        assertThat(t.err()).contains("--table").contains("leave out --procs");
        assertThat(PerfEndToEndTest.run("perf", "allreduce", "--engine", "gpu").status()).isEqualTo(2);
        // -g drives its GPUs from one process, and --table times one GPU
        PerfEndToEndTest.Run g = PerfEndToEndTest.run("perf", "allreduce", "--engine", "cuda", "--procs", "2", "-g", "2");
        assertThat(g.status()).isEqualTo(2);
        assertThat(g.err()).contains("-g drives several GPUs from one process; leave out --procs");
        PerfEndToEndTest.Run gt = PerfEndToEndTest.run("perf", "allreduce", "--engine", "cuda", "-g", "2", "--table", "t.json");
        assertThat(gt.status()).isEqualTo(2);
        assertThat(gt.err()).contains("--table times its ranks on one GPU; leave out -g");
        // nccl-tests' flags the CUDA sweep does not run yet are refused, named as given
        for (String[] flag : List.of(new String[] {"-m", "2"}, new String[] {"-z", "1"}, new String[] {"-a", "1"},
                new String[] {"-C", "1"}, new String[] {"-N", "2"}, new String[] {"-T", "9"}, new String[] {"--csv"})) {
            List<String> args = new java.util.ArrayList<>(List.of("perf", "allreduce", "--engine", "cuda"));
            args.addAll(List.of(flag));
            PerfEndToEndTest.Run f = PerfEndToEndTest.run(args.toArray(String[]::new));
            assertThat(f.status()).as(String.join(" ", flag)).isEqualTo(2);
            assertThat(f.err()).as(String.join(" ", flag)).contains(String.join(" ", flag) + " is for the host engine so far");
        }
        assertThat(PerfEndToEndTest.run("perf", "--help").out()).contains("--engine").contains("--table FILE.json");
        // a GPU's tuning table comes from the CUDA sweep; the host engine's from jccl calibrate
        PerfEndToEndTest.Run host = PerfEndToEndTest.run("perf", "allreduce", "--table", "t.json");
        assertThat(host.status()).isEqualTo(2);
        assertThat(host.err()).contains("--table is for --engine cuda").contains("jccl calibrate");
        assertThat(PerfOptions.parse(java.util.List.of("allreduce", "--table", "h100.json"), java.util.Map.of()).table())
                .isEqualTo(java.nio.file.Path.of("h100.json"));
    }

    @Test
    void withoutAGpuTheCudaSweepSaysSo() {
        Assumptions.assumeFalse(CudaDevice.available(), "a GPU is present: the sweep itself runs (docs/gpu.md)");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("perf", "allreduce", "--engine", "cuda", "-t", "8", "-e", "1K");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("no CUDA GPU");
    }
}
