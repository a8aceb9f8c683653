// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.topo.CpuSet;
import io.jccl.topo.ThreadAffinity;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host engine's threads on the cores it chose for them, read back from the kernel
 * ({@code /proc/self/task/TID/status}): each rank's lanes on a core of their own, an application
 * thread that ran a rank's lanes given its own CPUs back, and the CPU set of each rank logged.
 */
@Timeout(60)
class CpuPinningTest {
    @TempDir
    Path dir;

    /** Each thread of this process by its name (as the kernel keeps it: 15 characters), with the CPUs it may run on. */
    private static Map<String, CpuSet> threadCpus() throws IOException {
        Map<String, CpuSet> m = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String name = Files.readString(t.resolve("comm")).strip();
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("Cpus_allowed_list:")) {
                            m.put(name, CpuSet.fromCpulist(line.substring(line.indexOf(':') + 1)));
                        }
                    }
                } catch (IOException e) {
                    // the thread ended while being read
                }
            }
        }
        return m;
    }

    private static String kernelName(Thread t) {
        String n = t.getName();
        return n.length() > 15 ? n.substring(0, 15) : n;
    }

    @Test
    void eachRanksLanesRunOnCoresOfTheirOwnAndACallerGetsItsCpusBack() throws Exception {
        Assumptions.assumeTrue(ThreadAffinity.available(), "sched_setaffinity is not available");
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc to read threads' CPUs from");
        CpuSet allowed = ThreadAffinity.get();
        Path log = dir.resolve("jccl.log");
        // Two lanes per rank: lane 1 is a lane worker, lane 0 the stream's thread.
        Config config = Config.defaults().withChannels(2, 2).withAlgorithms("ring").withDebug(Config.Debug.INFO)
                .withDebugSubsys("INIT").withDebugFile(log.toString());
        Communicator[] comms = Communicator.initAll(2, config);
        try (Arena arena = Arena.ofShared(); HostStream s0 = new HostStream(); HostStream s1 = new HostStream()) {
            HostStream[] streams = {s0, s1};
            MemorySegment[] bufs = {arena.allocate(1 << 20), arena.allocate(1 << 20)};
            bufs[0].fill((byte) 0);
            bufs[1].fill((byte) 0);
            bufs[0].setAtIndex(ValueLayout.JAVA_FLOAT, 0, 1f);
            bufs[1].setAtIndex(ValueLayout.JAVA_FLOAT, 0, 2f);
            Group.start();
            for (int r = 0; r < 2; r++) {
                comms[r].allReduce(bufs[r], bufs[r], (1 << 20) / 4, DataType.FLOAT32, RedOp.SUM, streams[r]);
            }
            Group.end();
            // Not synchronize(): that would run the calls on this thread. The streams' threads run them.
            long until = System.nanoTime() + 30_000_000_000L;
            while (!(s0.query() && s1.query()) && System.nanoTime() < until) {
                Thread.sleep(1);
            }
            assertThat(bufs[1].getAtIndex(ValueLayout.JAVA_FLOAT, 0)).isEqualTo(3f);
            Map<String, CpuSet> cpus = threadCpus();
            CpuSet lane0r0 = cpus.get(kernelName(s0.runner().thread()));
            CpuSet lane0r1 = cpus.get(kernelName(s1.runner().thread()));
            CpuSet lane1r0 = cpus.get("jccl-rank0-lane");   // jccl-rank0-lane1, as the kernel cuts it
            for (CpuSet c : List.of(lane0r0, lane0r1, lane1r0)) {
                assertThat(c.count()).as("one core per lane thread").isEqualTo(1);
                assertThat(allowed.cpus().get(c.cpus().nextSetBit(0))).as("within the allowed CPUs " + allowed).isTrue();
            }
            if (allowed.count() >= 2) {
                assertThat(lane0r0).as("rank 0's and rank 1's lane 0").isNotEqualTo(lane0r1);
                assertThat(lane1r0).as("rank 0's lane 1 and rank 1's lane 0").isNotEqualTo(lane0r1);
            }

            // A thread of the application that runs the calls itself (synchronize) keeps its own CPUs.
            AtomicReference<CpuSet> before = new AtomicReference<>();
            AtomicReference<CpuSet> after = new AtomicReference<>();
            Thread caller = Thread.ofPlatform().start(() -> {
                before.set(ThreadAffinity.get());
                Group.start();
                for (int r = 0; r < 2; r++) {
                    comms[r].allReduce(bufs[r], bufs[r], 1024, DataType.FLOAT32, RedOp.SUM, streams[r]);
                }
                Group.end();
                s0.synchronize();
                s1.synchronize();
                after.set(ThreadAffinity.get());
            });
            caller.join();
            assertThat(after.get()).isEqualTo(before.get());
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
        String text = Files.readString(log);
        assertThat(text).containsPattern("\\[0\\] jccl INFO INIT CPU affinity .*lane threads on core\\(s\\) " + "\\d");
        assertThat(text).containsPattern("\\[1\\] jccl INFO INIT CPU affinity ");
    }
}
