// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What every rank learns about every other at bootstrap.
 *
 * @param rank             the rank in its communicator
 * @param hostId           the host identity: equal exactly for ranks of one host (see docs/bootstrap.md)
 * @param hostname         the host's name, for messages
 * @param pid              the operating system's process id, for messages
 * @param processId        random per JVM: equal exactly for ranks that are threads of one process
 * @param shmDevice        device number of {@code /dev/shm} (-1 unknown): shared memory works between
 *                         ranks of one host only when equal
 * @param bootstrapAddress where this rank's bootstrap listens
 * @param addresses        the addresses of the interfaces the rank's sockets use
 * @param transports       the transports this rank offers (names chosen by the caller of init)
 */
public record PeerInfo(int rank, String hostId, String hostname, long pid, long processId, long shmDevice,
                       InetSocketAddress bootstrapAddress, List<InetAddress> addresses, Set<String> transports) {
    static final int MAX_ADDRESSES = 16;
    static final int MAX_TRANSPORTS = 32;
    static final int MAX_STRING = 255;
    private static final int VERSION = 1;

    public PeerInfo {
        addresses = List.copyOf(addresses);
        transports = Set.copyOf(new LinkedHashSet<>(transports));
    }

    static PeerInfo local(int rank, Config config, InetSocketAddress bootstrapAddress, List<InetAddress> addresses,
                          Set<String> transports) {
        return new PeerInfo(rank, HostIdentity.hostId(config), HostIdentity.hostname(), ProcessHandle.current().pid(),
                HostIdentity.PROCESS_ID, HostIdentity.shmDevice(), bootstrapAddress, addresses, transports);
    }

    /** This rank's info as a member of a split communicator. */
    PeerInfo renumbered(int newRank, InetSocketAddress newBootstrapAddress) {
        return new PeerInfo(newRank, hostId, hostname, pid, processId, shmDevice, newBootstrapAddress, addresses, transports);
    }

    /** True when {@code other} is a thread of this rank's process. */
    public boolean sameProcess(PeerInfo other) {
        return processId == other.processId;
    }

    /** True when {@code other} runs on this rank's host. */
    public boolean sameHost(PeerInfo other) {
        return hostId.equals(other.hostId);
    }

    byte[] encode() {
        Wire.Writer w = new Wire.Writer().u8(VERSION).i32(rank).string(hostId).string(hostname).i64(pid).i64(processId)
                .i64(shmDevice).address(bootstrapAddress).u8(addresses.size());
        addresses.forEach(w::inetAddress);
        w.u8(transports.size());
        transports.stream().sorted().forEach(w::string);
        return w.toByteArray();
    }

    static PeerInfo decode(byte[] b, String what) throws BadFrame {
        Wire.Reader r = new Wire.Reader(b, what);
        int v = r.u8();
        if (v != VERSION) {
            throw new BadFrame(what + ": version " + v + ", expected " + VERSION);
        }
        int rank = r.i32();
        String hostId = r.string(MAX_STRING);
        String hostname = r.string(MAX_STRING);
        long pid = r.i64();
        long processId = r.i64();
        long shm = r.i64();
        InetSocketAddress boot = r.address();
        int na = r.u8();
        if (na > MAX_ADDRESSES) {
            throw new BadFrame(what + ": " + na + " addresses");
        }
        List<InetAddress> addrs = new ArrayList<>();
        for (int i = 0; i < na; i++) {
            addrs.add(r.inetAddress());
        }
        int nt = r.u8();
        if (nt > MAX_TRANSPORTS) {
            throw new BadFrame(what + ": " + nt + " transports");
        }
        Set<String> ts = new LinkedHashSet<>();
        for (int i = 0; i < nt; i++) {
            ts.add(r.string(MAX_STRING));
        }
        r.end();
        return new PeerInfo(rank, hostId, hostname, pid, processId, shm, boot, addrs, ts);
    }
}
