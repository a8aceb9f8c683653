// SPDX-License-Identifier: Apache-2.0
package io.jccl.fault;

import io.jccl.ChildJvm;
import io.jccl.Config;
import io.jccl.bootstrap.BootstrapRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two torchrun-style jobs with one MASTER_PORT and one secret and no job id, the case: job
 * B's rank 1 completes job A (whose rank 0 hosts the root) before A's own rank 1 comes, and the
 * two run checked all-reduces ({@link ChurnRank}). When A's rank 1 comes, the root (alive as long
 * as rank 0's communicator) refuses it naming both joins, and job A fails on both of its ranks,
 * the stranger included: no job goes on with a stranger.
 */
class StrangerJobTest {
    @Test
    @Timeout(120)
    void theJobsOwnRankComingLateFailsTheJobThatRunsWithAStranger() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.ofLiteral("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        List<Process> procs = new ArrayList<>();
        List<StringBuilder> outs = new ArrayList<>();
        try {
            List<CompletableFuture<Void>> looping = new ArrayList<>();
            for (int r : new int[] {0, 1, 1}) {
                if (procs.size() == 2) {
                    CompletableFuture.allOf(looping.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                }
                ProcessBuilder pb = torchrun(r, port);
                Process p = pb.start();
                procs.add(p);
                StringBuilder out = new StringBuilder();
                outs.add(out);
                CompletableFuture<Void> up = new CompletableFuture<>();
                looping.add(up);
                Thread.ofPlatform().daemon().start(() -> {
                    try (BufferedReader rd = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String l; (l = rd.readLine()) != null; ) {
                            synchronized (out) {
                                out.append(l).append('\n');
                            }
                            if (l.equals("looping")) {
                                up.complete(null);
                            }
                        }
                    } catch (java.io.IOException e) {
                        synchronized (out) {
                            out.append(e);
                        }
                    }
                    up.complete(null);
                });
            }
            for (int i = 0; i < 3; i++) {
                assertThat(procs.get(i).waitFor(30, TimeUnit.SECONDS)).as("process " + i + ":\n" + outs.get(i)).isTrue();
            }
            Thread.sleep(200);
            String late = outs.get(2).toString();
            System.out.println("StrangerJobTest: the late rank 1: " + late.lines().filter(l -> l.contains("joined twice")).findFirst()
                    .orElse(late));
            assertThat(procs.get(2).exitValue()).as(late).isNotZero();
            assertThat(late).contains("rank 1 joined twice").contains("after the job had started");
            for (int i = 0; i < 2; i++) {
                String out = outs.get(i).toString();
                System.out.println("StrangerJobTest: " + (i == 0 ? "job A's rank 0: " : "the stranger: ")
                        + out.lines().filter(l -> l.startsWith("failed: ")).findFirst().orElse(out));
                assertThat(procs.get(i).exitValue()).as(out).isEqualTo(3);
                assertThat(out).containsPattern("failed: .*rank 1 joined twice");
            }
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }

    /** A torchrun rank of a job of 2 whose MASTER_PORT is {@code port - 1} (rank 0 hosts the root at {@code port}), with a shared secret. */
    private static ProcessBuilder torchrun(int rank, int port) throws Exception {
        ProcessBuilder pb;
        try (BootstrapRoot unused = BootstrapRoot.start(Config.defaults().withSocketIfname("lo"))) {
            pb = ChildJvm.rank(unused.id(), rank, 2, List.of(), ChurnRank.class.getName());
        }
        pb.environment().keySet().removeIf(k -> k.equals("JCCL_COMM_ID") || k.equals("JCCL_RANK") || k.equals("JCCL_NRANKS")
                || k.startsWith("JCCL_LOCAL_"));
        pb.environment().putAll(java.util.Map.of("RANK", "" + rank, "WORLD_SIZE", "2", "MASTER_ADDR", "127.0.0.1",
                "MASTER_PORT", "" + (port - 1), "JCCL_COMM_SECRET", "one secret two jobs share", "JCCL_BOOTSTRAP_TIMEOUT", "20"));
        return pb;
    }
}
