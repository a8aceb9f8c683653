// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.CallChoice;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.proto.Protocol;
import io.jccl.tune.TuningTable;
import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.Registration;
import io.jccl.cuda.CudaDriver;
import io.jccl.CudaDevice;
import io.jccl.CudaStream;
import io.jccl.Group;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code jccl perf --engine cuda}: nccl-tests' sweep on the CUDA engine, {@code -t} ranks sharing
 * GPU 0 ({@code JCCL_CUDA_DEVICE} picks another), each with its own {@link CudaStream} and device
 * buffers, all issued from one thread (launches are asynchronous). Each size is timed on the host
 * clock from the first launch to the end of every stream, as nccl-tests does, and printed next to
 * a device-to-device {@code cuMemcpyAsync} of the same bytes timed with CUDA events in the same run.
 */
final class CudaPerfCommand {
    private CudaPerfCommand() {
    }

    /** {@code args}: the arguments after {@code perf}, which {@code --procs} passes on to the processes it starts. */
    static int run(PerfOptions options, List<String> args, PrintStream out, PrintStream err) {
        io.jccl.bootstrap.LaunchEnvironment launched;
        try {
            launched = PerfLauncher.launched(System.getenv());
        } catch (JcclException e) {
            err.println("jccl perf --engine cuda: " + e.getMessage());
            return 1;
        }
        if (options.processes() > 1 || launched != null) {
            String why = launched != null && options.processes() > 1 ? "--procs starts processes itself; under " + launched.launcher()
                    + " leave it out"
                    : options.threads() > 1 ? "one rank per process with --procs or a launcher; leave out -t"
                    : options.table() != null ? "--table runs its ranks in one process; leave out --procs"
                    : options.gpus() > 1 ? "-g drives several GPUs from one process; leave out --procs" : null;
            if (why != null) {
                err.println("jccl perf --engine cuda: " + why);
                return 2;
            }
        }
        if (options.gpus() > 1 && options.table() != null) {
            err.println("jccl perf --engine cuda: --table times its ranks on one GPU; leave out -g");
            return 2;
        }
        String hostOnly = hostOnly(options);
        if (hostOnly != null) {
            err.println("jccl perf --engine cuda: " + hostOnly + " is for the host engine so far; leave it out");
            return 2;
        }
        if (options.plot() != null || options.json() != null) {
            err.println("jccl perf --engine cuda: --plot and --json are for the host engine (--table times every choice here)");
            return 2;
        }
        if (options.processes() > 1) {
            return PerfLauncher.launch(options, args, out, err);
        }
        if (!CudaDevice.available()) {
            err.println("jccl perf --engine cuda: no CUDA GPU (the driver libcuda.so.1, or JCCL_CUDA_LIB, reports none)");
            return 1;
        }
        int ordinal = Integer.parseInt(System.getenv().getOrDefault("JCCL_CUDA_DEVICE", "0"));
        try {
            CudaDevice gpu = CudaDevice.open(ordinal);
            Config config = Config.fromEnvironment();
            List<CudaDevice> gpus = rankGpus(options, gpu);
            Communicator[] comms = launched != null ? new Communicator[] {Communicator.fromEnvironmentCuda(gpu, config)}
                    : Communicator.initAllCuda(gpus, config);
            sweep(options, comms, launched != null ? List.of(gpu) : gpus, launched == null ? 1 : launched.size(), out);
            if (options.table() != null) {
                TuningTable table = tableSweep(options, config.withTuningFile(null), gpu, out);
                try {
                    java.nio.file.Files.writeString(options.table(), table.toJson());
                } catch (java.io.IOException e) {
                    err.println("jccl perf --engine cuda: cannot write " + options.table() + ": " + e.getMessage());
                    return 1;
                }
                out.println("# tuning table: " + options.table() + " (JCCL_TUNING_FILE)");
            }
            return 0;
        } catch (JcclException e) {
            err.println("jccl perf --engine cuda: " + e.getMessage());
            return 1;
        }
    }

