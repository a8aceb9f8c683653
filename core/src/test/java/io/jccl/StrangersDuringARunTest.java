// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bootstrap.BootstrapRoot;
import io.jccl.bootstrap.CommId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Strangers at every listener of a job, while it bootstraps and while it runs: two ranks of this
 * process talking over the socket transport (shared memory and in-process FIFOs off), fuzzed
 * frames (random bytes, random lengths, some with a plausible length prefix) sent at the root and
 * the ranks' bootstrap listeners during init, then at every listener the job opened (the ranks'
 * bootstrap listeners and the socket transport's) during checked all-reduces, with idle
 * connections held open meanwhile. The job completes with every element right, and what the
 * listeners keep does not grow: the heap after a full GC, and this process's threads and file
 * descriptors, are back near where they were. 4,000 frames and 1,000 idle connections in the
 * default suite, 20,000 and 5,000 with {@code -Pfull}; the seed is printed.
 */
@Timeout(300)
class StrangersDuringARunTest {
    private static final boolean FULL = Boolean.getBoolean("jccl.test.full");
    private static final int FRAMES = FULL ? 20_000 : 4_000;
    private static final int IDLE = FULL ? 5_000 : 1_000;
    private static final Config CONFIG = Config.defaults().withSocketIfname("lo").withP2pDisable(true).withShmDisable(true)
            .withBootstrapTimeout(Duration.ofSeconds(60)).withTimeout(Duration.ofSeconds(60));

