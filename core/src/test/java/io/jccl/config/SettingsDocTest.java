// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/user-guide.md's table of variables says what the settings table says: names, defaults, shared, meaning. */
class SettingsDocTest {
    static final Path GUIDE = Path.of("..", "docs", "user-guide.md");

    /** The table's rows under "## Environment variables", as written. */
    static List<String> guideRows(List<String> lines) {
        int section = lines.indexOf("## Environment variables");
        assertThat(section).as("user-guide.md has an 'Environment variables' section").isNotNegative();
        return lines.subList(section, lines.size()).stream().dropWhile(l -> !l.startsWith("|")).takeWhile(l -> l.startsWith("|"))
                .filter(l -> l.startsWith("| `")).toList();
    }

    @Test
    void userGuidesTableIsTheSettingsTable() throws IOException {
        List<String> guide = guideRows(Files.readAllLines(GUIDE));
        assertThat(guide).as("docs/user-guide.md's variables; the settings table (Settings.java) makes:%n%s%n",
                String.join("\n", Settings.markdownRows())).isEqualTo(Settings.markdownRows());
    }

    @Test
    void aChangedDefaultOrMeaningOrAMissingRowIsSeen() {
        List<String> rows = Settings.markdownRows();
        List<String> table = new java.util.ArrayList<>(List.of("## Environment variables", "", "| variable | default | shared | meaning |",
                "|---|---|---|---|"));
        table.addAll(rows);
        table.add("");
        assertThat(guideRows(table)).isEqualTo(rows);
        table.set(4, table.get(4).replace("| 4M |", "| 8M |"));
        assertThat(guideRows(table)).isNotEqualTo(rows);
        table.set(4, rows.get(0).replace("Simple buffer", "simple buffer"));
        assertThat(guideRows(table)).isNotEqualTo(rows);
        table.remove(5);
        assertThat(guideRows(table)).isNotEqualTo(rows);
    }
}
