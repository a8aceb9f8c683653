// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BufferRegistryTest {
    @Test
    void coversOnlyRangesInsideOneRegistration() {
        BufferRegistry r = new BufferRegistry();
        r.add(1000, 100);
        r.add(5000, 10);
        assertThat(r.covers(1000, 100)).isTrue();
        assertThat(r.covers(1050, 50)).isTrue();
        assertThat(r.covers(1050, 51)).isFalse();
        assertThat(r.covers(999, 2)).isFalse();
        assertThat(r.covers(1100, 1)).isFalse();
        assertThat(r.covers(5009, 1)).isTrue();
        assertThat(r.covers(0, 1)).isFalse();
    }

    @Test
    void registrationsAreCountedAndRemovedExactly() {
        BufferRegistry r = new BufferRegistry();
        r.add(1000, 100);
        r.add(1000, 100);
        assertThat(r.remove(1000, 99)).isFalse();
        assertThat(r.remove(1000, 100)).isTrue();
        assertThat(r.covers(1000, 100)).isTrue();
        assertThat(r.remove(1000, 100)).isTrue();
        assertThat(r.covers(1000, 100)).isFalse();
        assertThat(r.remove(1000, 100)).isFalse();
        assertThat(r.size()).isZero();
    }
}
