// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code jccl perf --plot}: bus bandwidth against size on a log-size axis, one polyline per swept
 * (algorithm, protocol) and one for the tuned choice, as a self-contained SVG. Out-of-place times
 * are plotted (every collective has that form).
 */
final class PerfPlot {
    /** One swept configuration and what it measured. */
    record Line(String label, PerfReport report) {
    }

    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int W = 900;
    private static final int H = 520;
    private static final int LEFT = 70;
    private static final int RIGHT = 190;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;

    /** The ranks of {@code jccl perf --plot} are threads of this process: one server. */
    private static final io.jccl.topo.ServerLayout ONE_HOST = io.jccl.topo.ServerLayout.single(1);

    private PerfPlot() {
    }

    /** The (algorithm id, protocol id) pairs the configuration allows for {@code c} that are worth sweeping on one host. */
    static List<String[]> combinations(Collective c, Config config) {
        List<String[]> out = new ArrayList<>();
        for (Algorithm a : Algorithms.weighed(c, ONE_HOST)) {
            if (!config.algorithms(c).contains(a.id())) {
                continue;
            }
            for (Protocol p : Protocol.values()) {
                if (Protocol.allowed(config, c).contains(p) && (c != Collective.SEND_RECV || p == Protocol.SIMPLE)) {
                    out.add(new String[] {a.id(), p.id()});
                }
            }
        }
        return out;
    }

    static String svg(PerfOptions o, List<Line> lines) {
        double maxBw = 0;
        long minSize = Long.MAX_VALUE;
        long maxSize = 1;
        for (Line l : lines) {
            for (PerfRow r : l.report().rows()) {
                maxBw = Math.max(maxBw, r.outOfPlace().busbw());
                minSize = Math.min(minSize, Math.max(1, r.size()));
                maxSize = Math.max(maxSize, r.size());
            }
        }
        maxBw = niceCeiling(maxBw);
        double lx0 = Math.log(Math.max(1, minSize)) / Math.log(2);
        double lx1 = Math.max(lx0 + 1, Math.log(maxSize) / Math.log(2));
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", W, H));
        b.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">jccl perf %s, %d ranks, %s: bus bandwidth"
                + " (out-of-place)</text>%n", LEFT, SvgChart.escape(o.collective().cliName()), o.ranks(),
                SvgChart.escape(PerfTable.typeName(o.type()))));
        for (int i = 0; i <= 5; i++) {
            double v = maxBw * i / 5;
            double y = TOP + ph - ph * i / 5.0;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, y, LEFT + pw, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>%n", LEFT - 6, y + 4, v));
        }
        for (long s = Long.highestOneBit(Math.max(1, minSize)); s <= maxSize; s *= 4) {
            double x = LEFT + pw * (Math.log(s) / Math.log(2) - lx0) / (lx1 - lx0);
            if (x < LEFT - 1) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>%n",
                    x, TOP, x, TOP + ph));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, TOP + ph + 16,
                    sizeLabel(s)));
        }
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>%n",
                LEFT, TOP, pw, ph));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">size (bytes)</text>%n",
                LEFT + pw / 2, H - 18));
        b.append(String.format(Locale.ROOT, "<text transform=\"translate(18,%d) rotate(-90)\" text-anchor=\"middle\">busbw (GB/s)</text>%n",
                TOP + ph / 2));
        for (int k = 0; k < lines.size(); k++) {
            Line l = lines.get(k);
            boolean tuned = k == lines.size() - 1;
            String colour = tuned ? "black" : COLOURS[k % COLOURS.length];
            StringBuilder pts = new StringBuilder();
            for (PerfRow r : l.report().rows()) {
                double x = LEFT + pw * (Math.log(Math.max(1, r.size())) / Math.log(2) - lx0) / (lx1 - lx0);
                double y = TOP + ph - ph * (maxBw == 0 ? 0 : r.outOfPlace().busbw() / maxBw);
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"%s\">"
                    + "<title>%s</title></polyline>%n", colour, tuned ? "2.5" : "1.5", tuned ? " stroke-dasharray=\"6,3\"" : "",
                    pts.toString().strip(), SvgChart.escape(l.label())));
            int ly = TOP + 10 + 18 * k;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    LEFT + pw + 12, ly, LEFT + pw + 36, ly, colour, tuned ? " stroke-dasharray=\"6,3\"" : ""));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + pw + 42, ly + 4,
                    SvgChart.escape(l.label())));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    static String sizeLabel(long s) {
        if (s >= 1L << 30 && s % (1L << 30) == 0) {
            return (s >> 30) + "G";
        }
        if (s >= 1 << 20 && s % (1 << 20) == 0) {
            return (s >> 20) + "M";
        }
        if (s >= 1 << 10 && s % (1 << 10) == 0) {
            return (s >> 10) + "K";
        }
        return Long.toString(s);
    }

    static double niceCeiling(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }
}
