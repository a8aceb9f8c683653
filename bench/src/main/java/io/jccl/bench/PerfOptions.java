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
 * latency end and the bandwidth end of the curve.
 *
 * @param ranks     all ranks of the sweep: {@code processes} processes of {@link #threads()} threads each
 * @param processes processes the ranks are spread over (-p; 1: threads of this JVM)
 * @param minBytes  first size (-b); each next size is the previous times {@code stepFactor} (-f)
 * @param minMillis least time the timed iterations of one size and mode take (-T): more than -n run
 *                  when -n would be shorter (0: exactly -n). A JVM on few cores needs a few thousand
 *                  calls to settle after the ranks meet at a barrier (threads woken onto one core,
 *                  wake-ups from parks), where a GPU needs none; 20 small calls would time that.
 * @param jitWarmup calls made before the sweep so that timing starts on compiled code (--jit_warmup)
 * @param check     how many checked runs precede the timing of each size and mode (-c; 0: none)
 * @param json      where to write the results as JSON (--json), or null
 * @param plot      where to draw busbw against size as SVG (--plot), one line per algorithm/protocol
 *                  the configuration allows (each swept on its own, forced), and the tuned choice; or null
 * @param table     where the CUDA sweep writes a tuning table of every algorithm/protocol it timed
 *                  (--table), or null
 */
public record PerfOptions(Collective collective, int ranks, int processes, long minBytes, long maxBytes, int stepFactor,
                          DataType type, RedOp op, int root, int iters, int warmup, int minMillis, int jitWarmup,
                          int check, Path json, Path plot, Path table) {

    static final String USAGE = """
            usage: jccl perf COLLECTIVE [options]
              COLLECTIVE: allreduce allgather reducescatter broadcast reduce alltoall gather scatter sendrecv
              -t, --nthreads N       ranks per process, one thread each (default 2; with -p, 1)
              -p, --nprocs P         start P processes of this host (one JVM each, ranks talk through
                                     /dev/shm); under mpirun, torchrun or srun each process is one
                                     launcher rank and -p is not given (default 1)
              -b, --minbytes SIZE    smallest size, like 8, 1K, 64M, 1G (default 8; nccl-tests: 32M)
              -e, --maxbytes SIZE    largest size (default 64M; nccl-tests: 32M)
              -f, --stepfactor F     multiply the size by F each step (default 2)
              -d, --datatype TYPE    int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double e4m3 e5m2 (default float)
              -o, --op OP            sum prod min max avg (default sum)
              -r, --root R           root of broadcast, reduce, gather, scatter (default 0)
              -n, --iters N          timed iterations per size (default 20)
              -w, --warmup_iters N   untimed iterations before them (default 5)
              -T, --min_time MS      time each size for at least MS ms, running more than -n iterations
                                     if needed, the same number on every rank, and again until two
                                     such rounds agree within 10% (at most 6; the last is reported)
                                     (default 100; 0: one round of exactly -n)
                  --jit_warmup N     calls at the smallest size before the sweep, so that timing starts
                                     on compiled code (default 50000)
              -c, --check N          checked runs before timing; 0 turns the check off (default 1)
                  --json FILE        also write the results as JSON
                  --plot FILE.svg    also sweep every algorithm/protocol JCCL_ALGO and JCCL_PROTO allow,
                                     each forced, and draw busbw against size, one line each and one
                                     for the tuned choice (an SVG a browser opens)
                  --table FILE.json  with --engine cuda: also time every algorithm/protocol JCCL_ALGO
                                     and JCCL_PROTO allow at each size, each forced, and write them
                                     as a tuning table for JCCL_TUNING_FILE (docs/gpu.md)
                  --engine ENGINE    host (default) or cuda: -t ranks sharing GPU 0 (JCCL_CUDA_DEVICE),
                                     or with -p one rank per process there (CUDA IPC; run MPS first),
                                     each size next to a device-to-device cuMemcpy of its bytes (docs/gpu.md)
            Sizes are rounded down to whole elements (and per-rank blocks for allgather, reducescatter,
            alltoall, gather and scatter, as nccl-tests does). Bus bandwidth uses nccl-tests' factors.""";

    /** Parses the arguments that follow {@code perf}; the first one names the collective. */
    public static PerfOptions parse(List<String> args) {
        return parse(args, System.getenv());
    }

    /**
     * As {@link #parse(List)}; {@code env} decides only the default of {@code -t}: 1 under a
     * launcher (mpirun, torchrun, srun, {@code -p}), where each process is a rank, else 2.
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
        int stepFactor = 2;
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
        while (r.hasNext()) {
            String o = r.option("tpbefdornwcT");
            switch (o) {
                case "-t", "--nthreads" -> threads = r.intValue(o, 1, 4096);
                case "-p", "--nprocs" -> processes = r.intValue(o, 1, 1024);
                case "-b", "--minbytes" -> minBytes = r.bytesValue(o);
                case "-e", "--maxbytes" -> maxBytes = r.bytesValue(o);
                case "-f", "--stepfactor" -> stepFactor = r.intValue(o, 2, 1 << 20);
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
                case "-T", "--min_time" -> minMillis = r.intValue(o, 0, 3_600_000);
                case "--jit_warmup" -> jitWarmup = r.intValue(o, 0, Integer.MAX_VALUE);
                case "-c", "--check" -> check = r.intValue(o, 0, Integer.MAX_VALUE);
                case "--json" -> json = Path.of(r.value(o));
                case "--plot" -> plot = Path.of(r.value(o));
                case "--table" -> table = Path.of(r.value(o));
                default -> throw r.unknown(o);
            }
        }
        if (minBytes > maxBytes) {
            throw r.error("option -b (" + minBytes + " bytes) is larger than option -e (" + maxBytes + " bytes)");
        }
        if (threads < 0) {
            boolean launched = env.containsKey("JCCL_RANK") || env.containsKey("OMPI_COMM_WORLD_RANK")
                    || env.containsKey("SLURM_PROCID") || env.containsKey("WORLD_SIZE");
            threads = processes == 1 && !launched ? 2 : 1;
        }
        int ranks = threads * processes;
        if (collective.rooted() && root >= ranks) {
            throw r.error("option -r: root " + root + " is not a rank of 0.." + (ranks - 1));
        }
        return new PerfOptions(collective, ranks, processes, minBytes, maxBytes, stepFactor, type, op, root, iters, warmup, minMillis,
                jitWarmup, check, json, plot, table);
    }

    private static final String COLLECTIVES = "allreduce allgather reducescatter broadcast reduce alltoall gather scatter sendrecv";

    private static Collective collective(String name) {
        try {
            return Collective.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("jccl perf: '" + name + "' is not a collective (one of " + COLLECTIVES + ")");
        }
    }

    /** Ranks of each process (-t). */
    public int threads() {
        return ranks / processes;
    }

    /** These options for a sweep over {@code processes} processes of {@link #threads()} ranks each. */
    public PerfOptions withProcesses(int processes) {
        return new PerfOptions(collective, threads() * processes, processes, minBytes, maxBytes, stepFactor, type, op, root,
                iters, warmup, minMillis, jitWarmup, check, json, plot, table);
    }

    /** The sizes of the sweep: minBytes, times stepFactor, while not above maxBytes. */
    public List<Long> sizes() {
        java.util.ArrayList<Long> out = new java.util.ArrayList<>();
        long s = minBytes;
        while (s <= maxBytes) {
            out.add(s);
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
}
