// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Runs one body per rank, each in its own thread, bounded in time; and checks no bootstrap thread is left. */
final class RankThreads {
    /** Loopback only, short timeouts: every test's network stays on this host and ends quickly. */
    static final Config LOOPBACK = Config.defaults().withSocketIfname("lo").withBootstrapTimeout(Duration.ofSeconds(20));

    private RankThreads() {
    }

    /** What a rank's body returned or threw. */
    record Outcome<T>(T value, Throwable error) {
        T get() {
            if (error != null) {
                throw new AssertionError("the rank failed: " + error, error);
            }
            return value;
        }
    }

    static <T> List<Outcome<T>> run(int n, Duration limit, IntFunction<T> body) {
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "test-rank");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> fs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                fs.add(pool.submit(() -> body.apply(rank)));
            }
            long end = System.nanoTime() + limit.toNanos();
            List<Outcome<T>> out = new ArrayList<>();
            for (Future<T> f : fs) {
                try {
                    out.add(new Outcome<>(f.get(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS), null));
                } catch (ExecutionException e) {
                    out.add(new Outcome<>(null, e.getCause()));
                } catch (TimeoutException e) {
                    fail("a rank did not finish within " + limit);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fail("interrupted");
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** All values, failing on the first rank that threw. */
    static <T> List<T> values(List<Outcome<T>> outcomes) {
        return outcomes.stream().map(Outcome::get).toList();
    }

    /** n ranks through a fresh root on loopback; the caller closes them. */
    static List<Bootstrap> initAll(int n, Config config) {
        CommId id = CommId.create(config);
        return values(run(n, Duration.ofSeconds(60), r -> Bootstrap.init(id, n, r, config, Set.of("net"))));
    }

    /** Sleeps {@code millis}, then returns {@code value}: a rank that comes late, in an expression. */
    static long sleepThen(long millis, long value) {
        sleep(millis);
        return value;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static void closeAll(List<Bootstrap> bs) {
        bs.forEach(Bootstrap::close);
    }

    /** Waits (bounded) until no listener or root thread of the bootstrap is alive. */
    static void assertNoBootstrapThreads() {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> alive;
        do {
            alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(Thread::isAlive)
                    .map(Thread::getName)
                    .filter(n -> n.startsWith("jccl-bootstrap-accept") || n.startsWith("jccl-bootstrap-root"))
                    .toList();
            if (alive.isEmpty()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        } while (System.nanoTime() < end);
        assertThat(alive).as("bootstrap threads left running").isEmpty();
    }
}
