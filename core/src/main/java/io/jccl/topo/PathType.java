// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.Locale;

/**
 * How far apart two nodes are, NCCL's path types from nearest to farthest; a path's type is the
 * farthest of its hops, so the order of the constants is the order that matters.
 */
public enum PathType {
    /** The node itself. */
    LOC,
    /** NVLink, directly or through NVSwitches. */
    NVL,
    /** NVLink through one intermediate GPU. */
    NVB,
    /** Chip-to-chip link between a GPU and its CPU. */
    C2C,
    /** At most one PCI switch between the two. */
    PIX,
    /** Several PCI switches, not through a CPU. */
    PXB,
    /** A GPU reaching a NIC through its C2C link to the CPU, then PCI. */
    P2C,
    /** A GPU reaching a NIC through another GPU (NVLink, then that GPU's PCI). */
    PXN,
    /** Through a PCI host bridge (the CPU). */
    PHB,
    /** Across the SMP interconnect between NUMA domains. */
    SYS,
    /** Through the network. */
    NET,
    /** Not connected. */
    DIS;

    public boolean atMost(PathType other) {
        return compareTo(other) <= 0;
    }

    public static PathType max(PathType a, PathType b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** Parses a name such as {@code "PXB"}, in any case. */
    public static PathType parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + s + "' is not a path type (LOC NVL NVB C2C PIX PXB P2C PXN PHB SYS NET DIS)");
        }
    }
}