    /**
     * The GPU of each rank of this process: -g GPUs from {@code first} on (JCCL_CUDA_DEVICE), each
     * shared by -t ranks, rank r on the (r / t)-th, as nccl-tests gives each thread's ranks GPUs of
     * their own; with -g 1 every rank on {@code first}.
     */
    static List<CudaDevice> rankGpus(PerfOptions o, CudaDevice first) {
        List<CudaDevice> opened = new java.util.ArrayList<>(List.of(first));
        for (int g = 1; g < o.gpus(); g++) {
            opened.add(CudaDevice.open(first.ordinal() + g));
        }
        List<CudaDevice> byRank = new java.util.ArrayList<>();
        for (int r = 0; r < o.ranks(); r++) {
            byRank.add(opened.get(gpuOf(o, r)));
        }
        return byRank;
    }

    /** Which of the -g GPUs (0-based) rank {@code r} of this process runs on: -t consecutive ranks share one. */
    static int gpuOf(PerfOptions o, int r) {
        return r / (o.ranks() / o.gpus());
    }

    /**
     * The first of the nccl-tests options this engine does not take yet, as given, or null: its
     * sweep times -n calls with its own table (docs/gpu.md), and always registers its buffers (so
     * -R 1 is what it does anyway).
     */
    static String hostOnly(PerfOptions o) {
        return o.aggIters() > 1 ? "-m " + o.aggIters()
                : o.blocking() != 0 ? "-z " + o.blocking() : o.average() != 3 ? "-a " + o.average()
                : o.cpuTime() ? "-C 1" : o.cycles() != 1 ? "-N " + o.cycles() : o.timeout() > 0 ? "-T " + o.timeout()
                : o.csv() ? "--csv" : null;
    }

    /**
     * The sweep over this process's ranks {@code comms} (all ranks, or this process's one of
     * {@code processes}); the process of rank 0 prints. Across processes each size starts after a
     * barrier and its time is the slowest process's.
     */
    private static void sweep(PerfOptions o, Communicator[] comms, List<CudaDevice> gpus, int processes, PrintStream out) {
        CudaDevice gpu = gpus.getFirst();
        int n = comms[0].size();
        boolean printer = comms[0].rank() == 0;
        PrintStream print = printer ? out : new PrintStream(java.io.OutputStream.nullOutputStream());
        CudaStream[] streams = new CudaStream[comms.length];
        try (Arena arena = Arena.ofShared()) {
            long bufBytes = bufferBytes(o, n);
            MemorySegment[] send = new MemorySegment[comms.length];
            MemorySegment[] recv = new MemorySegment[comms.length];
            Registration[] registrations = new Registration[2 * comms.length];
            for (int r = 0; r < comms.length; r++) {
                streams[r] = new CudaStream(gpus.get(r));
                send[r] = zeroed(gpus.get(r), bufBytes, arena);
                recv[r] = zeroed(gpus.get(r), bufBytes, arena);
                registrations[2 * r] = comms[r].register(send[r]);
                registrations[2 * r + 1] = comms[r].register(recv[r]);
            }
            Across across = processes > 1 ? new Across(comms[0], gpu, streams[0], arena) : null;
            MemorySegment copyFrom = zeroed(gpu, bufBytes, arena);
            MemorySegment copyTo = zeroed(gpu, bufBytes, arena);
            int lastGpu = gpus.getLast().ordinal();
            print.printf(Locale.ROOT, "# jccl perf --engine cuda: %s on %d ranks sharing GPU %s%s, %s, op %s%n",
                    o.collective().cliName(), n, gpu.ordinal() + (lastGpu == gpu.ordinal() ? "" : ".." + lastGpu + " (-g "
                            + o.gpus() + ", " + o.threads() + " each)"), processes > 1 ? " (one process each, CUDA IPC"
                            + (comms[0].config().p2pDisable() ? " disabled: pinned host memory)" : ")") : "",
                    o.type().name().toLowerCase(Locale.ROOT), o.op());
            print.printf(Locale.ROOT, "# GPU: %s, %d multiprocessors, memory peak %.0f GB/s%n", gpu.name(), gpu.multiprocessors(),
                    gpu.memoryBandwidthGBps());
            if (o.graphs() > 0) {
                print.printf(Locale.ROOT, "# CUDA graphs: %s %d calls of a size captured in one graph, launched %d"
                        + " times a round%n", comms.length > 1 && gpus.stream().map(CudaDevice::pciBusId).distinct().count() == 1
                                ? "the ranks' (each on its stream)" : "each rank's", Math.max(1, o.iters()), o.graphs());
            }
            jitWarmUp(o, comms, send, recv, streams, print);
            print.printf(Locale.ROOT, "# %12s %12s %16s %9s %11s %11s %8s %11s %11s %11s%n", "size(B)", "count", "algo/proto",
                    "time(us)", "algbw(GB/s)", "busbw(GB/s)", "#wrong", "memcpy(us)", "memcpy(GB/s)", "busbw/copy");
            for (long bytes : o.sizes()) {
                PerfSizes s = PerfSizes.of(o.collective(), o.type(), n, bytes);
                if (s.count() == 0) {
                    continue;
                }
                CollectiveCall[] calls = calls(o, comms, s, send, recv);
                String wrong = "N/A";
                if (o.check() > 0) {
                    long w = wrongElements(o, s, gpus, calls, streams);
                    wrong = Long.toString(across == null ? w : (long) across.reduce(w, RedOp.SUM));
                }
                double micros = time(o, calls, streams, across);
                if (across != null) {
                    micros = across.reduce(micros, RedOp.MAX);
                }
                // Rank 0's process alone: copies of several processes at once would share the GPU's memory.
                double copyMicros = printer ? memcpyMicros(gpu, copyTo, copyFrom, s.bytes(), Math.max(o.iters(), 20), streams[0])
                        : Double.NaN;
                double algbw = BusBandwidth.gbps(s.bytes(), micros);
                double busbw = algbw * BusBandwidth.factor(o.collective(), n);
                double copyBw = BusBandwidth.gbps(s.bytes(), copyMicros);
                CallChoice c = comms.length > 1 ? comms[0].groupChoiceFor(o.collective(), s.count(), o.type())
                        : comms[0].choiceFor(o.collective(), s.count(), o.type());
                print.printf(Locale.ROOT, "  %12d %12d %16s %9.2f %11.2f %11.2f %8s %11.2f %11.2f %11.2f%n", s.bytes(), s.count(),
                        c.algorithm().equals("direct") ? "direct" : c.algorithm() + "/" + c.protocol() + "x" + c.channels(), micros, algbw, busbw, wrong, copyMicros, copyBw,
                        busbw / copyBw);
            }
            for (int r = 0; r < comms.length; r++) {
                comms[r].deregister(registrations[2 * r]);
                comms[r].deregister(registrations[2 * r + 1]);
            }
        } finally {
            closeAll(comms, streams);
        }
    }

