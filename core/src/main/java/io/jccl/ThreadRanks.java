package io.jccl;

import io.jccl.bootstrap.Bootstrap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The ranks of one {@link Communicator#initAll} call, threads of this process: where their
 * {@link Communicator#split} calls meet, as the ranks of {@code init} meet through their bootstrap.
 * The k-th split of every rank forms round k; the last rank to arrive makes the new communicators
 * (one {@code initAll} per color, each rank keeping its own configuration, and on the CUDA engine
 * its GPU) and hands each rank its own. A rank waits at most its timeout, then fails naming the
 * ranks that did not call.
 */
final class ThreadRanks {
    private final int n;
    private final List<Config> configs;
    /**
     * Makes the ranks of one color, threads of this process, from their ranks here in the new
     * order (initAll with their configurations, or initAllCuda with their configurations and GPUs).
     */
    private final java.util.function.Function<List<Integer>, Communicator[]> maker;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition done = lock.newCondition();
    /** Per rank, the splits it has called so far (the round of its next one). */
    private final int[] calls;
    private final Map<Integer, Round> rounds = new HashMap<>();

    private static final class Round {
        final int[] color;
        final int[] key;
        final boolean[] arrived;
        int count;
        int collected;
        Communicator[] result;
        RuntimeException failure;

        Round(int n) {
            color = new int[n];
            key = new int[n];
            arrived = new boolean[n];
        }
    }

    ThreadRanks(List<Config> configs, java.util.function.Function<List<Integer>, Communicator[]> maker) {
        this.maker = maker;
        this.n = configs.size();
        this.configs = List.copyOf(configs);
        this.calls = new int[n];
    }

    /** Rank {@code rank}'s part of a split; null for {@link Bootstrap#NO_COLOR}. */
    Communicator split(int rank, int color, int key) {
        if (color < Bootstrap.NO_COLOR) {
            throw JcclException.invalidArgument(rank, "color", "is " + color + ", not >= 0 or SPLIT_NO_COLOR (-1)");
        }
        long timeoutNanos = configs.get(rank).timeout().toNanos();
        lock.lock();
        try {
            int index = calls[rank]++;
            Round round = rounds.computeIfAbsent(index, i -> new Round(n));
            round.color[rank] = color;
            round.key[rank] = key;
            round.arrived[rank] = true;
            if (++round.count == n) {
                try {
                    round.result = make(round);
                } catch (RuntimeException e) {
                    round.failure = e;
                }
                done.signalAll();
            }
            long left = timeoutNanos;
            while (round.result == null && round.failure == null) {
                if (left <= 0) {
                    List<Integer> missing = new ArrayList<>();
                    for (int r = 0; r < n; r++) {
                        if (!round.arrived[r]) {
                            missing.add(r);
                        }
                    }
                    throw new JcclException(ErrorCode.TIMEOUT, rank, "split " + (index + 1) + " waited "
                            + configs.get(rank).timeout().toSeconds() + " s for ranks " + missing
                            + " to call split; every rank of the communicator must");
                }
                left = done.awaitNanos(left);
            }
            if (++round.collected == n) {
                rounds.remove(index);
            }
            if (round.failure != null) {
                throw round.failure;
            }
            return round.result[rank];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JcclException(ErrorCode.INTERNAL_ERROR, rank, "interrupted in split");
        } finally {
            lock.unlock();
        }
    }

    /** The new communicators of a round, by parent rank (null where the color is NO_COLOR). */
    private Communicator[] make(Round round) {
        Communicator[] out = new Communicator[n];
        Map<Integer, List<Integer>> byColor = new HashMap<>();
        for (int r = 0; r < n; r++) {
            if (round.color[r] != Bootstrap.NO_COLOR) {
                byColor.computeIfAbsent(round.color[r], c -> new ArrayList<>()).add(r);
            }
        }
        try {
            for (List<Integer> members : byColor.values()) {
                members.sort(Comparator.<Integer>comparingInt(r -> round.key[r]).thenComparingInt(r -> r));
                Communicator[] made = maker.apply(members);
                for (int i = 0; i < made.length; i++) {
                    out[members.get(i)] = made[i];
                }
            }
        } catch (RuntimeException e) {
            for (Communicator c : out) {
                if (c != null) {
                    c.close();
                }
            }
            throw e;
        }
        return out;
    }
}
