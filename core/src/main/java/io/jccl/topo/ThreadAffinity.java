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
 * sched_setaffinity} with pid 0 (which means the calling thread, not the process). Nothing here
 * runs on a hot path: a thread is pinned when it starts, or when it first runs another rank's work.
 *
 * <pre>{@code
 * CpuSet allowed = ThreadAffinity.get();     // where this thread may run now
 * ThreadAffinity.set(CpuSet.fromCpulist("3"));
 * }</pre>
 */
public final class ThreadAffinity {
    /** glibc's {@code cpu_set_t}: 1024 CPUs; the mask grows while the kernel says it is too small. */
    private static final long MIN_BYTES = 128;
    /** Far past any machine (half a million CPUs): a loop that stops. */
    private static final long MAX_BYTES = 1 << 16;
    private static final int EINVAL = 22;

    private ThreadAffinity() {
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
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            for (long bytes = MIN_BYTES; ; bytes *= 2) {
                MemorySegment mask = arena.allocate(bytes, 8);
                int rc = call(() -> LibC.sched_getaffinity(errno, 0, mask.byteSize(), mask), "sched_getaffinity");
                if (rc == 0) {
                    return new CpuSet(BitSet.valueOf(mask.toArray(ValueLayout.JAVA_LONG)));
                }
                int e = Errno.get(errno);
                // EINVAL: the kernel's mask is larger than this one (more than 1024 possible CPUs).
                if (e != EINVAL || bytes >= MAX_BYTES) {
                    throw failed("sched_getaffinity", e, "reading this thread's CPUs");
                }
            }
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
        BitSet bits = cpus.cpus();
        if (bits.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "cpus", "is empty: a thread needs at least one CPU");
        }
        long[] words = bits.toLongArray();
        long bytes = Math.max(MIN_BYTES, (long) words.length * Long.BYTES);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            MemorySegment mask = arena.allocate(bytes, 8);
            MemorySegment.copy(words, 0, mask, ValueLayout.JAVA_LONG, 0, words.length);
            int rc = call(() -> LibC.sched_setaffinity(errno, 0, mask.byteSize(), mask), "sched_setaffinity");
            if (rc != 0) {
                throw failed("sched_setaffinity", Errno.get(errno), "pinning this thread to CPUs " + cpus);
            }
        }
    }

    private interface Call {
        int run();
    }

    private static int call(Call c, String name) {
        try {
            return c.run();
        } catch (NativeLibraryException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, name + " is not available: " + e.getMessage(), e);
        }
    }

    private static JcclException failed(String name, int errno, String doing) {
        String text = LibC.strerror(errno).reinterpret(256).getString(0);
        return new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, name + " failed " + doing + ": " + text
                + " (errno " + errno + ")");
    }
}