    /** One number of each process reduced over all of them: an all-reduce of one double on the GPU itself. */
    private static final class Across {
        private final Communicator comm;
        private final CudaDevice gpu;
        private final CudaStream stream;
        private final MemorySegment device;
        private final MemorySegment host;

        Across(Communicator comm, CudaDevice gpu, CudaStream stream, Arena arena) {
            this.comm = comm;
            this.gpu = gpu;
            this.stream = stream;
            this.device = gpu.allocate(8, arena);
            this.host = arena.allocate(8, 8);
        }

        double reduce(double v, RedOp op) {
            host.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0, v);
            gpu.copyToDevice(device, host);
            comm.allReduce(device, device, 1, io.jccl.DataType.FLOAT64, op, stream);
            stream.synchronize();
            gpu.copyToHost(host, device);
            return host.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0);
        }
    }

    /** Closes every rank and the streams made so far (a failed set-up leaves the rest null). */
    private static void closeAll(Communicator[] comms, CudaStream[] streams) {
        for (int r = 0; r < comms.length; r++) {
            comms[r].close();
            if (streams[r] != null) {
                streams[r].close();
            }
        }
    }

    /** Every rank's out-of-place call at size {@code s} on its buffers. */
    private static CollectiveCall[] calls(PerfOptions o, Communicator[] comms, PerfSizes s, MemorySegment[] send,
                                          MemorySegment[] recv) {
        CollectiveCall[] calls = new CollectiveCall[comms.length];
        for (int r = 0; r < comms.length; r++) {
            calls[r] = CollectiveCall.of(comms[r], s, o.op(), o.root(), false, send[r], recv[r]);
        }
        return calls;
    }

    /** Bytes of each rank's send and receive buffers: enough for the sweep's largest size. */
    private static long bufferBytes(PerfOptions o, int n) {
        PerfSizes largest = PerfSizes.of(o.collective(), o.type(), n, o.maxBytes());
        return Math.max(16, o.type().bytes(Math.max(largest.sendCount(), largest.recvCount())));
    }

    /**
     * Microseconds per call of every rank, on the host clock from the first launch to the end of
     * every stream, after {@code -w} warm-ups: at least {@code -n} iterations, more until they take
     * {@code --min-time} milliseconds, in rounds until two agree ({@link TimingRounds}), as the host sweep
     * times. Across processes ({@code across} not null) the most iterations any process wants,
     * started together, and the slowest process's time, so that every process decides alike.
     */
    private static double time(PerfOptions o, CollectiveCall[] calls, CudaStream[] streams, Across across) {
        long w0 = System.nanoTime();
        for (int w = 0; w < o.warmup(); w++) {
            issueAll(calls, streams);
        }
        syncAll(streams);
        if (o.graphs() > 0) {
            return graphMicros(o, calls, streams, across);
        }
        double perIter = o.warmup() > 0 ? (System.nanoTime() - w0) / (double) o.warmup() : 0;
        int iters = (int) Math.min(PerfCommand.MAX_TIMED_ITERS,
                Math.max(o.iters(), perIter > 0 ? (long) Math.ceil(o.minMillis() * 1e6 / perIter) : 0));
        if (across != null) {
            // every process makes as many calls; the reduction also has them all start together
            iters = (int) across.reduce(iters, RedOp.MAX);
        }
        TimingRounds rounds = new TimingRounds(iters, o.minMillis());
        double micros;
        do {
            int n = rounds.iters();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                issueAll(calls, streams);
            }
            syncAll(streams);
            micros = (System.nanoTime() - t0) / 1e3 / n;
            if (across != null) {
                micros = across.reduce(micros, RedOp.MAX);
            }
        } while (rounds.another(micros));
        return micros;
    }

    /**
     * Microseconds per call in graph mode ({@code -G}), as nccl-tests times it: each rank's {@code -n}
     * calls captured in a CUDA graph on its stream, the graphs launched {@code -G} times, on the host
     * clock from the first launch to the end of every stream; in rounds of launches until two agree,
     * as eager calls are timed.
     */
    private static double graphMicros(PerfOptions o, CollectiveCall[] calls, CudaStream[] streams, Across across) {
        int perGraph = Math.max(1, o.iters());
        // The ranks of one GPU in one graph (nccl-tests captures a graph per GPU), else one per rank.
        boolean oneGpu = calls.length > 1 && java.util.Arrays.stream(streams).map(s -> s.device().pciBusId()).distinct().count() == 1;
        List<CudaStream> all = List.of(streams);
        io.jccl.CudaGraph[] graphs = new io.jccl.CudaGraph[oneGpu ? 1 : calls.length];
        try {
            if (oneGpu) {
                graphs[0] = io.jccl.CudaGraph.capture(all, () -> {
                    for (int i = 0; i < perGraph; i++) {
                        issueAll(calls, streams);
                    }
                });
            }
            for (int r = 0; r < calls.length && !oneGpu; r++) {
                CollectiveCall call = calls[r];
                CudaStream s = streams[r];
                graphs[r] = io.jccl.CudaGraph.capture(s, () -> {
                    for (int i = 0; i < perGraph; i++) {
                        call.issue(s);
                    }
                });
            }
            launchGraphs(graphs, streams, oneGpu ? all : null); // the first launch uploads the graph: untimed
            syncAll(streams);
            TimingRounds rounds = new TimingRounds(o.graphs(), o.minMillis());
            double perLaunch;
            do {
                int n = rounds.iters();
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    launchGraphs(graphs, streams, oneGpu ? all : null);
                }
                syncAll(streams);
                perLaunch = (System.nanoTime() - t0) / 1e3 / n;
                if (across != null) {
                    perLaunch = across.reduce(perLaunch, RedOp.MAX);
                }
            } while (rounds.another(perLaunch));
            return perLaunch / perGraph;
        } finally {
            for (io.jccl.CudaGraph g : graphs) {
                if (g != null) {
                    g.close();
                }
            }
        }
    }

    /** The one graph of the ranks' streams ({@code all}), or each rank's own graph ({@code all} null). */
    private static void launchGraphs(io.jccl.CudaGraph[] graphs, CudaStream[] streams, List<CudaStream> all) {
        if (all != null) {
            graphs[0].launch(all);
            return;
        }
        for (int r = 0; r < graphs.length; r++) {
            graphs[r].launch(streams[r]);
        }
    }

    /**
     * Calls at sizes from 8 B up to 1 MiB before the sweep ({@code --jit_warmup} in all), so that the
     * first rows time compiled code: the launch path runs in the interpreter at first, 5-10x slower.
     */
    private static void jitWarmUp(PerfOptions o, Communicator[] comms, MemorySegment[] send, MemorySegment[] recv,
                                  CudaStream[] streams, PrintStream out) {
        if (o.jitWarmup() <= 0) {
            return;
        }
        java.util.List<PerfSizes> small = new java.util.ArrayList<>();
        long cap = Math.min(PerfCommand.JIT_WARMUP_MAX_BYTES, o.maxBytes());
        for (long b = 8; b <= cap; b *= 4) {
            PerfSizes x = PerfSizes.of(o.collective(), o.type(), comms[0].size(), b);
            if (x.count() > 0) {
                small.add(x);
            }
        }
        if (small.isEmpty()) {
            return;
        }
        out.println("# JIT warm-up: " + o.jitWarmup() + " calls spread over sizes from 8 B to " + small.getLast().bytes() + " B");
        int perSize = Math.max(1, o.jitWarmup() / small.size());
        for (PerfSizes size : small) {
            CollectiveCall[] calls = calls(o, comms, size, send, recv);
            for (int i = 0; i < perSize; i++) {
                issueAll(calls, streams);
                if (i % PerfCommand.SYNC_EVERY == PerfCommand.SYNC_EVERY - 1) {
                    syncAll(streams);
                }
            }
            syncAll(streams);
        }
    }

    /**
     * Wrong elements of {@code -c} checked runs: every rank's input filled with the sweep's exact
     * values on the host and copied to the GPU, its output poisoned, one call, then every rank's
     * output copied back and compared with what the collective must give (as the host sweep).
     */
    private static long wrongElements(PerfOptions o, PerfSizes s, List<CudaDevice> gpus, CollectiveCall[] calls,
                                      CudaStream[] streams) {
        DataCheck check = new DataCheck(s.collective(), s.type(), o.op(), calls[0].comm().size(), o.root(), s.count());
        long wrong = 0;
        try (Arena host = Arena.ofConfined()) {
            for (int k = 0; k < o.check(); k++) {
                MemorySegment[] outs = new MemorySegment[calls.length];
                for (int i = 0; i < calls.length; i++) {
                    int r = calls[i].comm().rank();
                    long inBytes = calls[i].input().byteSize();
                    MemorySegment in = host.allocate(Math.max(1, inBytes), 16).asSlice(0, inBytes);
                    check.fillInput(r, in, inBytes / s.type().size());
                    if (inBytes > 0) {
                        gpus.get(i).copyToDevice(calls[i].input(), in);
                    }
                    long outBytes = calls[i].output().byteSize();
                    outs[i] = host.allocate(Math.max(1, outBytes), 16).asSlice(0, outBytes);
                    DataCheck.poison(outs[i]);
                    if (outBytes > 0) {
                        gpus.get(i).copyToDevice(calls[i].output(), outs[i]);
                    }
                }
                issueAll(calls, streams);
                syncAll(streams);
                for (int i = 0; i < calls.length; i++) {
                    if (outs[i].byteSize() > 0) {
                        gpus.get(i).copyToHost(outs[i], calls[i].output());
                    }
                    wrong += check.countWrong(calls[i].comm().rank(), outs[i]);
                }
            }
        }
        return wrong;
    }

    /**
     * Every algorithm and protocol the configuration allows, each forced, at every size of the sweep
     * (channels as the engine sizes them), timed as the sweep times: a tuning table of what this GPU
     * measured. Combinations the engine refuses (algorithms that need a scratch buffer) are left out.
     */
    private static TuningTable tableSweep(PerfOptions o, Config config, CudaDevice gpu, PrintStream out) {
        int n = o.ranks();
        Map<Long, List<TuningTable.Result>> results = new TreeMap<>();
        out.printf(Locale.ROOT, "# every algorithm/protocol, forced: %12s %16s %9s%n", "size(B)", "algo/proto", "time(us)");
        for (Algorithm a : Algorithms.supported(o.collective())) {
            if (!config.algorithms(o.collective()).contains(a.id())) {
                continue;
            }
            for (Protocol p : Protocol.allowed(config, o.collective())) {
                Config forced = config.withAlgorithms(a.id()).withProtocols(p.id());
                Communicator[] comms = Communicator.initAllCuda(n, gpu, forced);
                CudaStream[] streams = new CudaStream[n];
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment[] send = new MemorySegment[n];
                    MemorySegment[] recv = new MemorySegment[n];
                    long bufBytes = bufferBytes(o, n);
                    for (int r = 0; r < n; r++) {
                        streams[r] = new CudaStream(gpu);
                        send[r] = zeroed(gpu, bufBytes, arena);
                        recv[r] = zeroed(gpu, bufBytes, arena);
                    }
                    for (long bytes : o.sizes()) {
                        PerfSizes s = PerfSizes.of(o.collective(), o.type(), n, bytes);
                        if (s.count() == 0) {
                            continue;
                        }
                        CollectiveCall[] calls = calls(o, comms, s, send, recv);
                        CallChoice c;
                        double micros;
                        try {
                            c = comms[0].choiceFor(o.collective(), s.count(), o.type());
                            micros = time(o, calls, streams, null);
                        } catch (JcclException e) {
                            out.printf(Locale.ROOT, "# %s/%s left out: %s%n", a.id(), p.id(), e.getMessage());
                            break;
                        }
                        results.computeIfAbsent(s.bytes(), k -> new ArrayList<>())
                                .add(new TuningTable.Result(a, p, c.channels(), micros));
                        out.printf(Locale.ROOT, "# every algorithm/protocol, forced: %12d %16s %9.2f%n", s.bytes(),
                                a.id() + "/" + p.id() + "x" + c.channels(), micros);
                    }
                } finally {
                    closeAll(comms, streams);
                }
            }
        }
        List<TuningTable.Entry> entries = new ArrayList<>();
        results.forEach((bytes, r) -> entries.add(new TuningTable.Entry(o.collective(), n, bytes, r)));
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("created", Instant.now().toString());
        about.put("engine", "cuda");
        about.put("gpu", CudaDriver.deviceName(CudaDriver.device(gpu.ordinal())));
        about.put("multiprocessors", (long) gpu.multiprocessors());
        about.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        about.put("type", PerfTable.typeName(o.type()));
        about.put("command", "jccl perf " + o.collective().cliName() + " --engine cuda -t " + n + " -b " + o.minBytes()
                + " -e " + o.maxBytes() + (o.stepBytes() > 0 ? " -i " + o.stepBytes() : " -f " + o.stepFactor()) + " --table " + o.table());
        return new TuningTable(about, entries);
    }

    private static MemorySegment zeroed(CudaDevice gpu, long bytes, Arena arena) {
        MemorySegment m = gpu.allocate(bytes, arena);
        CudaDriver.memsetAsync(m.address(), (byte) 0, bytes, MemorySegment.NULL);
        CudaDriver.synchronize(MemorySegment.NULL);
        return m;
    }

    /**
     * Every rank's call, in one group when this process drives several ranks, as nccl-tests drives a
     * thread's GPUs (ranks sharing a GPU then run in one launch: Communicator#groupChoiceFor).
     */
    private static void issueAll(CollectiveCall[] calls, CudaStream[] streams) {
        if (calls.length > 1) {
            Group.start();
        }
        try {
            for (int r = 0; r < calls.length; r++) {
                calls[r].issue(streams[r]);
            }
        } finally {
            if (calls.length > 1) {
                Group.end();
            }
        }
    }

    private static void syncAll(CudaStream[] streams) {
        for (CudaStream s : streams) {
            s.synchronize();
        }
    }

    /** Microseconds of one device-to-device copy of {@code bytes}, from CUDA events around {@code iters} copies. */
    private static double memcpyMicros(CudaDevice gpu, MemorySegment to, MemorySegment from, long bytes, int iters,
                                       CudaStream s) {
        gpu.makeCurrent();
        MemorySegment start = CudaDriver.createEvent(0);
        MemorySegment end = CudaDriver.createEvent(0);
        try {
            for (int i = 0; i < 3; i++) {
                CudaDriver.copyAsync(to.address(), from.address(), bytes, s.handle());
            }
            CudaDriver.record(start, s.handle());
            for (int i = 0; i < iters; i++) {
                CudaDriver.copyAsync(to.address(), from.address(), bytes, s.handle());
            }
            CudaDriver.record(end, s.handle());
            CudaDriver.synchronizeEvent(end);
            return CudaDriver.elapsedMillis(start, end) * 1e3 / iters;
        } finally {
            CudaDriver.destroyEvent(start);
            CudaDriver.destroyEvent(end);
        }
    }
}
