// SPDX-License-Identifier: Apache-2.0
// SPDX-License-Identifier: Apache-2.0
package io.jccl.spark;

import io.jccl.JcclException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.rdd.RDD;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

import java.io.Serializable;
import java.util.Iterator;

/**
 * Barrier execution mode from Java: Spark offers {@code rdd.barrier().mapPartitions} only on the
 * Scala {@code RDD}, with a Scala function and a {@code ClassTag}. {@link #mapPartitions} takes a
 * {@link JavaRDD} and a {@link FlatMapFunction}, as {@code JavaRDD.mapPartitions} does, and launches
 * all of the RDD's partitions together as one barrier stage (one task per partition, all at once, or
 * none: the cluster needs a slot for each), so that each task can be a jccl rank.
 *
 * <pre>{@code
 * // sc: a JavaSparkContext with at least 4 task slots
 * List<Integer> ranks = BarrierStage.mapPartitions(sc.parallelize(List.of(1, 2, 3, 4), 4), rows ->
 *         BarrierRank.run(BarrierTaskContext.get(), BarrierRank.config(Map.of()),
 *                 rank -> List.of(rank.rank()).iterator())).collect();
 * }</pre>
 */
public final class BarrierStage {
    private BarrierStage() {
    }

    /** {@code rdd}'s partitions mapped by {@code f} in one barrier stage. */
    public static <T, S> JavaRDD<S> mapPartitions(JavaRDD<T> rdd, FlatMapFunction<Iterator<T>, S> f) {
        if (rdd == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "rdd", "is null");
        }
        if (f == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "f", "is null");
        }
        ClassTag<S> tag = anyRef();
        RDD<S> out = rdd.rdd().barrier().mapPartitions(new Partitions<>(f), false, tag);
        return new JavaRDD<>(out, tag);
    }

    @SuppressWarnings("unchecked") // erased: Spark's Java API tags every element type as AnyRef too
    private static <S> ClassTag<S> anyRef() {
        return (ClassTag<S>) ClassTag$.MODULE$.AnyRef();
    }

    /** {@code f} as the serializable Scala function of Scala iterators that RDDBarrier takes. */
    private static final class Partitions<T, S> extends AbstractFunction1<scala.collection.Iterator<T>,
            scala.collection.Iterator<S>> implements Serializable {
        private static final long serialVersionUID = 1L;
        private final FlatMapFunction<Iterator<T>, S> f;

        Partitions(FlatMapFunction<Iterator<T>, S> f) {
            this.f = f;
        }

        @Override
        public scala.collection.Iterator<S> apply(scala.collection.Iterator<T> rows) {
            try {
                return CollectionConverters.asScala(f.call(CollectionConverters.asJava(rows)));
            } catch (Exception e) {
                // Rethrown as it is (Scala has no checked exceptions), so that Spark reports the
                // task's own exception, as it does for JavaRDD.mapPartitions.
                throw BarrierStage.<RuntimeException>sneaky(e);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Exception> E sneaky(Exception e) throws E {
        throw (E) e;
    }
}
