// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.algo.Algorithm;
import io.jccl.json.JsonReader;
import io.jccl.json.JsonWriter;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A calibrated tuning table: for each collective, rank count and measured size, the time of every
 * (algorithm, protocol, channels) measured, as {@code jccl calibrate} writes it (format in
 * docs/tuning.md). A call is looked up in the size bucket around the nearest measured size (buckets
 * meet at the geometric mean of neighbouring sizes; the largest reaches twice its size), and the
 * fastest measured entry among the allowed algorithms and protocols wins. Where the table has no
 * data (another rank count, a size beyond the buckets, nothing allowed) it answers nothing and the
 * model decides.
 *
 * <pre>{@code
 * TuningTable t = TuningTable.parse(Files.readString(Path.of("tuning.json")));
 * Optional<TuningTable.Result> r = t.best(Collective.ALL_REDUCE, 4, 1 << 20, allAlgorithms, allProtocols);
 * }</pre>
 */
public final class TuningTable {
    /** The value of the {@code format} member. */
    public static final String FORMAT = "jccl-tuning-table";
    public static final int VERSION = 1;

    /** One measurement: µs per call. */
    public record Result(Algorithm algorithm, Protocol protocol, int channels, double micros) {
    }

    /** The measurements of one (collective, ranks, bytes). */
    public record Entry(Collective collective, int ranks, long bytes, List<Result> results) {
        public Entry {
            results = List.copyOf(results);
        }

        /** The fastest result, or null when there is none. */
        public Result best() {
            return results.stream().min(Comparator.comparingDouble(Result::micros)).orElse(null);
        }
    }

    private final Map<String, Object> about;
    private final List<Entry> entries;

    /** A table of {@code entries}; {@code about} (machine, date, command) is kept as written. */
    public TuningTable(Map<String, Object> about, List<Entry> entries) {
        this.about = Map.copyOf(about);
        this.entries = entries.stream().sorted(Comparator.comparing((Entry e) -> e.collective())
                .thenComparingInt(Entry::ranks).thenComparingLong(Entry::bytes)).toList();
    }

    public List<Entry> entries() {
        return entries;
    }

    public Map<String, Object> about() {
        return about;
    }

    /** The fastest allowed measurement in the bucket of {@code bytes}, if the table has one. */
    public java.util.Optional<Result> best(Collective c, int ranks, long bytes, Set<Algorithm> algorithms,
                                           Set<Protocol> protocols) {
        List<Entry> row = entries.stream().filter(e -> e.collective() == c && e.ranks() == ranks).toList();
        if (row.isEmpty()) {
            return java.util.Optional.empty();
        }
        Entry at = null;
        for (int i = 0; i < row.size(); i++) {
            double lo = i == 0 ? 0 : Math.sqrt((double) row.get(i - 1).bytes() * row.get(i).bytes());
            double hi = i == row.size() - 1 ? 2.0 * row.get(i).bytes() : Math.sqrt((double) row.get(i).bytes() * row.get(i + 1).bytes());
            if (bytes >= lo && bytes < hi || (i == row.size() - 1 && bytes == hi)) {
                at = row.get(i);
                break;
            }
        }
        if (at == null) {
            return java.util.Optional.empty();
        }
        return at.results().stream().filter(r -> algorithms.contains(r.algorithm()) && protocols.contains(r.protocol()))
                .min(Comparator.comparingDouble(Result::micros));
    }

