// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.Config.Subsys;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.engine.CurrentCall;
import io.jccl.engine.EngineRank;
import io.jccl.log.Log;

import java.util.function.ObjIntConsumer;

/**
 * What one rank's bootstrap reports to its engine, each logged and failing the communicator: a
 * stranger in the job (seen by the root this rank hosts), a lost rank (the keep-alive), and a
 * peer making another call (the heartbeats carry this rank's current call out and the peers' in;
 * not with JCCL_CHECK_CALLS=0).
 */
record PeerWatch(EngineRank engine, Bootstrap bootstrap, Log log) implements Bootstrap.CallProbe, ObjIntConsumer<String> {
    /** A rank was lost ({@code why} names it), or (lost -1) another rank failed the communicator for {@code why}. */
    @Override
    public void accept(String why, int lost) {
        log.warn(Subsys.INIT, why);
        engine.fail(why, lost);
    }

    /** The root this rank hosts saw that a stranger took the place of one of the job's ranks ({@code why}). */
    void stranger(String why) {
        log.warn(Subsys.BOOTSTRAP, why);
        bootstrap.tellPeers(why);
        engine.fail(why, -1);
    }

    @Override
    public byte[] current() {
        CurrentCall c = engine.shared().checkCalls() ? engine.currentCall() : null;
        return c == null ? null : c.encode();
    }

    @Override
    public long runningNanos() {
        return engine.callRunningNanos();
    }

    @Override
    public void heard(int peer, byte[] call) {
        CurrentCall mine = engine.shared().checkCalls() ? engine.currentCall() : null;
        CurrentCall theirs = CurrentCall.decode(call);
        if (mine != null && mine.differsAt(theirs)) {
            String why = mine.against(engine.rank(), peer, theirs);
            log.warn(Subsys.INIT, why);
            // The reason first: the abort the failure writes reaches the peers' waits at once.
            bootstrap.tellPeers(why + " (seen by rank " + engine.rank() + ")");
            engine.fail(why, -1);
        }
    }
}
