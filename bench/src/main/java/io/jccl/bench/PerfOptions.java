// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.Collective;

import java.nio.file.Path;
import java.util.List;

/**
 * The options of {@code jccl perf}, named and defaulted as nccl-tests names them, except the sizes:
 * nccl-tests sweeps 32M..32M by default, jccl 8 B..64 MiB, so that a bare run shows both the
 * latency end and the bandwidth end of the curve; and the time reported, which is the slowest
 * rank's ({@code -a 3}) where nccl-tests' default is the ranks' average ({@code -a 1}), since a
 * collective ends when its last rank does. jccl's own options have long names only
 * ({@code --procs}, {@code --min-time}, ...), so that every short one means what it means to
 * nccl-tests.
 *
 * @param ranks     all ranks of the sweep: {@code processes} processes of {@link #threads()} threads each,
 *                  each thread {@code gpus} ranks
 * @param processes processes the ranks are spread over (--procs; 1: threads of this JVM)
 * @param minBytes  first size (-b); each next size is the previous times {@code stepFactor} (-f), or
 *                  plus {@code stepBytes} (-i) where that is not 0
 * @param minMillis least time the timed iterations of one size and mode take (--min-time): more than
 *                  -n run when -n would be shorter (0: exactly -n). A JVM on few cores needs a few
 *                  thousand calls to settle after the ranks meet at a barrier (threads woken onto one
 *                  core, wake-ups from parks), where a GPU needs none; 20 small calls would time that.
 * @param jitWarmup calls made before the sweep so that timing starts on compiled code (--jit_warmup)
 * @param check     how many checked runs precede the timing of each size and mode (-c; 0: none)
 * @param json      where to write the results as JSON (-J), or null
 * @param plot      where to draw busbw against size as SVG (--plot), one line per algorithm/protocol
 *                  the configuration allows (each swept on its own, forced), and the tuned choice; or null
 * @param table     where the CUDA sweep writes a tuning table of every algorithm/protocol it timed
 *                  (--table), or null
 * @param gpus      GPUs each thread drives (-g); the host engine has none and takes only 1
 * @param aggIters  calls issued together, in one group, per timed iteration (-m); the time is per call
 * @param average   how the ranks' times become the reported one (-a): 0 rank 0's, 1 the average,
 *                  2 the least, 3 the most
 * @param blocking  -z: 0 calls queue freely; 1 each iteration waits for its calls and meets the
 *                  other ranks; 2 it waits only; 3 it waits and meets them, the meeting not timed
 * @param graphs    CUDA graph launches (-G): the -n calls of each size captured in a graph per rank, launched this many times (--engine cuda); 0 eager
 * @param cpuTime   report the time to issue the calls instead of the time to complete them (-C)
 * @param cycles    times the whole sweep runs, each printed (-N; 0: until stopped)
 * @param register  buffer registration (-R): 0 none, 1 local ({@code Communicator.register}); 2,
 *                  symmetric, jccl does not have
 * @param timeout   seconds one size may take before the run fails (-T; 0: no limit)
 * @param csv       print the table as comma-separated values (--csv)
 */
