// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.log.Log;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Bootstraps a rank from what its launcher put in the environment (see {@link LaunchEnvironment}):
 * the body of {@code Communicator.fromEnvironment()}. Rank 0 starts the root where the
 * environment asks it to: one at a fixed address (MASTER_ADDR and MASTER_PORT) it keeps until its
 * bootstrap closes, to answer ranks that come late; one published in a directory it stops once
 * the rendezvous is over.
 *
 * <pre>{@code
 * // under torchrun, mpirun, srun, or `jccl perf -p`:
 * try (Bootstrap b = Launch.bootstrap(System.getenv(), Config.fromEnvironment(), Set.of())) {
 *     System.out.println("rank " + b.rank() + " of " + b.size() + ", local rank " + b.locality().localRank());
 * }
 * }</pre>
 */
public final class Launch {
    private Launch() {
    }

    /** {@link #bootstrap(LaunchEnvironment, Config, Set)} of {@link LaunchEnvironment#from(Map) from(env)}. */
    public static Bootstrap bootstrap(Map<String, String> env, Config config, Set<String> transports) {
        return bootstrap(LaunchEnvironment.from(env), config, transports);
    }

    public static Bootstrap bootstrap(LaunchEnvironment le, Config config, Set<String> transports) {
        int rank = le.rank();
        int size = le.size();
        Log.of(config, rank).info(Subsys.INIT, () -> "launched by " + le.launcher() + ": rank " + rank + " of " + size
                + le.localRank().stream().mapToObj(l -> ", local rank " + l).findFirst().orElse("")
                + le.localSize().stream().mapToObj(l -> " of " + l).findFirst().orElse("") + ", root " + le.root());
        return switch (le.root()) {
            case LaunchEnvironment.Given g when g.hostedByRank0() && rank == 0 -> {
                // The root lives as long as rank 0's bootstrap, so that a rank of this job that comes
                // after a stranger took its place is answered, and this job fails instead of running.
                BootstrapRoot root = BootstrapRoot.listen(g.id(), config);
                root.keepServing();
                try {
                    Bootstrap b = Bootstrap.init(root.id(), size, rank, config, transports);
                    b.host(root);
                    yield b;
                } catch (RuntimeException e) {
                    root.close();
                    throw e;
                }
            }
            case LaunchEnvironment.Given g -> Bootstrap.init(g.id(), size, rank, config, transports);
            case LaunchEnvironment.SharedDirectory sd when rank == 0 -> {
                try (BootstrapRoot root = BootstrapRoot.start(config)) {
                    FileRendezvous.publish(sd, root.id(), rank);
                    try {
                        yield Bootstrap.init(root.id(), size, rank, config, transports);
                    } finally {
                        FileRendezvous.remove(sd);
                    }
                }
            }
            case LaunchEnvironment.SharedDirectory sd -> {
                CommId id = FileRendezvous.await(sd, Deadline.after(config.bootstrapTimeout()), rank);
                yield Bootstrap.init(id, size, rank, config, transports);
            }
        };
    }

    /**
     * The variables a jccl launcher ({@code jccl perf -p}) gives rank {@code rank} of the processes
     * it starts, having started the root of {@code id} itself.
     */
    public static Map<String, String> childEnvironment(CommId id, int rank, int nranks, int localRank, int localSize) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("JCCL_COMM_ID", id.encode());
        env.put("JCCL_RANK", Integer.toString(rank));
        env.put("JCCL_NRANKS", Integer.toString(nranks));
        env.put("JCCL_LOCAL_RANK", Integer.toString(localRank));
        env.put("JCCL_LOCAL_SIZE", Integer.toString(localSize));
        return env;
    }
}
