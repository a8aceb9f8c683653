// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ranks on 3 hosts made of network namespaces ({@link Fabric}, one rank each, talking over the
 * socket transport) that make different calls ({@link FabricMismatchRank}): for each kind of
 * mismatch (collective, count, type, operation, a root that leaves every rank waiting), every
 * rank fails within a second of its call, naming both calls, and none returns.
 */
@Timeout(300)
class NamespaceMismatchTest {
    private static final String[] KINDS = {"collective", "count", "type", "op", "root"};

    @Test
    void everyRankOfEveryHostFailsWithinASecondNamingBothCalls() throws Exception {
        Fabric f = Namespaces.build(3, 1, 0, 0);
        List<String> report = new ArrayList<>();
        try (f) {
            for (String kind : KINDS) {
                List<Process> procs = new ArrayList<>();
                try {
                    for (int g = 0; g < f.size(); g++) {
                        Map<String, String> env = new java.util.HashMap<>(f.rankEnvironment(g, false));
                        env.putAll(Map.of("JCCL_TIMEOUT", "30", "JCCL_BOOTSTRAP_TIMEOUT", "60", "JCCL_ALGO", "ring"));
                        procs.add(f.start(g, Namespaces.java(FabricMismatchRank.class, kind), env, true));
                    }
                    List<String> outs = new ArrayList<>();
                    for (int g = 0; g < procs.size(); g++) {
                        Process p = procs.get(g);
                        boolean ended = p.waitFor(90, TimeUnit.SECONDS);
                        java.io.InputStream in = p.getInputStream();
                        String out = new String(ended ? in.readAllBytes() : in.readNBytes(in.available()), StandardCharsets.UTF_8);
                        if (!ended) {
                            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                        }
                        outs.add(out);
                        report.add(kind + ", rank " + g + (ended ? "" : " (did not end)") + ": "
                                + out.lines().filter(l -> l.startsWith("failed")).findFirst().orElse(out));
                    }
                    for (int g = 0; g < procs.size(); g++) {
                        String out = outs.get(g);
                        assertThat(procs.get(g).waitFor(10, TimeUnit.SECONDS)).isTrue();
                        assertThat(procs.get(g).exitValue()).as(kind + ", rank " + g + ":\n" + out).isEqualTo(3);
                        Matcher m = Pattern.compile("failed after (\\d+) ms: ").matcher(out);
                        assertThat(m.find()).as(out).isTrue();
                        assertThat(Long.parseLong(m.group(1))).as(kind + ", rank " + g + ":\n" + out).isLessThan(1000);
                        assertThat(out).as(kind + ", rank " + g).containsPattern("rank \\d is at \\S+ #1 \\([^)]*\\) but rank \\d "
                                + "(is at|sent a message of) (\\S+ #1 \\(|another call)")
                                .contains("every rank must make the same collectives in the same order");
                    }
                } finally {
                    procs.forEach(Process::destroyForcibly);
                }
            }
        } finally {
            report.forEach(l -> System.out.println("NamespaceMismatchTest " + l));
        }
        assertThat(Namespaces.anyLeft(f)).as("namespaces left").isFalse();
    }
}
