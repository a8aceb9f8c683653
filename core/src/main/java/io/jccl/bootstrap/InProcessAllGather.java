// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An {@link OutOfBandAllGather} among threads of one process, for tests and for jobs that start
 * their ranks as threads but want the multi-process code path. Each round waits at most the
 * group's timeout and then fails naming the ranks that did not call.
 *
 * <pre>{@code
 * List<InProcessAllGather> group = InProcessAllGather.group(4, Duration.ofSeconds(30));
 * // in the thread of rank r:
 * Bootstrap b = Bootstrap.init(group.get(r), config, Set.of());
 * }</pre>
 */
public final class InProcessAllGather implements OutOfBandAllGather {
    private final Shared shared;
    private final int rank;

    private InProcessAllGather(Shared shared, int rank) {
        this.shared = shared;
        this.rank = rank;
    }

    /** The members of a new group of {@code n} ranks, member r being rank r. */
    public static List<InProcessAllGather> group(int n, Duration timeout) {
        if (n < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "n", "must be at least 1, was " + n);
        }
        Shared s = new Shared(n, timeout);
        List<InProcessAllGather> members = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            members.add(new InProcessAllGather(s, r));
        }
        return List.copyOf(members);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return shared.n;
    }

    @Override
    public byte[][] allGather(byte[] mine) {
        return shared.round(rank, mine.clone());
    }

    private static final class Shared {
        final int n;
        final Duration timeout;
        final ReentrantLock lock = new ReentrantLock();
        final Condition done = lock.newCondition();
        byte[][] filling;
        byte[][] previous;
        long generation;
        int arrived;

        Shared(int n, Duration timeout) {
            this.n = n;
            this.timeout = timeout;
            this.filling = new byte[n][];
        }

        byte[][] round(int rank, byte[] mine) {
            Deadline d = Deadline.after(timeout);
            lock.lock();
            try {
                if (filling[rank] != null) {
                    throw new JcclException(ErrorCode.INVALID_USAGE, rank, "called allGather twice in one round");
                }
                long gen = generation;
                filling[rank] = mine;
                if (++arrived == n) {
                    previous = filling;
                    filling = new byte[n][];
                    arrived = 0;
                    generation++;
                    done.signalAll();
                }
                while (generation == gen) {
                    if (d.expired()) {
                        List<Integer> missing = new ArrayList<>();
                        for (int r = 0; r < n; r++) {
                            if (filling[r] == null) {
                                missing.add(r);
                            }
                        }
                        throw new JcclException(ErrorCode.TIMEOUT, rank, "in-process all-gather: ranks " + Ranks.format(missing)
                                + " of " + n + " did not call within " + d.budget());
                    }
                    done.await(d.remainingNanos(), TimeUnit.NANOSECONDS);
                }
                byte[][] out = new byte[n][];
                for (int r = 0; r < n; r++) {
                    out[r] = previous[r].clone();
                }
                return out;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted in an in-process all-gather", e);
            } finally {
                lock.unlock();
            }
        }
    }
}
