// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What each end of an IB connection tells the other over the side socket before any RDMA: its
 * port's LID and GID (RoCE), its active MTU, its queue pairs' numbers and first packet sequence
 * number, and, from the sender, where its clear-to-send FIFO lies (address and rkey) and how many
 * slots it has. Encoded in a fixed layout; {@link #decode} refuses what no peer of this version writes.
 *
 * @param fifo  the sender's CTS FIFO address (0 from the receiver)
 * @param rkey  its rkey (0 from the receiver)
 * @param slots its slots, the sender's requests per comm (0 from the receiver)
 */
record IbConnInfo(int lid, byte[] gid, int mtu, int psn, int[] qpns, long fifo, int rkey, int slots) {
    static final int MAGIC = 0x4a434942; // "JCIB"
    /** At most this many queue pairs per connection (JCCL_IB_QPS_PER_CONNECTION's bound). */
    static final int MAX_QPS = 128;
    private static final int FIXED = 4 + 4 + 16 + 4 + 4 + 8 + 4 + 4 + 4;

    IbConnInfo {
        gid = gid.clone();
        qpns = qpns.clone();
        if (gid.length != 16 || qpns.length < 1 || qpns.length > MAX_QPS) {
            throw new IllegalArgumentException("a GID of " + gid.length + " bytes, " + qpns.length + " queue pairs");
        }
    }

    /** Bytes of the encoding of a connection of {@code qps} queue pairs. */
    static int bytes(int qps) {
        return FIXED + 4 * qps;
    }

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(bytes(qpns.length)).putInt(MAGIC).putInt(lid).put(gid).putInt(mtu).putInt(psn)
                .putLong(fifo).putInt(rkey).putInt(slots).putInt(qpns.length);
        for (int q : qpns) {
            b.putInt(q);
        }
        return b.array();
    }

    /** Reads the first {@link #bytes}{@code (0)} bytes: how many queue-pair numbers follow, or an IOException. */
    static int qpCount(byte[] head) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(head);
        if (b.getInt() != MAGIC) {
            throw new IOException("not an IB connection's handshake");
        }
        int n = b.getInt(FIXED - 4);
        if (n < 1 || n > MAX_QPS) {
            throw new IOException("a handshake with " + n + " queue pairs");
        }
        return n;
    }

    /** Reads a whole encoding (its head then {@link #qpCount} numbers). */
    static IbConnInfo decode(byte[] all) throws IOException {
        int n = qpCount(all);
        if (all.length != bytes(n)) {
            throw new IOException("a handshake of " + all.length + " bytes for " + n + " queue pairs");
        }
        ByteBuffer b = ByteBuffer.wrap(all, 4, all.length - 4);
        int lid = b.getInt();
        byte[] gid = new byte[16];
        b.get(gid);
        int mtu = b.getInt();
        int psn = b.getInt();
        long fifo = b.getLong();
        int rkey = b.getInt();
        int slots = b.getInt();
        b.getInt();
        int[] qpns = new int[n];
        for (int i = 0; i < n; i++) {
            qpns[i] = b.getInt();
        }
        return new IbConnInfo(lid, gid, mtu, psn, qpns, fifo, rkey, slots);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IbConnInfo i && lid == i.lid && Arrays.equals(gid, i.gid) && mtu == i.mtu && psn == i.psn
                && Arrays.equals(qpns, i.qpns) && fifo == i.fifo && rkey == i.rkey && slots == i.slots;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(qpns) * 31 + psn;
    }

    @Override
    public String toString() {
        return "IbConnInfo[lid " + lid + ", qpns " + Arrays.toString(qpns) + ", psn " + psn + ", mtu " + mtu + "]";
    }
}
