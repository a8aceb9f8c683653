// SPDX-License-Identifier: Apache-2.0
package io.jccl;

/**
 * The operations a plan can describe; point-to-point groups are {@link #SEND_RECV}. Each says how
 * many elements a rank's buffers hold for a call of NCCL's {@code count}
 * ({@link #inputCount}, {@link #outputCount}), and {@link #parse} reads the names nccl-tests uses:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="collective"}
 */
public enum Collective {
    ALL_REDUCE(true),
    BROADCAST(false),
    REDUCE(true),
    ALL_GATHER(false),
    REDUCE_SCATTER(true),
    ALL_TO_ALL(false),
    GATHER(false),
    SCATTER(false),
    SEND_RECV(false);

    private final boolean reduces;

    Collective(boolean reduces) {
        this.reduces = reduces;
    }

    /** Whether the operation combines contributions with a {@code RedOp}. */
    public boolean reduces() {
        return reduces;
    }

    /** Whether the operation has a root rank. */
    public boolean rooted() {
        return this == BROADCAST || this == REDUCE || this == GATHER || this == SCATTER;
    }

    /** Elements of the input buffer per rank, for a call of {@code count} (NCCL's count argument). */
    public long inputCount(long count, int nranks, int rank, int root) {
        return buffer(count, nranks, rank == root, this == REDUCE_SCATTER || this == ALL_TO_ALL || this == SCATTER,
                this == SCATTER || this == BROADCAST);
    }

    /** Elements of the output buffer per rank, for a call of {@code count}. */
    public long outputCount(long count, int nranks, int rank, int root) {
        return buffer(count, nranks, rank == root, this == ALL_GATHER || this == ALL_TO_ALL || this == GATHER,
                this == GATHER || this == REDUCE);
    }

    /** A buffer of one block per rank ({@code blocks}) or one, that only the root has when {@code rootOnly}. */
    private static long buffer(long count, int nranks, boolean isRoot, boolean blocks, boolean rootOnly) {
        return rootOnly && !isRoot ? 0 : blocks ? count * nranks : count;
    }

    /** The name nccl-tests uses ({@code all_reduce} style without the underscore: allreduce). */
    public String cliName() {
        return name().toLowerCase().replace("_", "");
    }

    /** Parses {@code allreduce}, {@code all_reduce}, {@code all-reduce}, ... */
    public static Collective parse(String name) {
        String n = name.trim().toLowerCase().replace("_", "").replace("-", "");
        for (Collective c : values()) {
            if (c.cliName().equals(n)) {
                return c;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a collective");
    }
}
