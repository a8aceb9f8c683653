package io.jccl;

/** The operations a plan can describe; point-to-point groups are {@link #SEND_RECV}. */
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
        return switch (this) {
            case REDUCE_SCATTER, ALL_TO_ALL -> count * nranks;
            case SCATTER -> rank == root ? count * nranks : 0;
            case BROADCAST -> rank == root ? count : 0;
            default -> count;
        };
    }

    /** Elements of the output buffer per rank, for a call of {@code count}. */
    public long outputCount(long count, int nranks, int rank, int root) {
        return switch (this) {
            case ALL_GATHER, ALL_TO_ALL -> count * nranks;
            case GATHER -> rank == root ? count * nranks : 0;
            case REDUCE -> rank == root ? count : 0;
            default -> count;
        };
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
