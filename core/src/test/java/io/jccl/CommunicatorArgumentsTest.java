// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Bad arguments are refused up front, each with an error code naming the argument and the rank. */
class CommunicatorArgumentsTest {
    private static final Communicator[] COMMS = Communicator.initAll(4, Config.defaults());
    private static final Communicator C = COMMS[2];
    private static final HostStream S = new HostStream();
    private static final Arena ARENA = Arena.ofShared();
    private static final MemorySegment BUF = ARENA.allocate(4 * 64);
    private static final MemorySegment OTHER = ARENA.allocate(4 * 64);

    @AfterAll
    static void close() {
        S.close();
        for (Communicator c : COMMS) {
            c.close();
        }
        ARENA.close();
    }

    private static JcclException refused(Executable call, String argument) {
        JcclException e = assertThrows(JcclException.class, call);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.rank()).isEqualTo(2);
        assertThat(e.getMessage()).startsWith("rank 2: invalid_argument: argument '" + argument + "'");
        assertThat(S.query()).as("nothing was queued").isTrue();
        return e;
    }

    @Test
    void nullAndTooSmallBuffers() {
        refused(() -> C.allReduce(null, OTHER, 16, DataType.FLOAT32, RedOp.SUM, S), "sendbuff");
        refused(() -> C.allReduce(BUF, null, 16, DataType.FLOAT32, RedOp.SUM, S), "recvbuff");
        assertThat(refused(() -> C.allReduce(BUF, OTHER, 65, DataType.FLOAT32, RedOp.SUM, S), "sendbuff").getMessage())
                .contains("holds 256 bytes but the call needs 260");
        // all-gather's output is nranks times the input.
        assertThat(refused(() -> C.allGather(BUF, OTHER, 17, DataType.FLOAT32, S), "recvbuff").getMessage())
                .contains("needs 272");
        refused(() -> C.reduceScatter(BUF, OTHER, 17, DataType.FLOAT32, RedOp.SUM, S), "sendbuff");
        refused(() -> C.allToAll(BUF, OTHER, 17, DataType.FLOAT32, S), "sendbuff");
    }

    @Test
    void buffersARankDoesNotUseMayBeNull() {
        // Only the root reads broadcast's and scatter's sendbuff and writes reduce's and gather's recvbuff.
        HostStream[] streams = {new HostStream(), new HostStream(), new HostStream(), new HostStream()};
        try (Arena a = Arena.ofShared()) {
            MemorySegment[] bufs = new MemorySegment[4];
            for (int r = 0; r < 4; r++) {
                bufs[r] = a.allocate(4 * 16 * 4);
                for (int i = 0; i < 64; i++) {
                    bufs[r].setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, r + 1);
                }
            }
            MemorySegment rootOut = a.allocate(4 * 16 * 4);
            Harness.runAll(4, streams, r -> {
                Communicator c = COMMS[r];
                c.broadcast(r == 0 ? bufs[0] : null, r == 0 ? bufs[0] : bufs[r].asSlice(0, 64), 16, DataType.FLOAT32, 0, streams[r]);
                c.reduce(bufs[r].asSlice(64, 64), r == 0 ? rootOut : null, 16, DataType.FLOAT32, RedOp.SUM, 0, streams[r]);
            });
            for (int r = 0; r < 4; r++) {
                assertThat(bufs[r].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 3)).isEqualTo(1f);
            }
            assertThat(rootOut.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 5)).isEqualTo(1f + 2 + 3 + 4);
        } finally {
            for (HostStream s : streams) {
                s.close();
            }
        }
    }

    @Test
    void countsRootsPeersAndTypes() {
        assertThat(refused(() -> C.allReduce(BUF, OTHER, -1, DataType.FLOAT32, RedOp.SUM, S), "count").getMessage())
                .contains("negative");
        assertThat(refused(() -> C.broadcast(BUF, OTHER, 4, DataType.FLOAT32, 4, S), "root").getMessage())
                .contains("not a rank of 0..3");
        refused(() -> C.reduce(BUF, OTHER, 4, DataType.FLOAT32, RedOp.SUM, -1, S), "root");
        refused(() -> C.send(BUF, 4, DataType.FLOAT32, 7, S), "peer");
        refused(() -> C.recv(BUF, 4, DataType.FLOAT32, -1, S), "peer");
        refused(() -> C.allReduce(BUF, OTHER, 4, null, RedOp.SUM, S), "datatype");
        refused(() -> C.allReduce(BUF, OTHER, 4, DataType.FLOAT32, null, S), "op");
        assertThat(refused(() -> C.allReduce(BUF, OTHER, 4, DataType.INT32, RedOp.preMulSum(2.5), S), "op").getMessage())
                .contains("2.5");
        refused(() -> C.allReduce(BUF, OTHER, Long.MAX_VALUE / 2, DataType.FLOAT64, RedOp.SUM, S), "count");
        refused(() -> C.allReduce(BUF, OTHER, 4, DataType.FLOAT32, RedOp.SUM, null), "stream");
    }

    @Test
    void readOnlyOutput() {
        assertThat(refused(() -> C.allReduce(BUF, OTHER.asReadOnly(), 4, DataType.FLOAT32, RedOp.SUM, S), "recvbuff")
                .getMessage()).contains("read-only");
        refused(() -> C.recv(OTHER.asReadOnly(), 4, DataType.FLOAT32, 1, S), "recvbuff");
    }

    @Test
    void confinedMemoryIsRefused() {
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment m = confined.allocate(64);
            assertThat(refused(() -> C.allReduce(m, m, 4, DataType.FLOAT32, RedOp.SUM, S), "sendbuff").getMessage())
                    .contains("confined");
        }
    }

    @Test
    void memoryOfAClosedArenaIsRefused() {
        Arena shared = Arena.ofShared();
        MemorySegment freed = shared.allocate(64);
        shared.close();
        assertThat(refused(() -> C.allReduce(freed, OTHER, 4, DataType.FLOAT32, RedOp.SUM, S), "sendbuff").getMessage())
                .contains("closed");
        refused(() -> C.allReduce(BUF, freed, 4, DataType.FLOAT32, RedOp.SUM, S), "recvbuff");
        refused(() -> C.send(freed, 4, DataType.FLOAT32, 1, S), "sendbuff");
    }

    @Test
    void overlapsThatAreNotTheInPlaceForm() {
        // In place is sendbuff == recvbuff; a shifted overlap is an error.
        assertThat(refused(() -> C.allReduce(BUF, BUF.asSlice(4), 8, DataType.FLOAT32, RedOp.SUM, S), "sendbuff").getMessage())
                .contains("sendbuff == recvbuff");
        // All-gather in place: sendbuff = recvbuff + rank * count * size (rank 2, count 4: +32 bytes).
        refused(() -> C.allGather(BUF.asSlice(16, 16), BUF, 4, DataType.FLOAT32, S), "sendbuff");
        refused(() -> C.reduceScatter(BUF, BUF.asSlice(4, 16), 4, DataType.FLOAT32, RedOp.SUM, S), "sendbuff");
        assertThat(refused(() -> C.allToAll(BUF, BUF, 4, DataType.FLOAT32, S), "sendbuff").getMessage()).contains("has none");
        // Overlap of heap memory is seen too.
        MemorySegment heap = MemorySegment.ofArray(new float[64]);
        refused(() -> C.allReduce(heap, heap.asSlice(8), 8, DataType.FLOAT32, RedOp.SUM, S), "sendbuff");
    }

    @Test
    void groupMisuseAndClosedCommunicators() {
        JcclException e = assertThrows(JcclException.class, Group::end);
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_USAGE);
        Communicator[] one = Communicator.initAll(1, Config.defaults());
        one[0].close();
        assertThatThrownBy(() -> one[0].allReduce(BUF, BUF, 4, DataType.FLOAT32, RedOp.SUM, S))
                .isInstanceOf(JcclException.class).hasMessageContaining("closed")
                .satisfies(x -> assertThat(((JcclException) x).code()).isEqualTo(ErrorCode.INVALID_USAGE));
        assertThatThrownBy(() -> Communicator.initAll(0, Config.defaults())).isInstanceOf(JcclException.class)
                .hasMessageContaining("argument 'n'");
    }

    @Test
    void configurationIsChecked() {
        assertThatThrownBy(() -> Config.defaults().withAlgorithms("ring,fast")).isInstanceOf(JcclException.class)
                .hasMessageContaining("JCCL_ALGO").hasMessageContaining("fast");
        assertThatThrownBy(() -> Config.defaults().withAlgorithms("^ring,tree,splittree,direct,hierring,torus2d,rhd,butterfly,"
                + "pipeline,hier2phase,pat"))
                .hasMessageContaining("leaves nothing to use");
        assertThatThrownBy(() -> Config.fromVariables(java.util.Map.of("JCCL_BUFFSIZE", "12x")))
                .hasMessageContaining("JCCL_BUFFSIZE");
        assertThatThrownBy(() -> Config.fromVariables(java.util.Map.of("JCCL_TIMEOUT", "-1")))
                .hasMessageContaining("JCCL_TIMEOUT");
        Config c = Config.fromVariables(java.util.Map.of("JCCL_BUFFSIZE", "1M", "JCCL_ALGO", "^tree", "JCCL_TIMEOUT", "2.5",
                "JCCL_MIN_NCHANNELS", "2", "JCCL_MAX_NCHANNELS", "3"));
        assertThat(c.buffSize()).isEqualTo(1 << 20);
        assertThat(c.algorithms()).hasSize(io.jccl.algo.Algorithm.values().length - 1).contains("ring", "splittree", "direct")
                .doesNotContain("tree");
        assertThat(c.timeout().toMillis()).isEqualTo(2500);
        assertThat(c.minChannels()).isEqualTo(2);
        assertThat(c.maxChannels()).isEqualTo(3);
        assertThat(DataType.parse("bf16")).isEqualTo(DataType.BFLOAT16);
        assertThatThrownBy(() -> DataType.parse("float128")).hasMessageContaining("datatype");
    }
}
