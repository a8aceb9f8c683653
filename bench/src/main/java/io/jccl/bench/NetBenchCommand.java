// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code jccl netbench}: how much of a link the socket transport fills. Two hosts (network
 * namespaces on one bridge, one rank each, every link shaped to {@code --rate} with tc), in one
 * run: first one TCP stream between them ({@code jccl tcpprobe}), then {@code jccl perf allreduce}
 * across them; prints the perf table and, per size, the all-reduce's bus bandwidth as a fraction
 * of the TCP throughput. For two ranks busbw equals algbw: each rank sends and receives the
 * buffer's size once, in both directions at once, so a transport that fills the link reaches 1.
 */
final class NetBenchCommand {
    static final String USAGE = """
            usage: jccl netbench [--rate MBIT] [--seconds S] [-b MIN] [-e MAX] [-f F] [-n ITERS] [-w WARMUP]
              Two hosts (network namespaces; needs root and iproute2), links shaped to --rate Mbit/s
              (default 300; 0 = unshaped), TCP throughput of one stream for --seconds (default 2), then
              jccl perf allreduce (float sum) from -b (default 1M) to -e (default 16M) by -f (default 4),
              -n iterations (default 3) after -w warm-up ones (default 1). JCCL_* settings of this
              environment reach the ranks (JCCL_SOCKET_NTHREADS, JCCL_NSOCKS_PERTHREAD, JCCL_PROTO...).
            output: the perf table, then per size
              # busbw/tcp SIZE: BUSBW Mbit/s / TCP Mbit/s = RATIO
            and last
              # netbench: rate R Mbit/s, tcp T Mbit/s, allreduce busbw B Mbit/s at SIZE B: RATIO of tcp""";

    private NetBenchCommand() {
    }

    record Options(double rate, int seconds, long minBytes, long maxBytes, int factor, int iters, int warmup) {
    }

    static Options parse(List<String> args) {
        ArgReader r = new ArgReader("netbench", args);
        double rate = 300;
        int seconds = 2;
        long min = 1 << 20;
        long max = 16 << 20;
        int factor = 4;
        int iters = 3;
        int warmup = 1;
        while (r.hasNext()) {
            String o = r.option("befnw");
            switch (o) {
                case "--rate" -> rate = r.intValue(o, 0, 100_000);
                case "--seconds" -> seconds = r.intValue(o, 1, 600);
                case "-b", "--minbytes" -> min = r.bytesValue(o);
                case "-e", "--maxbytes" -> max = r.bytesValue(o);
                case "-f", "--stepfactor" -> factor = r.intValue(o, 2, 1 << 20);
                case "-n", "--iters" -> iters = r.intValue(o, 1, 1_000_000);
                case "-w", "--warmup_iters" -> warmup = r.intValue(o, 0, 1_000_000);
                default -> throw r.unknown(o);
            }
        }
        if (min < 4 || max < min) {
            throw new UsageException("jccl netbench: -b must be at least 4 and -e at least -b");
        }
        return new Options(rate, seconds, min, max, factor, iters, warmup);
    }

