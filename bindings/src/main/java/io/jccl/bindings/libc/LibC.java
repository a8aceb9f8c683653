package io.jccl.bindings.libc;

import static io.jccl.bindings.CLayouts.*;

import io.jccl.bindings.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The few C library functions jccl needs next to its bindings ({@code string.h}), in jextract's
 * shape, looked up in the libraries the JVM already has loaded.
 *
 * {@snippet :
 * String text = LibC.strerror(12).reinterpret(256).getString(0);   // "Cannot allocate memory"
 * }
 */
public final class LibC {
    private LibC() {}

    /** The C library the JVM already runs on. */
    public static final NativeLibrary LIBRARY = NativeLibrary.defaultLibraries("the C library");

    // ---- Error strings ----

    private static final FunctionDescriptor strerror$DESC = FunctionDescriptor.of(C_POINTER, C_INT);

    private static final class strerror {
        static final MethodHandle HANDLE = LIBRARY.downcall("strerror", strerror$DESC);
    }

    /**
     * {@snippet lang=c :
     * char *strerror(int errnum)
     * }
     */
    public static FunctionDescriptor strerror$descriptor() {
        return strerror$DESC;
    }

    /** The downcall handle of {@code strerror}; the symbol is looked up on first use. */
    public static MethodHandle strerror$handle() {
        return strerror.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * char *strerror(int errnum)
     * }
     */
    public static MemorySegment strerror(int errnum) {
        try {
            return (MemorySegment) strerror.HANDLE.invokeExact(errnum);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }
}
