// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.plan.Schedule;

/**
 * The shape every generator shares: the call's elements cut into equal tiles (the last shorter),
 * each tile cut into {@code shares} equal shares, and the steps of each share laid out by the
 * generator. Only the steps of the call's {@link Call#ranks() planned ranks} are kept: a generator
 * that lays out every rank anyway gives a correct plan of a few, and one that lays out
 * {@link Schedule.Builder#ranks()} alone costs what their steps cost.
 */
final class Tiles {
    private Tiles() {
    }

    /** Lays out the steps of share {@code share}, the elements [start, start + size) of a tile. */
    @FunctionalInterface
    interface Share {
        void add(Schedule.Builder b, int share, long start, long size);
    }

    /** A plan of tiles of {@code tile} elements over {@code lanes} lanes, cut into {@code shares}. */
    static Plan plan(Algorithm algorithm, Collective collective, Call call, int lanes, int shares, long tile, Share share) {
        return Plan.tiled(algorithm.id(), collective, call.ranks(), lanes, call.count(), tile, tc -> {
            Schedule.Builder b = new Schedule.Builder(call.ranks(), lanes);
            for (int s = 0; s < shares; s++) {
                share.add(b, s, Split.start(tc, shares, s), Split.size(tc, shares, s));
            }
            return b.build();
        });
    }

    /** The common case: one share per lane, each lane's messages at most {@code maxMessage}. */
    static Plan perLane(Algorithm algorithm, Collective collective, Call call, int lanes, long maxMessage, Share share) {
        return plan(algorithm, collective, call, lanes, lanes, Math.multiplyExact(maxMessage, (long) lanes), share);
    }
}
