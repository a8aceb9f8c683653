// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bindings.Errno;
import io.jccl.bindings.NativeLibraryException;
import io.jccl.bindings.libc.LibC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;

/**
 * The calling thread's CPU affinity, through Linux's {@code sched_getaffinity} and {@code
 * sched_setaffinity} with pid 0 (which means the calling thread, not the process). A {@link Mask}
 * holds a CPU set in the kernel's form, made once, so that pinning a thread again and giving it
 * back its own CPUs (an application's thread that runs a rank's lanes in {@code synchronize}, each
 * time) is a system call and no allocation.
 *
 * <pre>{@code
 * CpuSet allowed = ThreadAffinity.get();     // where this thread may run now
 * ThreadAffinity.set(CpuSet.fromCpulist("3"));
 * }</pre>
 */
public final class ThreadAffinity {
    /** glibc's {@code cpu_set_t}: 1024 CPUs; masks grow while the kernel says they are too small. */
    private static final long MIN_BYTES = 128;
    /** Far past any machine (half a million CPUs): a loop that stops. */
    private static final long MAX_BYTES = 1 << 16;
    private static final int EINVAL = 22;
    /** Each thread's errno capture, reused by every call. */
    private static final ThreadLocal<MemorySegment> ERRNO = ThreadLocal.withInitial(() -> Errno.allocate(Arena.ofAuto()));
    /** Bytes of the masks made here: grown, once, to what the kernel reads and writes on this machine. */
    private static volatile long maskBytes = MIN_BYTES;

    private ThreadAffinity() {
    }

    /** A CPU set in the kernel's form (a bit per CPU in 64-bit words), to pin to or to read into. */
    public static final class Mask {
        private final MemorySegment bits;

        private Mask(long bytes) {
            bits = Arena.ofAuto().allocate(bytes, 8);
        }

        /** A mask of {@code cpus}, to pin threads to. */
        public static Mask of(CpuSet cpus) {
            long[] words = cpus.cpus().toLongArray();
            Mask m = new Mask(Math.max(maskBytes, (long) words.length * Long.BYTES));
            MemorySegment.copy(words, 0, m.bits, ValueLayout.JAVA_LONG, 0, words.length);
            return m;
        }

        /** An empty mask to {@link #read} a thread's CPUs into. */
        public static Mask empty() {
            return new Mask(maskBytes);
        }

        public CpuSet cpus() {
            return new CpuSet(BitSet.valueOf(bits.toArray(ValueLayout.JAVA_LONG)));
        }

        /** Whether {@code other} holds the same CPUs (without making a {@link CpuSet} of either). */
        public boolean sameCpus(Mask other) {
            long common = Math.min(bits.byteSize(), other.bits.byteSize());
            return MemorySegment.mismatch(bits, 0, common, other.bits, 0, common) < 0
                    && zeroFrom(bits, common) && zeroFrom(other.bits, common);
        }

        private static boolean zeroFrom(MemorySegment s, long from) {
            for (long o = from; o < s.byteSize(); o += Long.BYTES) {
                if (s.get(ValueLayout.JAVA_LONG, o) != 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return cpus().toString();
        }
    }

    /** Whether the C library has the calls (Linux's glibc and musl do; elsewhere they are missing). */
    public static boolean available() {
        try {
            return LibC.LIBRARY.find("sched_getaffinity").isPresent() && LibC.LIBRARY.find("sched_setaffinity").isPresent();
        } catch (NativeLibraryException e) {
            return false;
        }
    }

    /**
     * The CPUs the calling thread may run on.
     *
     * @throws JcclException ({@link ErrorCode#SYSTEM_ERROR}) if the call is missing or fails, naming the error
     */
    public static CpuSet get() {
        Mask m = Mask.empty();
        read(m);
        return m.cpus();
    }

    /**
     * Reads the calling thread's CPUs into {@code into}; a mask too small for this machine's
     * kernel (over 1024 CPUs) is replaced by a larger one, which is returned.
     *
     * @throws JcclException ({@link ErrorCode#SYSTEM_ERROR}) if the call is missing or fails
     */
    public static Mask read(Mask into) {
        MemorySegment errno = ERRNO.get();
        Mask m = into;
        while (true) {
            MemorySegment bits = m.bits;
            int rc;
            try {
                rc = LibC.sched_getaffinity(errno, 0, bits.byteSize(), bits);
            } catch (NativeLibraryException e) {
                throw unavailable("sched_getaffinity", e);
            }
            if (rc == 0) {
                return m;
            }
            int e = Errno.get(errno);
            // EINVAL: the kernel's mask is larger than this one (more than 1024 possible CPUs).
            if (e != EINVAL || bits.byteSize() >= MAX_BYTES) {
                throw failed("sched_getaffinity", e, "reading this thread's CPUs");
            }
            maskBytes = Math.max(maskBytes, 2 * bits.byteSize());
            m = new Mask(2 * bits.byteSize());
        }
    }

    /**
     * Restricts the calling thread to {@code cpus}.
     *
     * @throws JcclException ({@link ErrorCode#INVALID_ARGUMENT}) if {@code cpus} is empty;
     *                       ({@link ErrorCode#SYSTEM_ERROR}) if the call is missing or the kernel refuses
     *                       (a CPU offline or outside the thread's cgroup: EINVAL; not permitted: EPERM)
     */
    public static void set(CpuSet cpus) {
        if (cpus.count() == 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "cpus", "is empty: a thread needs at least one CPU");
        }
        set(Mask.of(cpus));
    }

    /**
     * Restricts the calling thread to the CPUs of {@code mask}.
     *
     * @throws JcclException ({@link ErrorCode#SYSTEM_ERROR}) if the call is missing or the kernel refuses
     */
    public static void set(Mask mask) {
        MemorySegment errno = ERRNO.get();
        MemorySegment bits = mask.bits;
        int rc;
        try {
            rc = LibC.sched_setaffinity(errno, 0, bits.byteSize(), bits);
        } catch (NativeLibraryException e) {
            throw unavailable("sched_setaffinity", e);
        }
        if (rc != 0) {
            throw failed("sched_setaffinity", Errno.get(errno), "pinning this thread to CPUs " + mask);
        }
    }

    private static JcclException unavailable(String name, NativeLibraryException e) {
        return new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, name + " is not available: " + e.getMessage(), e);
    }

    private static JcclException failed(String name, int errno, String doing) {
        String text = LibC.strerror(errno).reinterpret(256).getString(0);
        return new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, name + " failed " + doing + ": " + text
                + " (errno " + errno + ")");
    }
}
