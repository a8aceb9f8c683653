// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

import io.jccl.plan.Buf;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.P2pOp;
import io.jccl.plan.Plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Proves a plan right by running it on symbolic values (each element carries the set of
 * contributions it holds; see {@link SymbolicRun}) and then checking every output element against
 * what the collective defines. Faults name the rank, lane, tile and step, or the element, at fault.
 *
 * <pre>{@code
 * Call call = new Call(Collective.ALL_REDUCE, 8, 1000, 0);
 * Plan plan = Algorithms.plan(call, Algorithm.RING, Channels.flat(8, 2), 16);
 * VerifyResult r = Verifier.collective(plan, call, false, 1);
 * assert r.ok() : r.describe();
 * }</pre>
 */
public final class Verifier {
    /** Faults reported at most; the first ones are the informative ones. */
    static final int MAX_FAULTS = 20;

    private Verifier() {
    }

    /**
     * Verifies a collective plan with FIFOs of {@code fifoSlots} messages per connection, in both
     * worker orders (so that a result that depends on which lane runs first is caught).
     *
     * @param inPlace run with NCCL's in-place buffer conventions (input and output aliased)
     */
    public static VerifyResult collective(Plan plan, Call call, boolean inPlace, int fifoSlots) {
        VerifyResult forward = collective(plan, call, inPlace, fifoSlots, false);
        return forward.ok() ? collective(plan, call, inPlace, fifoSlots, true) : forward;
    }

    /** Verifies with one worker order: forward (rank 0 lane 0 first) or reverse. */
    public static VerifyResult collective(Plan plan, Call call, boolean inPlace, int fifoSlots, boolean reverse) {
        int n = call.nranks();
        if (plan.nranks() != n || plan.collective() != call.collective()) {
            throw new IllegalArgumentException("plan of " + plan.collective() + " over " + plan.nranks()
                    + " ranks for a call " + call);
        }
        if (inPlace && call.collective() == Collective.ALL_TO_ALL) {
            throw new IllegalArgumentException("all-to-all has no in-place form");
        }
        if ((long) n * call.count() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many elements to verify symbolically: " + call);
        }
        SymBuffer[][][] buffers = new SymBuffer[n][1][2];
        Sym[][] initialOutputs = new Sym[n][];
        for (int r = 0; r < n; r++) {
            SymBuffer[] io = collectiveBuffers(call, r, inPlace);
            for (long i = 0; i < io[0].length(); i++) {
                io[0].set(i, Sym.leaf(r, (int) i));
            }
            buffers[r][0] = io;
            initialOutputs[r] = snapshot(io[1]);
        }
        SymbolicRun run = new SymbolicRun(plan, buffers, call.collective().reduces(), fifoSlots, reverse);
        List<String> faults = new ArrayList<>(run.execute());
        if (faults.isEmpty()) {
            checkCollective(call, buffers, initialOutputs, faults);
        }
        return run.result(faults);
    }

    /** Input and output of rank r, aliased the way NCCL's in-place forms alias them. */
    private static SymBuffer[] collectiveBuffers(Call call, int r, boolean inPlace) {
        Collective c = call.collective();
        int n = call.nranks();
        long count = call.count();
        long in = c.inputCount(count, n, r, call.root());
        long out = c.outputCount(count, n, r, call.root());
        if (!inPlace) {
            return new SymBuffer[] {SymBuffer.of((int) in), SymBuffer.of((int) out)};
        }
        boolean root = r == call.root();
        return switch (c) {
            case ALL_GATHER -> aliasInputInto(out, r * count, in);
            case GATHER -> root ? aliasInputInto(out, r * count, in) : separate(in, out);
            case REDUCE_SCATTER -> aliasOutputInto(in, r * count, out);
            case SCATTER -> root ? aliasOutputInto(in, r * count, out) : separate(in, out);
            default -> {
                SymBuffer whole = SymBuffer.of((int) Math.max(in, out));
                yield new SymBuffer[] {whole.view(0, in), whole.view(0, out)};
            }
        };
    }

    private static SymBuffer[] separate(long in, long out) {
        return new SymBuffer[] {SymBuffer.of((int) in), SymBuffer.of((int) out)};
    }

    private static SymBuffer[] aliasInputInto(long out, long at, long in) {
        SymBuffer o = SymBuffer.of((int) out);
        return new SymBuffer[] {o.view(at, in), o};
    }

    private static SymBuffer[] aliasOutputInto(long in, long at, long out) {
        SymBuffer i = SymBuffer.of((int) in);
        return new SymBuffer[] {i, i.view(at, out)};
    }

    private static Sym[] snapshot(SymBuffer b) {
        Sym[] s = new Sym[b.length()];
        for (int i = 0; i < s.length; i++) {
            s[i] = b.get(i);
        }
        return s;
    }

