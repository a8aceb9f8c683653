// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

/** A view of {@code length} symbolic elements from {@code base} of a shared array (in-place aliasing). */
record SymBuffer(Sym[] data, int base, int length) {
    static SymBuffer of(int length) {
        Sym[] d = new Sym[length];
        java.util.Arrays.fill(d, Sym.POISON);
        return new SymBuffer(d, 0, length);
    }

    SymBuffer view(long from, long len) {
        if (from < 0 || len < 0 || from + len > length) {
            throw new IllegalArgumentException("view " + from + "+" + len + " of " + length);
        }
        return new SymBuffer(data, base + (int) from, (int) len);
    }

    Sym get(long i) {
        return data[base + (int) i];
    }

    void set(long i, Sym v) {
        data[base + (int) i] = v;
    }
}
