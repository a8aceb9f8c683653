// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A proxy thread's waiting place over its IB receiving comms. The IB net makes its completion
 * queues without a completion channel, so there is nothing to sleep in: {@link #await} polls
 * every comm's queue, then parks in short slices (from {@link #FIRST_PARK_NANOS}, doubling up to
 * {@link #MAX_PARK_NANOS}) until a completion came, the time is up, or {@link #wakeup}. A message
 * arriving while it parks waits at most one slice: a bounded poll, the price of no channel
 * (and of no file descriptor per connection).
 */
final class IbPoller implements NetPoller {
    static final long FIRST_PARK_NANOS = 10_000;
    static final long MAX_PARK_NANOS = 1_000_000;

    private final List<IbRecvComm> comms = new ArrayList<>();
    private volatile Thread waiter;
    private volatile boolean woken;

    @Override
    public void add(RecvComm comm) {
        comms.add((IbRecvComm) comm);
    }

    @Override
    public void remove(RecvComm comm) {
        comms.remove((IbRecvComm) comm);
    }

    @Override
    public boolean await(long nanos) throws IOException {
        long deadline = System.nanoTime() + Math.max(0, nanos);
        long park = FIRST_PARK_NANOS;
        waiter = Thread.currentThread();
        try {
            while (true) {
                boolean any = false;
                for (int i = 0; i < comms.size(); i++) {
                    any |= comms.get(i).look();
                }
                if (any || woken) {
                    woken = false;
                    return any;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                LockSupport.parkNanos(Math.min(park, left));
                park = Math.min(MAX_PARK_NANOS, park * 2);
            }
        } finally {
            waiter = null;
        }
    }

    @Override
    public void wakeup() {
        woken = true;
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void close() {
        comms.clear();
    }
}
