// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.bindings.cuda.Cuda;
import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CUDA's stub libcuda.so, the library CUDA links against on machines without a driver: every entry
 * point exists and answers CUDA_ERROR_STUB_LIBRARY. Calling each bound function through its handle
 * and getting 34 back proves that the symbol resolves and the call, with its descriptor, reaches
 * the library.
 */
class CudaStubTest {
    /**
     * Symbols cuda.h (13.0) maps to that are newer than Debian's stub (CUDA 11.8), with the CUDA
     * version that introduced them; a stub from a newer toolkit has them.
     */
    private static final Map<String, String> NEWER_THAN_DEBIAN_STUB = Map.of("cuEventElapsedTime_v2", "12.8",
            "cuStreamGetCaptureInfo_v3", "12.3");

    private static Path stub;

    @BeforeAll
    static void useTheStub() {
        stub = NativePrerequisites.cudaStub().orElse(null);
        NativePrerequisites.require(stub != null, NativePrerequisites.STUB_MISSING);
        System.setProperty("jccl.cuda.lib", stub.toString());
        assertThat(Cuda.LIBRARY.location()).startsWith(stub + " (system property jccl.cuda.lib)");
    }

    @Test
    void everyBoundFunctionResolvesAndAnswersStubLibrary() throws Throwable {
        List<BindingClasses.Function> functions = BindingClasses.functions(Cuda.class);
        assertThat(functions).hasSizeGreaterThanOrEqualTo(75);
        List<String> absent = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            for (BindingClasses.Function f : functions) {
                MethodHandle h = f.handle();
                Object[] args = zeroes(f, arena);
                if (Cuda.LIBRARY.find(f.symbol()).isEmpty()) {
                    absent.add(f.symbol());
                    assertThatThrownBy(() -> h.invokeWithArguments(args)).isInstanceOf(NativeLibraryException.class)
                            .hasMessageContaining(f.symbol() + " is not exported by the CUDA driver");
                    continue;
                }
                assertThat((int) h.invokeWithArguments(args)).as(f.symbol()).isEqualTo(Cuda.CUDA_ERROR_STUB_LIBRARY);
            }
        }
        assertThat(NEWER_THAN_DEBIAN_STUB.keySet()).containsAll(absent);
        System.out.printf("[jccl] stub %s: %d of %d bound CUDA functions resolve and answer"
                + " CUDA_ERROR_STUB_LIBRARY; absent (newer than the stub): %s%n",
                stub, functions.size() - absent.size(), functions.size(), absent);
    }

    @Test
    void theTypedMethodsReachTheStubToo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
            assertThat(Cuda.cuInit(0)).isEqualTo(Cuda.CUDA_ERROR_STUB_LIBRARY);
            assertThat(Cuda.cuMemAlloc_v2(out, 1 << 20)).isEqualTo(Cuda.CUDA_ERROR_STUB_LIBRARY);
            assertThat(Cuda.cuIpcOpenMemHandle_v2(out, arena.allocate(io.jccl.bindings.cuda.CUipcMemHandle_st.layout()),
                    Cuda.CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)).isEqualTo(Cuda.CUDA_ERROR_STUB_LIBRARY);
            // The stub names no error either: cuGetErrorName answers 34 and leaves the string alone.
            MemorySegment name = arena.allocate(ValueLayout.ADDRESS);
            assertThat(Cuda.cuGetErrorName(Cuda.CUDA_ERROR_OUT_OF_MEMORY, name)).isEqualTo(Cuda.CUDA_ERROR_STUB_LIBRARY);
            assertThat(name.get(ValueLayout.ADDRESS, 0)).isEqualTo(MemorySegment.NULL);
        }
    }

    /** An argument list of zeros, NULLs and zeroed structs for a descriptor. */
    private static Object[] zeroes(BindingClasses.Function f, Arena arena) {
        List<MemoryLayout> layouts = f.descriptor().argumentLayouts();
        Object[] args = new Object[layouts.size()];
        for (int i = 0; i < args.length; i++) {
            MemoryLayout l = layouts.get(i);
            args[i] = switch (l) {
                case ValueLayout.OfInt x -> 0;
                case ValueLayout.OfLong x -> 0L;
                case ValueLayout.OfByte x -> (byte) 0;
                case ValueLayout.OfFloat x -> 0f;
                case java.lang.foreign.AddressLayout x -> MemorySegment.NULL;
                case GroupLayout g -> arena.allocate(g);
                default -> throw new AssertionError(f.symbol() + ": no zero for " + l);
            };
        }
        return args;
    }
}
