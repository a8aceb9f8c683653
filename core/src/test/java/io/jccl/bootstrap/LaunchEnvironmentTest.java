// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;

import static io.jccl.bootstrap.LaunchEnvironment.Launcher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LaunchEnvironmentTest {
    private static final String ID = CommId.of("10.0.0.1", 29600, CommId.newSecret()).encode();

    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static final String[] TORCHRUN = {"RANK", "3", "WORLD_SIZE", "8", "LOCAL_RANK", "1", "LOCAL_WORLD_SIZE", "2",
            "MASTER_ADDR", "node0", "MASTER_PORT", "29500", "TORCHELASTIC_RUN_ID", "none"};

    private static String[] plus(String[] base, String... more) {
        String[] out = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, out, base.length, more.length);
        return out;
    }

    @Test
    void torchrunGivesRankSizeLocalRankAndTheRootNextToTheMasterPort() {
        LaunchEnvironment e = LaunchEnvironment.from(env(plus(TORCHRUN, "JCCL_COMM_SECRET", "0123456789abcdef0123")));
        assertThat(e.launcher()).isEqualTo(Launcher.TORCHRUN);
        assertThat(e.rank()).isEqualTo(3);
        assertThat(e.size()).isEqualTo(8);
        assertThat(e.localRank()).hasValue(1);
        assertThat(e.localSize()).hasValue(2);
        LaunchEnvironment.Given g = (LaunchEnvironment.Given) e.root();
        assertThat(g.hostedByRank0()).isTrue();
        assertThat(g.id().host()).isEqualTo("node0");
        assertThat(g.id().port()).isEqualTo(29501);
        // every rank derives the same id from the same passphrase; another passphrase gives another
        LaunchEnvironment other = LaunchEnvironment.from(env(plus(TORCHRUN, "JCCL_COMM_SECRET", "0123456789abcdef0123", "RANK", "0")));
        assertThat(((LaunchEnvironment.Given) other.root()).id()).isEqualTo(g.id());
        LaunchEnvironment third = LaunchEnvironment.from(env(plus(TORCHRUN, "JCCL_COMM_SECRET", "another-secret-of-20")));
        assertThat(((LaunchEnvironment.Given) third.root()).id()).isNotEqualTo(g.id());
    }

    @Test
    void torchrunWithoutASecretNeedsOneOrTheInsecureMode() {
        assertThatThrownBy(() -> LaunchEnvironment.from(env(TORCHRUN))).isInstanceOf(JcclException.class)
                .hasMessageContaining("rank 3: invalid_argument: argument 'JCCL_COMM_SECRET' is not set")
                .hasMessageContaining("JCCL_BOOTSTRAP_INSECURE=1");
        assertThatThrownBy(() -> LaunchEnvironment.from(env(plus(TORCHRUN, "JCCL_COMM_SECRET", "short"))))
                .hasMessageContaining("argument 'JCCL_COMM_SECRET' has 5 characters");
        LaunchEnvironment e = LaunchEnvironment.from(env(plus(TORCHRUN, "JCCL_BOOTSTRAP_INSECURE", "1")));
        CommId id = ((LaunchEnvironment.Given) e.root()).id();
        assertThat(id).isEqualTo(CommId.insecure("node0", 29501, "x"));
    }

    @Test
    void anExplicitCommIdWinsAndRankZeroHostsItUnlessJcclLaunchedUs() {
        LaunchEnvironment t = LaunchEnvironment.from(env(plus(TORCHRUN, "JCCL_COMM_ID", ID)));
        assertThat(((LaunchEnvironment.Given) t.root()).id().encode()).isEqualTo(ID);
        assertThat(((LaunchEnvironment.Given) t.root()).hostedByRank0()).isTrue();
        LaunchEnvironment j = LaunchEnvironment.from(env("JCCL_RANK", "1", "JCCL_NRANKS", "2", "JCCL_COMM_ID", ID, "RANK", "0",
                "WORLD_SIZE", "1"));
        assertThat(j.launcher()).isEqualTo(Launcher.JCCL);
        assertThat(j.localRank()).isEmpty();
        assertThat(((LaunchEnvironment.Given) j.root()).hostedByRank0()).isFalse();
        assertThatThrownBy(() -> LaunchEnvironment.from(env("JCCL_RANK", "1", "JCCL_NRANKS", "2")))
                .hasMessageContaining("argument 'JCCL_COMM_ID' is not set, but JCCL_RANK and JCCL_NRANKS are");
        assertThatThrownBy(() -> LaunchEnvironment.from(env("JCCL_RANK", "1", "JCCL_NRANKS", "2", "JCCL_COMM_ID", "10.0.0.1:5")))
                .hasMessageContaining("argument 'JCCL_COMM_ID' '10.0.0.1:5' has no secret");
        LaunchEnvironment insecure = LaunchEnvironment.from(env("JCCL_RANK", "1", "JCCL_NRANKS", "2", "JCCL_COMM_ID", "10.0.0.1:5",
                "JCCL_BOOTSTRAP_INSECURE", "true"));
        assertThat(((LaunchEnvironment.Given) insecure.root()).id().port()).isEqualTo(5);
    }

    @Test
    void openMpiOnOneHostUsesTheSharedDirectoryNamedByTheJob() {
        Map<String, String> m = env("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4", "OMPI_COMM_WORLD_LOCAL_RANK", "2",
                "OMPI_COMM_WORLD_LOCAL_SIZE", "4", "PMIX_NAMESPACE", "prterun-h-1234@1",
                "SLURM_PROCID", "0", "SLURM_NTASKS", "1"); // an enclosing allocation's variables do not count
        LaunchEnvironment e = LaunchEnvironment.from(m);
        assertThat(e.launcher()).isEqualTo(Launcher.OPEN_MPI);
        assertThat(e.rank()).isEqualTo(2);
        assertThat(e.root()).isEqualTo(new LaunchEnvironment.SharedDirectory(FileRendezvous.defaultDirectory(), "prterun-h-1234@1"));
        m.put("JCCL_BOOTSTRAP_DIR", "/shared/jobs");
        assertThat(((LaunchEnvironment.SharedDirectory) LaunchEnvironment.from(m).root()).directory()).isEqualTo(Path.of("/shared/jobs"));
        m.remove("PMIX_NAMESPACE");
        m.put("OMPI_MCA_ess_base_jobid", "77");
        assertThat(((LaunchEnvironment.SharedDirectory) LaunchEnvironment.from(m).root()).jobKey()).isEqualTo("77");
        m.remove("OMPI_MCA_ess_base_jobid");
        assertThatThrownBy(() -> LaunchEnvironment.from(m)).hasMessageContaining("has no job id");
    }

    @Test
    void openMpiAcrossHostsWithoutAnIdSaysWhatToSet() {
        assertThatThrownBy(() -> LaunchEnvironment.from(env("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "PMIX_NAMESPACE", "x")))
                .hasMessageContaining("argument 'JCCL_COMM_ID' is not set and nothing else says where the bootstrap root is")
                .hasMessageContaining("JCCL_BOOTSTRAP_DIR");
    }

    @Test
    void slurmGivesRankSizeAndOnOneNodeTheLocalSize() {
        LaunchEnvironment e = LaunchEnvironment.from(env("SLURM_PROCID", "5", "SLURM_NTASKS", "6", "SLURM_LOCALID", "5",
                "SLURM_NNODES", "1", "SLURM_JOB_ID", "123", "SLURM_STEP_ID", "0"));
        assertThat(e.launcher()).isEqualTo(Launcher.SLURM);
        assertThat(e.localSize()).hasValue(6);
        assertThat(((LaunchEnvironment.SharedDirectory) e.root()).jobKey()).isEqualTo("slurm-123.0");
        LaunchEnvironment two = LaunchEnvironment.from(env("SLURM_PROCID", "1", "SLURM_NPROCS", "4", "SLURM_NNODES", "2",
                "JCCL_COMM_ID", ID));
        assertThat(two.size()).isEqualTo(4);
        assertThat(two.localSize()).isEqualTo(OptionalInt.empty());
    }

    @Test
    void partialOrContradictoryEnvironmentsAreNamed() {
        expect(env("RANK", "1"), "argument 'WORLD_SIZE' is not set, but RANK is");
        expect(env("OMPI_COMM_WORLD_SIZE", "2"), "argument 'OMPI_COMM_WORLD_RANK' is not set, but OMPI_COMM_WORLD_SIZE is");
        expect(env("SLURM_PROCID", "0"), "argument 'SLURM_NTASKS' is not set, but SLURM_PROCID is");
        expect(env("RANK", "4", "WORLD_SIZE", "4"), "argument 'RANK' is 4, not a rank of 0..3 (WORLD_SIZE=4)");
        expect(env("RANK", "-1", "WORLD_SIZE", "4"), "argument 'RANK' is -1");
        expect(env("RANK", "0", "WORLD_SIZE", "0"), "argument 'WORLD_SIZE' is 0, not a number of ranks");
        expect(env("RANK", "one", "WORLD_SIZE", "4"), "argument 'RANK' is 'one', not an integer");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "2", "LOCAL_WORLD_SIZE", "2"),
                "argument 'LOCAL_RANK' is 2 but LOCAL_WORLD_SIZE is 2");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_WORLD_SIZE", "5"), "argument 'LOCAL_WORLD_SIZE' is 5, not 1..4");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "-2"), "argument 'LOCAL_RANK' is -2, negative");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "MASTER_ADDR", "h"), "argument 'MASTER_PORT' is not set, but MASTER_ADDR is");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "MASTER_PORT", "1"), "argument 'MASTER_ADDR' is not set, but MASTER_PORT is");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "MASTER_ADDR", "h", "MASTER_PORT", "65535", "JCCL_BOOTSTRAP_INSECURE", "1"),
                "argument 'MASTER_PORT' is 65535");
        expect(env("RANK", "0", "WORLD_SIZE", "4", "JCCL_COMM_ID", "garbage"), "argument 'JCCL_COMM_ID' 'garbage' has no secret");
        assertThatThrownBy(() -> LaunchEnvironment.from(env("PATH", "/bin"))).isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_USAGE))
                .hasMessageContaining("no launcher environment");
    }

    private static void expect(Map<String, String> env, String fragment) {
        assertThatThrownBy(() -> LaunchEnvironment.from(env)).isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(fragment);
    }
}
