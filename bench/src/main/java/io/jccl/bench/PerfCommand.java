// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.CallChoice;
import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.HostStream;
import io.jccl.JcclException;
import io.jccl.Collective;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code jccl perf}: nccl-tests' sweep on the host engine. The ranks are platform threads of this
 * JVM, one per rank, each with its own {@link HostStream} and native buffers. For every size and
 * form (out-of-place, then in-place) each rank runs the checked calls, the warm-up, and then the
 * timed iterations; all ranks enter the timed batch together through a barrier, and the row shows
 * the slowest rank's average by default (-a 3), because a collective is only as fast as its last
 * rank; -a 0, 1 and 2 give rank 0's, the ranks' average (nccl-tests' default) and the fastest's.
 *
 * <p>With {@code --procs} (or under a launcher: see {@link PerfLauncher}) the ranks are spread over
 * processes of this host, {@code -t} threads each; the barriers and the exchange of timings then go
 * through the communicator itself (a one-element all-reduce), and the process of rank 0 prints.
 */
public final class PerfCommand {
    private final PerfOptions options;
    private final PrintStream out;
    private final List<PerfSizes> sizes = new ArrayList<>();
    /** The ranks' barrier; terminated when one fails, which releases every present and future wait. */
    private final Phaser barrier;
    private final double[] micros;
    private final long[] wrong;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<PerfRow> rows = new ArrayList<>();
    private final List<CallChoice> choices = new ArrayList<>();
    /** This process's ranks: {@code firstRank}, {@code firstRank + 1}, ... */
    private Communicator[] comms;
    private int firstRank;

    private final Config config;

    private PerfCommand(PerfOptions options, Config config, PrintStream out) {
        this.options = options;
        this.config = config;
        this.out = out;
        for (long bytes : options.sizes()) {
            sizes.add(PerfSizes.of(options.collective(), options.type(), options.ranks(), bytes));
        }
        this.barrier = new Phaser(options.threads());
        this.micros = new double[options.ranks()];
        this.wrong = new long[options.ranks()];
    }

    /**
     * Runs the sweep, printing as it goes; returns the exit status: 0, or 1 when an element was
     * wrong, the library failed (its message goes to {@code err}) or the JSON could not be written.
     */
    public static int run(PerfOptions options, PrintStream out, PrintStream err) {
        return run(options, List.of(), out, err);
    }

    /**
     * As {@link #run(PerfOptions, PrintStream, PrintStream)}; {@code args} are the arguments after
     * {@code perf}, which {@code --procs} passes on to the processes it starts.
     */
    public static int run(PerfOptions options, List<String> args, PrintStream out, PrintStream err) {
        io.jccl.bootstrap.LaunchEnvironment launched;
        try {
            launched = PerfLauncher.launched(System.getenv());
        } catch (JcclException e) {
            err.println("jccl perf: " + e.getMessage());
            return 1;
        }
        if (launched != null && options.processes() > 1) {
            err.println("jccl perf: --procs starts processes itself; under " + launched.launcher() + " leave it out");
            return 2;
        }
        if (options.gpus() > 1) {
            err.println("jccl perf: -g " + options.gpus() + ": the host engine drives no GPUs; its ranks are -t threads in each"
                    + " of --procs processes (-g is for --engine cuda)");
            return 2;
        }
        if (options.table() != null) {
            err.println("jccl perf: --table is for --engine cuda; the host engine's tables come from jccl calibrate");
            return 2;
        }
        if (options.graphs() > 0) {
            err.println("jccl perf: -G " + options.graphs() + " captures CUDA graphs: it is for --engine cuda");
            return 2;
        }
        if (options.processes() > 1 && options.plot() != null) {
            err.println("jccl perf: --plot runs in one process; leave out --procs");
            return 2;
        }
        if (options.processes() > 1) {
            return PerfLauncher.launch(options, args, out, err);
        }
        if (launched != null) {
            options = options.withProcesses(launched.size());
            if (options.plot() != null) {
                err.println("jccl perf: --plot runs in one process, not under " + launched.launcher());
                return 2;
            }
        }
        PerfReport report;
        List<PerfPlot.Line> lines = new ArrayList<>();
        try {
            Config config = Config.fromEnvironment();
            if (options.plot() != null) {
                for (String[] forced : PerfPlot.combinations(options.collective(), config)) {
                    out.println("# --plot: " + forced[0] + "/" + forced[1] + " forced");
                    PerfReport r = new PerfCommand(options, config.withAlgorithms(forced[0]).withProtocols(forced[1]), out).sweep();
                    lines.add(new PerfPlot.Line(forced[0] + "/" + forced[1], r));
                }
                out.println("# --plot: the tuned choice");
            }
            report = new PerfCommand(options, config, out).sweep();
            if (report == null) {
                return 0; // a rank of another process than rank 0's: rank 0 reports
            }
            lines.add(new PerfPlot.Line("tuned", report));
        } catch (JcclException e) {
            err.println("jccl perf: " + e.getMessage());
            return 1;
        }
        if (options.plot() != null) {
            try {
                Files.writeString(options.plot(), PerfPlot.svg(options, lines));
            } catch (IOException e) {
                err.println("jccl perf: cannot write " + options.plot() + ": " + e.getMessage());
                return 1;
            }
        }
        if (options.json() != null) {
            try {
                Files.writeString(options.json(), JsonReport.of(report));
            } catch (IOException e) {
                err.println("jccl perf: cannot write " + options.json() + ": " + e.getMessage());
                return 1;
            }
        }
        return report.outOfBounds() == 0 ? 0 : 1;
    }

    /** Runs the sweep, printing the table to {@code out}, and returns what it measured. */
    public static PerfReport measure(PerfOptions options, PrintStream out) {
        return new PerfCommand(options, Config.fromEnvironment(), out).sweep();
    }

    private PerfReport sweep() {
        double memcpy = MemcpyBandwidth.measure(options.maxBytes());
        comms = options.processes() == 1 ? Communicator.initAll(options.ranks(), config) : PerfLauncher.initLocal(options, config);
        firstRank = comms[0].rank();
        boolean printer = firstRank == 0;
        try {
            List<Long> sizeBytes = new ArrayList<>();
            List<String> algorithms = new ArrayList<>();
            for (PerfSizes s : sizes) {
                sizeBytes.add(s.bytes());
                choices.add(comms[0].choiceFor(s.collective(), s.count(), s.type()));
                algorithms.add(choices.getLast().algorithm() + "/" + choices.getLast().protocol());
            }
            if (printer) {
                out.println("# JIT warm-up: " + options.jitWarmup() + " calls spread over sizes from 8 B to "
                        + warmUpCap() + " B before the sweep");
                out.print(PerfTable.header(options, memcpy, sizeBytes, algorithms, describe(comms[0].config(), options.collective())));
                out.flush();
            }
            List<Thread> threads = new ArrayList<>();
            sizeStarted = System.nanoTime(); // -T: the JIT warm-up's clock, not init's or the memcpy's
            for (int t = 0; t < comms.length; t++) {
                int local = t;
                threads.add(Thread.ofPlatform().name("jccl-perf-rank-" + (firstRank + t)).start(() -> rankMain(local)));
            }
            Thread watchdog = options.timeout() > 0 ? Thread.ofPlatform().daemon().name("jccl-perf-timeout").start(this::watch) : null;
            for (Thread t : threads) {
                joinUninterruptibly(t);
            }
            if (watchdog != null) {
                watchdog.interrupt();
            }
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
        Throwable f = failure.get();
        if (f instanceof JcclException e) {
            throw e;
        }
        if (f instanceof RuntimeException e) {
            throw e;
        }
        if (f instanceof Error e) {
            throw e;
        }
        if (!printer) {
            return null;
        }
        PerfReport report = new PerfReport(options, memcpy, rows);
        out.print(PerfTable.footer(report));
        out.flush();
        return report;
    }

    private static String describe(Config c, Collective collective) {
        return "buffsize " + c.buffSize() + ", channels " + c.minChannels() + ".." + c.maxChannels()
                + ", algorithms " + new java.util.TreeSet<>(c.algorithms(collective)) + ", protocols "
                + java.util.EnumSet.copyOf(io.jccl.proto.Protocol.allowed(c, collective))
                + (c.tuningFile() == null ? "" : ", tuning file " + c.tuningFile());
    }

    /** The size being measured (-1: the JIT warm-up) and when it started (ns), for -T; set by this process's first rank. */
    private volatile long sizeStarted = System.nanoTime();
    private volatile long sizeBytes = -1;

    /**
     * -T: fails the run when one size has taken longer than the timeout, as nccl-tests does, by
     * aborting this process's ranks (the other processes' fail on the lost peer or their own timer).
     */
    private void watch() {
        long limit = options.timeout() * 1_000_000_000L;
        while (failure.get() == null) {
            long over = System.nanoTime() - sizeStarted - limit;
            if (over >= 0) {
                JcclException e = new JcclException(io.jccl.ErrorCode.TIMEOUT, firstRank, "-T " + options.timeout()
                        + ": " + (sizeBytes < 0 ? "the JIT warm-up" : "size " + sizeBytes + " B") + " took more than "
                        + options.timeout() + " s");
                if (failure.compareAndSet(null, e)) {
                    for (Communicator c : comms) {
                        c.abort();
                    }
                    barrier.forceTermination();
                }
                return;
            }
            try {
                Thread.sleep(Math.min(1000, Math.max(1, -over / 1_000_000)));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** -T's clock starts again for size {@code s} (the first rank of this process sets it). */
    private void startTimeout(int local, PerfSizes s) {
        if (local == 0) {
            sizeBytes = s.bytes();
            sizeStarted = System.nanoTime();
        }
    }

    private void rankMain(int local) {
        Communicator comm = comms[local];
        int rank = comm.rank();
        long bufferBytes = 0;
        for (PerfSizes s : sizes) {
            bufferBytes = Math.max(bufferBytes, s.bytes());
        }
        try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
            MemorySegment sendBuf = arena.allocate(Math.max(1, bufferBytes), 64);
            MemorySegment recvBuf = arena.allocate(Math.max(1, bufferBytes), 64);
            if (options.register() == 1) {
                comm.register(sendBuf);
                comm.register(recvBuf);
            }
            Sync sync = new Sync(comm, stream, arena.allocate(8L * (options.ranks() + 1), 8));
            warmUpCompiler(comm, stream, sendBuf, recvBuf, sync);
            if (!sizes.isEmpty()) {
                // A rehearsal of the first row, not reported: its timed loop is where the JIT compiles
                // this method's loop (on-stack replacement), in every process at once, and on two
                // cores that compilation took a core from the ranks for the whole first row (8 B
                // all-reduce across 2 processes: 70-150 us in the first row, 1.0-1.6 us after).
                startTimeout(local, sizes.getFirst());
                measure(comm, stream, sizes.getFirst(), false, sendBuf, recvBuf, sync);
            }
            // -N: the whole sweep again, each cycle printed (0: until the process is stopped).
            for (int cycle = 0; options.cycles() == 0 || cycle < options.cycles(); cycle++) {
                for (int i = 0; i < sizes.size(); i++) {
                    PerfSizes s = sizes.get(i);
                    startTimeout(local, s);
                    PerfColumn outOfPlace = measure(comm, stream, s, false, sendBuf, recvBuf, sync);
                    PerfColumn inPlace = CollectiveCall.hasInPlace(s.collective())
                            ? measure(comm, stream, s, true, sendBuf, recvBuf, sync) : null;
                    if (rank == 0) {
                        Collective c = s.collective();
                        PerfRow row = new PerfRow(s.bytes(), s.count(), PerfTable.typeName(s.type()),
                                c.reduces() ? options.op().toString() : "none", c.rooted() ? options.root() : -1,
                                choices.get(i).algorithm(), choices.get(i).protocol(), outOfPlace, inPlace);
                        rows.add(row);
                        out.println(PerfTable.row(row, options.csv()));
                        out.flush();
                    }
                }
            }
        } catch (Aborted e) {
            // Another rank failed first; its failure is the one reported.
        } catch (Throwable e) {
            if (failure.compareAndSet(null, e)) {
                // Wake the other ranks: those inside a collective fail, those at the barrier leave.
                comm.abort();
                barrier.forceTermination();
            }
        }
    }


    /**
     * Timed calls between two synchronizations. nccl-tests issues all its iterations, then waits;
     * on a host stream, synchronize() runs the queued calls on the calling thread, so each rank's
     * work stays on one thread instead of passing between the caller and the stream's thread
     * (with thousands of calls queued, that hand-off made small calls 10-50x slower on 2 cores).
     * The synchronizations are inside the timed region.
     */
    static final int SYNC_EVERY = 64;

    /** Most iterations one size is timed with, whatever --min-time asks. */
    static final int MAX_TIMED_ITERS = 1_000_000;

    /** Iterations of the current size, set by rank 0 before the barrier that starts the timing. */
    private int timedIters;

    private void warmUpCompiler(Communicator comm, HostStream stream, MemorySegment sendBuf, MemorySegment recvBuf,
                                Sync sync) throws Aborted {
        // A GPU tool needs a few warm-up iterations per size; a JVM tool needs its hot paths
        // through the JIT first (steady state came after some 50 000 small calls here), and at
        // several sizes: code compiled while every chunk held one element is thrown away at the
        // first larger one, and large calls take other paths (by-reference messages). The calls are
        // spread over sizes from 8 B to 1 MiB (at most the sweep's largest), whatever sizes the
        // sweep itself has; the same number on every rank, since each call is a collective.
        List<PerfSizes> small = new ArrayList<>();
        long cap = warmUpCap();
        for (long b = 8; b <= cap; b *= 4) {
            PerfSizes x = PerfSizes.of(options.collective(), options.type(), options.ranks(), b);
            if (x.count() > 0 && small.stream().noneMatch(y -> y.bytes() == x.bytes())) {
                small.add(x);
            }
        }
        if (small.isEmpty()) {
            small.add(sizes.getFirst());
        }
        int perSize = Math.max(1, options.jitWarmup() / small.size());
        warmUpRound(comm, stream, small, perSize / 2 + 1, WARMUP_FORM_NANOS, sendBuf, recvBuf, sync);
        if (sync.crossProcess() && options.jitWarmup() > 0) {
            // Each JVM compiles the same code at once, on the cores its ranks spin on, and C2 was
            // still at work when the sweep began (its first row 10-100x slow, 8 B on 2 cores;
            // C1 alone showed none of it). So rounds go on until one compiled nothing anywhere,
            // or the settling has taken SETTLE_NANOS on some rank (slow links: calls of 100 ms).
            java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
            if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
                long settleStart = System.nanoTime();
                for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
                    long before = jit.getTotalCompilationTime();
                    warmUpRound(comm, stream, small, SETTLE_CALLS, SETTLE_FORM_NANOS, sendBuf, recvBuf, sync);
                    if (sync.sum(jit.getTotalCompilationTime() - before) == 0
                            || sync.sum(System.nanoTime() - settleStart > SETTLE_NANOS ? 1 : 0) > 0) {
                        break;
                    }
                }
            }
        }
        sync.await();
    }

    /**
     * How long one size and form of the JIT warm-up may run: at 200 Mbit/s a 1 MiB call takes
     * some 100 ms, and 50 000 calls spread over the sizes would take hours.
     */
    static final long WARMUP_FORM_NANOS = 1_000_000_000L;
    /** The same for one size and form of a settling round, and for all the settling rounds. */
    static final long SETTLE_FORM_NANOS = 100_000_000L;
    static final long SETTLE_NANOS = 10_000_000_000L;

    /** Most extra warm-up rounds across processes, and each one's calls per size and form. */
    static final int MAX_SETTLE_ROUNDS = 50;
    static final int SETTLE_CALLS = 4 * SYNC_EVERY;

    /**
     * {@code calls} calls of each size and form, or fewer where they would take more than {@code
     * budgetNanos}: batches of growing size, after each of which rank 0 decides the next from the
     * time so far, so that every rank makes as many calls (each is a collective).
     */
    private void warmUpRound(Communicator comm, HostStream stream, List<PerfSizes> small, int calls, long budgetNanos,
                             MemorySegment sendBuf, MemorySegment recvBuf, Sync sync) throws Aborted {
        for (PerfSizes size : small) {
            for (boolean inPlace : CollectiveCall.hasInPlace(size.collective()) ? new boolean[] {false, true}
                    : new boolean[] {false}) {
                CollectiveCall call = CollectiveCall.of(comm, size, options.op(), options.root(), inPlace, sendBuf, recvBuf);
                long t0 = System.nanoTime();
                int done = 0;
                for (int batch = 1; batch > 0; ) {
                    for (int i = 0; i < batch; i++) {
                        call.issue(stream);
                        if (i % SYNC_EVERY == SYNC_EVERY - 1) {
                            stream.synchronize();
                        }
                    }
                    stream.synchronize();
                    done += batch;
                    if (comm.rank() == 0) {
                        long elapsed = System.nanoTime() - t0;
                        long fit = (long) ((budgetNanos - elapsed) / (elapsed / (double) done));
                        timedIters = (int) Math.max(0, Math.min(Math.min(calls - done, 2L * batch), fit));
                    }
                    batch = sync.shareIters(comm.rank() == 0 ? timedIters : 0);
                }
            }
        }
    }

    /** Largest size the JIT warm-up uses: at most the sweep's largest, for which the buffers are made. */
    private long warmUpCap() {
        long largest = 0;
        for (PerfSizes s : sizes) {
            largest = Math.max(largest, s.bytes());
        }
        return Math.min(JIT_WARMUP_MAX_BYTES, largest);
    }

    /** Largest size the JIT warm-up uses. */
    static final long JIT_WARMUP_MAX_BYTES = 1 << 20;

    /** One form of one size on one rank; every rank gets the same column (rank 0's is kept). */
    private PerfColumn measure(Communicator comm, HostStream stream, PerfSizes s, boolean inPlace,
                               MemorySegment sendBuf, MemorySegment recvBuf, Sync sync) throws Aborted {
        int rank = comm.rank();
        CollectiveCall call = CollectiveCall.of(comm, s, options.op(), options.root(), inPlace, sendBuf, recvBuf);
        long wrongHere = 0;
        if (options.check() > 0) {
            DataCheck check = new DataCheck(s.collective(), s.type(), options.op(), options.ranks(), options.root(), s.count());
            for (int k = 0; k < options.check(); k++) {
                DataCheck.poison(inPlace ? recvBuf.asSlice(0, s.bytes()) : call.output());
                check.fillInput(rank, call.input(), call.input().byteSize() / s.type().size());
                sync.await();
                call.issue(stream);
                stream.synchronize();
                wrongHere += check.countWrong(rank, call.output());
                // No rank refills its buffers while a peer may still be reading them.
                sync.await();
            }
        }
        long w0 = System.nanoTime();
        for (int w = 0; w < options.warmup(); w++) {
            call.issue(stream);
        }
        stream.synchronize();
        int agg = options.aggIters();
        if (rank == 0) {
            // Rank 0 alone decides how many iterations to time, so that every rank runs as many.
            double perCall = options.warmup() > 0 ? (System.nanoTime() - w0) / (double) options.warmup() : 0;
            long wanted = perCall > 0 ? (long) Math.ceil(options.minMillis() * 1e6 / perCall / agg) : 0;
            timedIters = (int) Math.min(MAX_TIMED_ITERS, Math.max(options.iters(), wanted));
        }
        TimingRounds rounds = new TimingRounds(sync.shareIters(rank == 0 ? timedIters : 0), options.minMillis());
        // Iterations between synchronizations when -z 0 lets calls queue: SYNC_EVERY calls.
        int syncEvery = Math.max(1, SYNC_EVERY / agg);
        double reported;
        do {
            int iters = rounds.iters();
            long excluded = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                issue(call, stream, agg);
                if (options.blocking() != 0) {
                    stream.synchronize();
                    if (options.blocking() != 2) {
                        long b0 = System.nanoTime();
                        sync.await();
                        if (options.blocking() == 3) {
                            excluded += System.nanoTime() - b0;
                        }
                    }
                } else if (i % syncEvery == syncEvery - 1) {
                    stream.synchronize();
                }
            }
            long issued = System.nanoTime();
            stream.synchronize();
            long end = options.cpuTime() ? issued : System.nanoTime();
            double perCall = (end - t0 - excluded) / 1e3 / ((double) iters * agg);
            reported = acrossRanks(rank, perCall, sync);
            // TimingRounds counts iterations, each -m calls.
        } while (rounds.another(reported * agg));
        long wrongAll = sync.crossProcess() ? sync.sum(wrongHere) : sumWrong(rank, wrongHere, sync);
        double algbw = BusBandwidth.gbps(s.bytes(), reported);
        return new PerfColumn(reported, algbw, algbw * BusBandwidth.factor(s.collective(), options.ranks()),
                options.check() > 0 ? wrongAll : null);
    }

    /** {@code m} calls of one iteration (-m): one group where there are several, as nccl-tests aggregates them. */
    private static void issue(CollectiveCall call, HostStream stream, int m) {
        if (m == 1) {
            call.issue(stream);
            return;
        }
        io.jccl.Group.start();
        try {
            for (int k = 0; k < m; k++) {
                call.issue(stream);
            }
        } finally {
            io.jccl.Group.end();
        }
    }

    /**
     * The reported µs per call from every rank's {@code micros}, as -a asks (rank 0's, the average,
     * the least, the most); the same answer on each rank, so that all decide alike.
     */
    private double acrossRanks(int rank, double micros, Sync sync) throws Aborted {
        double[] all;
        if (sync.crossProcess()) {
            all = sync.all(micros);
        } else {
            this.micros[rank] = micros;
            sync.await();
            all = this.micros.clone();
            // Everyone has read the shared array before anyone writes it again.
            sync.await();
        }
        return combine(options.average(), all);
    }

    /** -a's reduction of the ranks' times: 0 rank 0's, 1 the average, 2 the least, 3 the most. */
    static double combine(int average, double[] perRank) {
        java.util.DoubleSummaryStatistics st = java.util.Arrays.stream(perRank).summaryStatistics();
        return switch (average) {
            case 0 -> perRank[0];
            case 1 -> st.getAverage();
            case 2 -> st.getMin();
            default -> st.getMax();
        };
    }

    /** The wrong elements of every rank (threads of this JVM), the same answer on each. */
    private long sumWrong(int rank, long wrongHere, Sync sync) throws Aborted {
        wrong[rank] = wrongHere;
        sync.await();
        long sum = 0;
        for (long w : wrong) {
            sum += w;
        }
        sync.await();
        return sum;
    }

    /**
     * How a rank meets the others between timed regions: the threads' barrier when all ranks are
     * threads of this JVM, else an exchange of one word per rank on the communicator itself. No
     * all-reduces: a reduction of another type or operation than the sweep's would make the JIT
     * recompile the sweep's reduction loop for both (deoptimisations in the timed runs).
     */
    private final class Sync {
        private final Communicator comm;
        private final HostStream stream;
        private final MemorySegment word;

        Sync(Communicator comm, HostStream stream, MemorySegment word) {
            this.comm = comm;
            this.stream = stream;
            this.word = word;
        }

        boolean crossProcess() {
            return options.processes() > 1;
        }

        void await() throws Aborted {
            if (crossProcess()) {
                sum(0);
            } else if (barrier.arriveAndAwaitAdvance() < 0) {
                throw new Aborted();
            }
        }

        /**
         * Rank 0's {@code iters}, on every rank (after a barrier). Threads read rank 0's field
         * between two barriers: a rank whose calls need no peer (a gather's sender) could
         * otherwise set the next value before the others read this one.
         */
        int shareIters(int iters) throws Aborted {
            if (!crossProcess()) {
                await();
                int shared = timedIters;
                await();
                return shared;
            }
            gather(iters);
            return (int) word.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 1);
        }

        /**
         * Every rank's {@code v}, at words 1..n of {@code word}: one grouped exchange of sends and
         * receives, which JCCL_ALGO does not govern (a sweep with JCCL_ALGO=tree has no all-gather).
         */
        private void gather(long v) {
            int me = comm.rank();
            MemorySegment mine = word.asSlice(8L * (1 + me), 8);
            mine.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, v);
            io.jccl.Group.start();
            try {
                for (int p = 0; p < comm.size(); p++) {
                    if (p != me) {
                        comm.send(mine, 1, io.jccl.DataType.INT64, p, stream);
                        comm.recv(word.asSlice(8L * (1 + p), 8), 1, io.jccl.DataType.INT64, p, stream);
                    }
                }
            } finally {
                io.jccl.Group.end();
            }
            stream.synchronize();
        }

        long sum(long v) {
            gather(v);
            long sum = 0;
            for (int r = 1; r <= comm.size(); r++) {
                sum += word.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, r);
            }
            return sum;
        }

        /** Every rank's {@code v}, by rank. */
        double[] all(double v) {
            gather(Double.doubleToRawLongBits(v));
            double[] all = new double[comm.size()];
            for (int r = 0; r < all.length; r++) {
                all[r] = Double.longBitsToDouble(word.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, r + 1));
            }
            return all;
        }
    }

    /** The sweep was stopped because another rank failed. */
    private static final class Aborted extends Exception {
        private static final long serialVersionUID = 1L;

        Aborted() {
            super(null, null, false, false);
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
