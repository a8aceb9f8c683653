// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.config.Settings;
import io.jccl.config.Values;
import io.jccl.log.Log;
import io.jccl.net.ib.Verbs;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/** The one place that chooses a communicator's {@link Net}. */
public final class Nets {
    private Nets() {
    }

    /** The choice is logged once per process: every communicator makes the same one. */
    private static final AtomicBoolean SAID = new AtomicBoolean();

    /**
     * The net of a communicator with settings {@code config}, as NCCL chooses its net:
     * {@code JCCL_NET=Socket} sockets; {@code JCCL_NET=IB} ibverbs, or a JcclException saying why
     * it cannot be had (no libibverbs, no active port that {@code JCCL_IB_HCA} allows); unset, IB
     * where libibverbs loads and such a port exists, else sockets.
     */
    public static Net open(Config config, NetSetup setup) {
        return open(config, setup, Log.NO_RANK);
    }

    /** As {@link #open(Config, NetSetup)}, the choice logged as rank {@code rank}'s. */
    public static Net open(Config config, NetSetup setup, int rank) {
        String forced = Values.of(config).get(Settings.NET);
        if ("Socket".equals(forced)) {
            return sockets(config, setup, rank, "JCCL_NET=Socket");
        }
        boolean ib = "IB".equals(forced);
        IbOptions options = IbOptions.of(config);
        if (!Verbs.available()) {
            if (ib) {
                throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, "JCCL_NET is 'IB', but libibverbs cannot "
                        + "be loaded (install rdma-core's libibverbs, or set JCCL_IBVERBS_LIB)");
            }
            return sockets(config, setup, rank, "no libibverbs");
        }
        List<IbDevice> devices;
        try {
            devices = IbDevice.shared(options);
        } catch (JcclException e) {
            if (ib) {
                throw new JcclException(e.code(), JcclException.NO_RANK, "JCCL_NET is 'IB', but the RDMA devices cannot be "
                        + "opened: " + e.getMessage(), e);
            }
            return sockets(config, setup, rank, "the RDMA devices cannot be opened (" + e.getMessage() + ")");
        }
        if (devices.isEmpty()) {
            if (ib) {
                List<String> all = Verbs.deviceNames();
                throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, "JCCL_NET is 'IB', but no active "
                        + "InfiniBand or RoCE port" + (options.hca() != IbHcaFilter.ALL ? " matches JCCL_IB_HCA=" + options.hca() : "")
                        + " (RDMA devices: " + (all.isEmpty() ? "none" : String.join(", ", all)) + ")");
            }
            return sockets(config, setup, rank, "no active RDMA port");
        }
        say(config, rank, () -> "NET/IB: using " + devices.stream().map(d -> d + (d.ethernet ? "/RoCE (GID " + d.gidIndex + ")"
                : "/IB (LID " + d.lid + ")")).collect(Collectors.joining(", ")) + (ib ? " (JCCL_NET=IB)" : "")
                + "; " + options.qps() + " queue pair(s) per connection");
        return new IbNet(setup, options, devices);
    }

    private static Net sockets(Config config, NetSetup setup, int rank, String why) {
        say(config, rank, () -> "NET/Socket: using sockets (" + why + ")");
        return new SocketNet(setup, config.socketThreads(), config.socksPerThread());
    }

    private static void say(Config config, int rank, java.util.function.Supplier<String> line) {
        if (SAID.compareAndSet(false, true)) {
            Log.of(config, rank).info(Config.Subsys.NET, line);
        }
    }
}
