// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.util.Collection;
import java.util.TreeSet;

/** Rank lists for messages: "2", "0-3, 7", so that a thousand missing ranks fit on a line. */
final class Ranks {
    private Ranks() {
    }

    static String format(Collection<Integer> ranks) {
        if (ranks.isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int r : new TreeSet<>(ranks)) {
            if (prev != null && r == prev + 1) {
                prev = r;
                continue;
            }
            if (start != null) {
                append(sb, start, prev);
            }
            start = r;
            prev = r;
        }
        append(sb, start, prev);
        return sb.toString();
    }

    private static void append(StringBuilder sb, int start, int end) {
        if (!sb.isEmpty()) {
            sb.append(", ");
        }
        sb.append(start);
        if (end > start) {
            sb.append('-').append(end);
        }
    }
}
