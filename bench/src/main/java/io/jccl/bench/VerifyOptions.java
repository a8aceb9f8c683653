// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.util.List;

/**
 * The options of {@code jccl verify}. Left at their defaults, the counts and message sizes are
 * trimmed for the large rank counts (n >= 31: at most {@value #LARGE_N_MAX_COUNT} elements, and
 * only the largest message size for counts above 7) so that the whole matrix runs in seconds; a
 * list given on the command line is used as given.
 *
 * @param ranks       rank counts (-n)
 * @param channels    channel counts, which are also the lanes of the send/recv groups (-c)
 * @param maxMessages the most elements one message may carry (-m)
 * @param counts      element counts of the collectives (--counts)
 * @param p2pGroups   random send/recv groups per (ranks, channels, message size) (--p2p)
 */
public record VerifyOptions(List<Integer> ranks, List<Integer> channels, List<Long> maxMessages, List<Long> counts,
                            int p2pGroups, long seed, boolean trimCounts, boolean trimMessages) {

    static final long LARGE_N_MAX_COUNT = 97;
    static final int LARGE_N = 31;
    static final long SMALL_COUNT = 7;

    static final String USAGE = """
            usage: jccl verify [options]
              -n LIST        rank counts, like 1-16,31,32,33,64 (the default)
              -c LIST        channel counts (default 1,2,3)
              -m LIST        most elements per message (default 1,3,64; 1 makes every element its own tile)
                  --counts LIST  element counts, uneven ones on purpose (default 0,1,7,1001)
                  --p2p N    random send/recv groups per rank count, channel count and message size (default 3)
                  --seed S   seed of the random groups and roots (default 20261122)
            Runs the symbolic verifier over every collective and algorithm, out-of-place and in-place,
            with FIFOs two messages deep. With the default lists, counts above 7 skip 1-element messages,
            and n >= 31 stops at 97 elements and, above 7, uses only the largest message size.
            Exit status 1 if any case fails.""";

    public static VerifyOptions parse(List<String> args) {
        ArgReader r = new ArgReader("verify", args);
        List<Integer> ranks = null;
        List<Integer> channels = List.of(1, 2, 3);
        List<Long> messages = null;
        List<Long> counts = null;
        int p2p = 3;
        long seed = 20261122L;
        while (r.hasNext()) {
            String o = r.option("ncm");
            switch (o) {
                case "-n", "--ranks" -> ranks = r.intListValue(o, 1, 1024);
                case "-c", "--channels" -> channels = r.intListValue(o, 1, 64);
                case "-m", "--maxmsg" -> {
                    messages = r.longListValue(o);
                    if (messages.contains(0L)) {
                        throw r.error("option " + o + ": a message must carry at least 1 element");
                    }
                }
                case "--counts" -> counts = r.longListValue(o);
                case "--p2p" -> p2p = r.intValue(o, 0, 1000);
                case "--seed" -> seed = r.intValue(o, 0, Integer.MAX_VALUE);
                default -> throw r.unknown(o);
            }
        }
        return new VerifyOptions(
                ranks != null ? ranks : List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 31, 32, 33, 64),
                channels,
                messages != null ? messages : List.of(1L, 3L, 64L),
                counts != null ? counts : List.of(0L, 1L, 7L, 1001L),
                p2p, seed, counts == null, messages == null);
    }

    /** The counts checked with {@code n} ranks. */
    List<Long> countsFor(int n) {
        if (!trimCounts || n < LARGE_N) {
            return counts;
        }
        return counts.stream().map(c -> Math.min(c, LARGE_N_MAX_COUNT)).distinct().toList();
    }

    /**
     * The message sizes checked with {@code n} ranks and {@code count} elements. By default,
     * above 7 elements the one-element messages are left out (7 elements already make every
     * element its own tile, and a 1001-tile plan costs the most), and for n >= 31 all but the
     * largest message size.
     */
    List<Long> messagesFor(int n, long count) {
        if (!trimMessages || count <= SMALL_COUNT) {
            return maxMessages;
        }
        if (n >= LARGE_N) {
            return List.of(maxMessages.stream().max(Long::compare).orElseThrow());
        }
        return maxMessages.stream().filter(m -> m > 1).toList();
    }
}
