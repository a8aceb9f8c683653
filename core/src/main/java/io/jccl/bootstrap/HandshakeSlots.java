// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.net.Socket;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The connections a listener holds while they prove the secret, at most {@code max}. A new one
 * that finds them all taken pushes out the oldest, which is closed: a flood of strangers that
 * connect and say nothing cannot hold every slot until a real rank is turned away, since a rank
 * proves the secret within milliseconds of connecting and the flood would have to push it out
 * within that time.
 */
final class HandshakeSlots {
    private final int max;
    private final LinkedHashSet<Socket> held = new LinkedHashSet<>();

    HandshakeSlots(int max) {
        this.max = max;
    }

    /** Holds {@code s}; returns the connection it pushed out (already closed), or null. */
    synchronized Socket hold(Socket s) {
        Socket oldest = null;
        if (held.size() >= max) {
            Iterator<Socket> it = held.iterator();
            oldest = it.next();
            it.remove();
            Sockets.closeQuietly(oldest);
        }
        held.add(s);
        return oldest;
    }

    /** {@code s} finished its handshake, or failed it. */
    synchronized void release(Socket s) {
        held.remove(s);
    }

    /** Closes every connection still in its handshake. */
    void closeAll() {
        List<Socket> all;
        synchronized (this) {
            all = new ArrayList<>(held);
            held.clear();
        }
        all.forEach(Sockets::closeQuietly);
    }
}
