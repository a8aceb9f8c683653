// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.json.JsonReader;
import io.jccl.proto.Protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator's constants, one {@link SimCosts} per engine ({@code host}: the host engine over
 * sockets, as on the emulated fabric; {@code gpu}: the CUDA engine on NVLink and a network), read
 * from one JSON file: the one the library carries ({@code io/jccl/sim/calibration.json}, whose
 * every value docs/simulator.md traces to the run it came from), or the user's.
 *
 * <pre>{@code
 * SimCosts host = Calibration.bundled().costs("host");
 * Calibration mine = Calibration.read(Path.of("my-calibration.json"));
 * }</pre>
 */
public final class Calibration {
    private final Map<String, SimCosts> engines;
    private final String source;

    private Calibration(Map<String, SimCosts> engines, String source) {
        this.engines = engines;
        this.source = source;
    }

    /** The calibration the library carries. */
    public static Calibration bundled() {
        try (InputStream in = Calibration.class.getResourceAsStream("calibration.json")) {
            if (in == null) {
                throw new IllegalStateException("io/jccl/sim/calibration.json is missing from the library");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "the bundled calibration");
        } catch (IOException e) {
            throw new IllegalStateException("io/jccl/sim/calibration.json: " + e, e);
        }
    }

    /** {@code file}'s calibration, or the bundled one where {@code file} is null. */
    public static Calibration readOrBundled(Path file) throws IOException {
        return file == null ? bundled() : read(file);
    }

    /** A calibration file; refused naming the file and the key where it is malformed. */
    public static Calibration read(Path file) throws IOException {
        return parse(Files.readString(file), file.toString());
    }

    /** A calibration from its JSON text; {@code source} names it in errors. */
    public static Calibration parse(String json, String source) {
        Map<String, Object> doc;
        try {
            doc = JsonReader.object(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        Map<String, SimCosts> engines = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : doc.entrySet()) {
            if (e.getKey().startsWith("_")) {
                continue; // comments
            }
            if (!(e.getValue() instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(source + ": \"" + e.getKey() + "\" is not an object");
            }
            engines.put(e.getKey(), costs(e.getKey(), m, source));
        }
        return new Calibration(Map.copyOf(engines), source);
    }

    private static SimCosts costs(String name, Map<?, ?> m, String source) {
        String where = source + ": " + name;
        try {
            return new SimCosts(name, number(m, "launchUs", where), number(m, "stepUs", where), number(m, "sendUs", where),
                    number(m, "recvUs", where), perProtocol(m, "copyGBps", where), number(m, "reduceGBps", where),
                    perProtocol(m, "wireFactor", where), number(m, "linkEfficiency", where),
                    number(m, "intraLatencyUs", where), number(m, "interLatencyUs", where),
                    (int) number(m, "sharedCores", where), perProtocol(m, "netSendGBps", where), perProtocol(m, "netRecvGBps", where),
                    number(m, "loadLatencyUs", where));
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(source) ? e : new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static double number(Map<?, ?> m, String key, String where) {
        Object v = m.get(key);
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException(where + "." + key + " is " + (v == null ? "missing" : "not a number: " + v));
        }
        return n.doubleValue();
    }

    private static double[] perProtocol(Map<?, ?> m, String key, String where) {
        Object v = m.get(key);
        if (v instanceof Map<?, ?> byName) {
            double[] a = new double[Protocol.values().length];
            for (Protocol p : Protocol.values()) {
                a[p.ordinal()] = number(byName, p.id(), where + "." + key);
            }
            return a;
        }
        throw new IllegalArgumentException(where + "." + key + " must be an object {\"LL\": .., \"LL128\": .., \"Simple\": ..}, not " + v);
    }

    /** The constants of engine {@code name}; refused naming those the file has. */
    public SimCosts costs(String name) {
        SimCosts c = engines.get(name);
        if (c == null) {
            throw new IllegalArgumentException(source + " has no engine \"" + name + "\"; it has " + List.copyOf(engines.keySet()));
        }
        return c;
    }

    /** Where it was read from. */
    public String source() {
        return source;
    }
}
