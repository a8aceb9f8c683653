// SPDX-License-Identifier: Apache-2.0
package io.jccl.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bindings.NativeLibraryException;
import io.jccl.bindings.cuda.Cuda;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The facade's checks, against CUDA's stub libcuda (every call answers CUDA_ERROR_STUB_LIBRARY):
 * each method reaches the driver and turns the answer into a JcclException naming the call.
 * Where the stub is missing the test is skipped with the reason, or fails where
 * JCCL_REQUIRE_NATIVE_TESTS=true (CI).
 */
class CudaDriverTest {
    private static final MemorySegment HANDLE = MemorySegment.ofAddress(0x1000);

    /** CUDA's stub: JCCL_TEST_CUDA_STUB, else .ci/run's copy, else where toolkits install it. */
    static Optional<Path> stub() {
        String named = System.getenv("JCCL_TEST_CUDA_STUB");
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named));
        }
        return List.of("/var/cache/jccl/cuda-stub/libcuda.so", "/usr/lib/x86_64-linux-gnu/stubs/libcuda.so",
                "/usr/local/cuda/lib64/stubs/libcuda.so").stream().map(Path::of).filter(Files::isRegularFile).findFirst();
    }

    @BeforeAll
    static void useTheStub() {
        Optional<Path> stub = stub();
        if (stub.isEmpty() || !Files.isRegularFile(stub.get())) {
            String why = "CUDA's stub libcuda.so not found (JCCL_TEST_CUDA_STUB, or .ci/run, which extracts it"
                    + " from Debian's nvidia-cuda-dev into /var/cache/jccl/cuda-stub)";
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                fail(why);
            }
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        System.setProperty("jccl.cuda.lib", stub.get().toString());
        assertThat(CudaDriver.available()).isTrue();
    }

    @Test
    void everyCallNamesItselfAndTheDriversAnswer() {
        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("cuInit", CudaDriver::init);
        calls.put("cuDriverGetVersion", CudaDriver::driverVersion);
        calls.put("cuDeviceGetCount", CudaDriver::deviceCount);
        calls.put("cuDeviceGet", () -> CudaDriver.device(0));
        calls.put("cuDeviceGetName", () -> CudaDriver.deviceName(0));
        calls.put("cuDeviceGetPCIBusId", () -> CudaDriver.pciBusId(0));
        calls.put("cuDeviceGetAttribute", () -> CudaDriver.attribute(Cuda.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
        calls.put("cuDeviceTotalMem", () -> CudaDriver.totalMemory(0));
        calls.put("cuDeviceCanAccessPeer", () -> CudaDriver.canAccessPeer(0, 1));
        calls.put("cuDeviceGetP2PAttribute", () -> CudaDriver.p2pAttribute(Cuda.CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
        calls.put("cuDeviceGetByPCIBusId", () -> CudaDriver.deviceByPciBusId("0000:00:00.0"));
        calls.put("cuDevicePrimaryCtxRetain", () -> CudaDriver.retainPrimaryContext(0));
        calls.put("cuDevicePrimaryCtxRelease", () -> CudaDriver.releasePrimaryContext(0));
        calls.put("cuCtxSetCurrent", () -> CudaDriver.setCurrent(HANDLE));
        calls.put("cuCtxGetCurrent", CudaDriver::current);
        calls.put("cuCtxEnablePeerAccess", () -> CudaDriver.enablePeerAccess(HANDLE));
        calls.put("cuMemAlloc", () -> CudaDriver.memAlloc(1 << 20));
        calls.put("cuMemFree", () -> CudaDriver.memFree(0x1000));
        calls.put("cuMemHostAlloc", () -> CudaDriver.hostAlloc(4096, Cuda.CU_MEMHOSTALLOC_PORTABLE));
        calls.put("cuMemFreeHost", () -> CudaDriver.freeHost(HANDLE));
        calls.put("cuMemHostGetDevicePointer", () -> CudaDriver.hostDevicePointer(HANDLE));
        calls.put("cuMemHostRegister", () -> CudaDriver.hostRegister(HANDLE.reinterpret(4096),
                Cuda.CU_MEMHOSTREGISTER_PORTABLE | Cuda.CU_MEMHOSTREGISTER_DEVICEMAP));
        calls.put("cuMemHostUnregister", () -> CudaDriver.hostUnregister(HANDLE));
        calls.put("cuMemcpyAsync", () -> CudaDriver.copyAsync(0x1000, 0x2000, 8, MemorySegment.NULL));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(64);
            calls.put("cuMemcpyHtoD", () -> CudaDriver.copyToDevice(0x1000, host, 64));
            calls.put("cuMemcpyDtoH", () -> CudaDriver.copyToHost(host, 0x1000, 64));
            calls.put("cuMemsetD8Async", () -> CudaDriver.memsetAsync(0x1000, (byte) 0, 64, MemorySegment.NULL));
            calls.put("cuPointerGetAttribute(MEMORY_TYPE)", () -> CudaDriver.memoryType(0x1000));
            calls.put("cuPointerGetAttribute(DEVICE_ORDINAL)", () -> CudaDriver.pointerDevice(0x1000));
            calls.put("cuPointerGetAttribute(CONTEXT)", () -> CudaDriver.pointerContext(0x1000));
            calls.put("cuPointerGetAttribute(RANGE_START_ADDR)", () -> CudaDriver.pointerRange(0x1000));
            calls.put("cuIpcGetMemHandle", () -> CudaDriver.ipcHandle(0x1000, arena));
            calls.put("cuIpcOpenMemHandle", () -> CudaDriver.openIpcHandle(arena.allocate(64)));
            calls.put("cuIpcCloseMemHandle", () -> CudaDriver.closeIpcHandle(0x1000));
            calls.put("cuModuleLoadDataEx", () -> CudaDriver.loadModule(arena.allocateFrom(".version 8.0\n")));
            calls.put("cuModuleUnload", () -> CudaDriver.unloadModule(HANDLE));
            calls.put("cuModuleGetFunction(kernel)", () -> CudaDriver.function(HANDLE, "kernel"));
            calls.put("cuModuleGetGlobal(table)", () -> CudaDriver.global(HANDLE, "table"));
            calls.put("cuFuncGetAttribute", () -> CudaDriver.functionAttribute(Cuda.CU_FUNC_ATTRIBUTE_NUM_REGS, HANDLE));
            calls.put("cuFuncSetAttribute", () -> CudaDriver.setFunctionAttribute(HANDLE,
                    Cuda.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1 << 16));
            calls.put("cuOccupancyMaxActiveBlocksPerMultiprocessor", () -> CudaDriver.maxActiveBlocksPerMultiprocessor(HANDLE, 256, 0));
            calls.put("cuLaunchKernel", () -> CudaDriver.launch(HANDLE, 1, 32, 0, MemorySegment.NULL, MemorySegment.NULL));
            calls.put("cuStreamCreate", () -> CudaDriver.createStream(Cuda.CU_STREAM_NON_BLOCKING));
            calls.put("cuStreamDestroy", () -> CudaDriver.destroyStream(HANDLE));
            calls.put("cuStreamSynchronize", () -> CudaDriver.synchronize(HANDLE));
            calls.put("cuStreamQuery", () -> CudaDriver.streamDone(HANDLE));
            calls.put("cuStreamWaitEvent", () -> CudaDriver.waitEvent(HANDLE, HANDLE));
            calls.put("cuEventCreate", () -> CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING));
            calls.put("cuEventDestroy", () -> CudaDriver.destroyEvent(HANDLE));
            calls.put("cuEventRecord", () -> CudaDriver.record(HANDLE, MemorySegment.NULL));
            calls.put("cuEventSynchronize", () -> CudaDriver.synchronizeEvent(HANDLE));
            calls.put("cuEventQuery", () -> CudaDriver.eventDone(HANDLE));
            calls.put("cuEventElapsedTime", () -> CudaDriver.elapsedMillis(HANDLE, HANDLE));
            calls.put("cuStreamBeginCapture", () -> CudaDriver.beginCapture(HANDLE, Cuda.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
            calls.put("cuStreamEndCapture", () -> CudaDriver.endCapture(HANDLE));
            calls.put("cuStreamIsCapturing", () -> CudaDriver.captureStatus(HANDLE));
            calls.put("cuStreamGetCaptureInfo", () -> CudaDriver.captureInfo(HANDLE, arena.allocate(CudaDriver.CAPTURE_INFO)));
            calls.put("cuThreadExchangeStreamCaptureMode", () -> CudaDriver.exchangeCaptureMode(Cuda.CU_STREAM_CAPTURE_MODE_RELAXED));
            calls.put("cuGraphInstantiate", () -> CudaDriver.instantiate(HANDLE, 0));
            calls.put("cuGraphLaunch", () -> CudaDriver.launchGraph(HANDLE, HANDLE));
            calls.put("cuGraphExecDestroy", () -> CudaDriver.destroyGraphExec(HANDLE));
            calls.put("cuGraphDestroy", () -> CudaDriver.destroyGraph(HANDLE));
            calls.put("cuUserObjectCreate", () -> CudaDriver.createUserObject(HANDLE, HANDLE));
            calls.put("cuUserObjectRelease", () -> CudaDriver.releaseUserObject(HANDLE, 1));
            calls.put("cuGraphRetainUserObject", () -> CudaDriver.moveUserObject(HANDLE, HANDLE));

            String stubError = "CUDA_ERROR_STUB_LIBRARY (34): (the driver gives no description: cuGetErrorString answered 34)";
            calls.forEach((call, run) -> {
                // (cuStreamGetCaptureInfo_v3 is 12.3's: without it the facade asks cuStreamIsCapturing)
                String symbol = Map.of("cuEventElapsedTime", "cuEventElapsedTime_v2").get(call);
                if (symbol != null && Cuda.LIBRARY.find(symbol).isEmpty()) {
                    // Debian's stub is CUDA 11.8; cuda.h 13 maps the name to a symbol of 12.8
                    assertThatThrownBy(run::run).isInstanceOfSatisfying(JcclException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.SYSTEM_ERROR);
                        assertThat(e.getMessage()).contains(call + ": " + symbol + " is not exported by the CUDA driver");
                    });
                    return;
                }
                assertThatThrownBy(run::run).as(call).isInstanceOfSatisfying(JcclException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UNHANDLED_CUDA_ERROR);
                    assertThat(e.getMessage()).isEqualTo("unhandled_cuda_error: " + call + " failed: " + stubError);
                });
            });
        }
        long facadeCalls = Arrays.stream(CudaDriver.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
                .map(Method::getName).filter(n -> !List.of("available", "check", "describe").contains(n)).distinct().count();
        assertThat(calls).as("one entry per facade call").hasSize((int) facadeCalls);
    }

    @Test
    void resultsTheDriverCannotNameAreNamedFromTheBindings() {
        assertThat(CudaDriver.describe(Cuda.CUDA_ERROR_OUT_OF_MEMORY)).startsWith("CUDA_ERROR_OUT_OF_MEMORY (2): ");
        assertThat(CudaDriver.describe(123456)).startsWith("CUresult (123456): ");
    }

    @Test
    void checkPassesSuccessAndTranslatesFailuresAndMissingLibraries() {
        CudaDriver.check("cuInit", () -> Cuda.CUDA_SUCCESS);

        assertThatThrownBy(() -> CudaDriver.check("cuStreamQuery", () -> Cuda.CUDA_ERROR_NOT_READY))
                .isInstanceOf(JcclException.class).hasMessageContaining("cuStreamQuery failed: CUDA_ERROR_NOT_READY (600)");

        assertThatThrownBy(() -> CudaDriver.check("cuInit", () -> {
            throw new NativeLibraryException("the CUDA driver is not available: cannot open libcuda.so.1");
        })).isInstanceOfSatisfying(JcclException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.SYSTEM_ERROR);
            assertThat(e.getMessage()).isEqualTo("system_error: cuInit: the CUDA driver is not available: cannot open libcuda.so.1");
            assertThat(e.getCause()).isInstanceOf(NativeLibraryException.class);
        });
    }
}
