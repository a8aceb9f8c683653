// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.tune.Choice;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank of a communicator on an engine: all that {@code Communicator} asks of the host engine
 * (Java threads over host memory) and of the CUDA engine (kernels over device memory) alike.
 * Calls reach it checked ({@link CollectiveArgs}, {@link P2pArgs}); streams reach it as the
 * engine's side of the API's stream ({@link EngineStream}), which it refuses when it is another
 * engine's. What both engines hold alike (the rank, the configuration, the planner of the ranks
 * they share, whether this rank is closed) lives here.
 */
public abstract class EngineRank {
    protected final int rank;
    protected final Config config;
    protected final Planner planner;
    /** Set once by {@link #close}; calls after it are refused. */
    protected volatile boolean closed;

    /** Where a failure that starts at this rank is told to the other ranks (the keep-alive's), or nowhere. */
    private volatile java.util.function.Consumer<String> peers = why -> { };

    protected EngineRank(int rank, Config config, Planner planner) {
        this.rank = rank;
        this.config = config;
        this.planner = planner;
    }

    public final int rank() {
        return rank;
    }

    public final int size() {
        return planner.nranks();
    }

    /** This rank's own configuration (what decides plans is rank 0's, shared at init). */
    public final Config config() {
        return config;
    }

    /** This rank's configuration with rank 0's shared settings (what every rank must agree on) applied. */
    public final Config shared() {
        return planner.config();
    }

    /** From now on, failures that start at this rank (and its abort) are told to the others through {@code tell}. */
    public final void tellFailuresTo(java.util.function.Consumer<String> tell) {
        peers = tell;
    }

    /** Tells the other ranks why this one fails the communicator (so that ranks no shared memory reaches stop too). */
    public final void tellPeers(String why) {
        peers.accept(why);
    }

    /** Which engine this rank runs on, and where (for logs): "the host engine". */
    public abstract String describe();

    /** Throws if this rank cannot take work: closed, failed, or its communicator aborted. */
    public final void checkUsable() {
        if (closed) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator is closed");
        }
        checkRunning();
    }

    /** Throws if this open rank failed, or its communicator was aborted. */
    protected abstract void checkRunning();

    /** The tuner of its calls (the same on every rank). */
    public final io.jccl.tune.Tuner tuner() {
        return planner.tuner();
    }

    /** How this engine runs a call of this shape (the same on every rank). */
    public final Choice choiceFor(CollectiveArgs shape) {
        return shape.collective() == Collective.SEND_RECV ? planner.sendRecvChoice() : planner.plan(shape, rank).choice();
    }

    /**
     * The thread that will touch the buffers of calls on {@code stream} (a buffer confined to
     * another thread is refused at the call); throws if {@code stream} is not this engine's.
     */
    public abstract Thread bufferThread(EngineStream stream);

    /** Plans the operations of one call or group (collectives in order, then the sends and receives as one exchange) and queues them on {@code stream}. */
    public abstract void submit(List<CollectiveArgs> collectives, List<P2pArgs> p2p, EngineStream stream);

    /** One collective outside a group: as {@link #submit(List, List, EngineStream)} of it alone. */
    public void submit(CollectiveArgs collective, EngineStream stream) {
        submit(List.of(collective), List.of(), stream);
    }

    /** One rank's part of a group: its collectives in order, then its sends and receives, on its stream. */
    public record Issue(EngineRank rank, List<CollectiveArgs> collectives, List<P2pArgs> p2p, EngineStream stream) {
    }

    /**
     * What runs one group's parts of several ranks of an engine in one go (the CUDA engine's ranks
     * sharing a GPU: one launch for all of them).
     */
    public interface Joint {
        /** Runs {@code issues} (parts of distinct ranks of this joint) together and says true, or does nothing and says false. */
        boolean submit(List<Issue> issues);

        /** Whether a group in which every rank makes this one call (on buffers of its own) runs it together. */
        boolean takes(Collective collective, long count);
    }

    /** What can run this rank's part of a group together with other ranks' parts, or null: each rank runs its own. */
    public Joint joint() {
        return null;
    }

    /**
     * Issues the parts of a group: the parts of ranks sharing a {@link #joint()} together where it
     * takes them, every other part on its own rank. Every part is tried; the first failure is
     * thrown after.
     */
    public static void submitAll(List<Issue> issues) {
        Map<Joint, List<Issue>> byJoint = new LinkedHashMap<>();
        List<Issue> alone = new ArrayList<>();
        for (Issue i : issues) {
            Joint j = i.rank().joint();
            if (j == null) {
                alone.add(i);
            } else {
                byJoint.computeIfAbsent(j, k -> new ArrayList<>()).add(i);
            }
        }
        RuntimeException first = null;
        for (Map.Entry<Joint, List<Issue>> e : byJoint.entrySet()) {
            try {
                if (e.getValue().size() < 2 || !e.getKey().submit(e.getValue())) {
                    alone.addAll(e.getValue());
                }
            } catch (RuntimeException ex) {
                first = ex;
            }
        }
        for (Issue i : alone) {
            try {
                i.rank().submit(i.collectives(), i.p2p(), i.stream());
            } catch (RuntimeException ex) {
                if (first == null) {
                    first = ex;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Registers a user buffer (ncclCommRegister): checked once, later calls inside it skip the check. */
    public abstract void register(MemorySegment buffer);

    /** Undoes one {@link #register} of the same buffer. */
    public abstract void deregister(MemorySegment buffer);

    /** This rank's rank of the communicator {@code child} (a split of this one) forms, on this engine and device. */
    public abstract EngineRank joinChild(Bootstrap child);

    /**
     * Fails this rank and its communicator because {@code lost} (a rank, or -1) was lost as
     * {@code cause} says (found by the keep-alive): waiting operations end with it, later calls are
     * refused, and the other ranks of this host are told as by an abort.
     */
    public abstract void fail(String cause, int lost);

    /** The error this rank failed with or its communicator was aborted for, or null while it is usable (ncclCommGetAsyncError). */
    public abstract JcclException asyncError();

    /** The collective this rank started last, for the keep-alive to compare with its peers'; null where the engine does not say. */
    public CurrentCall currentCall() {
        return null;
    }

    /** Nanoseconds the operation under way has run, 0 between operations (or where the engine does not say). */
    public long callRunningNanos() {
        return 0;
    }

    /** Returns once every operation this rank issued has run (ncclCommFinalize); throws if one failed. */
    public abstract void flush();

    /** Makes this rank's and every peer's pending and future operations fail. */
    public abstract void abort();

    /** Frees this rank's resources. Idempotent. */
    public abstract void close();
}
