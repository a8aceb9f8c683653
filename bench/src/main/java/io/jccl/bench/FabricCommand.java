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
 * {@code jccl fabric}: builds an emulated two-level {@link Fabric} and runs a jccl command (such as
 * {@code perf allgather ...}) as one process per rank in it, then removes it. Rank 0's standard
 * output is this command's (after a header line naming the fabric); every rank's standard error is
 * copied to this one's.
 */
final class FabricCommand {
    static final String USAGE = """
            usage: jccl fabric [--servers S] [--ranks R] [--intra MBIT] [--inter MBIT] [--burst KIB]
                               [--placement P] [--nic N] [--shm] [--timeout SEC] -- COMMAND...
              Builds S servers x R ranks on this machine (one network namespace per rank, bridged; needs
              root and iproute2), shapes the links with tc (to ranks of the same server at --intra, to
              other servers at --inter Mbit/s; 0 = unshaped), prints which ranks are on which server,
              runs `jccl COMMAND...` once per rank in its namespace (torchrun-style: rank 0 hosts the
              bootstrap root; JCCL_HOSTID is the server, so ranks of a server form one host for the
              algorithms; JCCL_SHM_DISABLE=1 unless --shm, so they still talk over their shaped links),
              prints rank 0's output and removes the namespaces (also on failure or Ctrl-C).
              --servers S   servers (default 2)          --ranks R   ranks per server (default 2)
              --intra MBIT  intra-server rate (default 0) --inter MBIT inter-server rate (default 0)
              --burst KIB   KiB a shaped link passes at full speed after idling (default 64: one GSO
                            packet; more lends idle links free bandwidth; less also caps the packets)
              --placement P which server each rank is on: contiguous (default; rank r on server r/R),
                            interleaved (rank r on server r mod S) or random:SEED (contiguous shuffled
                            by SEED, an integer >= 0: R ranks a server, the same for a seed)
              --nic N       rail (default): each rank's own link to other servers runs at --inter;
                            shared: one link per server at --inter each way, shared by its ranks
              --shm         ranks of a server use /dev/shm between them instead of their links
              --timeout SEC stop the ranks after SEC seconds (default 600)
            examples: jccl fabric --servers 2 --ranks 4 --intra 1000 --inter 250 -- perf allgather -b 16M -e 64M -f 2
                      jccl fabric --servers 2 --ranks 4 --intra 800 --inter 200 --placement random:7 --nic shared \\
                          -- perf allreduce -b 16M -e 16M""";

    private FabricCommand() {
    }

    record Options(int servers, int ranks, double intra, double inter, int burst, Placement placement, Fabric.Nic nic, boolean shm,
            int timeout, List<String> command) {
    }

    static Options parse(List<String> args) {
        int dash = args.indexOf("--");
        if (dash < 0 || dash == args.size() - 1) {
            throw new UsageException("jccl fabric: give the command to run after '--' (e.g. -- perf allreduce)");
        }
        ArgReader r = new ArgReader("fabric", args.subList(0, dash));
        int servers = 2;
        int ranks = 2;
        double intra = 0;
        double inter = 0;
        int burst = Fabric.DEFAULT_BURST_KIB;
        Placement placement = Placement.CONTIGUOUS;
        Fabric.Nic nic = Fabric.Nic.RAIL;
        boolean shm = false;
        int timeout = 600;
        while (r.hasNext()) {
            String o = r.option("");
            switch (o) {
                case "--servers" -> servers = r.intValue(o, 1, 64);
                case "--ranks" -> ranks = r.intValue(o, 1, 64);
                case "--intra" -> intra = r.intValue(o, 0, 100_000);
                case "--inter" -> inter = r.intValue(o, 0, 100_000);
                case "--burst" -> burst = r.intValue(o, Fabric.MIN_BURST_KIB, Fabric.MAX_BURST_KIB);
                case "--placement" -> {
                    String v = r.value(o);
                    try {
                        placement = Placement.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw r.error("option " + o + ": " + e.getMessage());
                    }
                }
                case "--nic" -> {
                    String v = r.value(o);
                    try {
                        nic = Fabric.Nic.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw r.error("option " + o + ": " + e.getMessage());
                    }
                }
                case "--shm" -> shm = true;
                case "--timeout" -> timeout = r.intValue(o, 1, 86_400);
                default -> throw r.unknown(o);
            }
        }
        return new Options(servers, ranks, intra, inter, burst, placement, nic, shm, timeout,
                List.copyOf(args.subList(dash + 1, args.size())));
    }

