// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What a launcher told this process: its rank, the number of ranks, its local rank where the
 * launcher knows it, and how to find the bootstrap root. Read from a map (the process environment
 * in production, any map in tests); partial or contradictory settings are a
 * {@link JcclException} naming the variables. The innermost launcher wins, in the order jccl's own
 * ({@code JCCL_RANK}), torchrun ({@code RANK}), Open MPI ({@code OMPI_COMM_WORLD_RANK}), Slurm
 * ({@code SLURM_PROCID}): mpirun inside a Slurm allocation inherits Slurm's variables, and those
 * describe the allocation, not the MPI job.
 *
 * <p>The local rank is the launcher's; {@link Bootstrap#locality()} is what jccl itself uses.
 * How the root is found, in order (the full table is in docs/bootstrap.md):
 * <ol>
 * <li>{@code JCCL_COMM_ID=HOST:PORT#SECRET}: under jccl's own launcher the launcher hosts that root;
 * under the others rank 0 starts it (as NCCL with {@code NCCL_COMM_ID}).</li>
 * <li>{@code MASTER_ADDR} and {@code MASTER_PORT}: rank 0 hosts the root at MASTER_ADDR, port
 * MASTER_PORT + 1 (torchrun's agent holds MASTER_PORT itself); the secret comes from
 * {@code JCCL_COMM_SECRET} (a passphrase of at least 16 characters, the same on every rank) or,
 * with {@code JCCL_BOOTSTRAP_INSECURE=1}, from the address alone.</li>
 * <li>A directory all ranks can read ({@code JCCL_BOOTSTRAP_DIR}, or the temporary directory when
 * the launcher says every rank is on this host): rank 0 starts a root and writes its id there, in a
 * file only this user can read, named by the launcher's job id.</li>
 * </ol>
 *
 * <pre>{@code
 * LaunchEnvironment env = LaunchEnvironment.from(System.getenv());
 * Bootstrap b = Launch.bootstrap(env, Config.fromEnvironment(), Set.of());
 * }</pre>
 *
 * @param launcher   which launcher's variables were read
 * @param rank       this process's rank
 * @param size       number of ranks
 * @param localRank  the launcher's local rank, if it gives one
 * @param localSize  the launcher's count of ranks on this host, if it gives one
 * @param root       where the bootstrap root is
 */
public record LaunchEnvironment(Launcher launcher, int rank, int size, OptionalInt localRank, OptionalInt localSize,
                                RootSource root) {

    /** The launchers whose variables are understood. */
    public enum Launcher {
        JCCL("JCCL_RANK", "JCCL_NRANKS", "JCCL_LOCAL_RANK", "JCCL_LOCAL_SIZE"),
        TORCHRUN("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"),
        OPEN_MPI("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"),
        SLURM("SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", null);

        final String rankVar;
        final String sizeVar;
        final String localRankVar;
        final String localSizeVar;

        Launcher(String rankVar, String sizeVar, String localRankVar, String localSizeVar) {
            this.rankVar = rankVar;
            this.sizeVar = sizeVar;
            this.localRankVar = localRankVar;
            this.localSizeVar = localSizeVar;
        }
    }

    /** Where the bootstrap root is. */
    public sealed interface RootSource permits Given, SharedDirectory {
    }

    /**
     * A known id. {@code hostedByRank0}: rank 0 must start the root at the id's address (else a
     * launcher runs it).
     */
    public record Given(CommId id, boolean hostedByRank0) implements RootSource {
    }

    /** Rank 0 starts a root and publishes its id in {@code directory}, under a name made from {@code jobKey}. */
    public record SharedDirectory(Path directory, String jobKey) implements RootSource {
    }

    /** Reads the launcher's variables from {@code env}. */
    public static LaunchEnvironment from(Map<String, String> env) {
        Launcher l = null;
        for (Launcher c : Launcher.values()) {
            if (env.containsKey(c.rankVar) || env.containsKey(c.sizeVar) || (c == Launcher.SLURM && env.containsKey("SLURM_NPROCS"))) {
                l = c;
                break;
            }
        }
        if (l == null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, JcclException.NO_RANK, "no launcher environment: expected jccl's "
                    + "JCCL_RANK and JCCL_NRANKS, torchrun's RANK and WORLD_SIZE, Open MPI's OMPI_COMM_WORLD_RANK and "
                    + "OMPI_COMM_WORLD_SIZE, or Slurm's SLURM_PROCID and SLURM_NTASKS");
        }
        String sizeVar = l == Launcher.SLURM && !env.containsKey(l.sizeVar) && env.containsKey("SLURM_NPROCS")
                ? "SLURM_NPROCS" : l.sizeVar;
        int rank = required(env, l.rankVar, sizeVar);
        int size = required(env, sizeVar, l.rankVar);
        if (size < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, sizeVar, "is " + size + ", not a number of ranks");
        }
        if (rank < 0 || rank >= size) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, l.rankVar, "is " + rank + ", not a rank of 0.." + (size - 1)
                    + " (" + sizeVar + "=" + size + ")");
        }
        OptionalInt localRank = optional(env, l.localRankVar);
        OptionalInt localSize = l.localSizeVar != null ? optional(env, l.localSizeVar) : slurmLocalSize(env, size);
        if (localRank.isPresent() && localRank.getAsInt() < 0) {
            throw JcclException.invalidArgument(rank, l.localRankVar, "is " + localRank.getAsInt() + ", negative");
        }
        if (localSize.isPresent() && (localSize.getAsInt() < 1 || localSize.getAsInt() > size)) {
            throw JcclException.invalidArgument(rank, l.localSizeVar, "is " + localSize.getAsInt() + ", not 1.." + size
                    + " (" + sizeVar + "=" + size + ")");
        }
        if (localRank.isPresent() && localSize.isPresent() && localRank.getAsInt() >= localSize.getAsInt()) {
            throw JcclException.invalidArgument(rank, l.localRankVar, "is " + localRank.getAsInt() + " but "
                    + (l.localSizeVar != null ? l.localSizeVar : "the rank count of this one node") + " is " + localSize.getAsInt());
        }
        return new LaunchEnvironment(l, rank, size, localRank, localSize, root(env, l, rank, size, localSize));
    }

    private static OptionalInt slurmLocalSize(Map<String, String> env, int size) {
        String nodes = env.getOrDefault("SLURM_STEP_NUM_NODES", env.get("SLURM_NNODES"));
        return "1".equals(nodes == null ? null : nodes.trim()) ? OptionalInt.of(size) : OptionalInt.empty();
    }

    private static RootSource root(Map<String, String> env, Launcher l, int rank, int size, OptionalInt localSize) {
        boolean insecure = truthy(env.get("JCCL_BOOTSTRAP_INSECURE"));
        String idText = env.get("JCCL_COMM_ID");
        if (idText != null) {
            CommId id;
            if (insecure && !idText.contains("#")) {
                CommId.HostPort hp = CommId.HostPort.parse(idText.trim(), "JCCL_COMM_ID");
                id = CommId.insecure(hp.host(), hp.port(), "JCCL_COMM_ID");
            } else {
                id = CommId.parse(idText, "JCCL_COMM_ID");
            }
            // jccl's launcher draws a secret per job; under the others the id may be reused by two jobs.
            return l == Launcher.JCCL ? new Given(id, false) : new Given(bound(id, env, l), true);
        }
        if (l == Launcher.JCCL) {
            throw JcclException.invalidArgument(rank, "JCCL_COMM_ID", "is not set, but JCCL_RANK and JCCL_NRANKS are: "
                    + "a jccl launcher sets all three");
        }
        String addr = env.get("MASTER_ADDR");
        String portText = env.get("MASTER_PORT");
        if (addr != null || portText != null) {
            if (addr == null || portText == null) {
                throw JcclException.invalidArgument(rank, addr == null ? "MASTER_ADDR" : "MASTER_PORT",
                        "is not set, but " + (addr == null ? "MASTER_PORT" : "MASTER_ADDR") + " is: set both");
            }
            int port = parse("MASTER_PORT", portText, rank);
            if (port < 1 || port >= 65535) {
                throw JcclException.invalidArgument(rank, "MASTER_PORT", "is " + port + "; the root listens on MASTER_PORT + 1, "
                        + "so it must be 1..65534");
            }
            String host = addr.trim();
            String secret = env.get("JCCL_COMM_SECRET");
            if (secret != null) {
                if (secret.trim().length() < 16) {
                    throw JcclException.invalidArgument(rank, "JCCL_COMM_SECRET", "has " + secret.trim().length()
                            + " characters; use at least 16 random ones (e.g. openssl rand -hex 32)");
                }
                return new Given(bound(CommId.of(host, port + 1, CommId.stretch(secret.trim(), host, port + 1), "MASTER_ADDR"),
                        env, l), true);
            }
            if (insecure) {
                return new Given(bound(CommId.insecure(host, port + 1, "MASTER_ADDR"), env, l), true);
            }
            throw JcclException.invalidArgument(rank, "JCCL_COMM_SECRET", "is not set: MASTER_ADDR and MASTER_PORT give the "
                    + "root's address but not a secret; set JCCL_COMM_SECRET to the same random string on every rank, or "
                    + "JCCL_COMM_ID, or JCCL_BOOTSTRAP_INSECURE=1 on a network where every host is trusted");
        }
        String dir = env.get("JCCL_BOOTSTRAP_DIR");
        boolean allLocal = localSize.isPresent() && localSize.getAsInt() == size;
        if (dir != null || allLocal) {
            String key = jobKey(env, l);
            if (key == null) {
                throw JcclException.invalidArgument(rank, "JCCL_COMM_ID", "is not set and the " + l + " environment has no job id "
                        + "to name a rendezvous file by; set JCCL_COMM_ID");
            }
            Path d = dir != null ? Path.of(dir) : FileRendezvous.defaultDirectory();
            return new SharedDirectory(d, key);
        }
        throw JcclException.invalidArgument(rank, "JCCL_COMM_ID", "is not set and nothing else says where the bootstrap root is: "
                + "set JCCL_COMM_ID=HOST:PORT#SECRET, or MASTER_ADDR, MASTER_PORT and JCCL_COMM_SECRET, or JCCL_BOOTSTRAP_DIR "
                + "to a directory every rank can read");
    }

    /**
     * {@code id} bound to this job where a job id is known (JCCL_JOB_ID, else the launcher's), so
     * that ranks of two jobs that share a root's address and secret cannot join each other.
     */
    private static CommId bound(CommId id, Map<String, String> env, Launcher l) {
        String job = env.get("JCCL_JOB_ID");
        if (job == null || job.isBlank()) {
            job = jobKey(env, l);
        }
        return job == null ? id : id.boundTo(job.trim());
    }

    private static String jobKey(Map<String, String> env, Launcher l) {
        return switch (l) {
            case OPEN_MPI -> env.getOrDefault("PMIX_NAMESPACE", env.get("OMPI_MCA_ess_base_jobid"));
            case SLURM -> env.containsKey("SLURM_JOB_ID")
                    ? "slurm-" + env.get("SLURM_JOB_ID") + "." + env.getOrDefault("SLURM_STEP_ID", "batch") : null;
            case TORCHRUN -> {
                String id = env.get("TORCHELASTIC_RUN_ID");
                yield id == null || id.equals("none") ? null : "torchrun-" + id;
            }
            case JCCL -> null;
        };
    }

    private static boolean truthy(String v) {
        return v != null && switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            default -> false;
        };
    }

    private static int required(Map<String, String> env, String name, String partner) {
        String v = env.get(name);
        if (v == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, name, "is not set, but " + partner
                    + " is: the launcher sets both");
        }
        return parse(name, v, JcclException.NO_RANK);
    }

    private static OptionalInt optional(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null ? OptionalInt.empty() : OptionalInt.of(parse(name, v, JcclException.NO_RANK));
    }

    private static int parse(String name, String v, int rank) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw JcclException.invalidArgument(rank, name, "is '" + v + "', not an integer");
        }
    }
}
