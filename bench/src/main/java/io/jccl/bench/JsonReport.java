// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.json.JsonWriter;

/**
 * {@code jccl perf --json}: the same data as the table, for scripts and plots. Times are in
 * microseconds, bandwidths in GB/s (10^9 bytes per second); a column a collective lacks is null.
 */
final class JsonReport {
    private JsonReport() {
    }

    static String of(PerfReport report) {
        PerfOptions o = report.options();
        JsonWriter w = new JsonWriter().beginObject();
        w.name("tool").value("jccl perf");
        w.name("collective").value(o.collective().cliName());
        w.name("options").beginObject()
                .name("ranks").value(o.ranks())
                .name("minBytes").value(o.minBytes())
                .name("maxBytes").value(o.maxBytes())
                .name("stepFactor").value(o.stepBytes() > 0 ? 0 : o.stepFactor())
                .name("stepBytes").value(o.stepBytes())
                .name("datatype").value(PerfTable.typeName(o.type()))
                .name("op").value(o.op().toString())
                .name("root").value(o.root())
                .name("iters").value(o.iters())
                .name("warmup").value(o.warmup())
                .name("check").value(o.check())
                .name("aggIters").value(o.aggIters())
                .name("average").value(o.average())
                .name("blocking").value(o.blocking())
                .name("cputime").value(o.cpuTime() ? 1 : 0)
                .name("cycles").value(o.cycles())
                .name("register").value(o.register())
                .endObject();
        w.name("memcpyGBps").value(report.memcpyGBps());
        w.name("rows").beginArray();
        for (PerfRow r : report.rows()) {
            w.beginObject()
                    .name("size").value(r.size())
                    .name("count").value(r.count())
                    .name("type").value(r.type())
                    .name("redop").value(r.redop())
                    .name("root").value(r.root())
                    .name("algorithm").value(r.algorithm()).name("protocol").value(r.protocol());
            column(w.name("outOfPlace"), r.outOfPlace());
            column(w.name("inPlace"), r.inPlace());
            w.endObject();
        }
        w.endArray();
        w.name("avgBusbwGBps").value(report.avgBusbw());
        w.name("outOfBounds").value(report.outOfBounds());
        return w.endObject().toString();
    }

    private static void column(JsonWriter w, PerfColumn c) {
        if (c == null) {
            w.nullValue();
            return;
        }
        w.beginObject()
                .name("timeUs").value(c.timeUs())
                .name("algbwGBps").value(c.algbw())
                .name("busbwGBps").value(c.busbw());
        w.name("wrong");
        if (c.wrong() == null) {
            w.nullValue();
        } else {
            w.value(c.wrong().longValue());
        }
        w.endObject();
    }
}
