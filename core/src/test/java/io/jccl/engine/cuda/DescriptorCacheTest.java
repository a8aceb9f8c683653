// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DescriptorCacheTest {
    /** A fake GPU: addresses handed out in order, launches finished up to {@link #done}. */
    private static final class Gpu {
        long next = 0x1000;
        long done;
        long lastMade;
        final List<Boolean> asked = new ArrayList<>();

        long allocate(long bytes) {
            long at = next;
            next += (bytes + 255) & ~255L;
            return at;
        }

        long finished(boolean wait) {
            asked.add(wait);
            if (wait) {
                done = lastMade;
            }
            return done;
        }
    }

    private static DescriptorCache.Entry entry(DescriptorCache<Integer> c, long bytes, long scratch) {
        return new DescriptorCache.Entry(c.take(bytes), scratch > 0 ? c.take(scratch) : null);
    }

    @Test
    void callsOnNewBuffersEveryTimeReuseTheMemoryOfDroppedDescriptorsOnceTheirLaunchesFinished() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        int calls = 10 * DescriptorCache.MAX_ENTRIES;
        Set<Long> addresses = new HashSet<>();
        for (int call = 1; call <= calls; call++) {
            assertThat(c.get(call, call)).isNull();
            DescriptorCache.Entry e = entry(c, 4096, 0);
            c.put(call, e, call);
            addresses.add(e.descriptor().address());
            g.lastMade = call;
            g.done = call; // each launch finished before the next call (the caller synchronized)
        }
        assertThat(c.size()).isEqualTo(DescriptorCache.MAX_ENTRIES);
        // one more than the entries kept: the newest is made before the oldest is dropped
        assertThat(addresses).hasSize(DescriptorCache.MAX_ENTRIES + 1);
        assertThat(c.allocatedBytes()).isEqualTo((DescriptorCache.MAX_ENTRIES + 1) * 4096L);
        // a recent one is still there and keeps its address
        assertThat(c.get(calls - 1, calls + 1)).isNotNull();
        assertThat(c.get(1, calls + 1)).isNull();
    }

    @Test
    void memoryALaunchInFlightMayStillReadIsNotTakenAgain() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        Set<Long> inFlight = new HashSet<>();
        for (int call = 1; call <= DescriptorCache.MAX_ENTRIES + 50; call++) {
            DescriptorCache.Entry e = entry(c, 4096, 0);
            assertThat(inFlight.add(e.descriptor().address())).as("call " + call + " took memory of a launch not finished").isTrue();
            c.put(call, e, call);
            g.lastMade = call; // nothing finishes
        }
        assertThat(c.allocatedBytes()).isEqualTo((DescriptorCache.MAX_ENTRIES + 50) * 4096L);
        assertThat(g.asked).doesNotContain(true);
        g.done = 10; // launches 1 to 10 finished: their memory comes back, no other
        for (int call = 0; call < 12; call++) {
            int key = 1000 + call;
            long launch = DescriptorCache.MAX_ENTRIES + 51 + call;
            DescriptorCache.Entry e = entry(c, 4096, 0);
            c.put(key, e, launch);
            g.lastMade = launch;
            long slot = (e.descriptor().address() - 0x1000) / 4096 + 1;
            if (call < 10) {
                assertThat(slot).as("memory of launch " + slot).isBetween(1L, 10L);
            } else {
                assertThat(slot).as("new memory").isGreaterThan(DescriptorCache.MAX_ENTRIES + 50L);
            }
        }
    }

    @Test
    void theDescriptorsOfTheLaunchBeingMadeAreKeptBeyondTheBounds() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        int ops = DescriptorCache.MAX_ENTRIES + 3;
        for (int op = 0; op < ops; op++) {
            c.put(op, entry(c, 256, 0), 1); // one launch of many operations
        }
        assertThat(c.size()).isEqualTo(ops);
        for (int op = 0; op < ops; op++) {
            assertThat(c.get(op, 1)).as("operation " + op).isNotNull();
        }
        g.lastMade = 1;
        g.done = 1;
        c.put(ops, entry(c, 256, 0), 2);
        assertThat(c.size()).isEqualTo(DescriptorCache.MAX_ENTRIES);
    }

    @Test
    void largeScratchIsBoundedByBytesAndWaitsForTheRanksOwnLaunchesRatherThanGrowWithoutEnd() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        long big = 64L << 20; // a butterfly's scratch of a large call
        for (int call = 1; call <= 40; call++) {
            DescriptorCache.Entry e = entry(c, 8192, big);
            c.put(call, e, call);
            g.lastMade = call; // never synchronized by the caller
        }
        assertThat(c.size()).isLessThanOrEqualTo((int) (DescriptorCache.MAX_BYTES / big));
        // kept within MAX_BYTES, dropped-but-in-use within MAX_BYTES more, plus the call being made
        assertThat(c.allocatedBytes()).isLessThanOrEqualTo(2 * DescriptorCache.MAX_BYTES + 2 * (big + 8192));
        assertThat(g.asked).contains(true);
    }

    @Test
    void aBlockServesRequestsOfHalfItsSizeOrMoreAndNoSmaller() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        for (int call = 1; call <= DescriptorCache.MAX_ENTRIES + 2; call++) { // calls 1 and 2 dropped
            c.put(call, entry(c, call == 1 ? 10_000 : 100, 0), call);
            g.lastMade = call;
            g.done = call;
        }
        long before = c.allocatedBytes();
        DescriptorCache.Block tiny = c.take(100); // call 2's block, not call 1's 10 000 bytes
        assertThat(tiny.bytes()).isEqualTo(100);
        DescriptorCache.Block half = c.take(5_000);
        assertThat(half.bytes()).isEqualTo(10_000);
        assertThat(c.allocatedBytes()).isEqualTo(before);
        assertThat(c.take(4_000).bytes()).as("nothing pooled fits: new memory").isEqualTo(4_000);
        assertThat(c.allocatedBytes()).isEqualTo(before + 4_000);
    }

    @Test
    void aDescriptorAGraphHoldsIsNotReusedUntilTheGraphLetsGo() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        DescriptorCache.Entry held = entry(c, 4096, 1024);
        c.put(0, held, 1);
        DescriptorCache.Kept k = c.hold(0);
        g.lastMade = 1;
        g.done = 1;
        Set<Long> later = new HashSet<>();
        // Enough new calls to push it out of the cache: its memory is not handed out again.
        for (int call = 1; call <= 2 * DescriptorCache.MAX_ENTRIES; call++) {
            DescriptorCache.Entry e = entry(c, 4096, 0);
            c.put(call, e, call + 1);
            later.add(e.descriptor().address());
            g.lastMade = call + 1;
            g.done = call + 1;
        }
        assertThat(c.get(0, 10_000)).as("out of the cache").isNull();
        assertThat(later).doesNotContain(held.descriptor().address());
        assertThat(c.heldBytes()).isEqualTo(held.bytes());
        c.release(k);
        assertThat(c.heldBytes()).isZero();
        // Now pooled: among the blocks of its size that later descriptors take again.
        Set<Long> reused = new HashSet<>();
        for (int i = 0; i <= 2 * DescriptorCache.MAX_ENTRIES; i++) {
            reused.add(c.take(4096).address());
        }
        assertThat(reused).contains(held.descriptor().address());
    }

    @Test
    void aHeldDescriptorStillInTheCacheStaysUsableAfterRelease() {
        Gpu g = new Gpu();
        DescriptorCache<Integer> c = new DescriptorCache<>(g::allocate, g::finished);
        DescriptorCache.Entry e = entry(c, 4096, 0);
        c.put(7, e, 1);
        DescriptorCache.Kept first = c.hold(7);
        DescriptorCache.Kept second = c.hold(7);
        c.release(first);
        c.release(second);
        assertThat(c.heldBytes()).isZero();
        assertThat(c.get(7, 2)).isSameAs(e);
    }
}
