// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;

/**
 * A rank's packed descriptors by what identifies one (the call's shape, kernel and buffers), with
 * the device memory each holds: the descriptor, and the scratch of a plan that keeps partial
 * results. A caller that passes new buffers on every call (a caching allocator's blocks, slices of
 * a workspace) makes a new descriptor each time, so the cache is bounded: past {@link #MAX_ENTRIES}
 * descriptors or {@link #MAX_BYTES} of their memory, the least recently launched are dropped, and
 * their memory is taken by later descriptors once every launch that used it has finished.
 *
 * <p>Memory is never freed while the communicator lives: {@code cuMemFree} waits for every kernel
 * on the GPU, among them those of ranks sharing it that wait for this rank's next launch. Dropped
 * memory waits in a pool instead; a block is taken for a request of at least half its size, and a
 * rank whose pool holds more than {@link #MAX_BYTES} that launches still use waits for its own
 * earlier launches (whose peers have launched theirs: every rank issues its calls in order) rather
 * than allocate more.
 *
 * <p>A descriptor a captured launch uses is held ({@link #hold}) until the graph is destroyed: it
 * may leave the cache meanwhile, but its memory is pooled only once every hold is released.
 *
 * <p>Not thread-safe: a rank's launches are made by one thread at a time.
 */
final class DescriptorCache<K> {
    /** Descriptors kept for reuse at most. */
    static final int MAX_ENTRIES = 256;
    /** Device memory of the descriptors kept, at most; and of dropped memory still in use, before a wait. */
    static final long MAX_BYTES = 256L << 20;

    /** Device memory: its address and size. */
    record Block(long address, long bytes) {
    }

    /** A descriptor's memory, and its plan's scratch (null: none). */
    record Entry(Block descriptor, Block scratch) {
        long bytes() {
            return descriptor.bytes + (scratch == null ? 0 : scratch.bytes);
        }
    }

    /** What the cache knows of the rank's launches. */
    interface Launches {
        /**
         * How many of the rank's launches have finished (a lower bound); with {@code wait}, after
         * waiting until all it has made so far have.
         */
        long finished(boolean wait);
    }

    /**
     * A kept descriptor, the last launch that used it (updated on every use), and how many captured
     * graphs hold it.
     */
    static final class Kept {
        final Entry entry;
        long lastLaunch;
        int holds;
        /** Out of the cache while held: pooled when the last hold is released. */
        boolean dropped;

        Kept(Entry entry, long lastLaunch) {
            this.entry = entry;
            this.lastLaunch = lastLaunch;
        }
    }

    private record Dropped(Block block, long lastLaunch) {
    }

    private final LongUnaryOperator allocate;
    private final Launches launches;
    /** In order of last use, least recent first. */
    private final LinkedHashMap<K, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);
    /** Dropped blocks by size. */
    private final TreeMap<Long, ArrayDeque<Dropped>> pool = new TreeMap<>();
    private long keptBytes;
    private long poolBytes;
    /** Memory of descriptors out of the cache that graphs still hold. */
    private long heldBytes;
    private long allocatedBytes;
    private long finished;

    /** {@code allocate}: device memory of the given size for the communicator's lifetime, its address. */
    DescriptorCache(LongUnaryOperator allocate, Launches launches) {
        this.allocate = allocate;
        this.launches = launches;
    }

    /** The descriptor of {@code key}, now used by launch number {@code launch}; null if none is kept. */
    Entry get(K key, long launch) {
        Kept k = kept.get(key); // in access order: now the most recently used
        if (k == null) {
            return null;
        }
        k.lastLaunch = launch;
        return k.entry;
    }

    /**
     * Device memory of at least {@code bytes} for a new descriptor or scratch: a dropped block no
     * launch uses any more, or a new one.
     */
    Block take(long bytes) {
        Block b = reuse(bytes);
        if (b == null && fits(bytes)) {
            finished = Math.max(finished, launches.finished(poolBytes > MAX_BYTES));
            b = reuse(bytes);
        }
        if (b == null) {
            b = new Block(allocate.applyAsLong(bytes), bytes);
            allocatedBytes += bytes;
        }
        return b;
    }

    /**
     * Keeps {@code entry} as {@code key}'s, used by launch number {@code launch}, and drops the least
     * recently used beyond the bounds, but none that this launch uses.
     */
    void put(K key, Entry entry, long launch) {
        Kept old = kept.put(key, new Kept(entry, launch));
        keptBytes += entry.bytes();
        if (old != null) {
            drop(old);
        }
        Iterator<Map.Entry<K, Kept>> it = kept.entrySet().iterator();
        while ((kept.size() > MAX_ENTRIES || keptBytes > MAX_BYTES) && it.hasNext()) {
            Kept k = it.next().getValue();
            if (k.lastLaunch >= launch) {
                break;
            }
            it.remove();
            drop(k);
        }
    }

    /**
     * Holds {@code key}'s descriptor (just used by a launch being captured) until {@link #release}:
     * its memory is not reused meanwhile, whether or not it stays in the cache.
     */
    Kept hold(K key) {
        Kept k = kept.get(key);
        k.holds++;
        return k;
    }

    /** Ends one hold of {@link #hold}; the memory of a descriptor dropped meanwhile goes to the pool. */
    void release(Kept k) {
        if (--k.holds == 0 && k.dropped) {
            heldBytes -= k.entry.bytes();
            k.dropped = false;
            poolBlocks(k);
        }
    }

    /** Memory of descriptors dropped from the cache that graphs still hold. */
    long heldBytes() {
        return heldBytes;
    }

    /** Device memory this cache has allocated, kept and pooled. */
    long allocatedBytes() {
        return allocatedBytes;
    }

    /** Descriptors kept. */
    int size() {
        return kept.size();
    }

    private void drop(Kept k) {
        keptBytes -= k.entry.bytes();
        if (k.holds > 0) {
            k.dropped = true;
            heldBytes += k.entry.bytes();
            return;
        }
        poolBlocks(k);
    }

    private void poolBlocks(Kept k) {
        pool(new Dropped(k.entry.descriptor, k.lastLaunch));
        if (k.entry.scratch != null) {
            pool(new Dropped(k.entry.scratch, k.lastLaunch));
        }
    }

    private void pool(Dropped d) {
        pool.computeIfAbsent(d.block.bytes, s -> new ArrayDeque<>()).add(d);
        poolBytes += d.block.bytes;
    }

    /** Whether a pooled block could serve {@code bytes}, finished or not. */
    private boolean fits(long bytes) {
        return !pool.subMap(bytes, true, 2 * bytes, true).isEmpty();
    }

    private Block reuse(long bytes) {
        for (Map.Entry<Long, ArrayDeque<Dropped>> e : pool.subMap(bytes, true, 2 * bytes, true).entrySet()) {
            for (Iterator<Dropped> it = e.getValue().iterator(); it.hasNext(); ) {
                Dropped d = it.next();
                if (d.lastLaunch <= finished) {
                    it.remove();
                    if (e.getValue().isEmpty()) {
                        pool.remove(e.getKey());
                    }
                    poolBytes -= d.block.bytes;
                    return d.block;
                }
            }
        }
        return null;
    }
}
