// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * Why a jccl call failed, in the spirit of NCCL's {@code ncclResult_t}. The numeric values of the
 * codes NCCL defines are NCCL's, so logs from both libraries read alike. A caller tells by it
 * what to do about a {@link JcclException}:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="error-code"}
 */
public enum ErrorCode {
    /** A CUDA driver call failed. */
    UNHANDLED_CUDA_ERROR(1),
    /** The operating system or the JVM refused a resource (memory, threads, sockets). */
    SYSTEM_ERROR(2),
    /** jccl broke one of its own invariants: a bug to report. */
    INTERNAL_ERROR(3),
    /** An argument was wrong: null, out of range, too small, of the wrong kind. */
    INVALID_ARGUMENT(4),
    /** The call was right in itself but not now: a closed or failed communicator, a group misuse. */
    INVALID_USAGE(5),
    /** A peer rank failed or sent something this rank did not expect. */
    REMOTE_ERROR(6),
    /** A non-blocking init is still under way (NCCL's {@code ncclInProgress}). */
    IN_PROGRESS(7),
    /** A wait passed its deadline ({@code JCCL_TIMEOUT}). Not in NCCL, which waits forever. */
    TIMEOUT(100);

    private final int value;

    ErrorCode(int value) {
        this.value = value;
    }

    /** The number NCCL uses for this code ({@code ncclResult_t}), or 100+ for jccl's own. */
    public int value() {
        return value;
    }
}
