// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Buf;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.P2pOp;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Plans a point-to-point group of one rank from its own operations alone, so that ranks in
 * different processes plan alike. Transfers are cut into tiles of {@code maxMessage} bytes. The
 * k-th send from a to b and the k-th receive at b from a meet on channel k mod lanes, in round
 * k div lanes of every tile, so that a connection carries at most one message per round. In each
 * round a rank first posts all its sends, then all its receives: a send only waits for its
 * receiver to have taken the connection's previous message (an earlier round), and a receive only
 * for the same round's send, so any group whose sends and receives match completes whatever
 * order each rank listed them in (NCCL's group guarantee). Sends and receives to oneself become
 * local copies, matched in order.
 */
public final class P2pPlanner {
    private P2pPlanner() {
    }

    /** The segments rank {@code rank} runs for its group {@code ops}: schedules of its own steps alone. */
    public static List<Segment> planRank(int nranks, int rank, List<P2pOp> ops, long maxMessage, int lanes) {
        if (maxMessage < 1 || lanes < 1) {
            throw new IllegalArgumentException("maxMessage " + maxMessage + ", lanes " + lanes);
        }
        int[] channel = new int[ops.size()];
        int[] round = new int[ops.size()];
        int[] selfMatch = new int[ops.size()];
        // Messages so far per peer, in maps: a group names a few peers, and counting them costs
        // what the group does, not the job's ranks.
        Map<Integer, Integer> sends = new HashMap<>();
        Map<Integer, Integer> recvs = new HashMap<>();
        List<Integer> selfSends = new ArrayList<>();
        List<Integer> selfRecvs = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            P2pOp op = ops.get(i);
            if (op.peer() >= nranks) {
                throw new IllegalArgumentException("operation " + i + " names peer " + op.peer() + " of " + nranks + " ranks");
            }
            selfMatch[i] = -1;
            if (op.peer() == rank) {
                (op.send() ? selfSends : selfRecvs).add(i);
            } else {
                int k = (op.send() ? sends : recvs).merge(op.peer(), 1, Integer::sum) - 1;
                channel[i] = k % lanes;
                round[i] = k / lanes;
            }
        }
        if (selfSends.size() != selfRecvs.size()) {
            throw new IllegalArgumentException(selfSends.size() + " sends to itself but " + selfRecvs.size() + " receives from itself");
        }
        for (int k = 0; k < selfSends.size(); k++) {
            int s = selfSends.get(k);
            int r = selfRecvs.get(k);
            if (ops.get(s).bytes() != ops.get(r).bytes()) {
                throw new IllegalArgumentException("send to itself of " + ops.get(s).bytes() + " bytes meets a receive of "
                        + ops.get(r).bytes() + " bytes");
            }
            selfMatch[s] = r;
        }
        // Tiles change shape where some transfer ends or has its short last tile.
        TreeSet<Long> cuts = new TreeSet<>();
        cuts.add(0L);
        for (P2pOp op : ops) {
            cuts.add(op.bytes() / maxMessage);
            cuts.add(Math.ceilDiv(op.bytes(), maxMessage));
        }
        List<Segment> segments = new ArrayList<>();
        Long from = cuts.first();
        for (Long to : cuts.tailSet(from, false)) {
            Schedule s = tile(nranks, rank, ops, channel, round, selfMatch, maxMessage, lanes, from);
            segments.add(new Segment(s, from * maxMessage, maxMessage, to - from));
            from = to;
        }
        return segments;
    }

    private static Schedule tile(int nranks, int rank, List<P2pOp> ops, int[] channel, int[] round, int[] selfMatch,
                                 long maxMessage, int lanes, long t) {
        Schedule.Builder b = new Schedule.Builder(RankSet.of(nranks, rank), lanes);
        long start = t * maxMessage;
        int rounds = 0;
        for (int i = 0; i < ops.size(); i++) {
            P2pOp op = ops.get(i);
            long n = Math.max(0, Math.min(maxMessage, op.bytes() - start));
            if (op.send() && op.peer() == rank) {
                b.add(rank, 0, Step.localCopy(new Region(Buf.INPUT, i, 0, n), new Region(Buf.OUTPUT, selfMatch[i], 0, n), false));
            }
            rounds = Math.max(rounds, round[i] + 1);
        }
        for (int k = 0; k < rounds; k++) {
            for (boolean sends : new boolean[] {true, false}) {
                for (int i = 0; i < ops.size(); i++) {
                    P2pOp op = ops.get(i);
                    if (op.send() != sends || op.peer() == rank || round[i] != k) {
                        continue;
                    }
                    long n = Math.max(0, Math.min(maxMessage, op.bytes() - start));
                    Link link = new Link(op.peer(), channel[i]);
                    b.add(rank, channel[i], sends ? Step.send(new Region(Buf.INPUT, i, 0, n), link)
                            : Step.recv(link, new Region(Buf.OUTPUT, i, 0, n)));
                }
            }
        }
        return b.build();
    }

    /** The plan of a whole group, every rank's operations known: what the verifier checks. */
    public static Plan plan(int nranks, List<List<P2pOp>> opsPerRank, long maxMessage, int lanes) {
        List<List<Segment>> perRank = new ArrayList<>(nranks);
        for (int r = 0; r < nranks; r++) {
            perRank.add(planRank(nranks, r, opsPerRank.get(r), maxMessage, lanes));
        }
        return Plan.perRank(Algorithm.DIRECT.id(), Collective.SEND_RECV, nranks, lanes, perRank);
    }
}
