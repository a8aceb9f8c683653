package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the ranks of one {@code initAll} share: their FIFOs (each allocated from its receiver's
 * arena when first used), the plans they compute alike (so each is made once), and the abort flag
 * that makes every rank's waits give up as soon as one rank fails.
 */
final class HostDomain {
    /** Highest channel index a plan may use (tree lanes are doubled for the split tree). */
    static final int MAX_CHANNELS = 256;

    final int nranks;
    final Config config;
    /** The Simple protocol's slot: the largest message of a send/recv exchange. */
    final long slotBytes;
    final HostComm[] comms;
    /** Per protocol, per channel, the FIFOs indexed by from * nranks + to. */
    private final AtomicReferenceArray<AtomicReferenceArray<Fifo>> fifos =
            new AtomicReferenceArray<>(Protocol.values().length * MAX_CHANNELS);
    private final ConcurrentHashMap<HostPlanner.CallKey, HostPlanner.Planned> plans = new ConcurrentHashMap<>();
    /** Chooses every call's algorithm, protocol and channels; built once from the shared configuration. */
    final Tuner tuner;
    private volatile String abortCause;

    HostDomain(int nranks, Config config) {
        this.nranks = nranks;
        this.config = config;
        this.slotBytes = Protocol.SIMPLE.slotBytes(config.buffSize());
        this.comms = new HostComm[nranks];
        this.tuner = Tuner.create(config, nranks, 1);
    }

    boolean aborted() {
        return abortCause != null;
    }

    String abortCause() {
        return abortCause;
    }

    /** Makes every wait of every rank give up; the first cause is kept. */
    synchronized void abort(String cause) {
        if (abortCause == null) {
            abortCause = cause;
        }
    }

    /** The FIFO of a connection in one protocol, created on first use in the receiver's arena. */
    Fifo fifo(Protocol protocol, int channel, int from, int to) {
        if (channel >= MAX_CHANNELS) {
            throw new IllegalStateException("channel " + channel + " beyond " + MAX_CHANNELS);
        }
        int pc = protocol.ordinal() * MAX_CHANNELS + channel;
        AtomicReferenceArray<Fifo> perChannel = fifos.get(pc);
        if (perChannel == null) {
            fifos.compareAndSet(pc, null, new AtomicReferenceArray<>(nranks * nranks));
            perChannel = fifos.get(pc);
        }
        int i = from * nranks + to;
        Fifo f = perChannel.get(i);
        if (f == null) {
            synchronized (this) {
                f = perChannel.get(i);
                if (f == null) {
                    f = Fifo.create(protocol, comms[to].arena(), channel, from, to, config.buffSize(protocol));
                    perChannel.set(i, f);
                }
            }
        }
        return f;
    }

    HostPlanner.Planned plan(HostPlanner.CallKey key, java.util.function.Function<HostPlanner.CallKey, HostPlanner.Planned> make) {
        HostPlanner.Planned p = plans.get(key);
        if (p == null) {
            if (plans.size() > 4096) {
                plans.clear();
            }
            p = plans.computeIfAbsent(key, make);
        }
        return p;
    }
}
