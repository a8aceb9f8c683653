// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What the proxy's two halves ({@link NetSender}, {@link NetReceiver}) share: platform threads,
 * each serving the connections dealt to it in turn, and the list of every connection served, for
 * a closing rank to find its own.
 */
abstract class NetHalf<C extends NetConn<?>> {
    /** One thread of a half and the connections it serves. */
    abstract static class Worker<C> implements Runnable {
        Thread thread;
        /** Connections dealt to it, which it takes into {@link #mine} on its next pass. */
        final ConcurrentLinkedQueue<C> incoming = new ConcurrentLinkedQueue<>();
        final List<C> mine = new ArrayList<>();

        /** Wakes the thread from wherever it sleeps. */
        void wake() {
            LockSupport.unpark(thread);
        }
    }

    final NetProxy proxy;
    /** Every connection served. */
    final List<C> conns = new CopyOnWriteArrayList<>();
    private final List<Worker<C>> workers = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();

    NetHalf(NetProxy proxy) {
        this.proxy = proxy;
    }

    /** Starts {@code all} as daemon threads named {@code name} and their index. */
    final void start(List<? extends Worker<C>> all, String name) {
        for (int t = 0; t < all.size(); t++) {
            Worker<C> w = all.get(t);
            w.thread = Thread.ofPlatform().daemon().name(name + t).unstarted(() -> {
                proxy.owner.proxyThreadStarted();
                w.run();
            });
            workers.add(w);
        }
        for (Worker<C> w : workers) {
            w.thread.start();
        }
    }

    /** Serves {@code c}, on the threads in turn. */
    final void add(C c) {
        conns.add(c);
        Worker<C> w = workers.get(Math.floorMod(next.getAndIncrement(), workers.size()));
        w.incoming.add(c);
        w.wake();
    }

    /** Wakes every thread: to see that the proxy closed, or that a connection went. */
    final void wakeAll() {
        for (Worker<C> w : workers) {
            w.wake();
        }
    }
}
