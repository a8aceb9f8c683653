// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ranks that make different calls (collective, count, type, operation, root): every rank fails
 * within a second, not at the timeout and never with wrong data, and the error of a rank that
 * received the other call's message names both calls and both ranks. Threads of one process; the
 * messages carry each call's stamp (JCCL_CHECK_CALLS, on by default).
 */
@Timeout(120)
class CallMismatchTest {
    private static final Config CONFIG = Config.defaults().withTimeout(Duration.ofSeconds(60));
    private static final long COUNT = 1024;

    /** Rank r's call in a mismatch of {@code kind}: rank 1 differs, the others agree (every rank receives in each). */
    private static BiConsumer<Communicator, MemorySegment[]> call(String kind, int r, HostStream s) {
        boolean odd = r == 1;
        return (c, b) -> {
            switch (kind) {
                case "collective" -> {
                    if (odd) {
                        c.reduce(b[0], b[1], COUNT, DataType.FLOAT32, RedOp.SUM, 1, s);
                    } else {
                        c.allReduce(b[0], b[1], COUNT, DataType.FLOAT32, RedOp.SUM, s);
                    }
                }
                case "count" -> c.allReduce(b[0], b[1], odd ? COUNT / 2 : COUNT, DataType.FLOAT32, RedOp.SUM, s);
                case "type" -> c.allReduce(b[0], b[1], COUNT, odd ? DataType.INT32 : DataType.FLOAT32, RedOp.SUM, s);
                case "op" -> c.allReduce(b[0], b[1], COUNT, DataType.FLOAT32, odd ? RedOp.MAX : RedOp.SUM, s);
                default -> throw new IllegalArgumentException(kind);
            }
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"collective", "count", "type", "op"})
    void everyRankFailsWithinASecondNamingBothCalls(String kind) throws Exception {
        int n = 3;
        Communicator[] comms = Communicator.initAll(n, CONFIG);
        try (Arena arena = Arena.ofShared()) {
            long t0 = System.nanoTime();
            List<Throwable> outcomes = run(comms, r -> s -> call(kind, r, s).accept(comms[r],
                    new MemorySegment[] {arena.allocate(COUNT * 4), arena.allocate(COUNT * 4)}));
            List<String> messages = new ArrayList<>();
            for (Throwable e : outcomes) {
                assertThat(e).as("no rank returns normally").isInstanceOf(JcclException.class);
                messages.add(e.getMessage());
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as(String.join("\n", messages)).isLessThan(Duration.ofSeconds(1));
            String both = String.join("\n", messages);
            assertThat(both).contains("every rank must make the same collectives in the same order");
            String mine = "allreduce #0 (1024 float32, sum)";
            String theirs = switch (kind) {
                case "collective" -> "reduce #0 (1024 float32, sum, root 1)";
                case "count" -> "allreduce #0 (512 float32, sum)";
                case "type" -> "allreduce #0 (1024 int32, sum)";
                default -> "allreduce #0 (1024 float32, max)";
            };
            // Whichever rank received first names both calls; the others fail with its error as the cause.
            String q = java.util.regex.Pattern.quote(mine);
            String t = java.util.regex.Pattern.quote(theirs);
            // A message's stamp names the other call, or (a rank that waited a tenth of a second) the rank's own call.
            String named = "rank [02] is at " + q + " but rank 1 (sent a message of|is at) (" + t + "|another call)"
                    + "|rank 1 is at " + t + " but rank [02] (sent a message of|is at) (" + q + "|another call)";
            for (String m : messages) {
                assertThat(m).as(both).containsPattern(named).contains("every rank must make the same collectives in the same order");
            }
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    /** Runs {@code call} on each of {@code n} ranks in its own thread; returns what each threw (null: it returned). */
    private static List<Throwable> run(Communicator[] comms, java.util.function.IntFunction<java.util.function.Consumer<HostStream>> call)
            throws Exception {
        List<HostStream> streams = new ArrayList<>();
        try {
            List<CompletableFuture<Throwable>> outcomes = new ArrayList<>();
            for (int r = 0; r < comms.length; r++) {
                HostStream s = new HostStream();
                streams.add(s);
                java.util.function.Consumer<HostStream> body = call.apply(r);
                outcomes.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        body.accept(s);
                        s.synchronize();
                        return null;
                    } catch (RuntimeException e) {
                        return e;
                    }
                }, Thread::startVirtualThread));
            }
            List<Throwable> out = new ArrayList<>();
            for (CompletableFuture<Throwable> o : outcomes) {
                out.add(o.get(60, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            streams.forEach(HostStream::close);
        }
    }

    /**
     * Roots that leave every rank waiting for another (ring broadcast: rank 0 takes rank 1 for the
     * root, the others rank 0): no message shows it, so the ranks compare their calls once a wait
     * lasts a tenth of a second, and every rank fails within a second naming both calls.
     */
    @Test
    void rootsThatLeaveEveryRankWaitingFailWithinASecondNamingBothCalls() throws Exception {
        Communicator[] comms = Communicator.initAll(3, CONFIG.withAlgorithms("ring"));
        try (Arena arena = Arena.ofShared()) {
            long t0 = System.nanoTime();
            List<Throwable> outcomes = run(comms, r -> s -> {
                MemorySegment b = arena.allocate(COUNT * 4);
                comms[r].broadcast(b, b, COUNT, DataType.FLOAT32, r == 0 ? 1 : 0, s);
            });
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            String all = outcomes.toString();
            assertThat(outcomes).as("no rank returns normally").allMatch(e -> e instanceof JcclException);
            assertThat(took).as(all).isLessThan(Duration.ofSeconds(1));
            for (Throwable e : outcomes) {
                assertThat(e.getMessage()).as(all).containsPattern("rank 0 is at broadcast #0 \\(1024 float32, root 1\\) but rank [12] is at "
                        + "broadcast #0 \\(1024 float32, root 0\\)|rank [12] is at broadcast #0 \\(1024 float32, root 0\\) but rank 0 is at "
                        + "broadcast #0 \\(1024 float32, root 1\\)").contains("every rank must make the same collectives in the same order");
            }
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    /**
     * Two ranks that both take themselves for the root only send: nothing can stop them returning,
     * but the messages nobody took carry their stamp, so the next call fails on both naming the
     * broadcast, never returning what the other rank's broadcast left.
     */
    @Test
    void rootsThatOnlySendFailAtTheNextCallNamingTheBroadcast() throws Exception {
        Communicator[] comms = Communicator.initAll(2, CONFIG.withAlgorithms("ring"));
        try (Arena arena = Arena.ofShared()) {
            List<Throwable> first = run(comms, r -> s -> {
                MemorySegment b = arena.allocate(COUNT * 4);
                comms[r].broadcast(b, b, COUNT, DataType.FLOAT32, r, s);
            });
            assertThat(first).containsOnlyNulls();
            List<Throwable> next = run(comms, r -> s -> {
                MemorySegment b = arena.allocate(COUNT * 4);
                comms[r].allReduce(b, b, COUNT, DataType.FLOAT32, RedOp.SUM, s);
            });
            assertThat(next).as("no rank returns normally").allMatch(e -> e instanceof JcclException);
            assertThat(next.toString()).contains("is at allreduce #1 (1024 float32, sum) but rank")
                    .contains("every rank must make the same collectives in the same order");
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }

    @Test
    void withChecksOffTheMessagesCarryNoStamp() throws Exception {
        Communicator[] comms = Communicator.initAll(2, CONFIG.withCheckCalls(false));
        try (Arena arena = Arena.ofShared(); HostStream s0 = new HostStream(); HostStream s1 = new HostStream()) {
            MemorySegment a = arena.allocate(COUNT * 4);
            MemorySegment b = arena.allocate(COUNT * 4);
            // Same bytes, another op: nothing catches it then, as before the checks.
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                comms[1].allReduce(b, b, COUNT, DataType.FLOAT32, RedOp.MAX, s1);
                s1.synchronize();
            }, Thread::startVirtualThread);
            comms[0].allReduce(a, a, COUNT, DataType.FLOAT32, RedOp.SUM, s0);
            s0.synchronize();
            other.get(60, TimeUnit.SECONDS);
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }
}
