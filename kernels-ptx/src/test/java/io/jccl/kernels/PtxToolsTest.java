// SPDX-License-Identifier: Apache-2.0
package io.jccl.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed PTX is what the sources produce now (the nvcc profile builds it during the Maven
 * build), and ptxas accepts it for the GPUs jccl targets. No GPU needed.
 */
class PtxToolsTest {
    @Test
    void theCommittedPtxIsWhatTheSourcesProduce() throws Exception {
        String built = System.getProperty("jccl.ptx.built", "");
        Tools.require(!built.isBlank() && Files.isRegularFile(Path.of(built)),
                "nvcc was not found, so the build did not make the PTX from the sources (the Maven profile nvcc"
                        + " runs kernels-ptx/build-ptx.sh when /usr/local/cuda/bin/nvcc exists; -Pnvcc forces it)");
        String fresh = Files.readString(Path.of(built), java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(fresh).as("the committed io/jccl/kernels/jccl.ptx is stale (committed: " + compiler(Tools.ptx())
                + "; this nvcc: " + compiler(fresh) + "): run kernels-ptx/build-ptx.sh "
                + "kernels-ptx/src/main/resources/io/jccl/kernels/jccl.ptx and commit it").isEqualTo(Tools.ptx());
    }

    /** The compiler line nvcc writes at the top of its PTX. */
    private static String compiler(String ptx) {
        return ptx.lines().filter(l -> l.startsWith("// Cuda compilation tools")).findFirst().orElse("(no compiler line)")
                .substring(3);
    }

    /** Both architectures at once (each ptxas run takes most of a minute on one core). */
    @Test
    void ptxasAcceptsThePtxForAmpereAndHopper(@TempDir Path dir) throws Exception {
        Optional<Path> ptxas = Tools.cuda("ptxas");
        Tools.require(ptxas.isPresent(), "CUDA's ptxas was not found (PATH, CUDA_HOME/bin, /usr/local/cuda/bin)");
        Path ptx = dir.resolve("jccl.ptx");
        Files.writeString(ptx, Tools.ptx());
        List<String> archs = List.of("sm_80", "sm_90");
        List<java.util.concurrent.Future<Tools.Result>> runs = new java.util.ArrayList<>();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(archs.size())) {
            for (String arch : archs) {
                runs.add(pool.submit(() -> Tools.run(dir, List.of(ptxas.get().toString(), "-arch=" + arch, "-o",
                        "jccl-" + arch + ".cubin", "jccl.ptx"))));
            }
            for (int i = 0; i < archs.size(); i++) {
                Tools.Result r = runs.get(i).get();
                assertThat(r.exit()).as(archs.get(i) + ": " + r.output()).isZero();
                assertThat(Files.size(dir.resolve("jccl-" + archs.get(i) + ".cubin"))).as(archs.get(i)).isPositive();
            }
        }
    }
}
