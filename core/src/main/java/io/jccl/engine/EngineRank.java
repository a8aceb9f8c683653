package io.jccl.engine;

import io.jccl.Config;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.tune.Choice;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One rank of a communicator on an engine: all that {@code Communicator} asks of the host engine
 * (Java threads over host memory) and of the CUDA engine (kernels over device memory) alike.
 * Calls reach it checked ({@link CollectiveArgs}, {@link P2pArgs}); streams reach it as the
 * engine's side of the API's stream ({@link EngineStream}), which it refuses when it is another
 * engine's.
 */
public interface EngineRank {
    int rank();

    int size();

    /** Which engine this rank runs on, and where (for logs): "the host engine". */
    String describe();

    /** This rank's own configuration (what decides plans is rank 0's, shared at init). */
    Config config();

    /** Throws if this rank cannot take work: closed, failed, or its communicator aborted. */
    void checkUsable();

    /**
     * The thread that will touch the buffers of calls on {@code stream} (a buffer confined to
     * another thread is refused at the call); throws if {@code stream} is not this engine's.
     */
    Thread bufferThread(EngineStream stream);

    /** How this engine runs a call of this shape (the same on every rank). */
    Choice choiceFor(CollectiveArgs shape);

    /** Plans the operations of one call or group (collectives in order, then the sends and receives as one exchange) and queues them on {@code stream}. */
    void submit(List<CollectiveArgs> collectives, List<P2pArgs> p2p, EngineStream stream);

    /** Registers a user buffer (ncclCommRegister): checked once, later calls inside it skip the check. */
    void register(MemorySegment buffer);

    /** Undoes one {@link #register} of the same buffer. */
    void deregister(MemorySegment buffer);

    /** This rank's rank of the communicator {@code child} (a split of this one) forms, on this engine and device. */
    EngineRank joinChild(Bootstrap child);

    /** Makes this rank's and every peer's pending and future operations fail. */
    void abort();

    /** Frees this rank's resources. Idempotent. */
    void close();
}
