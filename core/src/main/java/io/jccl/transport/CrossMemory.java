// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.bindings.Errno;
import io.jccl.bindings.libc.LibC;
import io.jccl.bindings.libc.iovec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies out of another process's memory with Linux's cross-memory attach ({@code
 * process_vm_readv}): the kernel copies straight from the sender's pages into the receiver's, one
 * copy where a shared-memory slot costs two (the sender's into the slot, the receiver's out of it).
 * Open MPI's shared-memory transport does the same for large messages (CMA).
 *
 * <p>Whether one process may read another depends on the kernel's ptrace rules (same user; Yama's
 * {@code ptrace_scope}; a container's seccomp profile may forbid the call). So a sender never
 * assumes it: it publishes the address of {@link #probeAddress() a known word} of its own, the
 * receiver tries to read it, and only a receiver that succeeded lets the sender pass references.
 */
final class CrossMemory {
    /** The errno of a read from a process that no longer exists. */
    static final int ESRCH = 3;
    /** "jcclCMA!": what the probe word holds. */
    static final long MAGIC = 0x6a63636c434d4121L;
    private static final MemorySegment PROBE = Arena.global().allocate(ValueLayout.JAVA_LONG);

    static {
        PROBE.set(ValueLayout.JAVA_LONG, 0, MAGIC);
    }

    /** The local and remote iovec and the errno capture of one call. */
    private record Call(MemorySegment local, MemorySegment remote, MemorySegment errno) {
    }

    private static final ThreadLocal<Call> CALL = ThreadLocal.withInitial(() -> {
        Arena a = Arena.ofAuto();
        return new Call(iovec.allocate(a), iovec.allocate(a), Errno.allocate(a));
    });

    private CrossMemory() {
    }

    /** The address of this process's probe word. */
    static long probeAddress() {
        return PROBE.address();
    }

    /** Whether this process can read process {@code pid}'s probe word at {@code address}. */
    static boolean canRead(long pid, long address) {
        MemorySegment word = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG);
        try {
            read(pid, address, word, 0, 8);
        } catch (Failure e) {
            return false;
        }
        return word.get(ValueLayout.JAVA_LONG, 0) == MAGIC;
    }

    /**
     * Copies {@code bytes} bytes at {@code address} in process {@code pid} to {@code dst} (native
     * memory) at {@code dstOffset}; throws {@link Failure} with the error the kernel gave.
     */
    static void read(long pid, long address, MemorySegment dst, long dstOffset, long bytes) throws Failure {
        Call call = CALL.get();
        MemorySegment local = call.local();
        MemorySegment remote = call.remote();
        MemorySegment errno = call.errno();
        long done = 0;
        while (done < bytes) {
            iovec.iov_base(local, MemorySegment.ofAddress(dst.address() + dstOffset + done));
            iovec.iov_len(local, bytes - done);
            iovec.iov_base(remote, MemorySegment.ofAddress(address + done));
            iovec.iov_len(remote, bytes - done);
            long n = LibC.process_vm_readv(errno, (int) pid, local, 1, remote, 1, 0);
            if (n <= 0) {
                int e = n < 0 ? Errno.get(errno) : 0;
                throw new Failure(e, n < 0 ? LibC.strerror(e).reinterpret(256).getString(0) : "no progress");
            }
            done += n;
        }
    }

    /** A failed read: the errno (3, ESRCH: the process is gone) and its text. */
    static final class Failure extends Exception {
        final int errno;

        Failure(int errno, String text) {
            super(text + (errno != 0 ? " (errno " + errno + ")" : ""));
            this.errno = errno;
        }
    }
}
