// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.transport.net.IbFake;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Registered user buffers go zero-copy over the IB net: two rank processes on two claimed hosts
 * ({@code JCCL_NET=IB}, the fake libibverbs, ring and Simple so that every message is a large
 * by-reference one) run a broadcast, an all-reduce and an all-gather of 8 MiB ({@link RegisteredRank},
 * every element checked), once with the buffer {@code register}ed and once without. The fake
 * counts the bytes its RDMA writes took from the user buffer: registered, every payload byte a
 * rank sends comes straight from it (what else it writes is the clear-to-send slots, bytes per
 * message); unregistered, none does (the net copied each message into a bounce buffer first).
 * Runs in the fake-verbs JVM.
 */
@Timeout(180)
class IbRegisteredBuffersTest {
    private static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(60));
    /** What each rank must send of the three calls over 2 ranks' rings: rank 0 also the broadcast. */
    private static final long[] PAYLOAD = {RegisteredRank.HALF + RegisteredRank.HALF + RegisteredRank.HALF / 2,
        RegisteredRank.HALF + RegisteredRank.HALF / 2};

    @Test
    void registeredBuffersAreSentStraightFromTheUsersMemory() throws Exception {
        long[][] registered = run("registered");
        long[][] plain = run("plain");
        for (int r = 0; r < 2; r++) {
            assertThat(registered[r][0]).as("rank " + r + " sent").isGreaterThanOrEqualTo(PAYLOAD[r]);
            assertThat(registered[r][1]).as("rank " + r + ": bytes sent from its registered buffer").isGreaterThanOrEqualTo(PAYLOAD[r]);
            assertThat(registered[r][0] - registered[r][1]).as("rank " + r + ": bytes sent from elsewhere (staged)")
                    .isLessThan(64 << 10);
            assertThat(plain[r][0]).as("rank " + r + " sent, unregistered").isGreaterThanOrEqualTo(PAYLOAD[r]);
            assertThat(plain[r][1]).as("rank " + r + ": bytes sent from its unregistered buffer").isZero();
        }
    }

    /** Per rank: bytes its RDMA writes moved, and how many of them came from its user buffer. */
    private static long[][] run(String mode) throws Exception {
        Path lib = IbFake.library();
        String[] hosts = {"A", "B"};
        List<Process> procs = new ArrayList<>();
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            for (int r = 0; r < hosts.length; r++) {
                ProcessBuilder pb = ChildJvm.rank(root.id(), r, hosts.length, List.of("-Djccl.ibverbs.lib=" + lib),
                        RegisteredRank.class.getName(), root.id().encode(), mode);
                pb.environment().put("JCCL_HOSTID", hosts[r]);
                pb.environment().put("JCCL_NET", "IB");
                pb.environment().put("JCCL_FAKE_IB_DEVICES", "fake_ib0:1");
                pb.environment().put("JCCL_ALGO", "ring");
                pb.environment().put("JCCL_PROTO", "Simple");
                procs.add(pb.start());
            }
            long[][] out = new long[hosts.length][];
            StringBuilder all = new StringBuilder();
            for (int r = 0; r < hosts.length; r++) {
                Process p = procs.get(r);
                boolean ended = p.waitFor(150, TimeUnit.SECONDS);
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                all.append("rank ").append(r).append(ended ? " (exit " + p.exitValue() + "): " : " (did not end): ").append(text);
                Matcher m = Pattern.compile("bytes sent (\\d+), from the user buffer (\\d+)").matcher(text);
                out[r] = ended && p.exitValue() == 0 && m.find() ? new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))}
                        : null;
            }
            assertThat(java.util.Arrays.asList(out)).as(mode + ": " + all).doesNotContainNull();
            System.out.println("IbRegisteredBuffersTest " + mode + ": " + all.toString().replace('\n', ' '));
            return out;
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }
}
