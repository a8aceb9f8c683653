// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.algo.P2pPlanner;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.P2pOp;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;
import io.jccl.verify.Verifier;
import io.jccl.verify.VerifyResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * {@code jccl verify}: proves every schedule generator with the symbolic verifier over a matrix of
 * rank counts, channel counts, element counts (uneven on purpose), message sizes and both buffer
 * forms, plus random send/recv groups planned by {@link P2pPlanner}; prints one row per collective
 * and algorithm. Cases run in parallel; the table does not depend on their order.
 */
public final class VerifyCommand {
    /** FIFO depth of every case: two messages, as the host engine's FIFOs allow at the least. */
    static final int FIFO_SLOTS = 2;

    private VerifyCommand() {
    }

    /** One verified plan: what it was and what the verifier found. */
    record Outcome(String row, String what, VerifyResult result) {
    }

    /** Totals of one table row. */
    static final class Tally {
        long cases;
        long passed;
        long steps;
        long messages;
        long elements;
        String firstFault;
    }

    /** Runs the matrix, prints the table; exit status 0 when every case passed, 1 otherwise. */
    public static int run(VerifyOptions o, PrintStream out) {
        long t0 = System.nanoTime();
        Map<String, Tally> table = tally(o);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cases = 0;
        long passed = 0;
        out.println(String.format(Locale.ROOT, "# jccl verify: ranks %s, channels %s, max message %s, counts %s, FIFO depth %d",
                o.ranks(), o.channels(), o.maxMessages(), o.counts(), FIFO_SLOTS));
        out.println(String.format(Locale.ROOT, "# %-13s  %-9s  %7s  %7s  %12s  %11s  %12s  %s",
                "collective", "algorithm", "cases", "passed", "steps", "messages", "elements", "first fault"));
        for (Map.Entry<String, Tally> e : table.entrySet()) {
            Tally t = e.getValue();
            String[] key = e.getKey().split(" ", 2);
            out.println(String.format(Locale.ROOT, "  %-13s  %-9s  %7d  %7d  %12d  %11d  %12d  %s",
                    key[0], key[1], t.cases, t.passed, t.steps, t.messages, t.elements,
                    t.firstFault == null ? "-" : t.firstFault));
            cases += t.cases;
            passed += t.passed;
        }
        out.println(String.format(Locale.ROOT, "# %d cases, %d passed, %d failed in %.1f s",
                cases, passed, cases - passed, seconds));
        out.flush();
        return cases == passed ? 0 : 1;
    }

    /** Every case of the matrix, verified, summed per (collective, algorithm) in a fixed order. */
    static Map<String, Tally> tally(VerifyOptions o) {
        List<List<Outcome>> results = runAll(cases(o));
        Map<String, Tally> table = new LinkedHashMap<>();
        for (Collective c : Collective.values()) {
            if (c == Collective.SEND_RECV) {
                table.put(rowKey(c, Algorithm.DIRECT.id()), new Tally());
            } else {
                for (Algorithm a : Algorithms.supported(c)) {
                    table.put(rowKey(c, a.id()), new Tally());
                }
            }
        }
        for (List<Outcome> list : results) {
            for (Outcome r : list) {
                Tally t = table.get(r.row());
                t.cases++;
                t.steps += r.result().steps();
                t.messages += r.result().messages();
                t.elements += r.result().elementsMoved();
                if (r.result().ok()) {
                    t.passed++;
                } else if (t.firstFault == null) {
                    t.firstFault = r.what() + ": " + r.result().faults().getFirst();
                }
            }
        }
        return table;
    }

