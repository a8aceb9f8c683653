// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.Selector;

/**
 * A proxy thread's {@link Selector} over the sockets of its receiving comms: a socket it selects
 * is marked readable, and only marked sockets are read, so a pass over idle connections costs no
 * system call. A socket whose frame waits for a receive to be posted is not selected meanwhile.
 */
final class SocketPoller implements NetPoller {
    private final Selector selector;

    SocketPoller() throws IOException {
        this.selector = Selector.open();
    }

    @Override
    public void add(RecvComm comm) throws IOException {
        ((SocketRecvComm) comm).attach(selector);
    }

    @Override
    public void remove(RecvComm comm) {
        ((SocketRecvComm) comm).detach();
    }

    @Override
    public boolean await(long nanos) throws IOException {
        try {
            int n = nanos <= 0 ? selector.selectNow(SocketPoller::readable)
                    : selector.select(SocketPoller::readable, Math.max(1, nanos / 1_000_000));
            return n > 0;
        } catch (ClosedSelectorException e) {
            throw new IOException("the poller was closed", e);
        }
    }

    private static void readable(java.nio.channels.SelectionKey key) {
        ((SocketRecvComm.In) key.attachment()).ready = true;
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
