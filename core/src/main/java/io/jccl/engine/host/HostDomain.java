package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.plan.Plan;

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
    final long slotBytes;
    final HostComm[] comms;
    private final AtomicReferenceArray<AtomicReferenceArray<Fifo>> fifos = new AtomicReferenceArray<>(MAX_CHANNELS);
    private final ConcurrentHashMap<PlanKey, Plan> plans = new ConcurrentHashMap<>();
    private volatile String abortCause;

    HostDomain(int nranks, Config config) {
        this.nranks = nranks;
        this.config = config;
        this.slotBytes = io.jccl.proto.Simple.slotBytes(config.buffSize());
        this.comms = new HostComm[nranks];
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

    /** The FIFO of a connection, created on first use in the receiver's arena. */
    Fifo fifo(int channel, int from, int to) {
        if (channel >= MAX_CHANNELS) {
            throw new IllegalStateException("channel " + channel + " beyond " + MAX_CHANNELS);
        }
        AtomicReferenceArray<Fifo> perChannel = fifos.get(channel);
        if (perChannel == null) {
            fifos.compareAndSet(channel, null, new AtomicReferenceArray<>(nranks * nranks));
            perChannel = fifos.get(channel);
        }
        int i = from * nranks + to;
        Fifo f = perChannel.get(i);
        if (f == null) {
            synchronized (this) {
                f = perChannel.get(i);
                if (f == null) {
                    f = new Fifo(comms[to].arena(), channel, from, to, slotBytes);
                    perChannel.set(i, f);
                }
            }
        }
        return f;
    }

    Plan plan(PlanKey key, java.util.function.Function<PlanKey, Plan> make) {
        Plan p = plans.get(key);
        if (p == null) {
            if (plans.size() > 4096) {
                plans.clear();
            }
            p = plans.computeIfAbsent(key, make);
        }
        return p;
    }
}
