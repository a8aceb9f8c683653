// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Which GID of a RoCE port the IB net addresses its packets with ({@code JCCL_IB_GID_INDEX}): the
 * index given, or else the first RoCE v2 GID that holds an IPv4 address (routable, and what
 * NCCL picks), else the first RoCE v2 GID, else the first GID in use, else index 0. A GID's type
 * comes from sysfs, which libibverbs reads the same way.
 */
final class IbGids {
    private IbGids() {
    }

    static final String ROCE_V2 = "RoCE v2";

    /** GID {@code index} of a port: its 16 bytes, and its type as sysfs says it (null: unknown). */
    record Gid(int index, byte[] raw, String type) {
        Gid {
            if (raw.length != 16) {
                throw new IllegalArgumentException("a GID of " + raw.length + " bytes");
            }
            raw = raw.clone();
        }

        boolean zero() {
            for (byte b : raw) {
                if (b != 0) {
                    return false;
                }
            }
            return true;
        }

        /** An IPv4-mapped IPv6 address, ::ffff:a.b.c.d. */
        boolean ipv4() {
            for (int i = 0; i < 10; i++) {
                if (raw[i] != 0) {
                    return false;
                }
            }
            return raw[10] == (byte) 0xff && raw[11] == (byte) 0xff;
        }

        boolean roceV2() {
            return ROCE_V2.equals(type);
        }
    }

    /**
     * The index to use among {@code gids} (the port's table, in index order); {@code configured}
     * is {@code JCCL_IB_GID_INDEX} (-1: choose). A configured index beyond the table is an
     * IllegalArgumentException naming the device's port.
     */
    static int choose(List<Gid> gids, int configured, String port) {
        if (configured >= 0) {
            if (configured >= gids.size()) {
                throw new IllegalArgumentException("JCCL_IB_GID_INDEX " + configured + " is beyond the " + gids.size()
                        + " GIDs of " + port);
            }
            return configured;
        }
        for (Gid g : gids) {
            if (g.roceV2() && g.ipv4() && !g.zero()) {
                return g.index();
            }
        }
        for (Gid g : gids) {
            if (g.roceV2() && !g.zero()) {
                return g.index();
            }
        }
        for (Gid g : gids) {
            if (!g.zero()) {
                return g.index();
            }
        }
        return 0;
    }

    /** GID {@code index}'s type of port {@code port} of {@code device} as sysfs tells it, or null. */
    static String type(String device, int port, int index) {
        try {
            return Files.readString(Path.of("/sys/class/infiniband", device, "ports", Integer.toString(port), "gid_attrs", "types",
                    Integer.toString(index))).strip();
        } catch (IOException | RuntimeException e) {
            return null; // an unused entry (EINVAL), or no sysfs: unknown
        }
    }
}
