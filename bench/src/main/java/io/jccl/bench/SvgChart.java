// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart in SVG, the axes linear or logarithmic, for the plots of {@code jccl simulate} and
 * the simulator's study: one panel per chart, several panels to a document.
 *
 * <pre>{@code
 * String panel = new SvgChart("busbw", "size (B)", "GB/s", true, false)
 *         .line(new SvgChart.Series("ring", new double[] {8, 1024}, new double[] {0.1, 2.0}, false))
 *         .svg(0, 0, 600, 400);
 * String doc = SvgChart.document(600, 400, List.of(panel));
 * }</pre>
 */
final class SvgChart {
    /** One line: points (x, y); NaN or non-positive values on a log axis are left out. */
    record Series(String label, double[] x, double[] y, boolean dashed) {
    }

    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int LEFT = 70;
    private static final int RIGHT = 200;
    private static final int TOP = 36;
    private static final int BOTTOM = 50;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();

    SvgChart(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.logY = logY;
    }

    SvgChart line(Series s) {
        series.add(s);
        return this;
    }

    /** The whole document around panels laid out by their own offsets. */
    static String document(int width, int height, List<String> panels) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        b.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        panels.forEach(b::append);
        return b.append("</svg>\n").toString();
    }

    private boolean usable(double v, boolean log) {
        return Double.isFinite(v) && (!log || v > 0);
    }

    /** This chart as a panel at ({@code x0}, {@code y0}) of {@code w} × {@code h}. */
    String svg(int x0, int y0, int w, int h) {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                if (usable(s.x()[i], logX) && usable(s.y()[i], logY)) {
                    xMin = Math.min(xMin, s.x()[i]);
                    xMax = Math.max(xMax, s.x()[i]);
                    yMin = Math.min(yMin, s.y()[i]);
                    yMax = Math.max(yMax, s.y()[i]);
                }
            }
        }
        if (!(xMax >= xMin)) {
            xMin = 1;
            xMax = 2;
            yMin = 1;
            yMax = 2;
        }
        if (!logY) {
            yMin = 0;
        }
        Axis ax = new Axis(xMin, xMax, logX);
        Axis ay = new Axis(yMin, yMax, logY);
        int pw = w - LEFT - RIGHT;
        int ph = h - TOP - BOTTOM;
        int px = x0 + LEFT;
        int py = y0 + TOP;
        StringBuilder b = new StringBuilder("<g>\n");
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"14\">%s</text>%n", px, y0 + 22, escape(title)));
        for (double v : ay.ticks()) {
            double y = py + ph - ph * ay.frac(v);
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", px, y, px + pw, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", px - 6, y + 4, label(v)));
        }
        for (double v : ax.ticks()) {
            double x = px + pw * ax.frac(v);
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>%n", x, py, x, py + ph));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, py + ph + 16,
                    logX ? sizeish(v) : label(v)));
        }
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>%n",
                px, py, pw, ph));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", px + pw / 2,
                py + ph + 36, escape(xLabel)));
        b.append(String.format(Locale.ROOT, "<text transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
                x0 + 16, py + ph / 2, escape(yLabel)));
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            String colour = COLOURS[k % COLOURS.length];
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                if (usable(s.x()[i], logX) && usable(s.y()[i], logY)) {
                    pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px + pw * ax.frac(s.x()[i]), py + ph - ph * ay.frac(s.y()[i])));
                }
            }
            String dash = s.dashed() ? " stroke-dasharray=\"6,3\"" : "";
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s points=\"%s\">"
                    + "<title>%s</title></polyline>%n", colour, dash, pts.toString().strip(), escape(s.label())));
            int ly = py + 10 + 16 * k;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    px + pw + 10, ly, px + pw + 32, ly, colour, dash));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", px + pw + 36, ly + 4, escape(s.label())));
        }
        return b.append("</g>\n").toString();
    }

    /** An axis from {@code lo} to {@code hi}, by powers of ten or two when logarithmic. */
    private record Axis(double lo, double hi, boolean log) {
        Axis {
            if (log) {
                lo = Math.pow(10, Math.floor(Math.log10(lo)));
                hi = Math.pow(10, Math.ceil(Math.log10(hi)));
                if (hi <= lo) {
                    hi = lo * 10;
                }
            } else {
                hi = hi <= lo ? lo + 1 : PerfPlot.niceCeiling(hi);
            }
        }

        double frac(double v) {
            return log ? (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : (v - lo) / (hi - lo);
        }

        List<Double> ticks() {
            List<Double> t = new ArrayList<>();
            if (log) {
                double decades = Math.log10(hi / lo);
                double step = decades > 8 ? 100 : 10;
                for (double v = lo; v <= hi * 1.0001; v *= step) {
                    t.add(v);
                }
            } else {
                for (int i = 0; i <= 5; i++) {
                    t.add(lo + (hi - lo) * i / 5);
                }
            }
            return t;
        }
    }

    private static String label(double v) {
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        return a >= 1e5 || a < 1e-2 ? String.format(Locale.ROOT, "%.0e", v) : a >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.3g", v);
    }

    /** Powers of ten as sizes: 1, 10, 100, 1K(=1000)... printed with SI prefixes. */
    private static String sizeish(double v) {
        String[] units = {"", "k", "M", "G", "T"};
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.0f%s", v, units[u]);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
