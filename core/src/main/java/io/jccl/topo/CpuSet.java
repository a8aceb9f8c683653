// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.BitSet;
import java.util.StringJoiner;

/**
 * A set of logical CPUs, read from and written as sysfs writes them: a {@code cpumap} (32-bit hex
 * words, most significant first, joined by commas: {@code "00ffffff,ffffffff"}, NCCL's
 * {@code affinity} attribute) or a {@code cpulist} ({@code "0-23,48-71"}).
 */
public record CpuSet(BitSet cpus) {
    public CpuSet {
        cpus = (BitSet) cpus.clone();
    }

    @Override
    public BitSet cpus() {
        return (BitSet) cpus.clone();
    }

    public static CpuSet fromCpumap(String map) {
        BitSet b = new BitSet();
        String[] words = map.strip().split(",");
        for (int w = 0; w < words.length; w++) {
            String word = words[words.length - 1 - w].strip();
            if (word.isEmpty()) {
                continue;
            }
            long bits;
            try {
                bits = Long.parseLong(word, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + map + "' is not a cpumap (hex words joined by commas)");
            }
            for (int i = 0; i < 32; i++) {
                if ((bits >>> i & 1) != 0) {
                    b.set(w * 32 + i);
                }
            }
        }
        return new CpuSet(b);
    }

    public static CpuSet fromCpulist(String list) {
        BitSet b = new BitSet();
        for (String part : list.strip().split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            try {
                int dash = p.indexOf('-');
                int lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
                int hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1));
                b.set(lo, hi + 1);
            } catch (NumberFormatException | IndexOutOfBoundsException e) {
                throw new IllegalArgumentException("'" + list + "' is not a cpulist (like 0-23,48-71)");
            }
        }
        return new CpuSet(b);
    }

    public int count() {
        return cpus.cardinality();
    }

    public String toCpumap() {
        int words = Math.max(1, (cpus.length() + 31) / 32);
        StringJoiner j = new StringJoiner(",");
        for (int w = words - 1; w >= 0; w--) {
            long bits = 0;
            for (int i = 0; i < 32; i++) {
                if (cpus.get(w * 32 + i)) {
                    bits |= 1L << i;
                }
            }
            j.add(String.format("%08x", bits));
        }
        return j.toString();
    }

    public String toCpulist() {
        StringJoiner j = new StringJoiner(",");
        for (int lo = cpus.nextSetBit(0); lo >= 0; ) {
            int hi = cpus.nextClearBit(lo) - 1;
            j.add(lo == hi ? Integer.toString(lo) : lo + "-" + hi);
            lo = cpus.nextSetBit(hi + 1);
        }
        return j.toString();
    }

    @Override
    public String toString() {
        return toCpulist();
    }
}
