// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A shared library the bindings call into, opened on first use. Where it comes from: the system
 * property (handy in tests), else the environment variable, else its soname on the dynamic loader's
 * search path. If it cannot be opened, or lacks a symbol, the function that needs it throws a
 * {@link NativeLibraryException} naming the library, where it was looked for and how to point jccl
 * at it; nothing fails before a function is called.
 *
 * {@snippet :
 * NativeLibrary cuda = new NativeLibrary("the CUDA driver", "libcuda.so.1", "JCCL_CUDA_LIB", "jccl.cuda.lib");
 * MethodHandle cuInit = cuda.downcall("cuInit", FunctionDescriptor.of(C_INT, C_INT));
 * int rc = (int) cuInit.invokeExact(0);   // NativeLibraryException here if there is no libcuda
 * }
 */
public final class NativeLibrary {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle FAIL;

    static {
        try {
            FAIL = MethodHandles.lookup().findStatic(NativeLibrary.class, "fail",
                    MethodType.methodType(Object.class, String.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String description;
    private final String soname;
    private final String environmentVariable;
    private final String systemProperty;
    private final SymbolLookup fixedLookup;

    private SymbolLookup lookup;        // guarded by this
    private String loadFailure;         // guarded by this
    private String loadedFrom;          // guarded by this

    /**
     * @param description         what the library is, for messages ("the CUDA driver")
     * @param soname              the name the dynamic loader finds it by ("libcuda.so.1")
     * @param environmentVariable the variable that names its path instead ("JCCL_CUDA_LIB")
     * @param systemProperty      the system property that does, before the variable ("jccl.cuda.lib")
     */
    public NativeLibrary(String description, String soname, String environmentVariable, String systemProperty) {
        this.description = description;
        this.soname = soname;
        this.environmentVariable = environmentVariable;
        this.systemProperty = systemProperty;
        this.fixedLookup = null;
    }

    private NativeLibrary(String description, SymbolLookup lookup) {
        this.description = description;
        this.soname = null;
        this.environmentVariable = null;
        this.systemProperty = null;
        this.fixedLookup = lookup;
    }

    /** The libraries the JVM itself is linked against (the C library), through the linker's default lookup. */
    public static NativeLibrary defaultLibraries(String description) {
        return new NativeLibrary(description, LINKER.defaultLookup());
    }

    public String description() {
        return description;
    }

    /** Where the library would be opened from now, and why: "/x/libcuda.so (system property jccl.cuda.lib)". */
    public String location() {
        if (fixedLookup != null) {
            return "the JVM's default libraries";
        }
        String property = System.getProperty(systemProperty);
        if (property != null && !property.isBlank()) {
            return property + " (system property " + systemProperty + ")";
        }
        String variable = System.getenv(environmentVariable);
        if (variable != null && !variable.isBlank()) {
            return variable + " (environment variable " + environmentVariable + ")";
        }
        return soname + " (the dynamic loader's search path; set " + environmentVariable + " to its path)";
    }

    private String path() {
        String property = System.getProperty(systemProperty);
        if (property != null && !property.isBlank()) {
            return property;
        }
        String variable = System.getenv(environmentVariable);
        return variable != null && !variable.isBlank() ? variable : soname;
    }

    private synchronized SymbolLookup lookup() {
        if (fixedLookup != null) {
            return fixedLookup;
        }
        if (lookup == null && loadFailure == null) {
            String where = location();
            String path = path();
            try {
                lookup = path.indexOf('/') >= 0
                        ? SymbolLookup.libraryLookup(Path.of(path), Arena.global())
                        : SymbolLookup.libraryLookup(path, Arena.global());
                loadedFrom = where;
            } catch (IllegalArgumentException e) {
                loadFailure = description + " is not available: cannot open " + where
                        + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
        }
        if (lookup == null) {
            throw new NativeLibraryException(loadFailure);
        }
        return lookup;
    }

    /** Whether the library opens (it is opened now if it was not yet). */
    public boolean isAvailable() {
        try {
            lookup();
            return true;
        } catch (NativeLibraryException e) {
            return false;
        }
    }

    /**
     * The address of {@code symbol}, empty if the library does not export it.
     *
     * @throws NativeLibraryException if the library cannot be opened
     */
    public Optional<MemorySegment> find(String symbol) {
        return lookup().find(symbol);
    }

    /**
     * A downcall handle for {@code symbol}. Never throws: if the library or the symbol is missing the
     * handle throws a {@link NativeLibraryException} saying so each time it is invoked.
     */
    public MethodHandle downcall(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        MethodHandle unbound = LINKER.downcallHandle(descriptor, options);
        String failure;
        try {
            Optional<MemorySegment> address = lookup().find(symbol);
            if (address.isPresent()) {
                return unbound.bindTo(address.get());
            }
            failure = symbol + " is not exported by " + description + " opened from " + loadedFromOrDefault()
                    + " (a library older than the header jccl is bound to?)";
        } catch (NativeLibraryException e) {
            failure = e.getMessage() + " (needed for " + symbol + ")";
        }
        MethodType type = unbound.type().dropParameterTypes(0, 1);
        MethodHandle fail = MethodHandles.insertArguments(FAIL, 0, failure)
                .asType(MethodType.methodType(type.returnType()));
        return MethodHandles.dropArguments(fail, 0, type.parameterList());
    }

    private synchronized String loadedFromOrDefault() {
        return loadedFrom != null ? loadedFrom : "the JVM's default libraries";
    }

    @SuppressWarnings("unused") // called through FAIL
    private static Object fail(String message) {
        throw new NativeLibraryException(message);
    }

    /**
     * What a binding's static method throws for a {@link Throwable} out of {@code invokeExact}: runtime
     * exceptions and errors as they are, anything else (impossible for downcalls) wrapped.
     */
    public static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("unexpected checked exception from a downcall", t);
    }
}
