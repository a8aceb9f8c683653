// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SimScaleCommandTest {
    private static String run(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThat(SimScaleCommand.run(List.of(args), new PrintStream(bytes, true, StandardCharsets.UTF_8))).isZero();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aTreeIsCheckedAgainstItsExactRunFromProbesOfAQuarterAndAHalfOfItsNodes() {
        String out = run("--exact", "8", "--scaled", "32", "--size", "1M", "--algos", "tree");
        assertThat(out).contains("| tree | 64 | exact |").contains("| tree | 256 | from 16 and 32 |").doesNotContain("| ring |");
        // the check's figure is the law's, its error against the exact row the printed one
        Matcher exact = Pattern.compile("\\| tree \\| 64 \\| exact \\| ([0-9.]+) \\|").matcher(out);
        Matcher law = Pattern.compile("\\| tree \\| 64 \\| from 16 and 32: ([-+][0-9.]+)% of exact \\| ([0-9.]+) \\|").matcher(out);
        assertThat(exact.find()).isTrue();
        assertThat(law.find()).isTrue();
        double e = Double.parseDouble(exact.group(1));
        double l = Double.parseDouble(law.group(2));
        // both times are printed to 0.1 µs, the error to 0.01 %
        assertThat(Double.parseDouble(law.group(1))).isCloseTo(100 * (l - e) / e, within(100 * 0.1 / e + 0.005));
    }

    @Test
    void thePipelinesAllGatherIsCheckedAgainstItsExactRun() {
        String out = run("--collective", "allgather", "--exact", "16", "--from", "4,8", "--scaled", "64", "--size", "4M",
                "--algos", "pipeline");
        assertThat(out).startsWith("# jccl simscale: allgather of 4194304 B").contains("| pipeline | 128 | exact |")
                .contains("| pipeline | 512 | from 32 and 64 at its step |");
        Matcher law = Pattern.compile("\\| pipeline \\| 128 \\| from 32 and 64 at its step: ([-+][0-9.]+)% of exact \\|").matcher(out);
        assertThat(law.find()).isTrue();
        // an all-gather's ring steps cost the same on 4 nodes as on 16 (docs/simulator.md, Scale)
        assertThat(Math.abs(Double.parseDouble(law.group(1)))).isLessThan(2);
    }

    @Test
    void anAlgorithmWithoutAScaledPredictionAndAnExactThatCannotBeCutAreRefused() {
        assertThatThrownBy(() -> run("--collective", "alltoall", "--algos", "pipeline"))
                .hasMessageContaining("pipeline has no scaled prediction of alltoall");
        assertThatThrownBy(() -> run("--collective", "allgather", "--algos", "tree")).hasMessageContaining("tree does not run allgather");
        assertThatThrownBy(() -> run("--collective", "nosuch")).hasMessageContaining("option --collective: 'nosuch' is not a collective");
        assertThatThrownBy(() -> run("--algos", "rhd")).hasMessageContaining("rhd has no scaled prediction");
        assertThatThrownBy(() -> run("--algos", "nosuch")).hasMessageContaining("--algos");
        assertThatThrownBy(() -> run("--exact", "12")).hasMessageContaining("multiple of 8");
    }
}
