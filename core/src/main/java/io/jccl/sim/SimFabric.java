// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.topo.ServerLayout;

import java.util.Arrays;

/**
 * What carries the messages of a simulated job: its ranks laid out on nodes, and links, each with
 * one or more ports of one rate (a NIC is one port; a leaf switch's uplinks to the spine are a link of
 * several ports, a message taking the first one free). A message from one rank to another crosses
 * the links {@link #route} lists, holding a port of each for its bytes at the slowest of their
 * rates (a port shaped with a burst lets that many bytes through at once after idling), and
 * arrives the latency after it went out; messages on a port go one after the other, so ranks that
 * share a link share its rate. Which latency applies, and whether the connection
 * crosses the network (its FIFO then has a slot ring at each end), the fabric says per pair.
 */
public abstract class SimFabric {
    private double[] rates = new double[16];
    private double[] bursts = new double[16];
    private int[] ports = new int[16];
    private int links;

    /** Adds a link of {@code ports} ports of {@code bytesPerMicro} each; its index. */
    protected final int addLink(int ports, double bytesPerMicro) {
        return addLink(ports, bytesPerMicro, 0);
    }

    /**
     * Adds a link of {@code ports} ports of {@code bytesPerMicro} each, shaped as a token bucket of
     * {@code burstBytes} (tc's htb: after an idle spell a port sends that many bytes at once, the
     * rate refilling them); its index.
     */
    protected final int addLink(int ports, double bytesPerMicro, double burstBytes) {
        if (ports < 1 || !(bytesPerMicro > 0) || !(burstBytes >= 0)) {
            throw new IllegalArgumentException("a link of " + ports + " ports at " + bytesPerMicro + " B/µs, burst " + burstBytes);
        }
        if (links == rates.length) {
            rates = Arrays.copyOf(rates, links * 2);
            bursts = Arrays.copyOf(bursts, links * 2);
            this.ports = Arrays.copyOf(this.ports, links * 2);
        }
        rates[links] = bytesPerMicro;
        bursts[links] = burstBytes;
        this.ports[links] = ports;
        return links++;
    }

    /** What link {@code link} is, for a reader (a fabric that names its links says which). */
    String linkName(int link) {
        return "link " + link;
    }

    /** Bytes a port of link {@code link} sends at once after idling (0: none). */
    final double burst(int link) {
        return bursts[link];
    }

    /** Bytes per µs of a rate in Mbit/s. */
    protected static double mbit(double mbitPerSecond) {
        return mbitPerSecond / 8;
    }

    /** Bytes per µs of a rate in Gbit/s. */
    protected static double gbit(double gbitPerSecond) {
        return gbitPerSecond * 125;
    }

    /** Bytes per µs of a rate in GB/s. */
    protected static double gbytes(double gbPerSecond) {
        return gbPerSecond * 1000;
    }

    /** The links made so far. */
    final int linkCount() {
        return links;
    }

    /** Bytes per µs one port of link {@code link} carries. */
    final double rate(int link) {
        return rates[link];
    }

    /** Ports of link {@code link}. */
    final int ports(int link) {
        return ports[link];
    }

    /** Which node each rank is on. */
    public abstract ServerLayout layout();

    public final int nranks() {
        return layout().nranks();
    }

    /** Writes the links a message from {@code from} to {@code to} crosses into {@code into}; how many. */
    abstract int route(int from, int to, int[] into);

    /** The most links any route crosses. */
    abstract int maxHops();

    /** Whether the connection from {@code from} to {@code to} crosses the network (a FIFO at each end). */
    abstract boolean overNetwork(int from, int to);

    /** Whether {@code from} and {@code to} are on one node (their latency is the intra-node one). */
    final boolean sameNode(int from, int to) {
        ServerLayout l = layout();
        return l.serverOf(from) == l.serverOf(to);
    }

    /** The machine whose cores rank {@code rank} shares with others, where the engine shares cores. */
    int machineOf(int rank) {
        return 0;
    }

    /** One line saying what it is. */
    public abstract String describe();

    @Override
    public String toString() {
        return describe();
    }
}
