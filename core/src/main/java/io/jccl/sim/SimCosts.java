// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.plan.Step;
import io.jccl.proto.Protocol;

/**
 * What one engine spends running a plan, as the simulator charges it: every step costs a lane
 * {@code stepUs}, {@code sendUs} per message it sends and {@code recvUs} per message it takes
 * (LogP's o: the hand-off to a proxy, the system calls, the wake-up of the receiver), and its bytes
 * at the lane's copy rate, or its reduction rate for each message it combines; a call costs
 * {@code launchUs} once. A message crosses a link at the link's rate times {@code linkEfficiency}
 * with {@code wireFactor} bytes on the wire per byte of data (LL's flags double its bytes on a
 * GPU's links; the socket proxy sends data alone), and arrives {@code intraLatencyUs} or
 * {@code interLatencyUs} after it has gone out, inside a node or between nodes. Where
 * {@code sharedCores} is above 0 all the ranks of a machine share that many cores for their steps
 * (the host engine on the machine that runs the emulated fabric); 0: every lane has its own.
 * A message over the network also costs the cores of both machines its bytes at
 * {@code netSendGBps} and {@code netRecvGBps} of its protocol (the proxies' system calls, the
 * kernel's copies and TCP, and for LL the proxies' packing of lines), while it crosses the wire: where the cores are shared, that is what bounds a host
 * job's large calls. Where the ranks share cores, a message's latency also grows by
 * {@code loadLatencyUs} for each rank per core beyond one: the hand-overs of cores that waking a
 * proxy and a lane take when more threads wait than there are cores. Arrays are by {@link Protocol#ordinal()}. Values come from {@link Calibration}.
 *
 * @param copyGBps   per protocol, GB/s one lane copies (into a slot, out of one)
 * @param reduceGBps GB/s one lane combines, per incoming message
 */
public record SimCosts(String name, double launchUs, double stepUs, double sendUs, double recvUs, double[] copyGBps,
                       double reduceGBps, double[] wireFactor, double linkEfficiency, double intraLatencyUs,
                       double interLatencyUs, int sharedCores, double[] netSendGBps, double[] netRecvGBps,
                       double loadLatencyUs) {
    public SimCosts {
        copyGBps = copyGBps.clone();
        wireFactor = wireFactor.clone();
        netSendGBps = netSendGBps.clone();
        netRecvGBps = netRecvGBps.clone();
        int np = Protocol.values().length;
        if (copyGBps.length != np || wireFactor.length != np || netSendGBps.length != np || netRecvGBps.length != np) {
            throw new IllegalArgumentException(name + ": copyGBps, wireFactor, netSendGBps and netRecvGBps need one value per protocol "
                    + java.util.Arrays.toString(Protocol.values()));
        }
        for (double v : new double[] {launchUs, stepUs, sendUs, recvUs, intraLatencyUs, interLatencyUs}) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException(name + ": a time of " + v + " µs");
            }
        }
        for (int p = 0; p < np; p++) {
            if (!(copyGBps[p] > 0) || !(wireFactor[p] >= 1)) {
                throw new IllegalArgumentException(name + ": " + Protocol.values()[p] + " copies at " + copyGBps[p]
                        + " GB/s with " + wireFactor[p] + " wire bytes per byte");
            }
        }
        for (int p = 0; p < np; p++) {
            if (!(netSendGBps[p] > 0) || !(netRecvGBps[p] > 0)) {
                throw new IllegalArgumentException(name + ": " + Protocol.values()[p] + " netSendGBps " + netSendGBps[p]
                        + ", netRecvGBps " + netRecvGBps[p]);
            }
        }
        if (!(loadLatencyUs >= 0)) {
            throw new IllegalArgumentException(name + ": loadLatencyUs " + loadLatencyUs);
        }
        if (!(reduceGBps > 0) || !(linkEfficiency > 0 && linkEfficiency <= 1) || sharedCores < 0) {
            throw new IllegalArgumentException(name + ": reduceGBps " + reduceGBps + ", linkEfficiency " + linkEfficiency
                    + ", sharedCores " + sharedCores);
        }
    }

    /** The same with the ranks of a machine sharing {@code cores} cores (0: each lane its own). */
    public SimCosts withSharedCores(int cores) {
        return new SimCosts(name, launchUs, stepUs, sendUs, recvUs, copyGBps, reduceGBps, wireFactor, linkEfficiency,
                intraLatencyUs, interLatencyUs, cores, netSendGBps, netRecvGBps, loadLatencyUs);
    }

    @Override
    public double[] copyGBps() {
        return copyGBps.clone();
    }

    @Override
    public double[] wireFactor() {
        return wireFactor.clone();
    }

    @Override
    public double[] netSendGBps() {
        return netSendGBps.clone();
    }

    @Override
    public double[] netRecvGBps() {
        return netRecvGBps.clone();
    }

    /** µs a lane spends on {@code step} of {@code bytes} per message in protocol {@code p}, waits aside. */
    double stepMicros(Step step, long bytes, Protocol p) {
        return stepMicros(step.kind().reduces(), step.recv().size(), step.send().size(), bytes, p);
    }

    /** The same from a step's shape: whether it reduces, its incoming and outgoing messages. */
    double stepMicros(boolean reduces, int recvs, int sends, long bytes, Protocol p) {
        // bytes per µs: GB/s × 1000
        double data = reduces ? recvs * bytes / (reduceGBps * 1000) : bytes / (copyGBps[p.ordinal()] * 1000);
        return stepUs + recvs * recvUs + sends * sendUs + data;
    }

    /** µs of a core sending ({@code sender}) or receiving {@code wire} bytes over the network in {@code p} costs. */
    double netMicros(double wire, boolean sender, Protocol p) {
        return wire / ((sender ? netSendGBps : netRecvGBps)[p.ordinal()] * 1000);
    }

    /** µs a message's latency {@code base} becomes on a machine running {@code ranks} ranks on its shared cores. */
    double loadedLatency(double base, int ranks) {
        return sharedCores > 0 ? base + loadLatencyUs * Math.max(0, ranks / (double) sharedCores - 1) : base;
    }

    /** Bytes a message of {@code bytes} of data puts on the wire in protocol {@code p}. */
    double wireBytes(long bytes, Protocol p) {
        return bytes * wireFactor[p.ordinal()];
    }
}
