// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The IB net's memory registrations of one protection domain, by page range and counted: a
 * region whose pages a registration covers already shares it, and a registration is undone when
 * its last user lets go. The proxy registers each FIFO once per connection, and FIFOs of one
 * communicator share memory, so this spares most {@code ibv_reg_mr} calls (which pin pages and
 * cost milliseconds). Thread-safe: connections are set up on threads of their own.
 */
final class IbMemoryCache {
    /** Registers and deregisters page ranges (verbs; a test's fake). */
    interface Registrar {
        /** Registers {@code length} bytes from {@code start}, both page-aligned. */
        Registration register(long start, long length);

        void deregister(Registration r);
    }

    /** A registration as verbs made it: the {@code ibv_mr} and its keys. */
    record Registration(MemorySegment mr, int lkey, int rkey) {
    }

    /** A registered page range and how many regions use it. */
    static final class Entry {
        final long start;
        final long end;
        final Registration registration;
        int users;

        Entry(long start, long end, Registration registration) {
            this.start = start;
            this.end = end;
            this.registration = registration;
        }

        int lkey() {
            return registration.lkey();
        }

        int rkey() {
            return registration.rkey();
        }
    }

    private final Registrar registrar;
    private final long page;
    private final List<Entry> entries = new ArrayList<>();
    /** Cleared with its net: a late release (a closing rank's, after the net closed) has nothing left to undo. */
    private boolean cleared;

    IbMemoryCache(Registrar registrar, long page) {
        if (Long.bitCount(page) != 1) {
            throw new IllegalArgumentException("a page of " + page + " bytes");
        }
        this.registrar = registrar;
        this.page = page;
    }

    /** A registration covering {@code length} bytes at {@code address}: one that covers them already, or a new one of their pages. */
    synchronized Entry acquire(long address, long length) {
        if (cleared) {
            throw new IllegalStateException("the registrations were cleared: the net is closed");
        }
        long start = address & -page;
        long end = Math.max(start + page, (address + length + page - 1) & -page);
        for (Entry e : entries) {
            if (e.start <= start && end <= e.end) {
                e.users++;
                return e;
            }
        }
        Entry e = new Entry(start, end, registrar.register(start, end - start));
        e.users = 1;
        entries.add(e);
        return e;
    }

    /** One user fewer of {@code e}; the last one deregisters it. */
    synchronized void release(Entry e) {
        if (e.users <= 0) {
            throw new IllegalStateException("a registration released more often than acquired");
        }
        if (cleared) {
            e.users--;
            return;
        }
        if (--e.users == 0) {
            entries.remove(e);
            registrar.deregister(e.registration);
        }
    }

    /** Registrations held now. */
    synchronized int size() {
        return entries.size();
    }

    /** Deregisters everything (the net closes); later releases undo nothing, later acquires fail. */
    synchronized void clear() {
        cleared = true;
        for (Entry e : entries) {
            registrar.deregister(e.registration);
        }
        entries.clear();
    }
}
