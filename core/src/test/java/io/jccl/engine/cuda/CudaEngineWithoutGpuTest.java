// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * What the CUDA engine does where there is no GPU: against CUDA's stub libcuda (every call answers
 * CUDA_ERROR_STUB_LIBRARY) it reports no device and refuses to open one with the driver's error;
 * its API checks need no GPU at all.
 */
class CudaEngineWithoutGpuTest {
    static Optional<Path> stub() {
        String named = System.getenv("JCCL_TEST_CUDA_STUB");
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named));
        }
        return List.of("/var/cache/jccl/cuda-stub/libcuda.so", "/usr/lib/x86_64-linux-gnu/stubs/libcuda.so",
                "/usr/local/cuda/lib64/stubs/libcuda.so").stream().map(Path::of).filter(Files::isRegularFile).findFirst();
    }

    @Test
    void theStubLibraryHasNoDeviceAndOpeningOneFailsWithTheDriversError() {
        Optional<Path> stub = stub();
        if (stub.isEmpty() || !Files.isRegularFile(stub.get())) {
            String why = "CUDA's stub libcuda.so not found (JCCL_TEST_CUDA_STUB, or .ci/run)";
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                fail(why);
            }
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        System.setProperty("jccl.cuda.lib", stub.get().toString());
        assertThat(CudaDevice.available()).isFalse();
        assertThatThrownBy(() -> CudaDevice.open(0)).isInstanceOf(JcclException.class)
                .hasMessageContaining("cuInit").hasMessageContaining("CUDA_ERROR_STUB_LIBRARY")
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.UNHANDLED_CUDA_ERROR));
    }

    @Test
    void initAllCudaChecksItsArguments() {
        assertThatThrownBy(() -> Communicator.initAllCuda(0, null, Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("n");
        assertThatThrownBy(() -> Communicator.initAllCuda(2, null, Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("device");
    }

    @Test
    void initCudaChecksItsArgumentsBeforeMeetingAnyone() {
        io.jccl.bootstrap.CommId id = io.jccl.bootstrap.CommId.of("127.0.0.1", 1, new byte[32]);
        assertThatThrownBy(() -> Communicator.initCuda(null, 2, 1, null, Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("rank 1").hasMessageContaining("argument 'id' is null");
        assertThatThrownBy(() -> Communicator.initCuda(id, 2, 1, null, Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("argument 'device' is null");
        assertThatThrownBy(() -> Communicator.fromEnvironmentCuda(null, Config.defaults()))
                .isInstanceOf(JcclException.class).hasMessageContaining("argument 'device' is null");
    }

    @Test
    void theHostEngineTakesRegistrationsAndRefusesNull() {
        Communicator[] comms = Communicator.initAll(1, Config.defaults());
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofShared()) {
            java.lang.foreign.MemorySegment buf = a.allocate(64);
            io.jccl.Registration r = comms[0].register(buf);
            assertThat(r.registered()).isTrue();
            comms[0].deregister(r);
            assertThat(r.registered()).isFalse();
            assertThatThrownBy(() -> comms[0].deregister(r)).isInstanceOf(JcclException.class)
                    .hasMessageContaining("argument 'registration' was deregistered already");
            assertThatThrownBy(() -> comms[0].register(null)).isInstanceOf(JcclException.class).hasMessageContaining("buffer");
            assertThatThrownBy(() -> comms[0].deregister(null)).isInstanceOf(JcclException.class).hasMessageContaining("registration");
            assertThatThrownBy(() -> comms[0].register(java.lang.foreign.MemorySegment.ofArray(new byte[8])))
                    .isInstanceOf(JcclException.class).hasMessageContaining("heap segment");
        } finally {
            comms[0].close();
        }
    }
}
