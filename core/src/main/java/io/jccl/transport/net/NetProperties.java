// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.util.Set;

/**
 * A device of a {@link Net} (NCCL's ncclNetProperties_t, the fields jccl uses): its name, the
 * sysfs path of its PCI device (null when it has none), its speed in Mbit/s, the memory it can
 * send from and receive into, and how many requests each comm has in flight at most.
 */
public record NetProperties(String name, String pciPath, long speedMbps, Set<MemoryKind> memory, int maxRequests) {
    public NetProperties {
        memory = Set.copyOf(memory);
        if (maxRequests < 1) {
            throw new IllegalArgumentException("maxRequests " + maxRequests);
        }
    }
}
