// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The plot of {@code jccl simulate --plot}: busbw and time against size, a line per algorithm and
 * protocol ({@code --all}) and the tuner's choice dashed; with several rank counts, also busbw and
 * time against ranks, a line per size, the tuner's choice.
 */
final class SimPlot {
    private SimPlot() {
    }

    static String svg(SimulateOptions o, List<String> fabrics, List<SimulateCommand.Row> rows) {
        int w = 760;
        int h = 420;
        boolean byRanks = o.servers().size() > 1;
        List<String> panels = new ArrayList<>();
        String what = "jccl simulate " + o.collective().cliName() + ", " + (byRanks ? "" : rows.isEmpty() ? "" : rows.getFirst().nranks() + " ranks, ");
        SvgChart busbw = new SvgChart(what + "busbw against size", "size (bytes)", "busbw (GB/s)", true, false);
        SvgChart time = new SvgChart(what + "time against size", "size (bytes)", "time (µs)", true, true);
        Map<String, List<SimulateCommand.Row>> bySize = new LinkedHashMap<>();
        for (SimulateCommand.Row r : rows) {
            String key = byRanks ? r.nranks() + " ranks" : r.tuned() ? "tuned" : r.row().algorithm() + "/" + r.row().protocol();
            if (!byRanks || r.tuned()) {
                bySize.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
            }
        }
        for (Map.Entry<String, List<SimulateCommand.Row>> e : bySize.entrySet()) {
            boolean dashed = e.getKey().equals("tuned");
            busbw.line(series(e.getKey(), e.getValue(), true, false, dashed));
            time.line(series(e.getKey(), e.getValue(), true, true, dashed));
        }
        panels.add(busbw.svg(0, 0, w, h));
        panels.add(time.svg(w, 0, w, h));
        if (byRanks) {
            SvgChart busbwN = new SvgChart(what + "busbw against ranks", "ranks", "busbw (GB/s)", true, false);
            SvgChart timeN = new SvgChart(what + "time against ranks", "ranks", "time (µs)", true, true);
            Map<Long, List<SimulateCommand.Row>> bySizeN = new LinkedHashMap<>();
            for (SimulateCommand.Row r : rows) {
                if (r.tuned()) {
                    bySizeN.computeIfAbsent(r.row().size(), k -> new ArrayList<>()).add(r);
                }
            }
            for (Map.Entry<Long, List<SimulateCommand.Row>> e : bySizeN.entrySet()) {
                String label = PerfPlot.sizeLabel(e.getKey()) + "B";
                busbwN.line(series(label, e.getValue(), false, false, false));
                timeN.line(series(label, e.getValue(), false, true, false));
            }
            panels.add(busbwN.svg(0, h, w, h));
            panels.add(timeN.svg(w, h, w, h));
        }
        String caption = String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-size=\"11\">%s</text>%n", (byRanks ? 2 * h : h) + 16,
                SvgChart.escape(String.join("; ", fabrics.size() > 2 ? List.of(fabrics.getFirst(), "...", fabrics.getLast()) : fabrics)));
        panels.add(caption);
        return SvgChart.document(2 * w, (byRanks ? 2 * h : h) + 24, panels);
    }

    private static SvgChart.Series series(String label, List<SimulateCommand.Row> rows, boolean bySize, boolean time, boolean dashed) {
        double[] x = new double[rows.size()];
        double[] y = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            SimulateCommand.Row r = rows.get(i);
            x[i] = bySize ? r.row().size() : r.nranks();
            y[i] = time ? r.row().outOfPlace().timeUs() : r.row().outOfPlace().busbw();
        }
        return new SvgChart.Series(label, x, y, dashed);
    }
}
