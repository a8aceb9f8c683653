// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a NET timeline, the engine's ({@code JCCL_DEBUG=TRACE JCCL_DEBUG_SUBSYS=NET}, the lines of
 * every rank's process together) or the simulator's ({@code jccl simulate --timeline}), and tells
 * for the last call in it how long the call's messages took and how busy they kept each link of a
 * fabric: the measured and the predicted call side by side, message by message
 * (docs/simulator.md, "Timeline").
 *
 * <pre>{@code
 * List<TimelineReport.Message> m = TimelineReport.parse(Files.readAllLines(Path.of("ranks.log")));
 * String text = TimelineReport.report(m, new EmulatedFabric(ServerLayout.uniform(2, 4), 800, 200, EmulatedFabric.Nic.RAIL));
 * }</pre>
 */
public final class TimelineReport {
    private TimelineReport() {
    }

    /**
     * One message: connection ({@code protocol}, {@code channel}, {@code from}, {@code to}), its
     * number on it, bytes, the call it belongs to, and µs when it was handed to the net, went out
     * on the wire (the simulator's alone; NaN in the engine's) and arrived.
     */
    public record Message(String protocol, int channel, int from, int to, long seq, long bytes, String call, double isend,
                          double wire, double arrived) {
    }

    private static final String MARK = "timeline ";

    /**
     * The messages of {@code lines} that were both sent and received in them, in the order of
     * their sending; other lines are skipped. A malformed timeline line is an error naming it.
     */
    public static List<Message> parse(Iterable<String> lines) {
        Map<String, double[]> times = new LinkedHashMap<>();
        Map<String, String[]> first = new HashMap<>();
        for (String line : lines) {
            int at = line.startsWith(MARK) ? 0 : line.indexOf(" " + MARK) + 1;
            if (at == 0 && !line.startsWith(MARK)) {
                continue;
            }
            String rest = line.substring(at + MARK.length()).trim();
            if (rest.isEmpty() || !Character.isDigit(rest.charAt(0))) {
                continue;
            }
            // T EVENT PROTO chC A->B #SEQ BYTES call ID
            String[] f = rest.split(" +");
            if (f.length != 9 || !f[3].startsWith("ch") || !f[4].contains("->") || !f[5].startsWith("#") || !f[7].equals("call")) {
                throw new IllegalArgumentException("not a timeline line: " + line);
            }
            String key = f[2] + " " + f[3] + " " + f[4] + " " + f[5];
            double[] t = times.computeIfAbsent(key, k -> new double[] {Double.NaN, Double.NaN, Double.NaN});
            double time;
            try {
                time = Double.parseDouble(f[0]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a timeline line: " + line, e);
            }
            switch (f[1]) {
                case "isend" -> {
                    t[0] = time;
                    first.put(key, f);
                }
                case "wire" -> t[1] = time;
                case "arrived" -> t[2] = time;
                default -> {
                    // sent and irecv: the proxies' own steps, not the message's
                }
            }
        }
        List<Message> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : times.entrySet()) {
            double[] t = e.getValue();
            String[] f = first.get(e.getKey());
            if (f == null || Double.isNaN(t[2])) {
                continue;
            }
            try {
                String[] ends = f[4].split("->");
                out.add(new Message(f[2], Integer.parseInt(f[3].substring(2)), Integer.parseInt(ends[0]), Integer.parseInt(ends[1]),
                        Long.parseLong(f[5].substring(1)), Long.parseLong(f[6]), f[8], t[0], t[1], t[2]));
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException x) {
                throw new IllegalArgumentException("not a timeline line: " + String.join(" ", f), x);
            }
        }
        out.sort((a, b) -> Double.compare(a.isend(), b.isend()));
        return out;
    }

    /** The messages of the call that started last among {@code messages} (the timed one of a perf run). */
    public static List<Message> lastCall(List<Message> messages) {
        Map<String, Double> start = new HashMap<>();
        for (Message m : messages) {
            start.merge(m.call(), m.isend(), Math::min);
        }
        String last = start.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        return messages.stream().filter(m -> m.call().equals(last)).toList();
    }

