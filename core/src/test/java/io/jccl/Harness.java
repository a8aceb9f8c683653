// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.proto.Protocol;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Communicators and streams shared by the tests of one class: one domain per (ranks, algorithm,
 * protocol, channels), made on first use and closed by {@link #close()}.
 */
final class Harness implements AutoCloseable {
    private final Map<String, Communicator[]> domains = new HashMap<>();
    private final Map<Integer, HostStream[]> streams = new HashMap<>();
    private final Config base;

    Harness(Config base) {
        this.base = base;
    }

    /** Ranks on {@code channels} channels, with the Simple protocol. */
    Communicator[] comms(int n, String algorithm, int channels) {
        return comms(n, algorithm, Protocol.SIMPLE, channels);
    }

    /**
     * Ranks on {@code channels} channels in one protocol; with one channel the FIFOs are small (many
     * tiles per call), with more they have NCCL's default sizes (large Simple messages travel by
     * reference).
     */
    Communicator[] comms(int n, String algorithm, Protocol protocol, int channels) {
        return comms(n, algorithm, protocol, channels, 1);
    }

    /**
     * The same on {@code servers} emulated servers of n / servers consecutive ranks each: every
     * rank's configuration names its server as its host identity (JCCL_HOSTID), as ranks on
     * separate hosts would have.
     */
    Communicator[] comms(int n, String algorithm, Protocol protocol, int channels, int servers) {
        Config c = base.withAlgorithms(algorithm).withProtocols(protocol.id()).withChannels(channels, channels);
        if (channels == 1) {
            c = c.withBuffSize("LL", 32 << 10).withBuffSize("LL128", 64 << 10);
        } else {
            for (Protocol p : Protocol.values()) {
                c = c.withBuffSize(p.id(), p.defaultBuffSize());
            }
        }
        Config config = c;
        return domains.computeIfAbsent(n + "/" + algorithm + "/" + protocol + "/" + channels + "/" + servers, k -> {
            if (servers == 1) {
                return Communicator.initAll(n, config);
            }
            List<Config> configs = new java.util.ArrayList<>(n);
            for (int r = 0; r < n; r++) {
                configs.add(config.withHostId("server-" + r / (n / servers)));
            }
            return Communicator.initAll(configs);
        });
    }

    HostStream[] streams(int n) {
        return streams.computeIfAbsent(n, k -> {
            HostStream[] s = new HostStream[n];
            for (int i = 0; i < n; i++) {
                s[i] = new HostStream();
            }
            return s;
        });
    }

    /** Issues {@code call} for every rank in one group from this thread, then waits for all. */
    static void runAll(int n, HostStream[] streams, IntConsumer call) {
        Group.start();
        try {
            for (int r = 0; r < n; r++) {
                call.accept(r);
            }
        } finally {
            Group.end();
        }
        for (int r = 0; r < n; r++) {
            streams[r].synchronize();
        }
    }

    static byte[] bytes(MemorySegment s, long n) {
        return s.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    @Override
    public void close() {
        for (Communicator[] cs : domains.values()) {
            for (Communicator c : cs) {
                c.close();
            }
        }
        for (HostStream[] ss : streams.values()) {
            for (HostStream s : ss) {
                s.close();
            }
        }
        domains.clear();
        streams.clear();
    }

    static List<Integer> ranks(int n) {
        return java.util.stream.IntStream.range(0, n).boxed().toList();
    }
}
