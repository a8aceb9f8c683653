// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamRunnerTest {
    private static final long TASK_MILLIS = 100;
    private static final int TASKS = 3;

    @Test
    void theStreamsThreadSleepsWhileACallerRunsTheQueue() throws Exception {
        // A caller that synchronizes at once runs its calls itself; the stream's thread must not
        // poll meanwhile, since on few cores each wake-up takes a core from that call.
        try (StreamRunner runner = new StreamRunner("jccl-stream-test")) {
            for (int attempt = 0; attempt < 10; attempt++) {
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                long before = runner.waitsWhileRun();
                // Several calls queued, as perf's timed loop and a training step's buckets queue them:
                // the queue is not empty while the caller runs the first ones.
                for (int t = 0; t < TASKS; t++) {
                    runner.enqueue(() -> {
                        ranOn.compareAndSet(null, Thread.currentThread());
                        sleep(TASK_MILLIS);
                    });
                }
                runner.synchronize();
                long waits = runner.waitsWhileRun() - before;
                if (ranOn.get() != Thread.currentThread()) {
                    continue; // the stream's thread took the queue first (a descheduled caller): again
                }
                // Its sleeps while the caller runs are 20 ms at most, and an enqueue or the end of
                // the run wakes it: some 10 in 200 ms, against about 200 when it polled.
                long queuedMillis = (TASKS - 1) * TASK_MILLIS;
                assertTrue(waits <= queuedMillis / 20 + 5, waits + " wake-ups of the stream's thread in the "
                        + queuedMillis + " ms that the caller ran the queue with tasks left in it");
                return;
            }
            throw new AssertionError("the caller never ran its own task in synchronize() in 10 attempts");
        }
    }

    @Test
    void tasksQueuedByAnotherThreadWhileACallerRunsTheQueueAllRun() throws Exception {
        try (StreamRunner runner = new StreamRunner("jccl-stream-test")) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            runner.enqueue(() -> {
                started.countDown();
                await(release);
            });
            Thread caller = Thread.ofPlatform().start(runner::synchronize);
            assertTrue(started.await(10, TimeUnit.SECONDS), "the first task never started");
            CompletableFuture<String> later = new CompletableFuture<>();
            Thread other = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 99; i++) {
                    runner.enqueue(() -> { });
                }
                runner.enqueue(() -> later.complete(Thread.currentThread().getName()));
            });
            other.join(10_000);
            release.countDown();
            // No one synchronizes again: whoever holds the queue, or the woken stream's thread, runs them.
            String ranOn = later.get(10, TimeUnit.SECONDS);
            assertTrue(ranOn.equals(caller.getName()) || ranOn.equals("jccl-stream-test"), ranOn);
            caller.join(10_000);
            assertTrue(runner.idle(), "tasks left on the stream");
        }
    }

    @Test
    void aTaskQueuedAfterTheCallerLeftRunsWithoutASynchronize() throws Exception {
        try (StreamRunner runner = new StreamRunner("jccl-stream-test")) {
            runner.enqueue(() -> sleep(50));
            runner.synchronize();
            CompletableFuture<String> done = new CompletableFuture<>();
            runner.enqueue(() -> done.complete(Thread.currentThread().getName()));
            assertEquals("jccl-stream-test", done.get(10, TimeUnit.SECONDS));
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
