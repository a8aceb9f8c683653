// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

/**
 * The kinds of node of the system graph, NCCL's: {@code CPU} is a NUMA domain, {@code PCI} a PCI
 * switch or bridge, {@code NVS} all NVSwitches of a node taken as one, {@code NIC} a network
 * card and {@code NET} one of its ports as the network plugin sees it.
 */
public enum NodeType {
    GPU, PCI, NVS, CPU, NIC, NET
}
