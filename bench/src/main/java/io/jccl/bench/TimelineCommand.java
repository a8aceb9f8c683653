// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.sim.EmulatedFabric;
import io.jccl.sim.TimelineReport;
import io.jccl.topo.ServerLayout;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jccl timeline}: the last call of a NET timeline, measured (the engine's TRACE lines) or
 * predicted ({@code jccl simulate --timeline}), on the emulated fabric it ran on: how busy its
 * messages kept each link and how long each connection's were in flight ({@link TimelineReport}).
 */
final class TimelineCommand {
    static final String USAGE = """
            usage: jccl timeline FILE... --fabric SxR --intra MBIT --inter MBIT [--nic rail|shared]
              Reads NET timelines and reports the last call in them on the emulated fabric they ran on (ranks
              placed contiguously, jccl fabric's default): each link's bytes and the share of the call they
              kept it busy at its rate, each connection's messages and their time in flight (handed to the net
              to arrived). FILEs: the engine's lines of every rank (JCCL_DEBUG=TRACE JCCL_DEBUG_SUBSYS=NET
              JCCL_DEBUG_FILE=DIR/%h.%p.log), or jccl simulate --timeline's.
            example: JCCL_DEBUG=TRACE JCCL_DEBUG_SUBSYS=NET JCCL_DEBUG_FILE=/tmp/tl/%h.%p.log \\
                       jccl fabric --servers 2 --ranks 4 --intra 800 --inter 200 -- perf allreduce -b 16M -e 16M -n 1 -w 1
                     jccl timeline /tmp/tl/*.log --fabric 2x4 --intra 800 --inter 200""";

    private TimelineCommand() {
    }

    record Options(List<Path> files, EmulatedFabric fabric) {
    }

    static Options parse(List<String> args) {
        List<Path> files = new ArrayList<>();
        List<String> options = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("-")) {
                options.add(a);
                if (!a.contains("=") && i + 1 < args.size()) {
                    options.add(args.get(++i));
                }
            } else {
                files.add(Path.of(a));
            }
        }
        ArgReader r = new ArgReader("timeline", options);
        int servers = 0;
        int perServer = 0;
        double intra = -1;
        double inter = -1;
        EmulatedFabric.Nic nic = EmulatedFabric.Nic.RAIL;
        while (r.hasNext()) {
            String o = r.option("");
            switch (o) {
                case "--fabric" -> {
                    int[] sr = r.shapeValue(o, r.value(o));
                    servers = sr[0];
                    perServer = sr[1];
                }
                case "--intra" -> intra = r.intValue(o, 0, 10_000_000);
                case "--inter" -> inter = r.intValue(o, 0, 10_000_000);
                case "--nic" -> nic = r.nicValue(o);
                default -> throw r.unknown(o);
            }
        }
        if (servers == 0 || intra < 0 || inter < 0) {
            throw r.error("give the fabric: --fabric SxR --intra MBIT --inter MBIT (0: unshaped)");
        }
        if (files.isEmpty()) {
            throw r.error("name the timeline files");
        }
        return new Options(files, new EmulatedFabric(ServerLayout.uniform(servers, perServer), intra, inter, nic));
    }

    static int run(Options o, PrintStream out, PrintStream err) {
        List<String> lines = new ArrayList<>();
        for (Path f : o.files()) {
            try {
                lines.addAll(Files.readAllLines(f));
            } catch (IOException e) {
                err.println("jccl timeline: cannot read " + f + ": " + e.getMessage());
                return 1;
            }
        }
        try {
            out.print("# jccl timeline: " + o.files().size() + " file" + (o.files().size() == 1 ? "" : "s") + " on "
                    + o.fabric().describe() + "\n" + TimelineReport.report(TimelineReport.parse(lines), o.fabric()));
        } catch (IllegalArgumentException e) {
            err.println("jccl timeline: " + e.getMessage());
            return 1;
        }
        return 0;
    }
}
