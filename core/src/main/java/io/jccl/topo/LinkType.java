// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

/**
 * The kinds of link between two nodes. Each has the path type a one-hop path over it starts with
 * (NCCL numbers them so that the two coincide): a PCI hop starts as {@link PathType#PIX}.
 */
public enum LinkType {
    /** Inside one device, or a virtual link between two PCI switches. */
    LOC(PathType.LOC),
    NVL(PathType.NVL),
    /** Chip-to-chip between a GPU and its CPU (Grace Hopper). */
    C2C(PathType.C2C),
    PCI(PathType.PIX),
    /** The SMP interconnect between NUMA domains (QPI, UPI, Infinity Fabric). */
    SYS(PathType.SYS),
    /** Between a NIC and its network port. */
    NET(PathType.NET);

    private final PathType pathType;

    LinkType(PathType pathType) {
        this.pathType = pathType;
    }

    public PathType pathType() {
        return pathType;
    }
}
