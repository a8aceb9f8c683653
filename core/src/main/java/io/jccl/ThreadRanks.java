// SPDX-License-Identifier: Apache-2.0
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
 * ranks that did not call. {@link Communicator#shrink} meets the same way, among the ranks it keeps.
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
    /** Per rank, the splits and shrinks it has called so far (the round of its next one of each). */
    private final int[] splits;
    private final int[] shrinks;
    /** Rounds by kind and number: splits at even keys, shrinks at odd ones. */
    private final Map<Long, Round> rounds = new HashMap<>();

    private static final class Round {
        final int[] color;
        final int[] key;
        final boolean[] arrived;
        /** The ranks that take part (all but a shrink's excluded ones), and how many. */
        final boolean[] member;
        final int members;
        final String what;
        int count;
        int collected;
        Communicator[] result;
        RuntimeException failure;

        Round(boolean[] member, String what) {
            int n = member.length;
            color = new int[n];
            key = new int[n];
            arrived = new boolean[n];
            this.member = member;
            int m = 0;
            for (boolean b : member) {
                m += b ? 1 : 0;
            }
            this.members = m;
            this.what = what;
        }
    }

    ThreadRanks(List<Config> configs, java.util.function.Function<List<Integer>, Communicator[]> maker) {
        this.maker = maker;
        this.n = configs.size();
        this.configs = List.copyOf(configs);
        this.splits = new int[n];
        this.shrinks = new int[n];
    }

    /** Rank {@code rank}'s part of a split; null for {@link Bootstrap#NO_COLOR}. */
    Communicator split(int rank, int color, int key) {
        if (color < Bootstrap.NO_COLOR) {
            throw JcclException.invalidArgument(rank, "color", "is " + color + ", not >= 0 or SPLIT_NO_COLOR (-1)");
        }
        boolean[] all = new boolean[n];
        java.util.Arrays.fill(all, true);
        lock.lock();
        try {
            int index = splits[rank]++;
            return meet(rank, rounds.computeIfAbsent(2L * index, i -> new Round(all, "split " + (index + 1))), 2L * index, color, key);
        } finally {
            lock.unlock();
        }
    }

    /** Rank {@code rank}'s part of a shrink excluding {@code exclude} (checked: valid ranks, not this one). */
    Communicator shrink(int rank, int[] exclude) {
        boolean[] member = new boolean[n];
        java.util.Arrays.fill(member, true);
        for (int r : exclude) {
            member[r] = false;
        }
        lock.lock();
        try {
            int index = shrinks[rank]++;
            long id = 2L * index + 1;
            Round round = rounds.computeIfAbsent(id, i -> new Round(member, "shrink " + (index + 1)));
            if (!java.util.Arrays.equals(round.member, member)) {
                throw new JcclException(ErrorCode.INVALID_USAGE, rank, round.what + ": rank " + rank + " keeps ranks "
                        + ranks(member) + " but another rank kept " + ranks(round.member) + "; every remaining rank must exclude"
                        + " the same ranks");
            }
            return meet(rank, round, id, 0, rank);
        } finally {
            lock.unlock();
        }
    }

    private static List<Integer> ranks(boolean[] member) {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < member.length; r++) {
            if (member[r]) {
                out.add(r);
            }
        }
        return out;
    }

    /** Arrives at {@code round} (held: the lock) and waits until its members have and the last made the communicators. */
    private Communicator meet(int rank, Round round, long id, int color, int key) {
        long timeoutNanos = configs.get(rank).timeout().toNanos();
        try {
            round.color[rank] = color;
            round.key[rank] = key;
            round.arrived[rank] = true;
            if (++round.count == round.members) {
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
                        if (round.member[r] && !round.arrived[r]) {
                            missing.add(r);
                        }
                    }
                    throw new JcclException(ErrorCode.TIMEOUT, rank, round.what + " waited "
                            + configs.get(rank).timeout().toSeconds() + " s for ranks " + missing
                            + " to call it; every rank taking part must");
                }
                left = done.awaitNanos(left);
            }
            if (++round.collected == round.members) {
                rounds.remove(id);
            }
            if (round.failure != null) {
                throw round.failure;
            }
            return round.result[rank];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JcclException(ErrorCode.INTERNAL_ERROR, rank, "interrupted in " + round.what);
        }
    }

    /** The new communicators of a round, by parent rank (null where the color is NO_COLOR). */
    private Communicator[] make(Round round) {
        Communicator[] out = new Communicator[n];
        Map<Integer, List<Integer>> byColor = new HashMap<>();
        for (int r = 0; r < n; r++) {
            if (round.arrived[r] && round.color[r] != Bootstrap.NO_COLOR) {
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
