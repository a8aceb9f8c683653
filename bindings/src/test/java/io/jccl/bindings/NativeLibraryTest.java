// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import static io.jccl.bindings.CLayouts.C_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.bindings.libc.LibC;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Loading: where a library comes from, and what a missing library or symbol says, and when. */
class NativeLibraryTest {
    private static final String PROPERTY = "jccl.test.missing.lib";
    private static final FunctionDescriptor INT_INT = FunctionDescriptor.of(C_INT, C_INT);

    private static NativeLibrary missing() {
        return new NativeLibrary("a test library", "libjccl-no-such-library.so.1", "JCCL_TEST_MISSING_LIB", PROPERTY);
    }

    @AfterEach
    void clearProperty() {
        System.clearProperty(PROPERTY);
    }

    @Test
    void aMissingPathFailsOnlyWhenAFunctionIsCalledAndNamesThePathAndWhereItCameFrom() {
        System.setProperty(PROPERTY, "/nonexistent/jccl/libcuda.so.1");
        NativeLibrary lib = missing();
        MethodHandle f = lib.downcall("cuInit", INT_INT);    // binding succeeds: nothing is used yet

        assertThatThrownBy(() -> {
            int unused = (int) f.invokeExact(0);
        }).isInstanceOf(NativeLibraryException.class)
                .hasMessageContaining("a test library is not available")
                .hasMessageContaining("/nonexistent/jccl/libcuda.so.1 (system property " + PROPERTY + ")")
                .hasMessageContaining("needed for cuInit");
        assertThat(lib.isAvailable()).isFalse();
        assertThatThrownBy(() -> lib.find("cuInit")).isInstanceOf(NativeLibraryException.class)
                .hasMessageContaining("/nonexistent/jccl/libcuda.so.1");
    }

    @Test
    void aMissingSonameSaysWhichVariableNamesThePath() {
        NativeLibrary lib = missing();
        assertThat(lib.location()).startsWith("libjccl-no-such-library.so.1 (the dynamic loader's search path; set JCCL_TEST_MISSING_LIB");
        MethodHandle f = lib.downcall("anything", FunctionDescriptor.ofVoid());
        assertThatThrownBy(() -> {
            f.invokeExact();
        }).isInstanceOf(NativeLibraryException.class)
                .hasMessageContaining("libjccl-no-such-library.so.1")
                .hasMessageContaining("set JCCL_TEST_MISSING_LIB to its path");
    }

    @Test
    void aMissingSymbolIsNamedWithTheLibrary() {
        NativeLibrary libc = NativeLibrary.defaultLibraries("the C library");
        MethodHandle f = libc.downcall("jccl_no_such_symbol", INT_INT);
        assertThatThrownBy(() -> {
            int unused = (int) f.invokeExact(1);
        }).isInstanceOf(NativeLibraryException.class)
                .hasMessageContaining("jccl_no_such_symbol is not exported by the C library");
        assertThat(libc.find("strerror")).isPresent();
        assertThat(libc.find("jccl_no_such_symbol")).isEmpty();
    }

    @Test
    void boundFunctionsCallIntoTheLibrary() {
        assertThat(LibC.strerror(12).reinterpret(256).getString(0)).isEqualTo("Cannot allocate memory");
        assertThat(LibC.strerror(22).reinterpret(256).getString(0)).isEqualTo("Invalid argument");
    }
}
