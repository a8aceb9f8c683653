// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.libc;

import static io.jccl.bindings.CLayouts.*;

import io.jccl.bindings.NativeLibrary;
import io.jccl.bindings.Errno;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The few C library functions jccl needs next to its bindings ({@code string.h}, {@code sys/uio.h},
 * {@code sched.h}),
 * in jextract's shape, looked up in the libraries the JVM already has loaded.
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

    // ---- Cross-memory attach ----

    private static final FunctionDescriptor process_vm_readv$DESC = FunctionDescriptor.of(C_LONG, C_INT, C_POINTER, C_LONG, C_POINTER, C_LONG, C_LONG);

    private static final class process_vm_readv {
        static final MethodHandle HANDLE = LIBRARY.downcall("process_vm_readv", process_vm_readv$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * ssize_t process_vm_readv(pid_t pid, const struct iovec *local_iov, unsigned long liovcnt, const struct iovec *remote_iov, unsigned long riovcnt, unsigned long flags)
     * }
     */
    public static FunctionDescriptor process_vm_readv$descriptor() {
        return process_vm_readv$DESC;
    }

    /** The downcall handle of {@code process_vm_readv}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle process_vm_readv$handle() {
        return process_vm_readv.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * ssize_t process_vm_readv(pid_t pid, const struct iovec *local_iov, unsigned long liovcnt, const struct iovec *remote_iov, unsigned long riovcnt, unsigned long flags)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static long process_vm_readv(MemorySegment callState, int pid, MemorySegment local_iov, long liovcnt, MemorySegment remote_iov, long riovcnt, long flags) {
        try {
            return (long) process_vm_readv.HANDLE.invokeExact(callState, pid, local_iov, liovcnt, remote_iov, riovcnt, flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- CPU affinity ----

    private static final FunctionDescriptor sched_getaffinity$DESC = FunctionDescriptor.of(C_INT, C_INT, C_LONG, C_POINTER);

    private static final class sched_getaffinity {
        static final MethodHandle HANDLE = LIBRARY.downcall("sched_getaffinity", sched_getaffinity$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask)
     * }
     */
    public static FunctionDescriptor sched_getaffinity$descriptor() {
        return sched_getaffinity$DESC;
    }

    /** The downcall handle of {@code sched_getaffinity}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle sched_getaffinity$handle() {
        return sched_getaffinity.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static int sched_getaffinity(MemorySegment callState, int pid, long cpusetsize, MemorySegment mask) {
        try {
            return (int) sched_getaffinity.HANDLE.invokeExact(callState, pid, cpusetsize, mask);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor sched_setaffinity$DESC = FunctionDescriptor.of(C_INT, C_INT, C_LONG, C_POINTER);

    private static final class sched_setaffinity {
        static final MethodHandle HANDLE = LIBRARY.downcall("sched_setaffinity", sched_setaffinity$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)
     * }
     */
    public static FunctionDescriptor sched_setaffinity$descriptor() {
        return sched_setaffinity$DESC;
    }

    /** The downcall handle of {@code sched_setaffinity}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle sched_setaffinity$handle() {
        return sched_setaffinity.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static int sched_setaffinity(MemorySegment callState, int pid, long cpusetsize, MemorySegment mask) {
        try {
            return (int) sched_setaffinity.HANDLE.invokeExact(callState, pid, cpusetsize, mask);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }
}