    @Test
    void fuzzedFramesAndIdleStrangersAtEveryListenerLeaveTheJobRightAndTheListenersFlat() throws Exception {
        long seed = Long.getLong("jccl.test.seed", System.nanoTime());
        System.out.println("StrangersDuringARunTest seed " + seed);
        Random rnd = new Random(seed);
        Set<Integer> before = listeningPorts();
        try (BootstrapRoot root = BootstrapRoot.start(CONFIG)) {
            CommId id = root.id();
            // During init: frames at the root (and at the ranks' listeners once they appear).
            Fuzzer initFuzz = new Fuzzer(rnd.nextLong(), FRAMES / 2, () -> newPorts(before));
            initFuzz.start();
            initFuzz.awaitSent(FRAMES / 10);
            List<Communicator> comms = CommunicatorInitTest.ranks(2, r -> Communicator.init(id, 2, r, CONFIG));
            try {
                initFuzz.join();
                int port = root.id().port();
                Set<Integer> listeners = newPorts(before);
                listeners.remove(port);
                assertThat(listeners).as("the ranks' bootstrap listeners and the socket transport's").hasSizeGreaterThanOrEqualTo(3);
                checkedAllReduces(comms, 20);
                long heap = usedHeapAfterGc();
                int threads = Thread.activeCount();
                long fds = openFds();
                // During a run: idle connections held, frames at every listener of the ranks.
                List<Socket> idle = new ArrayList<>();
                List<Integer> ports = new ArrayList<>(listeners);
                for (int i = 0; i < IDLE; i++) {
                    idle.add(new Socket("127.0.0.1", ports.get(i % ports.size())));
                }
                Fuzzer runFuzz = new Fuzzer(rnd.nextLong(), FRAMES / 2, () -> listeners);
                runFuzz.start();
                AtomicBoolean fuzzing = new AtomicBoolean(true);
                CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> {
                    int calls = 0;
                    while (fuzzing.get() || calls < 20) {
                        checkedAllReduces(comms, 1);
                        calls++;
                    }
                    return calls;
                });
                runFuzz.join();
                fuzzing.set(false);
                int calls = run.get(120, TimeUnit.SECONDS);
                for (Socket s : idle) {
                    s.close();
                }
                checkedAllReduces(comms, 5);
                Thread.sleep(500); // the listeners see the idle ones close
                long heapAfter = usedHeapAfterGc();
                System.out.printf("StrangersDuringARunTest: %d frames during init, %d during %d checked all-reduces, %d idle "
                        + "connections; heap %d -> %d KiB, threads %d -> %d, fds %d -> %d%n", initFuzz.sent.get(), runFuzz.sent.get(),
                        calls, IDLE, heap >> 10, heapAfter >> 10, threads, Thread.activeCount(), fds, openFds());
                assertThat(initFuzz.failure).as("the fuzzer during init").isNull();
                assertThat(runFuzz.failure).as("the fuzzer during the run").isNull();
                assertThat(initFuzz.sent.get() + runFuzz.sent.get()).isEqualTo(FRAMES);
                assertThat(heapAfter - heap).as("heap growth").isLessThan(16L << 20);
                assertThat(Thread.activeCount() - threads).as("threads left").isLessThan(8);
                assertThat(openFds() - fds).as("file descriptors left").isLessThan(16);
                for (Communicator c : comms) {
                    assertThat(c.state()).isEqualTo(Communicator.State.READY);
                }
            } finally {
                comms.forEach(Communicator::close);
            }
        }
    }

    /** {@code times} all-reduces of 64 Ki int32 (several socket chunks) on both ranks, every element checked. */
    private static void checkedAllReduces(List<Communicator> comms, int times) {
        try {
            CommunicatorInitTest.ranks(comms.size(), r -> {
                Communicator c = comms.get(r);
                int n = 1 << 16;
                try (Arena arena = Arena.ofShared(); HostStream s = new HostStream()) {
                    MemorySegment buf = arena.allocate(n * 4L);
                    for (int k = 0; k < times; k++) {
                        for (int i = 0; i < n; i++) {
                            buf.setAtIndex(ValueLayout.JAVA_INT, i, (r + 1) * (i + k));
                        }
                        c.allReduce(buf, buf, n, DataType.INT32, RedOp.SUM, s);
                        s.synchronize();
                        for (int i = 0; i < n; i++) {
                            assertThat(buf.getAtIndex(ValueLayout.JAVA_INT, i)).isEqualTo(3 * (i + k));
                        }
                    }
                }
                return null;
            });
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Sends {@code frames} fuzzed frames, each on a connection of its own, at the ports {@code ports} names when it connects. */
    private static final class Fuzzer extends Thread {
        private final Random rnd;
        private final int frames;
        private final java.util.function.Supplier<Set<Integer>> ports;
        final AtomicInteger sent = new AtomicInteger();
        /** What stopped the fuzzer early, if anything: the test reports it instead of only a short count. */
        volatile Throwable failure;

        Fuzzer(long seed, int frames, java.util.function.Supplier<Set<Integer>> ports) {
            super("fuzzer");
            setDaemon(true);
            this.rnd = new Random(seed);
            this.frames = frames;
            this.ports = ports;
        }

        @Override
        public void run() {
            try {
                send();
            } catch (Throwable t) {
                failure = t;
            }
        }

        private void send() throws InterruptedException {
            List<Integer> targets = List.of();
            for (int i = 0; i < frames; i++) {
                if (i % 200 == 0 || targets.isEmpty()) {
                    targets = listening();
                }
                int port = targets.get(rnd.nextInt(targets.size()));
                byte[] frame = new byte[1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 300)];
                rnd.nextBytes(frame);
                if (frame.length >= 4 && rnd.nextInt(3) == 0) {
                    // a length prefix a reader may believe: small, or huge
                    int len = rnd.nextBoolean() ? rnd.nextInt(64) : Integer.MAX_VALUE - rnd.nextInt(64);
                    frame[0] = (byte) (len >>> 24);
                    frame[1] = (byte) (len >>> 16);
                    frame[2] = (byte) (len >>> 8);
                    frame[3] = (byte) len;
                }
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                    s.setSoLinger(true, 0);
                    OutputStream out = s.getOutputStream();
                    out.write(frame);
                    out.flush();
                } catch (IOException e) {
                    // a listener that closed the connection at once, or has not opened yet: the frame still counts
                }
                sent.incrementAndGet();
            }
        }

        /**
         * The ports to aim at now, waiting (ten seconds at most) while there are none: a CI run once
         * stopped a fuzzer at its 400th frame, a refresh, and an empty set is the one way that fails.
         */
        private List<Integer> listening() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            List<Integer> now = new ArrayList<>(ports.get());
            while (now.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no listener of the job for ten seconds");
                }
                Thread.sleep(1);
                now = new ArrayList<>(ports.get());
            }
            return now;
        }

        void awaitSent(int n) throws InterruptedException {
            while (sent.get() < n && isAlive()) {
                Thread.sleep(5);
            }
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
    }

    private static long openFds() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    /** The TCP ports this process listens on now and did not in {@code before}. */
    private static Set<Integer> newPorts(Set<Integer> before) {
        try {
            Set<Integer> now = listeningPorts();
            now.removeAll(before);
            return now;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The TCP ports this process listens on (/proc/net/tcp and tcp6 entries in state LISTEN whose socket is one of its fds). */
    private static Set<Integer> listeningPorts() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring(8, link.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        Set<Integer> ports = new HashSet<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A") && inodes.contains(f[9])) {
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }
}
