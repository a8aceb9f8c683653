// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The IB net's registrations: shared by page range, counted, undone by the last user. */
class IbMemoryCacheTest {
    private final List<long[]> registered = new ArrayList<>();
    private final List<Integer> deregistered = new ArrayList<>();
    private final IbMemoryCache cache = new IbMemoryCache(new IbMemoryCache.Registrar() {
        @Override
        public IbMemoryCache.Registration register(long start, long length) {
            registered.add(new long[] {start, length});
            int key = registered.size();
            return new IbMemoryCache.Registration(MemorySegment.NULL, key, key + 100);
        }

        @Override
        public void deregister(IbMemoryCache.Registration r) {
            deregistered.add(r.lkey());
        }
    }, 4096);

    @Test
    void aRegionIsRegisteredByItsWholePages() {
        IbMemoryCache.Entry e = cache.acquire(0x10_0010, 5000);
        assertThat(registered).hasSize(1);
        assertThat(registered.get(0)).containsExactly(0x10_0000, 8192);
        assertThat(e.lkey()).isEqualTo(1);
        assertThat(e.rkey()).isEqualTo(101);
        IbMemoryCache.Entry empty = cache.acquire(0x20_0000, 0);
        assertThat(registered.get(1)).as("an empty region still gets a page").containsExactly(0x20_0000, 4096);
        assertThat(empty).isNotSameAs(e);
    }

    @Test
    void regionsInsideARegistrationShareItUntilTheLastLetsGo() {
        IbMemoryCache.Entry big = cache.acquire(0x10_0000, 1 << 20);
        IbMemoryCache.Entry inside = cache.acquire(0x10_0000 + 12_345, 4096);
        IbMemoryCache.Entry same = cache.acquire(0x10_0000, 1 << 20);
        assertThat(inside).isSameAs(big);
        assertThat(same).isSameAs(big);
        assertThat(registered).hasSize(1);
        IbMemoryCache.Entry across = cache.acquire(0x10_0000 + (1 << 20) - 100, 200);
        assertThat(across).as("past the registration's end").isNotSameAs(big);
        assertThat(registered).hasSize(2);
        cache.release(big);
        cache.release(inside);
        assertThat(deregistered).isEmpty();
        assertThat(cache.size()).isEqualTo(2);
        cache.release(same);
        assertThat(deregistered).containsExactly(1);
        assertThat(cache.size()).isEqualTo(1);
        IbMemoryCache.Entry again = cache.acquire(0x10_0000, 4096);
        assertThat(again).as("a released range is registered anew").isNotSameAs(big);
        assertThat(registered).hasSize(3);
        assertThatThrownBy(() -> cache.release(big)).isInstanceOf(IllegalStateException.class);
        cache.clear();
        assertThat(deregistered).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(cache.size()).isZero();
        cache.release(again); // a closing rank's late release: nothing is deregistered twice
        assertThat(deregistered).hasSize(3);
        assertThatThrownBy(() -> cache.acquire(0, 1)).isInstanceOf(IllegalStateException.class);
    }
}
