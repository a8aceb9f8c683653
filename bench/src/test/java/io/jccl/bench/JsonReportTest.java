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
                new PerfRow(48, 16, "int8", "none", -1, "direct", new PerfColumn(12.5, 0.004, 0.0026, 0L), null),
                new PerfRow(1008, 336, "int8", "none", -1, "direct",
                        new PerfColumn(20.25, 0.05, Double.NaN, null), null));
        return new PerfReport(o, 7.5, rows);
    }

    @SuppressWarnings("unchecked")
    @Test
    void theReportIsValidJsonWithEveryField() {
        Map<String, Object> root = (Map<String, Object>) MiniJson.parse(JsonReport.of(report()));
        assertThat(root).containsEntry("tool", "jccl perf").containsEntry("collective", "alltoall")
                .containsEntry("memcpyGBps", 7.5).containsEntry("outOfBounds", 0.0);
        Map<String, Object> options = (Map<String, Object>) root.get("options");
        assertThat(options).containsEntry("ranks", 3.0).containsEntry("minBytes", 64.0).containsEntry("maxBytes", 1024.0)
                .containsEntry("datatype", "int8").containsEntry("op", "sum").containsEntry("iters", 20.0)
                .containsEntry("warmup", 5.0).containsEntry("check", 1.0).containsEntry("stepFactor", 2.0)
                .containsEntry("root", 0.0);
        List<Object> rows = (List<Object>) root.get("rows");
        assertThat(rows).hasSize(2);
        Map<String, Object> first = (Map<String, Object>) rows.getFirst();
        assertThat(first).containsEntry("size", 48.0).containsEntry("count", 16.0).containsEntry("type", "int8")
                .containsEntry("redop", "none").containsEntry("root", -1.0).containsEntry("algorithm", "direct")
                .containsEntry("inPlace", null);
        Map<String, Object> col = (Map<String, Object>) first.get("outOfPlace");
        assertThat(col).containsEntry("timeUs", 12.5).containsEntry("algbwGBps", 0.004).containsEntry("busbwGBps", 0.0026)
                .containsEntry("wrong", 0.0);
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
        Map<String, Object> m = (Map<String, Object>) MiniJson.parse(text);
        assertThat(m).containsEntry("k\"ey", "a\\b\n\t\u0001c").containsEntry("n", -3.0).containsEntry("x", 1e-7)
                .containsEntry("empty", List.of());
    }

    @Test
    void theTestReaderRejectsWhatIsNotJson() {
        assertThatThrownBy(() -> MiniJson.parse("{\"a\":1,}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MiniJson.parse("{\"a\":NaN}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MiniJson.parse("[1 2]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MiniJson.parse("{\"a\":\"x\ny\"}")).isInstanceOf(IllegalArgumentException.class);
    }
}
