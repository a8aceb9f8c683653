// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.net.InetAddress;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * What a {@link Net} of one communicator is opened with: the address to listen on, the
 * communicator's id and the key that authenticates its connections (from the bootstrap's secret;
 * never on the wire), how to name a connection's tag in errors and logs, and where its warnings go
 * (the communicator's log: a dropped stranger's connection is worth a line, not a failure).
 */
public record NetSetup(InetAddress bind, long commId, byte[] key, LongFunction<String> names, Consumer<String> warnings) {
    public NetSetup {
        key = key.clone();
    }

    @Override
    public byte[] key() {
        return key.clone();
    }
}
