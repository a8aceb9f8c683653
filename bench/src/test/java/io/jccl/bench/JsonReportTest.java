// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.json.JsonWriter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonReportTest {
    private static PerfReport report() {
        PerfOptions o = PerfOptions.parse(List.of("alltoall", "-t", "3", "-b", "64", "-e", "1K", "-d", "int8"));
        List<PerfRow> rows = List.of(
                new PerfRow(48, 16, "int8", "none", -1, "direct", "Simple", new PerfColumn(12.5, 0.004, 0.0026, 0L), null),
                new PerfRow(1008, 336, "int8", "none", -1, "direct", "LL",
                        new PerfColumn(20.25, 0.05, Double.NaN, null), null));
        return new PerfReport(o, 7.5, rows);
    }

    @SuppressWarnings("unchecked")
    @Test
    void theReportIsValidJsonWithEveryField() {
        Map<String, Object> root = (Map<String, Object>) io.jccl.json.JsonReader.parse(JsonReport.of(report()));
        assertThat(root).containsEntry("tool", "jccl perf").containsEntry("collective", "alltoall")
                .containsEntry("memcpyGBps", 7.5).containsEntry("outOfBounds", 0L);
        Map<String, Object> options = (Map<String, Object>) root.get("options");
        assertThat(options).containsEntry("ranks", 3L).containsEntry("minBytes", 64L).containsEntry("maxBytes", 1024L)
                .containsEntry("datatype", "int8").containsEntry("op", "sum").containsEntry("iters", 20L)
                .containsEntry("warmup", 5L).containsEntry("check", 1L).containsEntry("stepFactor", 2L)
                .containsEntry("root", 0L);
        List<Object> rows = (List<Object>) root.get("rows");
        assertThat(rows).hasSize(2);
        Map<String, Object> first = (Map<String, Object>) rows.getFirst();
        assertThat(first).containsEntry("size", 48L).containsEntry("count", 16L).containsEntry("type", "int8")
                .containsEntry("redop", "none").containsEntry("root", -1L).containsEntry("algorithm", "direct").containsEntry("protocol", "Simple")
                .containsEntry("inPlace", null);
        Map<String, Object> col = (Map<String, Object>) first.get("outOfPlace");
        assertThat(col).containsEntry("timeUs", 12.5).containsEntry("algbwGBps", 0.004).containsEntry("busbwGBps", 0.0026)
                .containsEntry("wrong", 0L);
        Map<String, Object> second = (Map<String, Object>) ((Map<String, Object>) rows.get(1)).get("outOfPlace");
        // JSON has no NaN; an unmeasured check is null too.
        assertThat(second).containsEntry("busbwGBps", null).containsEntry("wrong", null);
        assertThat(root).containsEntry("avgBusbwGBps", null);
    }

    @Test
    void stringsAreEscaped() {
        String text = new JsonWriter().beginObject().name("k\"ey").value("a\\b\n\t\u0001c").name("n").value(-3)
                .name("x").value(1e-7).name("empty").beginArray().endArray().endObject().toString();
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) io.jccl.json.JsonReader.parse(text);
        assertThat(m).containsEntry("k\"ey", "a\\b\n\t\u0001c").containsEntry("n", -3L).containsEntry("x", 1e-7)
                .containsEntry("empty", List.of());
    }

    @Test
    void theTestReaderRejectsWhatIsNotJson() {
        assertThatThrownBy(() -> io.jccl.json.JsonReader.parse("{\"a\":1,}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> io.jccl.json.JsonReader.parse("{\"a\":NaN}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> io.jccl.json.JsonReader.parse("[1 2]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> io.jccl.json.JsonReader.parse("{\"a\":\"x\ny\"}")).isInstanceOf(IllegalArgumentException.class);
    }
}