    static int run(Options o, PrintStream out, PrintStream err) {
        try (Fabric f = Fabric.build(2, 1, o.rate(), o.rate())) {
            out.printf(Locale.ROOT, "# jccl netbench: 2 hosts, %s%n", o.rate() == 0 ? "links unshaped"
                    : String.format(Locale.ROOT, "links shaped to %.0f Mbit/s (tc htb on each host's egress)", o.rate()));
            double tcp = tcp(f, o.seconds(), err);
            if (Double.isNaN(tcp)) {
                return 1;
            }
            out.printf(Locale.ROOT, "# tcp: one stream host 0 -> host 1 for %d s: %.1f Mbit/s%n", o.seconds(), tcp);
            List<String> perf = new ArrayList<>(List.of("perf", "allreduce", "-b", Long.toString(o.minBytes()), "-e", Long.toString(o.maxBytes()),
                    "-f", Integer.toString(o.factor()), "-n", Integer.toString(o.iters()), "-w", Integer.toString(o.warmup()), "-c", "1",
                    "--min-time", "0"));
            if (o.rate() > 0) {
                // Each call takes milliseconds on a shaped link, where the JIT does not matter: no long
                // warm-up at small sizes (perf's default would take minutes there).
                perf.addAll(List.of("--jit_warmup", "0"));
            }
            String table = FabricCommand.capture(f, perf, 600, err);
            if (table == null) {
                return 1;
            }
            out.print(table);
            double[] last = summarize(table, tcp, out);
            if (last == null) {
                err.println("jccl netbench: no rows in the perf output");
                return 1;
            }
            out.printf(Locale.ROOT, "# netbench: rate %.0f Mbit/s, tcp %.1f Mbit/s, allreduce busbw %.1f Mbit/s at %d B: %.3f of tcp%n",
                    o.rate(), tcp, last[1], (long) last[0], last[1] / tcp);
            return 0;
        } catch (IOException e) {
            err.println("jccl netbench: " + e.getMessage());
            return 1;
        }
    }

    /** One TCP stream from rank 0 to rank 1 of {@code f} for {@code seconds}: Mbit/s, or NaN (said on err). */
    static double tcp(Fabric f, int seconds, PrintStream err) throws IOException {
        return tcp(f, 0, 1, seconds, err);
    }

    /** One TCP stream from rank {@code from} to rank {@code to} of {@code f}: Mbit/s, or NaN (said on err). */
    static double tcp(Fabric f, int from, int to, int seconds, PrintStream err) throws IOException {
        List<String> self = PerfLauncher.selfCommand();
        List<String> listen = new ArrayList<>(self);
        listen.addAll(List.of("tcpprobe", "--listen", "5201", "--seconds", Integer.toString(seconds)));
        List<String> connect = new ArrayList<>(self);
        connect.addAll(List.of("tcpprobe", "--connect", f.address(to) + ":5201", "--seconds", Integer.toString(seconds)));
        Process rx = f.start(to, listen, java.util.Map.of(), true);
        Process tx = f.start(from, connect, java.util.Map.of(), true);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        List<Thread> pumps = List.of(PerfLauncher.pump(rx.getInputStream(), new PrintStream(got, true, StandardCharsets.UTF_8)),
                PerfLauncher.pump(tx.getInputStream(), err));
        try {
            int status = PerfLauncher.waitAll(List.of(rx, tx), "jccl tcpprobe", (seconds + 40) * 1_000_000_000L, err);
            for (Thread t : pumps) {
                t.join(5_000);
            }
            String text = got.toString(StandardCharsets.UTF_8);
            double mbits = TcpProbe.mbits(text);
            if (status != 0 || Double.isNaN(mbits)) {
                err.println("jccl tcpprobe failed (status " + status + "): " + text.strip());
                return Double.NaN;
            }
            return mbits;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        } finally {
            rx.destroyForcibly();
            tx.destroyForcibly();
        }
    }

    /**
     * Prints busbw / tcp per row of a perf table of two ranks (out-of-place; busbw from the time
     * column, which has more digits: for two ranks busbw = size / time); the last row's {size,
     * busbw Mbit/s}, or null.
     */
    static double[] summarize(String table, double tcpMbits, PrintStream out) {
        double[] last = null;
        for (String line : table.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] c = line.trim().split("\\s+");
            if (c.length < 10) {
                continue;
            }
            long size = Long.parseLong(c[0]);
            double busbw = size * 8 / Double.parseDouble(c[PerfTable.TIME]);
            out.printf(Locale.ROOT, "# busbw/tcp %d: %.1f Mbit/s / %.1f Mbit/s = %.3f%n", size, busbw, tcpMbits, busbw / tcpMbits);
            last = new double[] {size, busbw};
        }
        return last;
    }
}
