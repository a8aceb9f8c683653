// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl.spark;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.spark.examples.DataParallelLogisticRegression;
import io.jccl.spark.examples.DataParallelLogisticRegression.Point;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * jccl ranks made of the tasks of Spark barrier stages, in local mode: 4 task slots, so the 4
 * tasks of a stage run as threads of this JVM (jccl's ranks of one process). Every test shares one
 * SparkContext (its start is most of the time).
 */
class SparkBarrierTest {
    private static final int TASKS = 4;
    /** Short jccl waits, so that a test that goes wrong fails in seconds rather than hanging. */
    private static final Map<String, String> JCCL = Map.of("JCCL_TIMEOUT", "5", "JCCL_BOOTSTRAP_TIMEOUT", "10");
    /** What the tasks of the failure tests saw, read by the test afterwards (local mode: same JVM). */
    private static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();
    /** When (System.nanoTime) the failing task threw, and the latest time a peer saw its failure. */
    private static final AtomicLong THREW = new AtomicLong();
    private static final AtomicLong LAST_SEEN = new AtomicLong();

    private static JavaSparkContext sc;

    @BeforeAll
    static void startSpark() {
        SparkConf conf = new SparkConf()
                // local[N,F]: N task slots; F task attempts, so that a failed barrier stage is retried
                .setMaster("local[" + TASKS + ",2]")
                .setAppName("jccl-spark-test")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.barrier.sync.timeout", "30s")
                .set("spark.stage.maxConsecutiveAttempts", "2")
                .set("spark.default.parallelism", String.valueOf(TASKS));
        sc = new JavaSparkContext(conf);
        sc.setLogLevel("ERROR");
    }

    @AfterAll
    static void stopSpark() {
        if (sc != null) {
            sc.close();
        }
    }

    /** The examples of the Javadoc (BarrierAllGather, BarrierRank, BarrierStage), verbatim. */
    @Test
    void theJavadocExamplesRunAsDocumented() {
        {
            List<Integer> ranks = BarrierStage.mapPartitions(sc.parallelize(List.of(1, 2, 3, 4), 4), rows -> {
                BarrierTaskContext ctx = BarrierTaskContext.get();
                try (Communicator comm = Communicator.init(new BarrierAllGather(ctx), Config.fromEnvironment())) {
                    return List.of(comm.rank()).iterator();   // ctx.partitionId(), of comm.size() == 4
                }
            }).collect();
            assertThat(ranks).containsExactly(0, 1, 2, 3);
        }
        {
            Map<String, String> jccl = Map.of("JCCL_TIMEOUT", "30");   // Config is not serializable: ship settings
            List<double[]> sums = BarrierStage.mapPartitions(sc.parallelize(List.of(1.0, 2.0, 3.0, 4.0), 4), rows -> {
                double[] v = {rows.next()};
                BarrierRank.run(BarrierTaskContext.get(), BarrierRank.config(jccl), rank -> {
                    rank.allReduceSum(v);                  // in place, on every task: {10.0}
                    return v;
                });
                return List.of(v).iterator();
            }).collect();
            assertThat(sums).hasSize(4).allSatisfy(v -> assertThat(v).containsExactly(10.0));
        }
        {
            List<Integer> ranks = BarrierStage.mapPartitions(sc.parallelize(List.of(1, 2, 3, 4), 4), rows ->
                    BarrierRank.run(BarrierTaskContext.get(), BarrierRank.config(Map.of()),
                            rank -> List.of(rank.rank()).iterator())).collect();
            assertThat(ranks).containsExactly(0, 1, 2, 3);
        }
    }

    @Test
    void theModelTrainedThroughTheAllReduceIsTheModelOfOneTaskOnAllTheData() {
        int dims = 8;
        int steps = 40;
        List<Point> data = DataParallelLogisticRegression.syntheticData(4000, dims, 7);

        List<double[]> models = DataParallelLogisticRegression.train(sc.parallelize(data, TASKS), dims, steps, 1.0, JCCL);
        double[] reference = DataParallelLogisticRegression.trainLocal(data, dims, steps, 1.0);

        assertThat(models).hasSize(TASKS);
        // Every rank receives the same sums, so every rank took the same steps, bit for bit.
        for (double[] m : models) {
            assertThat(m).containsExactly(models.get(0));
        }
        // Not the same bits as the reference: it adds the 4000 terms in one order, the tasks add
        // 1000 each and the all-reduce adds the 4 partial sums in its own order, and floating-point
        // addition is not associative. Each gradient differs by a few ulps (~1e-16 relative) and 40
        // contracting steps of rate 1 keep the weights (|w| < 10) within 1e-9 of each other. A task
        // whose gradient missed another's partition would be off by ~1e-2.
        double worst = 0;
        for (int j = 0; j < dims; j++) {
            worst = Math.max(worst, Math.abs(models.get(0)[j] - reference[j]));
        }
        System.out.printf("largest difference from the one-task model: %.3g%n", worst);
        assertThat(worst).isLessThan(1e-9);
        // And the model learned something: the labels have 5 % noise.
        assertThat(DataParallelLogisticRegression.accuracy(data, models.get(0))).isGreaterThan(0.85);
    }

    @Test
    void aTaskThatFailsAfterInitMakesTheOthersFailNamingItAndSparkRetriesTheStage() {
        SEEN.clear();
        LAST_SEEN.set(0);
        long start = System.nanoTime();
        List<double[]> sums = BarrierStage.mapPartitions(sc.parallelize(List.of(1, 2, 3, 4), TASKS), (Iterator<Integer> rows) -> {
            BarrierTaskContext ctx = BarrierTaskContext.get();
            double[] v = {rows.next()};
            double[] out = BarrierRank.run(ctx, BarrierRank.config(JCCL), rank -> {
                if (ctx.stageAttemptNumber() == 0 && rank.rank() == 2) {
                    THREW.set(System.nanoTime());
                    throw new IllegalStateException("task of rank 2 failed on purpose");
                }
                try {
                    for (int i = 0; i < 3; i++) {    // rank 2 never comes: the first call fails
                        rank.allReduceSum(v);
                    }
                } catch (JcclException e) {
                    LAST_SEEN.accumulateAndGet(System.nanoTime(), Math::max);
                    SEEN.add("attempt " + ctx.stageAttemptNumber() + " rank " + rank.rank() + ": " + e.getMessage());
                    throw e;
                }
                return v;
            });
            return List.of(out).iterator();
        }).repartition(1).collect();  // the shuffle makes the barrier stage a map stage: Spark retries only those
        double seconds = (System.nanoTime() - start) / 1e9;
        double failedWithin = (LAST_SEEN.get() - THREW.get()) / 1e9;
        System.out.printf("the others failed within %.3f s of rank 2's exception; failed attempt and retry: %.2f s%n",
                failedWithin, seconds);
        SEEN.forEach(System.out::println);

        // The retried stage ran every rank: 1+2+3+4 = 10, then 40, then 160.
        assertThat(sums).hasSize(TASKS).allSatisfy(s -> assertThat(s).containsExactly(160.0));
        // In the first attempt the three others failed, each naming rank 2, the one that aborted.
        List<String> firstAttempt = new ArrayList<>(SEEN);
        assertThat(firstAttempt).hasSize(3).allSatisfy(m -> assertThat(m).startsWith("attempt 0").contains("rank 2"));
        assertThat(firstAttempt).anySatisfy(m -> assertThat(m).startsWith("attempt 0 rank 0"))
                .anySatisfy(m -> assertThat(m).startsWith("attempt 0 rank 1"))
                .anySatisfy(m -> assertThat(m).startsWith("attempt 0 rank 3"));
        // Well within JCCL_TIMEOUT (5 s): the abort is seen at once, not waited out.
        assertThat(failedWithin).isLessThan(2);
        assertThat(seconds).isLessThan(30);
    }

    @Test
    void aRankThatLeavesWithoutCallingFailsTheOthersNamingItInTheJobsFailure() {
        SEEN.clear();
        long start = System.nanoTime();
        // Rank 1 returns at once (its task ends, its communicator closed): the others fail naming
        // it, at the first touch of the FIFOs it freed, or after JCCL_TIMEOUT (5 s) for its call. A
        // barrier result stage (no shuffle after it) is not retried: Spark fails the job with the
        // first task's failure.
        assertThatThrownBy(() -> BarrierStage.mapPartitions(sc.parallelize(List.of(1, 2, 3, 4), TASKS), (Iterator<Integer> rows) -> {
            BarrierTaskContext ctx = BarrierTaskContext.get();
            double[] v = {rows.next()};
            BarrierRank.run(ctx, BarrierRank.config(JCCL), rank -> {
                if (rank.rank() == 1) {
                    return v;                          // leaves: run closes its communicator
                }
                try {
                    rank.allReduceSum(v);
                } catch (JcclException e) {
                    SEEN.add("attempt " + ctx.stageAttemptNumber() + " rank " + rank.rank() + ": " + e.getMessage());
                    throw e;
                }
                return v;
            });
            return List.of(v[0]).iterator();
        }).collect())
                .isInstanceOf(SparkException.class)
                .hasMessageContaining("failed barrier ResultStage")
                .hasMessageContaining(JcclException.class.getName())
                .hasMessageContaining("rank 1");
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("failed and reported: %.2f s%n", seconds);
        SEEN.forEach(System.out::println);
        assertThat(SEEN).isNotEmpty().allSatisfy(m -> assertThat(m).contains("rank 1"));
        assertThat(seconds).isLessThan(15);
    }
}
