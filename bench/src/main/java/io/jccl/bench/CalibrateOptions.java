// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.Collective;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code jccl calibrate}.
 *
 * @param collectives the collectives to measure
 * @param ranks       the rank counts (threads of this JVM)
 * @param sizes       the sizes (nccl-tests' size: the whole buffer for all-gather and the like)
 * @param output      where the tuning table goes
 * @param against     a table to judge: for every cell, how its choice (and the untuned model's)
 *                    compares with the best just measured; or null
 * @param forks       JMH forks per cell (0: in this JVM)
 * @param warmups     JMH warm-up iterations per cell
 * @param iterations  JMH measured iterations per cell
 * @param millis      length of one JMH iteration
 * @param dropFactor  a combination slower than the best by this factor at two sizes in a row (of
 *                    64 KiB or more) is not measured at larger sizes (0: measure everything)
 * @param jitWarmupMillis how long each combination runs at a few small sizes before the grid, when
 *                    JMH does not fork (0: no warm-up)
 */
public record CalibrateOptions(List<Collective> collectives, List<Integer> ranks, List<Long> sizes, DataType type,
                               Path output, Path against, int forks, int warmups, int iterations, int millis,
                               double dropFactor, int jitWarmupMillis) {
    static final String USAGE = """
            usage: jccl calibrate [options]
            Measures every collective x algorithm x protocol (JMH's CollectiveBench, each cell forced) over
            a size grid and rank counts, and writes a tuning table for JCCL_TUNING_FILE.
              -c, --collectives LIST  comma list (default allreduce,allgather,reducescatter,broadcast,reduce,alltoall)
              -t, --nthreads LIST     rank counts, one thread each (default 2,4)
              -b, --minbytes SIZE     smallest size (default 8)
              -e, --maxbytes SIZE     largest size (default 64M)
              -f, --stepfactor F      size factor between cells (default 4)
              -d, --datatype TYPE     element type (default float)
              -o, --output FILE       the tuning table to write (default jccl-tuning.json)
                  --against FILE      also judge this table (and the untuned model): per cell, the time of
                                      its choice over the best measured now; prints the worst ratios
              -w, --warmup N          JMH warm-up iterations per cell (default 2)
              -n, --iterations N      JMH measured iterations per cell (default 3)
                  --time MS           length of one JMH iteration (default 200)
                  --forks N           JMH forks per cell; 0 runs in this JVM (default 0)
                  --drop F            stop measuring a combination at larger sizes once it is F times slower
                                      than the best at two sizes in a row of 64K or more (default 8; 0: never)
                  --jit_warmup MS     before the grid, run every combination MS ms at 3 small sizes so that
                                      timing starts on compiled code (default 50; 0: none; skipped with forks)""";

    static CalibrateOptions parse(List<String> args) {
        ArgReader r = new ArgReader("calibrate", args);
        List<Collective> collectives = List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER,
                Collective.BROADCAST, Collective.REDUCE, Collective.ALL_TO_ALL);
        List<Integer> ranks = List.of(2, 4);
        long min = 8;
        long max = 64L << 20;
        int factor = 4;
        DataType type = DataType.FLOAT32;
        Path output = Path.of("jccl-tuning.json");
        Path against = null;
        int forks = 0;
        int warmups = 2;
        int iterations = 3;
        int millis = 200;
        double drop = 8;
        int jitWarmup = 50;
        while (r.hasNext()) {
            String o = r.option("ctbefdownw");
            switch (o) {
                case "-c", "--collectives" -> {
                    List<Collective> cs = new ArrayList<>();
                    for (String name : r.value(o).split(",")) {
                        try {
                            Collective c = Collective.parse(name);
                            if (c == Collective.SEND_RECV) {
                                throw new IllegalArgumentException("sendrecv is not tuned (it always runs direct, in Simple)");
                            }
                            cs.add(c);
                        } catch (IllegalArgumentException e) {
                            throw r.error("option " + o + ": " + e.getMessage());
                        }
                    }
                    collectives = cs;
                }
                case "-t", "--nthreads" -> ranks = r.intListValue(o, 1, 256);
                case "-b", "--minbytes" -> min = r.bytesValue(o);
                case "-e", "--maxbytes" -> max = r.bytesValue(o);
                case "-f", "--stepfactor" -> factor = r.intValue(o, 2, 1 << 20);
                case "-d", "--datatype" -> type = r.dataTypeValue(o);
                case "-o", "--output" -> output = Path.of(r.value(o));
                case "--against" -> against = Path.of(r.value(o));
                case "-w", "--warmup" -> warmups = r.intValue(o, 0, 1000);
                case "-n", "--iterations" -> iterations = r.intValue(o, 1, 1000);
                case "--time" -> millis = r.intValue(o, 1, 600_000);
                case "--forks" -> forks = r.intValue(o, 0, 100);
                case "--jit_warmup" -> jitWarmup = r.intValue(o, 0, 60_000);
                case "--drop" -> {
                    String v = r.value(o);
                    try {
                        drop = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw r.error("option " + o + ": '" + v + "' is not a number");
                    }
                    if (drop != 0 && drop < 1) {
                        throw r.error("option " + o + " must be 0 or at least 1, was " + v);
                    }
                }
                default -> throw r.unknown(o);
            }
        }
        if (min < 1 || min > max) {
            throw r.error("sizes " + min + ".." + max + " are empty (need 1 <= -b <= -e)");
        }
        List<Long> sizes = new ArrayList<>();
        for (long s = min; s <= max; s = s > max / factor ? max + 1 : s * factor) {
            sizes.add(s);
        }
        return new CalibrateOptions(collectives, ranks, sizes, type, output, against, forks, warmups, iterations, millis, drop, jitWarmup);
    }
}
