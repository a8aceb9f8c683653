// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.proto.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Ranks choose alike whatever their own files say; the choice is visible; protocols refuse wrong sizes. */
class TuningAgreementTest {
    private static void allReduceAndCheck(Communicator[] comms, int count) {
        int n = comms.length;
        HostStream[] streams = new HostStream[n];
        try (Arena a = Arena.ofShared()) {
            MemorySegment[] bufs = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                streams[r] = new HostStream();
                bufs[r] = a.allocate(4L * count);
                for (int i = 0; i < count; i++) {
                    bufs[r].setAtIndex(ValueLayout.JAVA_INT, i, r * 1000 + i);
                }
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                comms[r].allReduce(bufs[r], bufs[r], count, DataType.INT32, RedOp.SUM, streams[r]);
            }
            Group.end();
            for (int r = 0; r < n; r++) {
                streams[r].synchronize();
                for (int i = 0; i < count; i++) {
                    assertThat(bufs[r].getAtIndex(ValueLayout.JAVA_INT, i)).isEqualTo(1000 * n * (n - 1) / 2 + n * i);
                }
            }
        } finally {
            for (HostStream s : streams) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }

    @Test
    void ranksGivenDifferentTuningFilesFollowRankZeros(@TempDir Path dir) throws Exception {
        Path zero = Files.writeString(dir.resolve("rank0.conf"), "allreduce,0,1048576,tree,ll128,-1,-1,-1\n");
        Path other = Files.writeString(dir.resolve("other.conf"), "allreduce,0,1048576,ring,simple,-1,-1,-1\n");
        List<Config> configs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            configs.add(Config.defaults().withTuningFile(r == 0 ? zero : other).withTimeout(Duration.ofSeconds(20)));
        }
        Communicator[] comms = Communicator.initAll(configs);
        try {
            for (Communicator c : comms) {
                CallChoice ch = c.choiceFor(Collective.ALL_REDUCE, 1000, DataType.INT32);
                assertThat(ch.algorithm()).isEqualTo("tree");
                assertThat(ch.protocol()).isEqualTo("LL128");
                assertThat(ch.source()).isEqualTo("rules");
                assertThat(c.config().tuningFile()).isEqualTo(c.rank() == 0 ? zero : other);
            }
            allReduceAndCheck(comms, 1000);
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
        Communicator[] swapped = Communicator.initAll(List.of(configs.get(1), configs.get(0)));
        try {
            assertThat(swapped[1].choiceFor(Collective.ALL_REDUCE, 1000, DataType.INT32).protocol()).isEqualTo("Simple");
            allReduceAndCheck(swapped, 1000);
        } finally {
            for (Communicator c : swapped) {
                c.close();
            }
        }
    }

    @Test
    void aBadTuningFileIsRefusedAtInit(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.conf"), "allreduce,0,10,ring\n");
        assertThatThrownBy(() -> Communicator.initAll(2, Config.defaults().withTuningFile(bad)))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_TUNING_FILE").hasMessageContaining("line 1");
        assertThatThrownBy(() -> Communicator.initAll(2, Config.defaults().withTuningFile(dir.resolve("missing.json"))))
                .isInstanceOf(JcclException.class).hasMessageContaining("cannot be read");
    }

    @Test
    void debugInfoLogsEachCallShapesChoiceOnce() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("jccl-tuning", ".log");
        Communicator[] comms = Communicator.initAll(2, Config.defaults().withDebug(Config.Debug.INFO).withDebugSubsys("TUNING")
                .withDebugFile(file.toString()).withProtocols("LL"));
        try {
            allReduceAndCheck(comms, 5);
            allReduceAndCheck(comms, 5);
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
        String text = java.nio.file.Files.readString(file);
        java.nio.file.Files.delete(file);
        assertThat(text).contains("jccl INFO TUNING allreduce 20 B on 2 ranks: butterfly/LL x1 (model");
        assertThat(text.lines().filter(l -> l.contains("allreduce 20 B")).count()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void ranksCallingDifferentSizesFailClearlyInEveryProtocol(Protocol p) {
        // With the call stamps (the default) the receiver names both calls; without, it sees the sizes differ.
        for (boolean stamps : new boolean[] {true, false}) {
            Communicator[] comms = Communicator.initAll(2, Config.defaults().withProtocols(p.id()).withAlgorithms("ring")
                    .withTimeout(Duration.ofSeconds(5)).withCheckCalls(stamps));
            HostStream s0 = new HostStream();
            HostStream s1 = new HostStream();
            try (Arena a = Arena.ofShared()) {
                comms[0].allReduce(a.allocate(400), a.allocate(400), 100, DataType.FLOAT32, RedOp.SUM, s0);
                comms[1].allReduce(a.allocate(404), a.allocate(404), 101, DataType.FLOAT32, RedOp.SUM, s1);
                // Both ranks fail (the one that sees the other call, and its peer through the abort);
                // both streams are drained before the buffers go away.
                List<Throwable> errors = new ArrayList<>();
                for (HostStream s : List.of(s0, s1)) {
                    try {
                        s.synchronize();
                    } catch (JcclException e) {
                        errors.add(e);
                    }
                }
                assertThat(errors).hasSize(2);
                if (stamps) {
                    assertThat(errors).allSatisfy(e -> assertThat(e).hasMessageContaining("every rank must make the same collectives")
                            .hasMessageMatching("(?s).*is at allreduce #0 \\((100|101) float32, sum\\).*"));
                } else {
                    assertThat(errors).anySatisfy(e -> assertThat(e).hasMessageContaining("sent").hasMessageContaining("bytes")
                            .hasMessageContaining("different operations or sizes"));
                }
            } finally {
                s0.close();
                s1.close();
                for (Communicator c : comms) {
                    c.close();
                }
            }
        }
    }
}
