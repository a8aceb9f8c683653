// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoSystem;
import io.jccl.tune.Tuner;
import io.jccl.topo.XmlElement;

import java.nio.file.Path;

/**
 * A communicator's own job as the simulator plays it: its ranks laid out on its servers, the links
 * the configuration every rank shares describes, and the bundled calibration of its engine. It
 * answers "what would this call cost" ({@code Communicator#estimate}) and, with JCCL_TUNER_SIM,
 * prices the tuner's candidates ({@link #priced}).
 * <ul>
 *   <li>Host engine: each rank has a link of JCCL_INTER_BW to other servers (required where there
 *   are several) and, where JCCL_INTRA_BW is set, one of that rate to its own server's ranks, else
 *   unshaped (only the cores bound it); each server is a machine of the job's cores
 *   ({@link EmulatedFabric} with a machine per server). The costs are the calibration's
 *   {@code host} (sockets) where the ranks talk over sockets, else its {@code shm}.</li>
 *   <li>CUDA engine: one rank per GPU, the node read from JCCL_TOPO_FILE (required: it gives the
 *   NVLink and NIC rates), the nodes joined by a non-blocking fat-tree ({@link ClusterFabric#of}).</li>
 * </ul>
 *
 * <pre>{@code
 * Tuner t = Tuner.create(Config.defaults(), ServerLayout.single(4));
 * CallSimulator s = JobModel.host(t, 0, false);
 * double us = s.predict(Collective.ALL_REDUCE, 1 << 20, DataType.FLOAT32).micros();
 * }</pre>
 */
public final class JobModel {
    /**
     * The most steps the pricer plays for one candidate (rank 0's steps times the ranks and the
     * calls); past it the model prices. About half a second of this machine's time per candidate.
     */
    public static final long PRICED_STEPS = 400_000;

    private JobModel() {
    }

    /**
     * The host engine's calls as {@code tuner} (a communicator's) chooses them, on its links, each
     * server a machine of the tuner's cores, {@code sockets} where any two ranks talk over sockets
     * (else all through memory); refused (for {@code rank}) naming JCCL_INTER_BW where there are
     * several servers and it is not set.
     */
    public static CallSimulator host(Tuner tuner, int rank, boolean sockets) {
        Config c = tuner.config();
        ServerLayout layout = tuner.layout();
        double inter = c.interBandwidth();
        if (layout.servers() > 1 && Double.isNaN(inter)) {
            throw JcclException.invalidArgument(rank, "JCCL_INTER_BW",
                    "is not set: the simulator needs the GB/s a rank moves to other servers (" + layout.servers() + " servers)");
        }
        double intra = c.intraBandwidth();
        EmulatedFabric f = new EmulatedFabric(layout, Double.isNaN(intra) ? 0 : intra * 8000, Double.isNaN(inter) ? 0 : inter * 8000,
                EmulatedFabric.Nic.RAIL, 0, true);
        return CallSimulator.of(tuner, f, Calibration.bundled().costs(sockets(c, layout, sockets) ? "host" : "shm").withSharedCores(tuner.cores()));
    }

    /**
     * Whether the host engine's job is priced as ranks over sockets: where any two talk over them,
     * on several servers, or where JCCL_INTRA_BW gives the links inside a server a rate (the
     * tuner's model then takes them for sockets too); else as ranks through shared memory.
     */
    static boolean sockets(Config c, ServerLayout layout, boolean sockets) {
        return sockets || layout.servers() > 1 || !Double.isNaN(c.intraBandwidth());
    }

    /**
     * The CUDA engine's calls as {@code tuner} chooses them, one rank per GPU on nodes as
     * JCCL_TOPO_FILE describes them; refused (for {@code rank}) naming the setting where no file
     * is given or its GPUs are not the ranks of a node.
     */
    public static CallSimulator gpu(Tuner tuner, int rank) {
        ServerLayout layout = tuner.layout();
        String file = topoFile(tuner.config(), rank);
        ClusterFabric f = cluster(file, layout.servers(), rank);
        if (!f.layout().equals(layout)) {
            throw JcclException.invalidArgument(rank, "JCCL_TOPO_FILE", file + " has " + f.layout().perServer()
                    + " GPUs a node; the ranks are laid out as " + layout + " (the simulator runs one rank per GPU)");
        }
        return CallSimulator.of(tuner, f, Calibration.bundled().costs("gpu"));
    }

    /**
     * The CUDA engine's job of {@code tuner} on as many nodes as asked, each as JCCL_TOPO_FILE
     * describes it, the tuner its configuration makes: the exact runs on fewer nodes that a call
     * too large to play is predicted from ({@link CallSimulator#estimate}).
     */
    public static java.util.function.IntFunction<CallSimulator> gpuOnNodes(Tuner tuner, int rank) {
        Config c = tuner.config();
        String file = topoFile(c, rank);
        SimCosts costs = Calibration.bundled().costs("gpu");
        java.util.Map<Integer, CallSimulator> made = new java.util.HashMap<>();
        return nodes -> made.computeIfAbsent(nodes, n -> CallSimulator.gpu(cluster(file, n, rank), costs, c));
    }

    private static String topoFile(Config c, int rank) {
        return c.topoFile().orElseThrow(() -> JcclException.invalidArgument(rank, "JCCL_TOPO_FILE",
                "is not set: the simulator reads the node's NVLink and NIC rates from it"));
    }

    /** {@code nodes} nodes of the topology {@code file} on a non-blocking fat-tree. */
    private static ClusterFabric cluster(String file, int nodes, int rank) {
        try {
            TopoSystem node = TopoSystem.fromXml(XmlElement.read(Path.of(file)));
            return ClusterFabric.of(node, nodes, ClusterFabric.Net.parse("fat-tree:1"));
        } catch (IllegalArgumentException e) {
            throw JcclException.invalidArgument(rank, "JCCL_TOPO_FILE", file + ": " + e.getMessage());
        }
    }

    /**
     * {@code tuner} pricing its candidates by {@code job}'s simulation ({@link #host} or
     * {@link #gpu}) where JCCL_TUNER_SIM is set (each candidate within {@link #PRICED_STEPS};
     * beyond, the model), else {@code tuner} itself.
     */
    public static Tuner priced(Tuner tuner, java.util.function.BiFunction<Tuner, Integer, CallSimulator> job) {
        if (!tuner.config().tunerSimulates()) {
            return tuner;
        }
        CallSimulator sim = job.apply(tuner, JcclException.NO_RANK);
        return tuner.withPricer(new Tuner.Pricer() {
            @Override
            public boolean affords(Collective c, long count, int elementSize, Algorithm a, Protocol p) {
                return sim.steps(c, count, elementSize, a, p) <= PRICED_STEPS;
            }

            @Override
            public double micros(Collective c, long count, int elementSize, Algorithm a, Protocol p) {
                return sim.micros(c, count, elementSize, a, p);
            }
        });
    }
}
