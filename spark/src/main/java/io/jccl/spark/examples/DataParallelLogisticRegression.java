// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl.spark.examples;

import io.jccl.spark.BarrierRank;
import io.jccl.spark.BarrierStage;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Data-parallel training of a logistic regression on Spark with jccl: each task of a barrier stage
 * holds one partition of the data and a copy of the model; every step each computes the gradient of
 * its partition, jccl all-reduces the gradients (and the example counts) across the tasks, and every
 * task takes the same step. It is the pattern of distributed data-parallel training (Horovod,
 * PyTorch DDP under TorchDistributor) in a few lines of Java.
 *
 * <p>Run it (after {@code mvn package}, Spark 4.2 and jccl-core on the class path, with the JVM flags
 * of docs/spark.md): {@code java ... io.jccl.spark.examples.DataParallelLogisticRegression [tasks]}.
 */
public final class DataParallelLogisticRegression {
    private DataParallelLogisticRegression() {
    }

    /** A labelled example: features {@code x} and label {@code y}, 0 or 1. */
    public record Point(double[] x, double y) implements Serializable {
    }

    /**
     * The model after {@code steps} steps of full-batch gradient descent with rate {@code rate} from
     * zero weights, trained by the tasks of one barrier stage over {@code data}'s partitions; every
     * task's model, in partition order (they are all the same: every task takes the same step).
     * {@code jcclSettings}: JCCL_* settings for the tasks (e.g. timeouts).
     */
    public static List<double[]> train(JavaRDD<Point> data, int dims, int steps, double rate,
                                       Map<String, String> jcclSettings) {
        return BarrierStage.mapPartitions(data, (Iterator<Point> rows) -> {
            List<Point> mine = new ArrayList<>();
            rows.forEachRemaining(mine::add);
            double[] w = BarrierRank.run(BarrierTaskContext.get(), BarrierRank.config(jcclSettings), rank -> {
                double[] weights = new double[dims];
                for (int s = 0; s < steps; s++) {
                    double[] g = gradientSum(mine, weights);  // this partition's: d sums, then its count
                    rank.allReduceSum(g);                     // now the whole data set's, on every task
                    step(weights, g, rate);
                }
                return weights;
            });
            return List.of(w).iterator();
        }).collect();
    }

    /** The same training by one task over all of {@code data}: the reference. */
    public static double[] trainLocal(List<Point> data, int dims, int steps, double rate) {
        double[] weights = new double[dims];
        for (int s = 0; s < steps; s++) {
            step(weights, gradientSum(data, weights), rate);
        }
        return weights;
    }

    /**
     * The gradient of the log loss summed over {@code points} at {@code w}: {@code w.length} sums,
     * then the number of points (so that after the all-reduce the mean needs no other message).
     */
    public static double[] gradientSum(List<Point> points, double[] w) {
        double[] g = new double[w.length + 1];
        for (Point p : points) {
            double err = sigmoid(dot(w, p.x())) - p.y();
            for (int j = 0; j < w.length; j++) {
                g[j] += err * p.x()[j];
            }
        }
        g[w.length] = points.size();
        return g;
    }

    /** One descent step on the mean gradient, given {@link #gradientSum}'s form. */
    static void step(double[] w, double[] gradientSum, double rate) {
        double n = gradientSum[w.length];
        for (int j = 0; j < w.length; j++) {
            w[j] -= rate * gradientSum[j] / n;
        }
    }

    /** The fraction of {@code points} that {@code w} classifies right. */
    public static double accuracy(List<Point> points, double[] w) {
        long right = points.stream().filter(p -> (dot(w, p.x()) > 0 ? 1.0 : 0.0) == p.y()).count();
        return (double) right / points.size();
    }

    /**
     * {@code n} points of {@code dims} features (the last a constant 1, the bias) drawn with
     * {@code seed}, labelled by a fixed hidden model with 5 % of the labels flipped.
     */
    public static List<Point> syntheticData(int n, int dims, long seed) {
        Random random = new Random(seed);
        double[] truth = new double[dims];
        for (int j = 0; j < dims; j++) {
            truth[j] = random.nextGaussian();
        }
        List<Point> points = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double[] x = new double[dims];
            for (int j = 0; j < dims - 1; j++) {
                x[j] = random.nextGaussian();
            }
            x[dims - 1] = 1;
            boolean positive = dot(truth, x) > 0;
            if (random.nextDouble() < 0.05) {
                positive = !positive;
            }
            points.add(new Point(x, positive ? 1 : 0));
        }
        return points;
    }

    private static double sigmoid(double z) {
        return 1 / (1 + Math.exp(-z));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += a[j] * b[j];
        }
        return s;
    }

    /** Trains on {@code args[0]} (default 4) local tasks and prints both models and their accuracy. */
    public static void main(String[] args) {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int dims = 8;
        List<Point> data = syntheticData(4000, dims, 42);
        SparkConf conf = new SparkConf().setMaster("local[" + tasks + "]").setAppName("jccl-logistic-regression")
                .set("spark.ui.enabled", "false");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            double[] distributed = train(sc.parallelize(data, tasks), dims, 50, 1.0, Map.of()).get(0);
            double[] local = trainLocal(data, dims, 50, 1.0);
            System.out.println("jccl, " + tasks + " tasks: " + Arrays.toString(distributed) + " accuracy "
                    + accuracy(data, distributed));
            System.out.println("one task:        " + Arrays.toString(local) + " accuracy " + accuracy(data, local));
        }
    }
}
