// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Jccl}'s version, and the examples of the API's Javadoc: the regions below are what
 * {@code Jccl} and {@code package-info} show (javadoc's {@code --snippet-path} is this folder), so
 * they compile with the tests and run here.
 */
class JcclExamplesTest {

    @Test
    void versionIsTheBuildsAndItsCodeIsNcclsForm() {
        String built = System.getProperty("jccl.project.version");
        assertThat(built).as("surefire passes the POM's version").isNotBlank();
        assertThat(Jccl.version()).isEqualTo(built);
        String[] parts = built.replaceFirst("-.*", "").split("\\.");
        int expected = Integer.parseInt(parts[0]) * 10000 + Integer.parseInt(parts[1]) * 100 + Integer.parseInt(parts[2]);
        assertThat(Jccl.versionCode()).isEqualTo(expected);

        // @start region="version"
        String version = Jccl.version();     // "0.1.0-SNAPSHOT" while 0.1.0 is being made
        int code = Jccl.versionCode();       // 100 = 0 * 10000 + 1 * 100 + 0, as ncclGetVersion's
        if (code < Jccl.versionCode(0, 1, 0)) {
            throw new IllegalStateException("needs jccl 0.1.0 or later, found " + version);
        }
        // @end
    }

    @Test
    void versionCodesAreNcclsAndRefuseWhatTheyCannotOrder() {
        assertThat(Jccl.versionCode(2, 19, 3)).isEqualTo(21903);
        assertThat(Jccl.versionCode(0, 1, 0)).isEqualTo(100);
        assertThat(Jccl.parseCode("1.2.3")).isEqualTo(10203);
        assertThat(Jccl.parseCode("0.10.0-SNAPSHOT")).isEqualTo(1000);
        assertThat(Jccl.parseCode("3.0.1.Final")).isEqualTo(30001);
        assertThatThrownBy(() -> Jccl.versionCode(1, 100, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Jccl.versionCode(1, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Jccl.parseCode("1.2")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'1.2'");
    }

    @Test
    void gettingStartedAllReducesAcrossTwoThreads() throws Exception {
        float[][] results = new float[2][];
        // @start region="getting-started"
        Communicator[] comms = Communicator.initAll(2, Config.fromEnvironment());
        ExecutorService pool = Executors.newFixedThreadPool(2);    // one thread per rank
        List<Future<?>> ranks = new ArrayList<>();
        for (Communicator comm : comms) {
            ranks.add(pool.submit(() -> {
                try (Arena arena = Arena.ofShared(); HostStream stream = new HostStream()) {
                    MemorySegment buf = arena.allocate(ValueLayout.JAVA_FLOAT, 4);
                    buf.fill((byte) 0);
                    buf.setAtIndex(ValueLayout.JAVA_FLOAT, 0, comm.rank() + 1);       // rank r adds r + 1
                    comm.allReduce(buf, buf, 4, DataType.FLOAT32, RedOp.SUM, stream); // in place
                    stream.synchronize();
                    results[comm.rank()] = buf.toArray(ValueLayout.JAVA_FLOAT);       // {3, 0, 0, 0}
                }
                comm.close();
                return null;
            }));
        }
        for (Future<?> rank : ranks) {
            rank.get();    // rethrows a rank's failure
        }
        pool.shutdown();
        // @end
        assertThat(results[0]).containsExactly(3f, 0f, 0f, 0f);
        assertThat(results[1]).containsExactly(3f, 0f, 0f, 0f);
    }
}
