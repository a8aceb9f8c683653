package io.jccl;

import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.P2pArgs;
import io.jccl.engine.host.HostComm;
import io.jccl.plan.Collective;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One rank of a group of ranks that run collectives together, as an NCCL communicator. Buffers are
 * {@link MemorySegment}s, counts are element counts, and the in-place forms are NCCL's. Every call
 * is checked before it is queued (a bad argument is a {@link JcclException} naming the argument
 * and the rank) and then runs asynchronously on the given stream. Every rank must issue the same
 * collectives in the same order. After a failure the communicator refuses work until closed.
 *
 * <pre>{@code
 * Communicator[] comms = Communicator.initAll(4, Config.fromEnvironment());
 * // one thread per rank, as with one process per GPU:
 * Communicator c = comms[rank];
 * try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
 *     MemorySegment buf = arena.allocate(1024 * 4);
 *     c.allReduce(buf, buf, 1024, DataType.FLOAT32, RedOp.SUM, s);
 *     s.synchronize();
 * }
 * }</pre>
 */
public final class Communicator implements AutoCloseable {
    private final HostComm engine;

    private Communicator(HostComm engine) {
        this.engine = engine;
    }

    /** {@code n} ranks of this process on the host engine; rank i is element i. */
    public static Communicator[] initAll(int n, Config config) {
        if (n < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "n", "must be at least 1, was " + n);
        }
        if (config == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "config", "is null");
        }
        return initAll(java.util.Collections.nCopies(n, config));
    }

    /**
     * Ranks of this process on the host engine, each with its own configuration, as separate
     * processes would have. As in NCCL, what decides how calls run (buffer sizes, JCCL_ALGO,
     * JCCL_PROTO, channel bounds, the tuning file) is rank 0's, given to every rank at init so that
     * all ranks choose alike; each rank keeps its own timeout and debug level.
     */
    public static Communicator[] initAll(List<Config> configs) {
        if (configs == null || configs.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "configs", "must name at least one rank's configuration");
        }
        for (int r = 0; r < configs.size(); r++) {
            if (configs.get(r) == null) {
                throw JcclException.invalidArgument(r, "configs", "holds null for rank " + r);
            }
        }
        int n = configs.size();
        HostComm[] engines = HostComm.createAll(configs);
        Communicator[] comms = new Communicator[n];
        for (int r = 0; r < n; r++) {
            comms[r] = new Communicator(engines[r]);
        }
        return comms;
    }

    /** {@code n} ranks configured from the environment ({@link Config#fromEnvironment()}). */
    public static Communicator[] initAll(int n) {
        return initAll(n, Config.fromEnvironment());
    }

    public int rank() {
        return engine.rank();
    }

    /** Number of ranks. */
    public int size() {
        return engine.size();
    }

    public Config config() {
        return engine.config();
    }

    /** How this communicator runs a collective of this shape (for tools and logs); every rank answers alike. */
    public CallChoice choiceFor(Collective collective, long count, DataType type) {
        io.jccl.tune.Choice c = engine.choiceFor(new CollectiveArgs(collective, null, null, count, type, RedOp.SUM, 0));
        return new CallChoice(c.algorithm().id(), c.protocol().id(), c.channels(), c.source().name().toLowerCase(java.util.Locale.ROOT));
    }

    private HostStream host(Stream stream) {
        if (stream instanceof HostStream h) {
            return h;
        }
        throw JcclException.invalidArgument(rank(), "stream", stream == null ? "is null"
                : "is a " + stream.getClass().getSimpleName() + "; the host engine runs on a HostStream");
    }

    private void collective(Collective c, MemorySegment send, MemorySegment recv, long count, DataType type, RedOp op,
                            int root, Stream stream) {
        HostStream s = host(stream);
        engine.checkUsable();
        CollectiveArgs a = Checks.collective(rank(), size(), c, send, recv, count, type, op, root, s.runner().thread());
        if (Group.active()) {
            Group.batch(this, s).collectives.add(a);
        } else {
            engine.submit(List.of(a), List.of(), s.runner());
        }
    }

    void issue(List<CollectiveArgs> collectives, List<P2pArgs> p2p, Stream stream) {
        engine.submit(collectives, p2p, host(stream).runner());
    }

    /** Every rank gets the element-wise reduction of all ranks' {@code count} elements. */
    public void allReduce(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, RedOp op, Stream stream) {
        collective(Collective.ALL_REDUCE, sendbuff, recvbuff, count, type, op, 0, stream);
    }

    /** Every rank gets the root's {@code count} elements (only the root's sendbuff is read). */
    public void broadcast(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root, Stream stream) {
        collective(Collective.BROADCAST, sendbuff, recvbuff, count, type, null, root, stream);
    }

    /** The root gets the reduction of all ranks' elements (only the root's recvbuff is written). */
    public void reduce(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, RedOp op, int root,
                       Stream stream) {
        collective(Collective.REDUCE, sendbuff, recvbuff, count, type, op, root, stream);
    }

    /** Every rank gets all ranks' {@code sendcount} elements, rank r's at offset r * sendcount. */
    public void allGather(MemorySegment sendbuff, MemorySegment recvbuff, long sendcount, DataType type, Stream stream) {
        collective(Collective.ALL_GATHER, sendbuff, recvbuff, sendcount, type, null, 0, stream);
    }

    /** Rank r gets block r (of {@code recvcount} elements) of the reduction of all ranks' sendbuffs. */
    public void reduceScatter(MemorySegment sendbuff, MemorySegment recvbuff, long recvcount, DataType type, RedOp op,
                              Stream stream) {
        collective(Collective.REDUCE_SCATTER, sendbuff, recvbuff, recvcount, type, op, 0, stream);
    }

    /** Block j of rank i's sendbuff lands as block i of rank j's recvbuff; blocks of {@code count}. */
    public void allToAll(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, Stream stream) {
        collective(Collective.ALL_TO_ALL, sendbuff, recvbuff, count, type, null, 0, stream);
    }

    /** The root gets every rank's {@code count} elements, rank r's at offset r * count. */
    public void gather(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root, Stream stream) {
        collective(Collective.GATHER, sendbuff, recvbuff, count, type, null, root, stream);
    }

    /** Rank r gets block r of the root's sendbuff (blocks of {@code count}). */
    public void scatter(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root, Stream stream) {
        collective(Collective.SCATTER, sendbuff, recvbuff, count, type, null, root, stream);
    }

    private void p2p(boolean send, MemorySegment buf, long count, DataType type, int peer, Stream stream) {
        HostStream s = host(stream);
        engine.checkUsable();
        P2pArgs a = Checks.p2p(rank(), size(), send, buf, count, type, peer, s.runner().thread());
        if (Group.active()) {
            Group.batch(this, s).p2p.add(a);
        } else {
            engine.submit(List.of(), List.of(a), s.runner());
        }
    }

    /**
     * Sends {@code count} elements to {@code peer}, which must post the matching {@link #recv}.
     * Outside a group a send waits for its receive; put sends and receives that depend on each
     * other in one {@link Group}.
     */
    public void send(MemorySegment sendbuff, long count, DataType type, int peer, Stream stream) {
        p2p(true, sendbuff, count, type, peer, stream);
    }

    /** Receives {@code count} elements from {@code peer}. */
    public void recv(MemorySegment recvbuff, long count, DataType type, int peer, Stream stream) {
        p2p(false, recvbuff, count, type, peer, stream);
    }

    /** Makes the pending and future operations of every rank of this communicator fail, then closes it. */
    public void abort() {
        engine.abort();
        engine.close();
    }

    /** Frees this rank's resources; its peers must not use it any more. */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return "Communicator[rank " + rank() + " of " + size() + "]";
    }
}
