package io.jccl.engine.host;

import io.jccl.algo.Algorithm;
import io.jccl.plan.Collective;

/** What determines a collective's plan on the host engine: cached per domain under this key. */
record PlanKey(Collective collective, long count, int root, Algorithm algorithm, int channels, long maxMessage) {
}