    static int run(Options o, PrintStream out, PrintStream err) {
        try (Fabric f = Fabric.build(o.servers(), o.ranks(), o.intra(), o.inter(), o.burst(), o.placement(), o.nic())) {
            out.printf(Locale.ROOT, "# jccl fabric: %s, shared memory %s; each rank runs: jccl %s%n", f, o.shm() ? "on" : "off",
                    String.join(" ", o.command()));
            out.printf(Locale.ROOT, "# placement %s: %s%n", f.placement(), f.ranksByServer());
            out.flush();
            return runRanks(f, o.command(), o.shm(), o.timeout(), out, err);
        } catch (IOException e) {
            err.println("jccl fabric: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Runs {@code jccl args...} once per rank of {@code f}, rank 0's standard output to {@code out},
     * every rank's standard error to {@code err}; the first non-zero exit status, or 0.
     */
    static int runRanks(Fabric f, List<String> args, boolean shm, int timeoutSeconds, PrintStream out, PrintStream err)
            throws IOException {
        return runRanks(f, args, shm, java.util.Map.of(), timeoutSeconds, out, err);
    }

    /** As above, every rank's environment also holding {@code extraEnv} (JCCL_ALGO=ring, ...). */
    static int runRanks(Fabric f, List<String> args, boolean shm, java.util.Map<String, String> extraEnv, int timeoutSeconds,
                        PrintStream out, PrintStream err) throws IOException {
        List<String> command = new ArrayList<>(PerfLauncher.selfCommand());
        command.addAll(args);
        List<Process> procs = new ArrayList<>();
        List<Thread> pumps = new ArrayList<>();
        PrintStream drop = new PrintStream(java.io.OutputStream.nullOutputStream());
        try {
            for (int g = 0; g < f.size(); g++) {
                java.util.Map<String, String> env = new java.util.LinkedHashMap<>(f.rankEnvironment(g, shm));
                env.putAll(extraEnv);
                Process p = f.start(g, command, env, false);
                procs.add(p);
                pumps.add(PerfLauncher.pump(p.getInputStream(), g == 0 ? out : drop));
                pumps.add(PerfLauncher.pump(p.getErrorStream(), err));
            }
            int status = PerfLauncher.waitAll(procs, "jccl fabric", timeoutSeconds * 1_000_000_000L, err);
            for (Thread t : pumps) {
                t.join(5_000);
            }
            return status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }

    /** Runs {@code jccl args...} in every rank of {@code f} and returns rank 0's standard output (null: a rank failed, said on err). */
    static String capture(Fabric f, List<String> args, int timeoutSeconds, PrintStream err) throws IOException {
        return capture(f, args, java.util.Map.of(), timeoutSeconds, err);
    }

    /** As above, every rank's environment also holding {@code extraEnv}. */
    static String capture(Fabric f, List<String> args, java.util.Map<String, String> extraEnv, int timeoutSeconds, PrintStream err)
            throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int status = runRanks(f, args, false, extraEnv, timeoutSeconds, new PrintStream(b, true, StandardCharsets.UTF_8), err);
        String text = b.toString(StandardCharsets.UTF_8);
        if (status != 0) {
            err.println("jccl: the ranks of `jccl " + String.join(" ", args) + "` failed (status " + status + "); rank 0 printed:");
            err.print(text);
            return null;
        }
        return text;
    }
}
