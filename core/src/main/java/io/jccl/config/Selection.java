// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import io.jccl.Collective;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What {@code JCCL_ALGO} or {@code JCCL_PROTO} allows: one set for every collective, and another for
 * each collective its {@code name:list} parts name, as NCCL (2.24 and later) reads {@code NCCL_ALGO}
 * and {@code NCCL_PROTO}: {@code ring,tree;allreduce:^tree;broadcast:ring}.
 *
 * @param <T>          what is selected (an algorithm's id, a protocol)
 * @param fallback     what the collectives no part names may use
 * @param byCollective what the named ones may use
 */
public record Selection<T>(Set<T> fallback, Map<Collective, Set<T>> byCollective) {
    public Selection {
        fallback = Set.copyOf(fallback);
        Map<Collective, Set<T>> m = new EnumMap<>(Collective.class);
        byCollective.forEach((c, s) -> m.put(c, Set.copyOf(s)));
        byCollective = java.util.Collections.unmodifiableMap(m);
    }

    /** Every collective may use {@code all}. */
    public static <T> Selection<T> everyCollective(Set<T> all) {
        return new Selection<>(all, Map.of());
    }

    /** What {@code c} may use. */
    public Set<T> of(Collective c) {
        return byCollective.getOrDefault(c, fallback);
    }

    /** {@code ;}-separated parts: at most one plain list (the fallback), and {@code collective:list} ones. */
    static <T> Selection<T> parse(String spec, Set<T> all, Function<String, Set<T>> list) {
        Set<T> fallback = null;
        Map<Collective, Set<T>> by = new EnumMap<>(Collective.class);
        for (String part : spec.split(";")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue; // "ring;" as NCCL's scripts sometimes end it
            }
            int colon = p.indexOf(':');
            if (colon < 0) {
                if (fallback != null) {
                    throw new Setting.Problem("has two lists for every collective ('" + p + "'): name a collective, "
                            + "like allreduce:" + p);
                }
                fallback = list.apply(p);
                continue;
            }
            String name = p.substring(0, colon).strip();
            Collective c;
            try {
                c = Collective.parse(name);
            } catch (IllegalArgumentException e) {
                throw new Setting.Problem("names '" + name + "', not a collective (allreduce, broadcast, reduce, allgather, "
                        + "reducescatter, alltoall, gather, scatter, sendrecv)");
            }
            if (by.put(c, list.apply(p.substring(colon + 1).strip())) != null) {
                throw new Setting.Problem("names '" + name + "' twice");
            }
        }
        if (fallback == null && by.isEmpty()) {
            throw new IllegalArgumentException();
        }
        return new Selection<>(fallback == null ? all : fallback, by);
    }

    /** The text {@link #parse} reads back: the fallback, then each named collective's list. */
    String format(Function<Set<T>, String> list) {
        StringBuilder b = new StringBuilder(list.apply(fallback));
        byCollective.forEach((c, s) -> b.append(';').append(c.cliName()).append(':').append(list.apply(s)));
        return b.toString();
    }

    @Override
    public String toString() {
        return format(s -> s.stream().map(String::valueOf).sorted().collect(Collectors.joining(",")));
    }
}
