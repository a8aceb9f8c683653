// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * The one exception jccl throws. It carries an {@link ErrorCode} and, where one is involved, the
 * rank that raised it; its message names the argument or the peer at fault. Here a buffer of a
 * confined arena, which the stream's thread may not use:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="jccl-exception"}
 */
public class JcclException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Rank value for failures that belong to no rank (building a plan, parsing a setting). */
    public static final int NO_RANK = -1;

    private final ErrorCode code;
    private final int rank;
    private final String detail;

    public JcclException(ErrorCode code, int rank, String message) {
        this(code, rank, message, null);
    }

    public JcclException(ErrorCode code, int rank, String message, Throwable cause) {
        super(prefix(code, rank) + message, cause);
        this.code = code;
        this.rank = rank;
        this.detail = message;
    }

    private static String prefix(ErrorCode code, int rank) {
        return (rank == NO_RANK ? "" : "rank " + rank + ": ") + code.name().toLowerCase() + ": ";
    }

    /** Shorthand for an {@link ErrorCode#INVALID_ARGUMENT} naming the argument. */
    public static JcclException invalidArgument(int rank, String argument, String problem) {
        return new JcclException(ErrorCode.INVALID_ARGUMENT, rank, "argument '" + argument + "' " + problem);
    }

    public ErrorCode code() {
        return code;
    }

    /** The rank that raised the failure, or {@link #NO_RANK}. */
    public int rank() {
        return rank;
    }

    /** The message without its "rank r: code: " prefix (to restate the failure for another rank or caller). */
    public String detail() {
        return detail;
    }
}
