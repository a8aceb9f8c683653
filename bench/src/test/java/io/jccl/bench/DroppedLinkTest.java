// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A link that goes down under a running job: 2 hosts made of network namespaces ({@link Fabric},
 * one rank each, over the socket transport) run checked all-reduces ({@link FabricLoopRank}) until
 * host 1's link is set down. Nothing closes a connection (no reset crosses a link that is down),
 * so only the keep-alive can tell: each rank must fail within 3 s (default heartbeats, a second
 * each) naming the other, its pid, and that it is stopped or unreachable.
 */
@Timeout(180)
class DroppedLinkTest {
    @Test
    void eachRankNamesTheOtherWithinThreeSecondsOfTheLinkGoingDown() throws Exception {
        Fabric f = Namespaces.build(2, 1, 0, 0);
        List<Process> procs = new ArrayList<>();
        try (f) {
            List<CompletableFuture<Void>> looping = new ArrayList<>();
            List<List<String>> lines = new ArrayList<>();
            List<List<Long>> times = new ArrayList<>();
            for (int g = 0; g < 2; g++) {
                Map<String, String> env = new java.util.HashMap<>(f.rankEnvironment(g, false));
                env.putAll(Map.of("JCCL_TIMEOUT", "60", "JCCL_BOOTSTRAP_TIMEOUT", "60"));
                Process p = f.start(g, Namespaces.java(FabricLoopRank.class), env, true);
                procs.add(p);
                CompletableFuture<Void> up = new CompletableFuture<>();
                looping.add(up);
                List<String> out = java.util.Collections.synchronizedList(new ArrayList<>());
                List<Long> at = java.util.Collections.synchronizedList(new ArrayList<>());
                lines.add(out);
                times.add(at);
                Thread.ofPlatform().daemon().start(() -> {
                    try (BufferedReader rd = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String l; (l = rd.readLine()) != null; ) {
                            at.add(System.nanoTime());
                            out.add(l);
                            if (l.equals("looping")) {
                                up.complete(null);
                            }
                        }
                    } catch (java.io.IOException e) {
                        out.add(e.toString());
                    }
                    up.complete(null);
                });
            }
            CompletableFuture.allOf(looping.toArray(CompletableFuture[]::new)).get(90, TimeUnit.SECONDS);
            Process down = new ProcessBuilder("ip", "netns", "exec", f.namespace(1), "ip", "link", "set", Fabric.IFACE, "down")
                    .redirectErrorStream(true).start();
            assertThat(down.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long t0 = System.nanoTime();
            assertThat(down.exitValue()).as(new String(down.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
            for (int g = 0; g < 2; g++) {
                assertThat(procs.get(g).waitFor(30, TimeUnit.SECONDS)).as("rank " + g + " gave up:\n" + lines.get(g)).isTrue();
                Thread.sleep(100);
                int at = -1;
                for (int i = 0; i < lines.get(g).size(); i++) {
                    if (lines.get(g).get(i).startsWith("failed: ")) {
                        at = i;
                        break;
                    }
                }
                assertThat(at).as("rank " + g + ": " + lines.get(g)).isNotNegative();
                String failed = lines.get(g).get(at);
                Duration took = Duration.ofNanos(times.get(g).get(at) - t0);
                System.out.println("DroppedLinkTest: rank " + g + " failed " + took.toMillis() + " ms after the link went down: " + failed);
                assertThat(procs.get(g).exitValue()).isEqualTo(3);
                int other = 1 - g;
                assertThat(failed).contains("rank " + other + " (pid " + procs.get(other).pid());
                assertThat(took).isLessThan(Duration.ofSeconds(3));
            }
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
        assertThat(Namespaces.anyLeft(f)).as("namespaces left").isFalse();
    }
}
