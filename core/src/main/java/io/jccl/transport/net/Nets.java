// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.Config;

/** The one place that chooses a communicator's {@link Net}. */
public final class Nets {
    private Nets() {
    }

    /**
     * The net of a communicator with settings {@code config}. Sockets only for now; a
     * {@code JCCL_NET=IB|Socket} setting plugs in here: IB where {@code Verbs.available()} and a
     * device is active (or when asked for), else sockets, as NCCL chooses its net.
     */
    public static Net open(Config config, NetSetup setup) {
        return new SocketNet(setup, config.socketThreads(), config.socksPerThread());
    }
}
