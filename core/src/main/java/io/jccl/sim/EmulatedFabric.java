// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.topo.ServerLayout;

import java.util.Locale;

/**
 * The emulated fabric of {@code jccl fabric} as the simulator sees it: ranks on servers, every rank
 * with one shaped link. Traffic to the rank's own server leaves at the intra-server rate; traffic
 * to other servers leaves at the inter-server rate on the rank's own link ({@link Nic#RAIL}), or
 * crosses its server's one NIC out and the destination server's NIC in, each at the inter-server
 * rate and shared by the server's ranks ({@link Nic#SHARED}). A rate of 0 is unshaped (no link). The
 * ranks talk over sockets (shared memory off, as {@code jccl fabric} runs them), all on one
 * machine, so they share its cores; or, for a job on real servers, each server a machine of its own.
 *
 * <pre>{@code
 * SimFabric f = new EmulatedFabric(ServerLayout.uniform(2, 4), 800, 200, EmulatedFabric.Nic.SHARED);
 * }</pre>
 */
public final class EmulatedFabric extends SimFabric {
    /** Where traffic between servers leaves a rank. */
    public enum Nic {
        /** Each rank's own link. */
        RAIL,
        /** One link per server each way, shared by its ranks. */
        SHARED;

        public static Nic parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "rail" -> RAIL;
                case "shared" -> SHARED;
                default -> throw new IllegalArgumentException("NIC '" + s + "': rail or shared");
            };
        }
    }

    private final ServerLayout layout;
    private final double intraMbit;
    private final double interMbit;
    private final Nic nic;
    /** Per rank its intra-server egress link (-1: unshaped). */
    private final int[] intraOut;
    /** Per rank its inter-server egress link (RAIL), or per server its NIC out and in (SHARED); -1: unshaped. */
    private final int[] interOut;
    private final int[] serverIn;
    /** Whether each server is a machine of its own (else all ranks share the one that emulates them). */
    private final boolean machinePerServer;

    /** KiB a shaped class sends at once after idling, as {@code jccl fabric} shapes them by default. */
    public static final int DEFAULT_BURST_KIB = 64;

    /** With {@code jccl fabric}'s default burst. */
    public EmulatedFabric(ServerLayout layout, double intraMbit, double interMbit, Nic nic) {
        this(layout, intraMbit, interMbit, nic, DEFAULT_BURST_KIB);
    }

    /** Shaped classes with a burst of {@code burstKib} KiB, as {@code jccl fabric --burst}. */
    public EmulatedFabric(ServerLayout layout, double intraMbit, double interMbit, Nic nic, int burstKib) {
        this(layout, intraMbit, interMbit, nic, burstKib, false);
    }

    /** The same, each server a machine of its own where {@code machinePerServer}. */
    public EmulatedFabric(ServerLayout layout, double intraMbit, double interMbit, Nic nic, int burstKib, boolean machinePerServer) {
        this.machinePerServer = machinePerServer;
        if (intraMbit < 0 || interMbit < 0 || burstKib < 0) {
            throw new IllegalArgumentException("rates " + intraMbit + " and " + interMbit + " Mbit/s, burst " + burstKib + " KiB");
        }
        double burst = burstKib * 1024.0;
        this.layout = layout;
        this.intraMbit = intraMbit;
        this.interMbit = interMbit;
        this.nic = nic;
        int n = layout.nranks();
        intraOut = new int[n];
        for (int r = 0; r < n; r++) {
            intraOut[r] = intraMbit > 0 ? addLink(1, mbit(intraMbit), burst) : -1;
        }
        int ends = nic == Nic.RAIL ? n : layout.servers();
        interOut = new int[ends];
        serverIn = new int[nic == Nic.RAIL ? 0 : ends];
        for (int i = 0; i < ends; i++) {
            interOut[i] = interMbit > 0 ? addLink(1, mbit(interMbit), burst) : -1;
            if (nic == Nic.SHARED) {
                serverIn[i] = interMbit > 0 ? addLink(1, mbit(interMbit), burst) : -1;
            }
        }
    }

    @Override
    public ServerLayout layout() {
        return layout;
    }

    @Override
    int route(int from, int to, int[] into) {
        int k = 0;
        if (sameNode(from, to)) {
            if (intraOut[from] >= 0) {
                into[k++] = intraOut[from];
            }
        } else if (nic == Nic.RAIL) {
            if (interOut[from] >= 0) {
                into[k++] = interOut[from];
            }
        } else {
            int out = interOut[layout.serverOf(from)];
            int in = serverIn[layout.serverOf(to)];
            if (out >= 0) {
                into[k++] = out;
            }
            if (in >= 0) {
                into[k++] = in;
            }
        }
        return k;
    }

    @Override
    String linkName(int link) {
        for (int r = 0; r < intraOut.length; r++) {
            if (intraOut[r] == link) {
                return "rank " + r + " out, intra";
            }
        }
        for (int i = 0; i < interOut.length; i++) {
            if (interOut[i] == link) {
                return nic == Nic.RAIL ? "rank " + i + " out, inter" : "server " + i + " NIC out";
            }
            if (nic == Nic.SHARED && serverIn[i] == link) {
                return "server " + i + " NIC in";
            }
        }
        return super.linkName(link);
    }

    @Override
    int machineOf(int rank) {
        return machinePerServer ? layout.serverOf(rank) : 0;
    }

    @Override
    int maxHops() {
        return 2;
    }

    @Override
    boolean overNetwork(int from, int to) {
        return true;
    }

    private static String rate(double mbit) {
        return mbit > 0 ? String.format(Locale.ROOT, "%.0f Mbit/s", mbit) : "unshaped";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "%s %d x %d (%s), intra %s, inter %s, %s NIC",
                machinePerServer ? "servers" : "emulated fabric", layout.servers(), layout.perServer(), layout, rate(intraMbit),
                rate(interMbit), nic.name().toLowerCase(Locale.ROOT)) + (machinePerServer ? ", each its own machine" : "");
    }
}
