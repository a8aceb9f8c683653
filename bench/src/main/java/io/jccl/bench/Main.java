// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.JcclException;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code jccl} command: {@code jccl help}, {@code jccl verify}, {@code jccl perf}, {@code jccl topo}. Exit status
 * 0 on success, 1 when a check failed or the library reported an error, 2 for a command line it
 * cannot run (one line on stderr names the subcommand or option at fault).
 */
public final class Main {
    static final String USAGE = """
            usage: jccl COMMAND [options]
            commands:
              perf COLLECTIVE   nccl-tests-style bandwidth sweep (host engine; --engine cuda; jccl perf --help)
              verify            symbolic proof of every algorithm's schedules (jccl verify --help)
              calibrate         measure every algorithm/protocol with JMH into a tuning table
                                (jccl calibrate --help; needs JMH: run it through ./jccl)
              topo              the system graph, its paths and channels; --svg draws them (jccl topo --help)
              fabric            run a command on S servers x R ranks of network namespaces, tc-shaped
                                intra/inter-server links (jccl fabric --help; needs root)
              simulate COLL     perf's table predicted on a modelled fabric (emulated, GPU cluster, NCCL
                                topology XML) by playing the engine's plans (jccl simulate --help)
              simscale          the simulator at 1,024 ranks exactly and 16,384 by its scaling laws
                                (jccl simscale --help)
              simstudy          all-reduce time from 8 to 16,384 GPUs by algorithm, beside NCCL's model
                                (jccl simstudy --help)
              simcheck          the simulator against jccl perf timed on emulated fabrics (jccl simcheck --help;
                                needs root)
              timeline FILE...  a NET timeline's last call, measured or simulated: links' use, messages in
                                flight (jccl timeline --help)
              netbench          all-reduce busbw across two shaped namespace hosts against one TCP
                                stream's throughput (jccl netbench --help; needs root)
              tcpprobe          one TCP stream's throughput, iperf-style (jccl tcpprobe --help)
              help              this text""";

    private Main() {
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /** Runs one command line, writing to the given streams; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            return switch (args[0]) {
                case "help", "-h", "--help" -> {
                    out.println(USAGE);
                    yield 0;
                }
                case "perf" -> {
                    if (wantsHelp(rest)) {
                        out.println(PerfOptions.USAGE);
                        yield 0;
                    }
                    List<String> perf = PerfEngine.strip(rest);
                    yield PerfEngine.of(rest) == PerfEngine.CUDA ? CudaPerfCommand.run(PerfOptions.parse(perf), rest, out, err)
                            : PerfCommand.run(PerfOptions.parse(perf), perf, out, err);
                }
                case "verify" -> {
                    if (wantsHelp(rest)) {
                        out.println(VerifyOptions.USAGE);
                        yield 0;
                    }
                    yield VerifyCommand.run(VerifyOptions.parse(rest), out);
                }
                case "calibrate" -> {
                    if (wantsHelp(rest)) {
                        out.println(CalibrateOptions.USAGE);
                        yield 0;
                    }
                    CalibrateOptions o = CalibrateOptions.parse(rest);
                    if (!jmhPresent()) {
                        throw new UsageException("jccl calibrate: JMH is not on this runtime's class path (the jlink-ed image"
                                + " leaves it out); run it as ./jccl calibrate, which starts it on the class path");
                    }
                    yield CalibrateCommand.run(o, out, err);
                }
                case "topo" -> {
                    if (wantsHelp(rest)) {
                        out.println(TopoOptions.USAGE);
                        yield 0;
                    }
                    yield TopoCommand.run(TopoOptions.parse(rest), out);
                }
                case "fabric" -> {
                    if (!rest.contains("--") && wantsHelp(rest)) {
                        out.println(FabricCommand.USAGE);
                        yield 0;
                    }
                    yield FabricCommand.run(FabricCommand.parse(rest), out, err);
                }
                case "simulate" -> {
                    if (wantsHelp(rest)) {
                        out.println(SimulateOptions.USAGE);
                        yield 0;
                    }
                    yield SimulateCommand.run(SimulateOptions.parse(rest), out, err);
                }
                case "simscale" -> {
                    if (wantsHelp(rest)) {
                        out.println(SimScaleCommand.USAGE);
                        yield 0;
                    }
                    yield SimScaleCommand.run(rest, out);
                }
                case "simstudy" -> {
                    if (wantsHelp(rest)) {
                        out.println(SimStudyCommand.USAGE);
                        yield 0;
                    }
                    yield SimStudyCommand.run(rest, out);
                }
                case "simcheck" -> {
                    if (wantsHelp(rest)) {
                        out.println(SimCheckCommand.USAGE);
                        yield 0;
                    }
                    yield SimCheckCommand.run(SimCheckCommand.parse(rest), out, err);
                }
                case "timeline" -> {
                    if (wantsHelp(rest)) {
                        out.println(TimelineCommand.USAGE);
                        yield 0;
                    }
                    yield TimelineCommand.run(TimelineCommand.parse(rest), out, err);
                }
                case "netbench" -> {
                    if (wantsHelp(rest)) {
                        out.println(NetBenchCommand.USAGE);
                        yield 0;
                    }
                    yield NetBenchCommand.run(NetBenchCommand.parse(rest), out, err);
                }
                case "tcpprobe" -> {
                    if (wantsHelp(rest)) {
                        out.println(TcpProbe.USAGE);
                        yield 0;
                    }
                    try {
                        yield TcpProbe.run(rest, out);
                    } catch (java.io.IOException e) {
                        err.println("jccl tcpprobe: " + e);
                        yield 1;
                    }
                }
                default -> throw new UsageException("jccl: unknown command '" + args[0] + "' (try: jccl help)");
            };
        } catch (UsageException e) {
            err.println(e.getMessage());
            return 2;
        } catch (JcclException e) {
            err.println("jccl " + args[0] + ": " + e.getMessage());
            return 1;
        }
    }

    private static boolean jmhPresent() {
        try {
            Class.forName("org.openjdk.jmh.runner.Runner", false, Main.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static boolean wantsHelp(List<String> args) {
        return args.contains("-h") || args.contains("--help");
    }
}