    /**
     * Runs the cases on one thread per core, each thread taking the next case as it finishes one,
     * so that a few long cases do not leave a core idle; results keep the cases' order.
     */
    private static List<List<Outcome>> runAll(List<Supplier<List<Outcome>>> cases) {
        List<List<Outcome>> results = new ArrayList<>(java.util.Collections.nCopies(cases.size(), null));
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        Runnable worker = () -> {
            for (int i; (i = next.getAndIncrement()) < cases.size(); ) {
                results.set(i, cases.get(i).get());
            }
        };
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), cases.size()));
        List<Thread> started = new ArrayList<>();
        for (int t = 1; t < threads; t++) {
            started.add(Thread.ofPlatform().name("jccl-verify-" + t).start(worker));
        }
        worker.run();
        for (Thread t : started) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while verifying", e);
            }
        }
        return results;
    }

    private static String rowKey(Collective c, String algorithm) {
        return c.cliName() + " " + algorithm;
    }

    private static List<Supplier<List<Outcome>>> cases(VerifyOptions o) {
        List<Supplier<List<Outcome>>> cases = new ArrayList<>();
        for (Collective c : Collective.values()) {
            if (c == Collective.SEND_RECV) {
                continue;
            }
            for (Algorithm a : Algorithms.supported(c)) {
                for (int n : o.ranks()) {
                    for (int ch : o.channels()) {
                        for (long count : o.countsFor(n)) {
                            for (long m : o.messagesFor(n, count)) {
                                // One root per case, spread over the ranks as the matrix goes.
                                int root = c.rooted() ? (int) Math.floorMod(count * 31 + ch * 7L + m + o.seed(), (long) n) : 0;
                                cases.add(() -> collective(c, a, n, ch, count, m, root));
                            }
                        }
                    }
                }
            }
        }
        Random rnd = new Random(o.seed());
        for (int n : o.ranks()) {
            for (int lanes : o.channels()) {
                for (long m : o.maxMessages()) {
                    for (int g = 0; g < o.p2pGroups(); g++) {
                        long groupSeed = rnd.nextLong();
                        cases.add(() -> List.of(pointToPoint(n, lanes, m, groupSeed, o.counts())));
                    }
                }
            }
        }
        return cases;
    }

    private static List<Outcome> collective(Collective c, Algorithm a, int n, int ch, long count, long m, int root) {
        String row = rowKey(c, a.id());
        String what = "n=" + n + " channels=" + ch + " count=" + count + " maxmsg=" + m + (c.rooted() ? " root=" + root : "");
        Call call = new Call(c, n, count, root);
        Plan plan;
        try {
            plan = Algorithms.plan(call, a, Channels.flat(n, ch), m);
        } catch (RuntimeException e) {
            return List.of(new Outcome(row, what, failed("planning failed: " + e)));
        }
        List<Outcome> out = new ArrayList<>(2);
        for (boolean inPlace : CollectiveCall.hasInPlace(c) ? new boolean[] {false, true} : new boolean[] {false}) {
            String w = what + (inPlace ? " in-place" : " out-of-place");
            VerifyResult r;
            try {
                r = Verifier.collective(plan, call, inPlace, FIFO_SLOTS);
            } catch (RuntimeException e) {
                r = failed("verifier failed: " + e);
            }
            out.add(new Outcome(row, w, r));
        }
        return out;
    }

    /**
     * A random group: up to 3n matched send/receive pairs of random sizes (some of them the
     * collective counts), each rank listing its operations in its own order; the k-th send from a
     * to b must still meet the k-th receive at b from a, so pairs keep their order per peer.
     */
    private static Outcome pointToPoint(int n, int lanes, long maxMessage, long seed, List<Long> counts) {
        Random rnd = new Random(seed);
        List<List<P2pOp>> ops = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            ops.add(new ArrayList<>());
        }
        int pairs = rnd.nextInt(3 * n + 1);
        for (int i = 0; i < pairs; i++) {
            int a = rnd.nextInt(n);
            int b = rnd.nextInt(n);
            long bytes = rnd.nextInt(4) == 0 && !counts.isEmpty() ? counts.get(rnd.nextInt(counts.size())) : rnd.nextInt(41);
            insertKeepingPeerOrder(ops.get(a), P2pOp.send(b, bytes), rnd);
            insertKeepingPeerOrder(ops.get(b), P2pOp.recv(a, bytes), rnd);
        }
        String what = "n=" + n + " lanes=" + lanes + " maxmsg=" + maxMessage + " group of " + pairs + " pairs (seed " + seed + ")";
        VerifyResult r;
        try {
            r = Verifier.pointToPoint(P2pPlanner.plan(n, ops, maxMessage, lanes), ops, FIFO_SLOTS);
        } catch (RuntimeException e) {
            r = failed("planning or verifying failed: " + e);
        }
        return new Outcome(rowKey(Collective.SEND_RECV, Algorithm.DIRECT.id()), what, r);
    }

    private static void insertKeepingPeerOrder(List<P2pOp> l, P2pOp op, Random rnd) {
        int last = -1;
        for (int i = 0; i < l.size(); i++) {
            if (l.get(i).send() == op.send() && l.get(i).peer() == op.peer()) {
                last = i;
            }
        }
        l.add(last + 1 + rnd.nextInt(l.size() - last), op);
    }

    private static VerifyResult failed(String fault) {
        return new VerifyResult(List.of(fault), 0, 0, 0);
    }
}