    /**
     * The report of the last call of {@code messages} on {@code fabric}: its span from the first
     * message handed to the net to the last arrival; per link, the bytes that crossed it and the
     * share of the span they kept it busy at its rate (over the span, and over the link's own
     * first to last message); per connection, its messages' time in flight (handed to the net to
     * arrived; and, from the simulator, waiting for a port).
     */
    public static String report(List<Message> messages, SimFabric fabric) {
        List<Message> call = lastCall(messages);
        StringBuilder b = new StringBuilder();
        if (call.isEmpty()) {
            return "# no message both sent and received in the timeline\n";
        }
        double t0 = call.stream().mapToDouble(Message::isend).min().orElseThrow();
        double t1 = call.stream().mapToDouble(Message::arrived).max().orElseThrow();
        double span = t1 - t0;
        b.append(String.format(Locale.ROOT, "# the last call (%s): %d messages, %d bytes, %.0f µs from the first handed to the net to the last arrival%n",
                call.getFirst().call(), call.size(), call.stream().mapToLong(Message::bytes).sum(), span));
        int[] route = new int[fabric.maxHops()];
        Map<Integer, double[]> links = new TreeMap<>();
        Map<String, List<Message>> conns = new TreeMap<>();
        for (Message m : call) {
            if (m.from() < 0 || m.to() < 0 || m.from() >= fabric.nranks() || m.to() >= fabric.nranks()) {
                throw new IllegalArgumentException("rank " + m.from() + " or " + m.to() + " is not on " + fabric.describe());
            }
            int hops = fabric.route(m.from(), m.to(), route);
            for (int h = 0; h < hops; h++) {
                double[] l = links.computeIfAbsent(route[h], k -> new double[] {0, 0, Double.MAX_VALUE, 0});
                l[0]++;
                l[1] += m.bytes();
                l[2] = Math.min(l[2], m.isend());
                l[3] = Math.max(l[3], m.arrived());
            }
            conns.computeIfAbsent(String.format(Locale.ROOT, "%s ch%d %d->%d", m.protocol(), m.channel(), m.from(), m.to()),
                    k -> new ArrayList<>()).add(m);
        }
        b.append("# link                      messages        bytes  busy over the call  busy over its own use\n");
        for (Map.Entry<Integer, double[]> e : links.entrySet()) {
            double[] l = e.getValue();
            double busy = l[1] / fabric.rate(e.getKey());
            double own = l[3] - l[2];
            b.append(String.format(Locale.ROOT, "  %-25s %8.0f %12.0f  %17s  %21s%n", fabric.linkName(e.getKey()), l[0], l[1],
                    percent(busy, span), percent(busy, own)));
        }
        b.append("# connection             messages        bytes  in flight µs: median   largest  waiting for a port: median\n");
        for (Map.Entry<String, List<Message>> e : conns.entrySet()) {
            List<Message> ms = e.getValue();
            double[] flight = ms.stream().mapToDouble(m -> m.arrived() - m.isend()).sorted().toArray();
            double[] wait = ms.stream().filter(m -> !Double.isNaN(m.wire())).mapToDouble(m -> m.wire() - m.isend()).sorted().toArray();
            b.append(String.format(Locale.ROOT, "  %-22s %8d %12d  %19.0f %9.0f  %26s%n", e.getKey(), ms.size(),
                    ms.stream().mapToLong(Message::bytes).sum(), median(flight), flight[flight.length - 1],
                    wait.length == 0 ? "-" : String.format(Locale.ROOT, "%.0f", median(wait))));
        }
        return b.toString();
    }

    /** {@code part} as a share of {@code whole}, or "-" where the whole is no time. */
    private static String percent(double part, double whole) {
        return whole > 0 ? String.format(Locale.ROOT, "%.1f%%", 100 * part / whole) : "-";
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