    private static void checkCollective(Call call, SymBuffer[][][] buffers, Sym[][] initialOutputs, List<String> faults) {
        int n = call.nranks();
        int root = call.root();
        long count = call.count();
        for (int r = 0; r < n && faults.size() < MAX_FAULTS; r++) {
            SymBuffer out = buffers[r][0][1];
            for (long e = 0; e < out.length() && faults.size() < MAX_FAULTS; e++) {
                Sym v = out.get(e);
                long b = count == 0 ? 0 : e / count;
                long i = count == 0 ? 0 : e % count;
                switch (call.collective()) {
                    case ALL_REDUCE -> expectReduction(faults, r, e, v, n, (int) e);
                    case REDUCE -> {
                        if (r == root) {
                            expectReduction(faults, r, e, v, n, (int) e);
                        } else if (!v.equals(initialOutputs[r][(int) e])) {
                            faults.add("rank " + r + " output[" + e + "]: a non-root rank's output was written: " + v);
                        }
                    }
                    case BROADCAST -> expectLeaf(faults, r, e, v, root, (int) e);
                    case ALL_GATHER, GATHER -> expectLeaf(faults, r, e, v, (int) b, (int) i);
                    case REDUCE_SCATTER -> expectReduction(faults, r, e, v, n, (int) (r * count + e));
                    case ALL_TO_ALL -> expectLeaf(faults, r, e, v, (int) b, (int) (r * count + i));
                    case SCATTER -> expectLeaf(faults, r, e, v, root, (int) (r * count + e));
                    case SEND_RECV -> throw new IllegalStateException();
                }
            }
        }
    }

    private static void expectReduction(List<String> faults, int r, long e, Sym v, int n, int index) {
        if (!v.isFullReduction(n, index)) {
            faults.add("rank " + r + " output[" + e + "] " + v.reductionProblem(n, index) + " (holds " + v + ")");
        }
    }

    private static void expectLeaf(List<String> faults, int r, long e, Sym v, int srcRank, int srcIndex) {
        if (!v.isLeaf(srcRank, srcIndex)) {
            faults.add("rank " + r + " output[" + e + "] holds " + v + ", expected rank " + srcRank
                    + "'s input element " + srcIndex);
        }
    }

    /**
     * Verifies a point-to-point plan against the operations of every rank: the k-th receive at b
     * from a must hold exactly a's k-th send to b.
     */
    public static VerifyResult pointToPoint(Plan plan, List<List<P2pOp>> opsPerRank, int fifoSlots) {
        int n = plan.nranks();
        if (opsPerRank.size() != n) {
            throw new IllegalArgumentException(opsPerRank.size() + " operation lists for " + n + " ranks");
        }
        SymBuffer[][][] buffers = new SymBuffer[n][][];
        long[][] base = new long[n][];
        for (int r = 0; r < n; r++) {
            List<P2pOp> ops = opsPerRank.get(r);
            buffers[r] = new SymBuffer[ops.size()][2];
            base[r] = new long[ops.size()];
            long next = 0;
            for (int i = 0; i < ops.size(); i++) {
                P2pOp op = ops.get(i);
                base[r][i] = next;
                SymBuffer b = SymBuffer.of(Math.toIntExact(op.bytes()));
                if (op.send()) {
                    for (long e = 0; e < op.bytes(); e++) {
                        b.set(e, Sym.leaf(r, Math.toIntExact(next + e)));
                    }
                    buffers[r][i][Buf.INPUT.ordinal()] = b;
                } else {
                    buffers[r][i][Buf.OUTPUT.ordinal()] = b;
                }
                next += op.bytes();
            }
        }
        SymbolicRun run = new SymbolicRun(plan, buffers, false, fifoSlots, false);
        List<String> faults = new ArrayList<>(run.execute());
        if (faults.isEmpty()) {
            checkPointToPoint(opsPerRank, buffers, base, faults);
        }
        return run.result(faults);
    }

    private static void checkPointToPoint(List<List<P2pOp>> ops, SymBuffer[][][] buffers, long[][] base, List<String> faults) {
        int n = ops.size();
        for (int b = 0; b < n; b++) {
            int[] seen = new int[n];
            for (int i = 0; i < ops.get(b).size(); i++) {
                P2pOp recv = ops.get(b).get(i);
                if (recv.send()) {
                    continue;
                }
                int a = recv.peer();
                int k = seen[a]++;
                int j = nthSendTo(ops.get(a), b, k);
                if (j < 0) {
                    faults.add("rank " + b + " operation " + i + ": receive #" + k + " from rank " + a + " has no matching send");
                    continue;
                }
                long bytes = ops.get(a).get(j).bytes();
                if (bytes != recv.bytes()) {
                    faults.add("rank " + b + " operation " + i + ": receives " + recv.bytes() + " bytes but rank " + a
                            + " sends " + bytes);
                    continue;
                }
                SymBuffer out = buffers[b][i][Buf.OUTPUT.ordinal()];
                for (long e = 0; e < bytes && faults.size() < MAX_FAULTS; e++) {
                    Sym v = out.get(e);
                    if (!v.isLeaf(a, (int) (base[a][j] + e))) {
                        faults.add("rank " + b + " operation " + i + " byte " + e + " holds " + v + ", expected rank " + a
                                + "'s operation " + j + " byte " + e);
                    }
                }
            }
        }
    }

    private static int nthSendTo(List<P2pOp> ops, int peer, int k) {
        for (int j = 0; j < ops.size(); j++) {
            if (ops.get(j).send() && ops.get(j).peer() == peer && k-- == 0) {
                return j;
            }
        }
        return -1;
    }
}
