// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.topo.ServerLayout;

import java.util.Arrays;
import java.util.Random;

/**
 * Which server each rank of an emulated {@link Fabric} goes on, as {@code jccl fabric --placement}
 * names it. Launchers do not always number ranks server by server (Spark barrier tasks, Slurm's
 * cyclic distribution, hand-written host files), and a layout that the library only sees through
 * host identities must work whatever the numbering.
 * <ul>
 * <li>{@code contiguous}: rank {@code r} on server {@code r / perServer};
 * <li>{@code interleaved}: rank {@code r} on server {@code r mod servers};
 * <li>{@code random:SEED}: the contiguous assignment shuffled by a {@link Random} of that seed, so
 * every server keeps {@code perServer} ranks and a seed always gives the same placement.
 * </ul>
 * The layout numbers servers in the order of their lowest rank, as the library does.
 *
 * <pre>{@code
 * ServerLayout l = Placement.parse("interleaved").layout(2, 4);   // 2 servers x 4 ranks
 * int server = l.serverOf(3);                                       // 1
 * }</pre>
 *
 * @param kind which rule
 * @param seed the shuffle's seed ({@link Kind#RANDOM}; 0 otherwise)
 */
public record Placement(Kind kind, long seed) {
    /** Rank {@code r} on server {@code r / perServer}: how every launcher numbered ranks before. */
    public static final Placement CONTIGUOUS = new Placement(Kind.CONTIGUOUS, 0);
    /** Rank {@code r} on server {@code r mod servers}. */
    public static final Placement INTERLEAVED = new Placement(Kind.INTERLEAVED, 0);

    /** The rules. */
    public enum Kind {
        CONTIGUOUS, INTERLEAVED, RANDOM
    }

    public Placement {
        if (kind == null) {
            throw new IllegalArgumentException("a placement needs a kind");
        }
        if (kind != Kind.RANDOM && seed != 0) {
            throw new IllegalArgumentException(kind + " takes no seed");
        }
        if (seed < 0) {
            throw new IllegalArgumentException("a seed must be >= 0, was " + seed);
        }
    }

    /** The contiguous placement shuffled with {@code seed} (>= 0). */
    public static Placement random(long seed) {
        return new Placement(Kind.RANDOM, seed);
    }

    /**
     * {@code contiguous}, {@code interleaved} or {@code random:SEED} (SEED an integer >= 0);
     * IllegalArgumentException with what is wrong otherwise.
     */
    public static Placement parse(String text) {
        String t = text.strip();
        if (t.equals("contiguous")) {
            return CONTIGUOUS;
        }
        if (t.equals("interleaved")) {
            return INTERLEAVED;
        }
        if (t.equals("random") || t.startsWith("random:")) {
            String seed = t.substring("random".length()).replaceFirst("^:", "");
            if (seed.isEmpty()) {
                throw new IllegalArgumentException("'" + text + "' needs a seed: random:SEED, SEED an integer >= 0 (like random:7)");
            }
            try {
                long s = Long.parseLong(seed);
                if (s >= 0) {
                    return random(s);
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException("the seed of '" + text + "' is not an integer >= 0");
        }
        throw new IllegalArgumentException("'" + text + "' is not contiguous, interleaved or random:SEED");
    }

    /** {@code servers × perServer} ranks placed by this rule. */
    public ServerLayout layout(int servers, int perServer) {
        if (servers < 1 || perServer < 1) {
            throw new IllegalArgumentException(servers + " servers of " + perServer + " ranks");
        }
        int n = servers * perServer;
        Integer[] server = new Integer[n];
        for (int r = 0; r < n; r++) {
            server[r] = kind == Kind.INTERLEAVED ? r % servers : r / perServer;
        }
        if (kind == Kind.RANDOM) {
            // Fisher-Yates with java.util.Random, whose sequence for a seed the JDK specifies: the
            // same placement on every machine and JDK.
            Random random = new Random(seed);
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                Integer x = server[i];
                server[i] = server[j];
                server[j] = x;
            }
        }
        return ServerLayout.ofHosts(Arrays.asList(server));
    }

    /** As {@link #parse} reads it. */
    @Override
    public String toString() {
        return switch (kind) {
            case CONTIGUOUS -> "contiguous";
            case INTERLEAVED -> "interleaved";
            case RANDOM -> "random:" + seed;
        };
    }
}
