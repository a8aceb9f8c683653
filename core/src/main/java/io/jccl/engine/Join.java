// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Config;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.engine.SharedSettings;
import io.jccl.transport.ShmFiles;

import java.util.concurrent.ConcurrentHashMap;

/**
 * How a rank of a communicator that a bootstrap found joins it, on either engine. Rank 0's
 * plan-deciding settings and tuning file reach every rank ({@link #shared}: one all-gather); the
 * ranks that are threads of this process share one domain, made by the first of them to arrive and
 * found by the id rank 0 drew; the engine's collective set-up runs (the socket transport's
 * addresses, the GPUs' resident blocks); a barrier ends init once every rank has joined. A failure
 * on the way leaves no half-joined domain registered, and the local ranks that did join fail their
 * calls with its cause instead of waiting for this rank until their timeout.
 *
 * @param <D> the engine's domain: what the ranks of one communicator in this process share
 */
public final class Join<D> {
    /** What an engine does at each step of a join. */
    public interface Steps<D, R extends EngineRank> {
        /** This process's domain of the communicator, made by its first local rank. */
        D domain();

        /** This rank, joined into {@code domain}. */
        R rank(D domain);

        /** The engine's set-up, collective over the bootstrap (every rank calls it). */
        void setUp(D domain, R rank);

        /** Whether every rank of this process has joined {@code domain} (called holding its lock). */
        boolean allJoined(D domain);

        /** The join failed with {@code e}: fail the domain's ranks with it and free {@code rank}. */
        void failed(D domain, R rank, RuntimeException e);
    }

    /** Domains of this process whose local ranks are still joining, by communicator id. */
    private final ConcurrentHashMap<Long, D> joining = new ConcurrentHashMap<>();

    /** Rank 0's shared settings, as every rank receives them (collective over the bootstrap). */
    public static SharedSettings shared(Bootstrap bootstrap, Config config) {
        int rank = bootstrap.rank();
        byte[][] all = bootstrap.allGather(rank == 0 ? SharedSettings.of(config).encode() : new byte[0]);
        return SharedSettings.decode(all[0], rank);
    }

    /**
     * Joins {@code bootstrap}'s rank to communicator {@code commId} by {@code steps};
     * {@code removeStale}: this rank is the first local one of a communicator with processes on this
     * host, which removes the files killed jobs left in /dev/shm.
     */
    public <R extends EngineRank> R join(Bootstrap bootstrap, long commId, boolean removeStale, Steps<D, R> steps) {
        D d = joining.computeIfAbsent(commId, id -> steps.domain());
        if (removeStale) {
            ShmFiles.removeStale();
        }
        R r = steps.rank(d);
        try {
            steps.setUp(d, r);
            synchronized (d) {
                if (steps.allJoined(d)) {
                    joining.remove(commId, d);
                }
            }
            bootstrap.barrier();
        } catch (RuntimeException e) {
            joining.remove(commId, d);
            steps.failed(d, r, e);
            throw e;
        }
        return r;
    }
}