    /** The table as JSON. */
    public String toJson() {
        JsonWriter w = new JsonWriter().beginObject().name("format").value(FORMAT).name("version").value(VERSION);
        w.name("about").beginObject();
        for (Map.Entry<String, Object> a : new java.util.TreeMap<>(about).entrySet()) {
            w.name(a.getKey());
            if (a.getValue() instanceof Number n) {
                if (n instanceof Long || n instanceof Integer) {
                    w.value(n.longValue());
                } else {
                    w.value(n.doubleValue());
                }
            } else {
                w.value(String.valueOf(a.getValue()));
            }
        }
        w.endObject().name("entries").beginArray();
        for (Entry e : entries) {
            w.beginObject().name("collective").value(e.collective().cliName()).name("ranks").value(e.ranks())
                    .name("bytes").value(e.bytes()).name("results").beginArray();
            for (Result r : e.results()) {
                w.beginObject().name("algorithm").value(r.algorithm().id()).name("protocol").value(r.protocol().id())
                        .name("channels").value(r.channels()).name("us").value(r.micros()).endObject();
            }
            w.endArray();
            Result b = e.best();
            if (b != null) {
                w.name("best").beginObject().name("algorithm").value(b.algorithm().id()).name("protocol")
                        .value(b.protocol().id()).name("channels").value(b.channels()).endObject();
            }
            w.endObject();
        }
        return w.endArray().endObject().toString();
    }

    /** Reads a table written by {@link #toJson()}; a malformed one is an IllegalArgumentException saying where. */
    public static TuningTable parse(String json) {
        Map<String, Object> doc = JsonReader.object(json);
        if (!FORMAT.equals(doc.get("format"))) {
            throw new IllegalArgumentException("not a jccl tuning table: \"format\" is " + doc.get("format") + ", not \"" + FORMAT + "\"");
        }
        if (!(doc.get("version") instanceof Long v) || v != VERSION) {
            throw new IllegalArgumentException("tuning table version " + doc.get("version") + "; this jccl reads version " + VERSION);
        }
        Map<String, Object> about = doc.get("about") instanceof Map<?, ?> m ? cast(m) : Map.of();
        List<Entry> entries = new ArrayList<>();
        int k = 0;
        for (Object o : list(doc.get("entries"), "entries")) {
            String where = "entries[" + k++ + "]";
            Map<String, Object> e = map(o, where);
            Collective c;
            try {
                c = Collective.parse(text(e, "collective", where));
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(where + ": " + x.getMessage());
            }
            int ranks = (int) positive(e, "ranks", where);
            long bytes = positive(e, "bytes", where);
            List<Result> results = new ArrayList<>();
            int j = 0;
            for (Object ro : list(e.get("results"), where + ".results")) {
                String rw = where + ".results[" + j++ + "]";
                Map<String, Object> r = map(ro, rw);
                try {
                    Algorithm a = Algorithm.parse(text(r, "algorithm", rw));
                    Protocol p = Protocol.parse(text(r, "protocol", rw));
                    double us = r.get("us") instanceof Number n ? n.doubleValue() : Double.NaN;
                    if (!(us > 0) || Double.isInfinite(us)) {
                        throw new IllegalArgumentException("\"us\" must be a positive number, was " + r.get("us"));
                    }
                    results.add(new Result(a, p, (int) positive(r, "channels", rw), us));
                } catch (IllegalArgumentException x) {
                    throw new IllegalArgumentException(x.getMessage().startsWith(rw) ? x.getMessage() : rw + ": " + x.getMessage());
                }
            }
            entries.add(new Entry(c, ranks, bytes, results));
        }
        return new TuningTable(about, entries);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    private static Map<String, Object> map(Object o, String where) {
        if (o instanceof Map<?, ?> m) {
            return cast(m);
        }
        throw new IllegalArgumentException(where + " is not an object");
    }

    private static List<?> list(Object o, String where) {
        if (o instanceof List<?> l) {
            return l;
        }
        throw new IllegalArgumentException("\"" + where + "\" is not an array");
    }

    private static String text(Map<String, Object> m, String key, String where) {
        if (m.get(key) instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException(where + ": \"" + key + "\" is not a string");
    }

    private static long positive(Map<String, Object> m, String key, String where) {
        if (m.get(key) instanceof Long v && v > 0 && v <= Integer.MAX_VALUE * 1024L * 1024L) {
            return v;
        }
        throw new IllegalArgumentException(where + ": \"" + key + "\" must be a positive integer, was " + m.get(key));
    }
}
