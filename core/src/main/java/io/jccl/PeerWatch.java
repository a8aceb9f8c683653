package io.jccl;

import io.jccl.Config.Subsys;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.engine.CurrentCall;
import io.jccl.engine.EngineRank;
import io.jccl.log.Log;

import java.util.function.ObjIntConsumer;

/**
 * What one rank's keep-alive reports to its engine: a lost rank fails the communicator (and is
 * logged), and the heartbeats carry this rank's current call out and bring the peers' in, so that
 * ranks making different calls fail naming both (unless JCCL_CHECK_CALLS=0).
 */
record PeerWatch(EngineRank engine, Bootstrap bootstrap, Log log) implements Bootstrap.CallProbe, ObjIntConsumer<String> {
    /** A rank was lost ({@code why} names it), or (lost -1) another rank failed the communicator for {@code why}. */
    @Override
    public void accept(String why, int lost) {
        log.warn(Subsys.INIT, why);
        engine.fail(why, lost);
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
