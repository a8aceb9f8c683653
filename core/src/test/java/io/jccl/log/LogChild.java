// SPDX-License-Identifier: Apache-2.0
package io.jccl.log;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.HostStream;
import io.jccl.RedOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * LogTest's child JVM: two ranks configured from the environment (JCCL_DEBUG...) run one checked
 * all-reduce, then it prints what {@link RecordingFinder} received, one "RECORD name LEVEL message"
 * per line.
 */
public final class LogChild {
    private LogChild() {
    }

    public static void main(String[] args) {
        Communicator[] comms = Communicator.initAll(2, Config.fromEnvironment());
        try (Arena arena = Arena.ofShared(); HostStream s0 = new HostStream(); HostStream s1 = new HostStream()) {
            HostStream[] streams = {s0, s1};
            MemorySegment[] bufs = new MemorySegment[2];
            for (int r = 0; r < 2; r++) {
                bufs[r] = arena.allocate(256 * 4L);
                for (int i = 0; i < 256; i++) {
                    bufs[r].setAtIndex(ValueLayout.JAVA_FLOAT, i, r + 1);
                }
            }
            Group.run(() -> {
                for (int r = 0; r < 2; r++) {
                    comms[r].allReduce(bufs[r], bufs[r], 256, DataType.FLOAT32, RedOp.SUM, streams[r]);
                }
            });
            for (int r = 0; r < 2; r++) {
                streams[r].synchronize();
                if (bufs[r].getAtIndex(ValueLayout.JAVA_FLOAT, 255) != 3) {
                    throw new AssertionError("rank " + r + " summed to " + bufs[r].getAtIndex(ValueLayout.JAVA_FLOAT, 255));
                }
            }
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
        RecordingFinder.RECORDS.forEach(r -> System.out.println("RECORD " + r));
    }
}
