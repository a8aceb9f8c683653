// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The user buffers this process's ranks registered ({@code Communicator.register}), counted: the
 * network transport sends a by-reference message straight from the buffer that holds it (RDMA
 * from the user's memory, registered with the net once) instead of staging it. Registrations
 * change rarely and are read by the proxy threads on every by-reference message, so readers see
 * an immutable array and writers replace it.
 */
public final class UserMemory {
    /** A registered buffer and how many registrations name it. */
    private record Entry(MemorySegment buffer, int count) {
    }

    private volatile Entry[] entries = new Entry[0];

    /** One more registration of {@code buffer}. */
    public synchronized void add(MemorySegment buffer) {
        Entry[] e = entries;
        for (int i = 0; i < e.length; i++) {
            if (same(e[i].buffer(), buffer)) {
                Entry[] next = e.clone();
                next[i] = new Entry(e[i].buffer(), e[i].count() + 1);
                entries = next;
                return;
            }
        }
        Entry[] next = Arrays.copyOf(e, e.length + 1);
        next[e.length] = new Entry(buffer, 1);
        entries = next;
    }

    /**
     * One registration of {@code buffer} fewer: the registered segment when it was the last one
     * (its net registrations are to be dropped), else null; throws when it was not registered.
     */
    public synchronized MemorySegment remove(MemorySegment buffer) {
        Entry[] e = entries;
        for (int i = 0; i < e.length; i++) {
            if (same(e[i].buffer(), buffer)) {
                Entry[] next;
                if (e[i].count() > 1) {
                    next = e.clone();
                    next[i] = new Entry(e[i].buffer(), e[i].count() - 1);
                    entries = next;
                    return null;
                }
                next = new Entry[e.length - 1];
                System.arraycopy(e, 0, next, 0, i);
                System.arraycopy(e, i + 1, next, i, e.length - i - 1);
                entries = next;
                return e[i].buffer();
            }
        }
        throw new IllegalArgumentException(buffer + " is not registered");
    }

    /** The registered buffer holding all {@code bytes} at {@code data} + {@code offset}, or null. */
    public MemorySegment holding(MemorySegment data, long offset, long bytes) {
        if (!data.isNative()) {
            return null;
        }
        long start = data.address() + offset;
        for (Entry e : entries) {
            MemorySegment b = e.buffer();
            if (start >= b.address() && start + bytes <= b.address() + b.byteSize()) {
                return b;
            }
        }
        return null;
    }

    /** Registered buffers, each counted once. */
    public int size() {
        return entries.length;
    }

    private static boolean same(MemorySegment a, MemorySegment b) {
        return a.address() == b.address() && a.byteSize() == b.byteSize();
    }
}