public record PerfOptions(Collective collective, int ranks, int processes, long minBytes, long maxBytes, int stepFactor,
                          long stepBytes, DataType type, RedOp op, int root, int iters, int warmup, int minMillis,
                          int jitWarmup, int check, Path json, Path plot, Path table, int gpus, int aggIters, int average,
                          int blocking, int graphs, boolean cpuTime, int cycles, int register, int timeout, boolean csv) {

    static final String USAGE = """
            usage: jccl perf COLLECTIVE [options]
              COLLECTIVE: allreduce allgather reducescatter broadcast reduce alltoall gather scatter sendrecv
            nccl-tests' options, with nccl-tests' meanings:
              -t, --nthreads N       ranks per process, one thread each (default 2; with --procs or a launcher, 1)
              -g, --ngpus G          GPUs per thread: with --engine cuda, G GPUs from JCCL_CUDA_DEVICE on,
                                     -t ranks on each (default 1; the host engine has no GPUs: 1 only)
              -b, --minbytes SIZE    smallest size, like 8, 1K, 64M, 1G (default 8; nccl-tests: 32M)
              -e, --maxbytes SIZE    largest size (default 64M; nccl-tests: 32M)
              -f, --stepfactor F     multiply the size by F each step (default 2)
              -i, --stepbytes SIZE   add SIZE each step instead of multiplying (not with -f)
              -d, --datatype TYPE    int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double e4m3 e5m2 (default float)
              -o, --op OP            sum prod min max avg (default sum)
              -r, --root R           root of broadcast, reduce, gather, scatter (default 0)
              -n, --iters N          timed iterations per size (default 20)
              -w, --warmup_iters N   untimed iterations before them (default 5)
              -m, --agg_iters M      calls per iteration, issued together in one group (default 1)
              -N, --run_cycles N     run the sweep N times, printing each (default 1; 0: until stopped)
              -a, --average A        time reported: 0 rank 0's, 1 the ranks' average, 2 the least,
                                     3 the most (default 3; nccl-tests: 1)
              -c, --check N          checked runs before timing; 0 turns the check off (default 1)
              -z, --blocking Z       0 calls queue freely; 1 wait and meet the other ranks after each
                                     iteration; 2 wait only; 3 wait and meet, the meeting not timed (default 0)
              -G, --cudagraph N      --engine cuda: capture the -n calls of each size in a CUDA graph per
                                     rank and launch it N times, timing the launches (default 0: eager)
              -C, --report_cputime B 1: report the time to issue the calls (cputime) instead (default 0)
              -R, --local_register R 1: register the buffers (Communicator.register); 2 (symmetric) is
                                     not in jccl (default 0)
              -J, --output_file FILE also write the results as JSON (jccl's layout; also --json FILE)
              -T, --timeout S        fail when one size takes more than S seconds (default 0: no limit)
            jccl's options:
                  --procs P          start P processes of this host (one JVM each, ranks talk through
                                     /dev/shm); under mpirun, torchrun or srun each process is one
                                     launcher rank and --procs is not given (default 1). nccl-tests'
                                     -p (parallel init) is not taken
                  --min-time MS      time each size for at least MS ms, running more than -n iterations
                                     if needed, the same number on every rank, and again until two
                                     such rounds agree within 10% (at most 6; the last is reported)
                                     (default 100; 0: one round of exactly -n)
                  --jit_warmup N     calls spread over sizes from 8 B to 1 MiB before the sweep, so that
                                     timing starts on compiled code, at most 1 s per size and form
                                     (default 50000)
                  --csv              print the table as comma-separated values
                  --plot FILE.svg    also sweep every algorithm/protocol JCCL_ALGO and JCCL_PROTO allow,
                                     each forced, and draw busbw against size, one line each and one
                                     for the tuned choice (an SVG a browser opens)
                  --table FILE.json  with --engine cuda: also time every algorithm/protocol JCCL_ALGO
                                     and JCCL_PROTO allow at each size, each forced, and write them
                                     as a tuning table for JCCL_TUNING_FILE (docs/gpu.md)
                  --engine ENGINE    host (default) or cuda: -t ranks sharing GPU 0 (JCCL_CUDA_DEVICE; with
                                     -g G, each of G GPUs from there on),
                                     or with --procs one rank per process there (CUDA IPC; run MPS first),
                                     each size next to a device-to-device cuMemcpy of its bytes (docs/gpu.md)
            The columns are nccl-tests': size count type redop root, then time algbw busbw #wrong out of
            place and in place; jccl adds the algorithm/protocol it chose as a last column. Sizes are
            rounded down to whole elements (and per-rank blocks for allgather, reducescatter, alltoall,
            gather and scatter, as nccl-tests does). Bus bandwidth uses nccl-tests' factors.""";

    /** Parses the arguments that follow {@code perf}; the first one names the collective. */
    public static PerfOptions parse(List<String> args) {
        return parse(args, System.getenv());
    }

    /**
     * As {@link #parse(List)}; {@code env} decides only the default of {@code -t}: 1 under a
     * launcher (mpirun, torchrun, srun, {@code --procs}), where each process is a rank, else 2.
     */
    public static PerfOptions parse(List<String> args, java.util.Map<String, String> env) {
        if (args.isEmpty()) {
            throw new UsageException("jccl perf: missing COLLECTIVE (one of " + COLLECTIVES + ")");
        }
        Collective collective = collective(args.getFirst());
        ArgReader r = new ArgReader("perf", args.subList(1, args.size()));
        int threads = -1;
        int processes = 1;
        long minBytes = 8;
        long maxBytes = 64L << 20;
        int stepFactor = 0;
        long stepBytes = 0;
        DataType type = DataType.FLOAT32;
        RedOp op = RedOp.SUM;
        int root = 0;
        int iters = 20;
        int warmup = 5;
        int minMillis = 100;
        int jitWarmup = 50_000;
        int check = 1;
        Path json = null;
        Path plot = null;
        Path table = null;
        int gpus = 1;
        int aggIters = 1;
        int average = 3;
        int blocking = 0;
        int graphs = 0;
        boolean cpuTime = false;
        int cycles = 1;
        int register = 0;
        int timeout = 0;
        boolean csv = false;
        while (r.hasNext()) {
            String o = r.option("tpbefidornwcgmNazGCRJT");
            switch (o) {
                case "-t", "--nthreads" -> threads = r.intValue(o, 1, 4096);
                case "--procs" -> processes = r.intValue(o, 1, 1024);
                case "-p", "--nprocs", "--parallel_init" -> throw r.error("option " + o + ": jccl's processes are --procs P "
                        + "(-p is nccl-tests' parallel init, which jccl does not take)");
                case "--min_time" -> throw r.error("option --min_time is now --min-time MS (-T is nccl-tests' timeout, in seconds)");
                case "-b", "--minbytes" -> minBytes = r.bytesValue(o);
                case "-e", "--maxbytes" -> maxBytes = r.bytesValue(o);
                case "-f", "--stepfactor" -> stepFactor = r.intValue(o, 2, 1 << 20);
                case "-i", "--stepbytes" -> {
                    stepBytes = r.bytesValue(o);
                    if (stepBytes < 1) {
                        throw r.error("option " + o + " must be at least 1 byte");
                    }
                }
                case "-d", "--datatype" -> type = r.dataTypeValue(o);
                case "-o", "--op" -> {
                    String v = r.value(o);
                    try {
                        op = RedOp.parse(v);
                    } catch (JcclException e) {
                        throw r.error("option " + o + ": '" + v + "' is not a reduction (sum prod min max avg)");
                    }
                }
                case "-r", "--root" -> root = r.intValue(o, 0, Integer.MAX_VALUE);
                case "-n", "--iters" -> iters = r.intValue(o, 1, Integer.MAX_VALUE);
                case "-w", "--warmup_iters" -> warmup = r.intValue(o, 0, Integer.MAX_VALUE);
                case "--min-time" -> minMillis = r.intValue(o, 0, 3_600_000);
                case "--jit_warmup" -> jitWarmup = r.intValue(o, 0, Integer.MAX_VALUE);
                case "-c", "--check" -> check = r.intValue(o, 0, Integer.MAX_VALUE);
                case "-J", "--output_file", "--json" -> json = Path.of(r.value(o));
                case "--plot" -> plot = Path.of(r.value(o));
                case "--table" -> table = Path.of(r.value(o));
                case "-g", "--ngpus" -> gpus = r.intValue(o, 1, 1024);
                case "-m", "--agg_iters" -> aggIters = r.intValue(o, 1, 1 << 20);
                case "-a", "--average" -> average = r.intValue(o, 0, 3);
                case "-z", "--blocking" -> blocking = r.intValue(o, 0, 3);
                case "-G", "--cudagraph" -> graphs = r.intValue(o, 0, 1 << 20);
                case "-C", "--report_cputime" -> cpuTime = r.intValue(o, 0, 1) == 1;
                case "-N", "--run_cycles" -> cycles = r.intValue(o, 0, Integer.MAX_VALUE);
                case "-R", "--local_register" -> {
                    register = r.intValue(o, 0, 2);
                    if (register == 2) {
                        throw r.error("option " + o + " 2: jccl has no symmetric registration; 1 registers each buffer locally");
                    }
                }
                case "-T", "--timeout" -> timeout = r.intValue(o, 0, 7 * 24 * 3600);
                case "--csv" -> csv = true;
                default -> throw r.unknown(o);
            }
        }
        if (minBytes > maxBytes) {
            throw r.error("option -b (" + minBytes + " bytes) is larger than option -e (" + maxBytes + " bytes)");
        }
        if (stepBytes > 0 && stepFactor > 0) {
            throw r.error("options -i and -f: give one, the increment or the factor");
        }
        if (stepBytes == 0 && stepFactor == 0) {
            stepFactor = 2;
        }
        if (threads < 0) {
            boolean launched = env.containsKey("JCCL_RANK") || env.containsKey("OMPI_COMM_WORLD_RANK")
                    || env.containsKey("SLURM_PROCID") || env.containsKey("WORLD_SIZE");
            threads = processes == 1 && !launched ? 2 : 1;
        }
        int ranks = threads * gpus * processes; // nccl-tests: processes × threads × GPUs per thread
        if (collective.rooted() && root >= ranks) {
            throw r.error("option -r: root " + root + " is not a rank of 0.." + (ranks - 1));
        }
        return new PerfOptions(collective, ranks, processes, minBytes, maxBytes, stepFactor, stepBytes, type, op, root, iters,
                warmup, minMillis, jitWarmup, check, json, plot, table, gpus, aggIters, average, blocking, graphs, cpuTime, cycles,
                register, timeout, csv);
    }

    private static final String COLLECTIVES = "allreduce allgather reducescatter broadcast reduce alltoall gather scatter sendrecv";

    private static Collective collective(String name) {
        try {
            return Collective.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("jccl perf: '" + name + "' is not a collective (one of " + COLLECTIVES + ")");
        }
    }

    /** Threads of each process (-t); each drives {@link #gpus()} ranks. */
    public int threads() {
        return ranks / processes / gpus;
    }

    /** These options for a sweep over {@code processes} processes of {@link #threads()} ranks each. */
    public PerfOptions withProcesses(int processes) {
        return new PerfOptions(collective, threads() * gpus * processes, processes, minBytes, maxBytes, stepFactor, stepBytes, type, op,
                root, iters, warmup, minMillis, jitWarmup, check, json, plot, table, gpus, aggIters, average, blocking, graphs,
                cpuTime, cycles, register, timeout, csv);
    }

    /** The sizes of the sweep: minBytes, times stepFactor (or plus stepBytes), while not above maxBytes. */
    public List<Long> sizes() {
        java.util.ArrayList<Long> out = new java.util.ArrayList<>();
        long s = minBytes;
        while (s <= maxBytes) {
            out.add(s);
            if (stepBytes > 0) {
                if (s > maxBytes - stepBytes) {
                    break;
                }
                s += stepBytes;
                continue;
            }
            if (s == 0) {
                break;
            }
            if (s > maxBytes / stepFactor) {
                break;
            }
            s *= stepFactor;
        }
        return out;
    }

    /** The header's step: nccl-tests writes "N(bytes)" or "N(factor)". */
    String step() {
        return stepBytes > 0 ? stepBytes + "(bytes)" : stepFactor + "(factor)";
    }
}
