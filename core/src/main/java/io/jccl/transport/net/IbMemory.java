// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;

/** Memory registered with the IB net: the region, and the cached registration covering its pages ({@link IbMemoryCache}). */
final class IbMemory implements MemoryHandle {
    private final MemorySegment region;
    final IbDevice device;
    final IbMemoryCache.Entry entry;

    IbMemory(MemorySegment region, IbDevice device, IbMemoryCache.Entry entry) {
        this.region = region;
        this.device = device;
        this.entry = entry;
    }

    @Override
    public MemorySegment region() {
        return region;
    }

    @Override
    public MemoryKind kind() {
        return MemoryKind.HOST;
    }

    /** The address of {@code bytes} at {@code data} + {@code offset}; throws unless they lie inside the region. */
    long address(MemorySegment data, long offset, long bytes) {
        return region.address() + SocketMemory.position(region, data, offset, bytes);
    }
}
