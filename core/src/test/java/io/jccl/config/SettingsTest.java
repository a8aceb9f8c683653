// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.JcclException;
import io.jccl.engine.SharedSettings;
import io.jccl.proto.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every row of the settings table: read, written back, refused, defaulted and shared alike. */
class SettingsTest {
    /** A value other than the default, as its variable's text, for every row. */
    static final Map<String, String> SAMPLE = Map.ofEntries(entry("JCCL_BUFFSIZE", "1M"), entry("JCCL_LL_BUFFSIZE", "64K"),
            entry("JCCL_LL128_BUFFSIZE", "2400K"), entry("JCCL_TIMEOUT", "2.5"), entry("JCCL_ALGO", "ring,tree"),
            entry("JCCL_PROTO", "LL,Simple"), entry("JCCL_MIN_NCHANNELS", "2"), entry("JCCL_MAX_NCHANNELS", "3"),
            entry("JCCL_INTER_BW", "0.125"), entry("JCCL_INTER_LATENCY", "50.0"), entry("JCCL_INTRA_BW", "0.1"),
            entry("JCCL_INTRA_LATENCY", "210.0"), entry("JCCL_TUNING_FILE", "/no/such/table.json"), entry("JCCL_TUNER_SIM", "1"), entry("JCCL_P2P_DISABLE", "1"),
            entry("JCCL_SHM_DISABLE", "1"), entry("JCCL_CMA_DISABLE", "1"), entry("JCCL_CPU_PINNING", "0"), entry("JCCL_IGNORE_CPU_AFFINITY", "1"), entry("JCCL_CHECK_CALLS", "0"), entry("JCCL_KEEPALIVE_MS", "250"),
            entry("JCCL_COMM_BLOCKING", "0"), entry("JCCL_SOCKET_NTHREADS", "2"),
            entry("JCCL_NSOCKS_PERTHREAD", "4"), entry("JCCL_SOCKET_IFNAME", "^docker,lo"), entry("JCCL_SOCKET_FAMILY", "AF_INET6"),
            entry("JCCL_NET", "Socket"), entry("JCCL_IB_HCA", "^=mlx5_0:1,mlx5_1"), entry("JCCL_IB_GID_INDEX", "3"),
            entry("JCCL_IB_TC", "106"), entry("JCCL_IB_SL", "5"), entry("JCCL_IB_TIMEOUT", "18"), entry("JCCL_IB_RETRY_CNT", "6"),
            entry("JCCL_IB_QPS_PER_CONNECTION", "4"),
            entry("JCCL_BOOTSTRAP_TIMEOUT", "0.75"), entry("JCCL_HOSTID", "host-a"), entry("JCCL_TOPO_FILE", "/t/in.xml"),
            entry("JCCL_TOPO_DUMP_FILE", "/t/out.xml"), entry("JCCL_GRAPH_FILE", "/t/g.xml"),
            entry("JCCL_GRAPH_DUMP_FILE", "/t/gd.xml"), entry("JCCL_DEBUG", "INFO"),
            entry("JCCL_DEBUG_SUBSYS", "COLL,NET"), entry("JCCL_DEBUG_FILE", "/t/jccl-%h-%p.log"));

    /** A value the row refuses, for every row. */
    static final Map<String, String> BAD = Map.ofEntries(entry("JCCL_BUFFSIZE", "12x"), entry("JCCL_LL_BUFFSIZE", "1000"),
            entry("JCCL_LL128_BUFFSIZE", "33000"), entry("JCCL_TIMEOUT", "-1"), entry("JCCL_ALGO", "ring,fast"),
            entry("JCCL_PROTO", "^LL,LL128,Simple"), entry("JCCL_MIN_NCHANNELS", "0"), entry("JCCL_MAX_NCHANNELS", "65"),
            entry("JCCL_INTER_BW", "fast"), entry("JCCL_INTER_LATENCY", "-3"), entry("JCCL_INTRA_BW", "NaN"),
            entry("JCCL_INTRA_LATENCY", "Infinity"), entry("JCCL_TUNING_FILE", "a\0b"), entry("JCCL_TUNER_SIM", "yes"), entry("JCCL_P2P_DISABLE", "yes"),
            entry("JCCL_SHM_DISABLE", "2"), entry("JCCL_CMA_DISABLE", "true"), entry("JCCL_CPU_PINNING", "off"), entry("JCCL_IGNORE_CPU_AFFINITY", "on"), entry("JCCL_CHECK_CALLS", "yes"), entry("JCCL_KEEPALIVE_MS", "-1"),
            entry("JCCL_COMM_BLOCKING", "no"), entry("JCCL_SOCKET_NTHREADS", "0"),
            entry("JCCL_NSOCKS_PERTHREAD", "two"), entry("JCCL_SOCKET_IFNAME", "e".repeat(4097)),
            entry("JCCL_SOCKET_FAMILY", "AF_UNIX"), entry("JCCL_NET", "RDMA"), entry("JCCL_IB_HCA", "mlx5_0:x"),
            entry("JCCL_IB_GID_INDEX", "256"), entry("JCCL_IB_TC", "256"), entry("JCCL_IB_SL", "16"), entry("JCCL_IB_TIMEOUT", "0"),
            entry("JCCL_IB_RETRY_CNT", "8"), entry("JCCL_IB_QPS_PER_CONNECTION", "0"), entry("JCCL_BOOTSTRAP_TIMEOUT", "soon"), entry("JCCL_HOSTID", "h".repeat(201)),
            entry("JCCL_TOPO_FILE", "t".repeat(4097)), entry("JCCL_TOPO_DUMP_FILE", "d".repeat(4097)), entry("JCCL_GRAPH_FILE", "g".repeat(4097)),
            entry("JCCL_GRAPH_DUMP_FILE", "h".repeat(4097)), entry("JCCL_DEBUG", "LOUD"),
            entry("JCCL_DEBUG_SUBSYS", "INIT,NETWORK"), entry("JCCL_DEBUG_FILE", "/t/jccl-%r.log"));

    @Test
    void theSamplesCoverEveryRow() {
        Set<String> names = Settings.ALL.stream().map(Setting::name).collect(Collectors.toSet());
        assertThat(SAMPLE.keySet()).isEqualTo(names);
        assertThat(BAD.keySet()).isEqualTo(names);
        assertThat(names).as("one bit each for 'given'").hasSizeLessThanOrEqualTo(64).hasSize(Settings.ALL.size());
    }

    @Test
    void everyRowReadsItsTextAndWritesItBack() {
        Values v = Values.fromVariables(SAMPLE);
        for (Setting<?> s : Settings.ALL) {
            assertThat(v.given(s)).as(s.name()).isTrue();
            assertThat(v.text(s)).as(s.name()).isNotEqualTo(Values.defaults().text(s));
            assertThat(Values.fromVariables(Map.of(s.name(), v.text(s))).text(s)).as(s.name() + " read back").isEqualTo(v.text(s));
        }
        Config c = v.config();
        assertThat(c.buffSize()).isEqualTo(1 << 20);
        assertThat(c.timeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(c.algorithms()).containsExactlyInAnyOrder("ring", "tree");
        assertThat(c.protocols()).containsExactlyInAnyOrder("LL", "Simple");
        assertThat(Protocol.allowed(c)).containsExactlyInAnyOrder(Protocol.LL, Protocol.SIMPLE);
        assertThat(c.crossMemory()).isFalse();
        assertThat(c.bootstrapTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(c.debug()).isEqualTo(Config.Debug.INFO);
        assertThat(c.toString()).startsWith("Config[JCCL_BUFFSIZE=1M, JCCL_LL_BUFFSIZE=64K,").contains("JCCL_ALGO=ring,tree")
                .contains("JCCL_SOCKET_FAMILY=AF_INET6");
    }

    @Test
    void aRefusedValueNamesTheVariableTheValueAndWhatIsAllowed() {
        for (Setting<?> s : Settings.ALL) {
            String bad = BAD.get(s.name());
            assertThatThrownBy(() -> Config.fromVariables(Map.of(s.name(), bad))).as(s.name()).isInstanceOf(JcclException.class)
                    .hasMessageContaining("argument '" + s.name() + "' is '" + bad.strip() + "': ")
                    .hasMessageMatching("(?s).*: (must be|names|leaves) .*");
        }
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_PROTO", "LL,LL256"))).hasMessageEndingWith(
                "argument 'JCCL_PROTO' is 'LL,LL256': names 'LL256', not one of LL, LL128, Simple");
        assertThatThrownBy(() -> Config.defaults().withTimeout(Duration.ofSeconds(-2)))
                .hasMessageEndingWith("argument 'JCCL_TIMEOUT' is '-2': must be positive: seconds, fractions allowed");
        assertThatThrownBy(() -> Config.defaults().withDebug(null)).hasMessageEndingWith("argument 'JCCL_DEBUG' is null: "
                + "must be NONE, VERSION, WARN, INFO or TRACE");
        assertThatThrownBy(() -> Config.defaults().withBuffSize("LL", 4096)).hasMessageContaining("JCCL_LL_BUFFSIZE")
                .hasMessageContaining("at least 32768");
    }

    @Test
    void everyRowIsReadFromItsNcclNameWhenItsOwnIsUnset() {
        for (Setting<?> s : Settings.ALL) {
            String nccl = "NCCL_" + s.name().substring(5);
            assertThat(s.ncclName()).isEqualTo(nccl);
            Values v = Values.fromVariables(Map.of(nccl, SAMPLE.get(s.name())));
            assertThat(v.given(s)).as(nccl).isTrue();
            assertThat(v.text(s)).as(nccl).isEqualTo(Values.fromVariables(SAMPLE).text(s));
            assertThat(v.notes().info()).as(nccl).containsExactly(nccl + "=" + SAMPLE.get(s.name()).strip() + " read as " + s.name());
            assertThat(v.notes().unknownNccl()).isEmpty();
            // A refused NCCL_ value is named as the user wrote it.
            assertThatThrownBy(() -> Values.fromVariables(Map.of(nccl, BAD.get(s.name())))).as(nccl)
                    .hasMessageContaining("argument '" + nccl + "' is '" + BAD.get(s.name()).strip() + "': ");
        }
        assertThatThrownBy(() -> Config.fromVariables(Map.of("NCCL_ALGO", "ring,nvls"))).hasMessageEndingWith(
                "argument 'NCCL_ALGO' is 'ring,nvls': names 'nvls', not one of " + new java.util.TreeSet<>(
                        Config.defaults().algorithms()));
    }

    @Test
    void jcclsNameWinsAndSaysSoWhereTheTwoDiffer() {
        Values v = Values.fromVariables(Map.of("JCCL_ALGO", "tree", "NCCL_ALGO", "ring", "JCCL_PROTO", "LL,Simple",
                "NCCL_PROTO", "simple,ll", "NCCL_BUFFSIZE", "2M"));
        Config c = v.config();
        assertThat(c.algorithms()).containsExactly("tree");
        assertThat(c.protocols()).containsExactlyInAnyOrder("LL", "Simple");
        assertThat(c.buffSize()).isEqualTo(2 << 20);
        // The same protocols spelt differently are not a difference.
        assertThat(v.notes().info()).containsExactly("NCCL_BUFFSIZE=2M read as JCCL_BUFFSIZE",
                "JCCL_ALGO=tree wins over NCCL_ALGO=ring");
        // A blank JCCL_ name is unset: NCCL's gives the value.
        assertThat(Config.fromVariables(Map.of("JCCL_ALGO", " ", "NCCL_ALGO", "ring")).algorithms()).containsExactly("ring");
        // JCCL_'s value wins even over an NCCL_ one jccl could not read.
        Values unreadable = Values.fromVariables(Map.of("JCCL_ALGO", "ring", "NCCL_ALGO", "collnetdirect"));
        assertThat(unreadable.config().algorithms()).containsExactly("ring");
        assertThat(unreadable.notes().info()).containsExactly("JCCL_ALGO=ring wins over NCCL_ALGO=collnetdirect");
    }

    @Test
    void ncclVariablesJcclDoesNotReadAreNamedInOneWarning() {
        Values v = Values.fromVariables(Map.of("NCCL_NET_GDR_LEVEL", "PHB", "NCCL_IB_PKEY", "1", "NCCL_DEBUG", "INFO",
                "JCCL_RANK", "0", "NCCL", "x"));
        assertThat(v.notes().unknownNccl()).containsExactly("NCCL_IB_PKEY", "NCCL_NET_GDR_LEVEL");
        assertThat(v.notes().unknownWarning()).isEqualTo("jccl does not read NCCL_IB_PKEY, NCCL_NET_GDR_LEVEL (it reads "
                + "NCCL_ names only for its own settings, docs/user-guide.md)");
        assertThat(Values.fromVariables(Map.of("NCCL_DEBUG", "WARN")).notes().unknownWarning()).isNull();
        assertThat(Values.defaults().notes().info()).isEmpty();
    }

    @Test
    void algorithmsAndProtocolsPerCollectiveAsNccl230TakesThem() {
        Config c = Config.fromVariables(Map.of("JCCL_ALGO", "Ring; AllReduce:tree,ring ;broadcast:^ring;",
                "JCCL_PROTO", "allgather:LL128"));
        assertThat(c.algorithms()).containsExactly("ring");
        assertThat(c.algorithms(io.jccl.Collective.ALL_REDUCE)).containsExactlyInAnyOrder("tree", "ring");
        assertThat(c.algorithms(io.jccl.Collective.BROADCAST)).doesNotContain("ring").contains("tree", "direct")
                .hasSize(Config.defaults().algorithms().size() - 1);
        assertThat(c.algorithms(io.jccl.Collective.REDUCE)).containsExactly("ring");
        assertThat(c.protocols()).containsExactlyInAnyOrder("LL", "LL128", "Simple");
        assertThat(c.protocols(io.jccl.Collective.ALL_GATHER)).containsExactly("LL128");
        assertThat(Protocol.allowed(c, io.jccl.Collective.ALL_GATHER)).containsExactly(Protocol.LL128);
        Values v = Values.of(c);
        assertThat(v.text(Settings.ALGO)).isEqualTo("ring;allreduce:ring,tree;broadcast:"
                + String.join(",", c.algorithms(io.jccl.Collective.BROADCAST).stream().sorted().toList()));
        assertThat(v.text(Settings.PROTO)).isEqualTo("LL,LL128,Simple;allgather:LL128");
        assertThat(Values.fromVariables(Map.of("JCCL_ALGO", v.text(Settings.ALGO))).get(Settings.ALGO))
                .isEqualTo(v.get(Settings.ALGO));
        // The plain forms still mean every collective.
        assertThat(Config.defaults().withAlgorithms("^tree").algorithms(io.jccl.Collective.ALL_REDUCE)).doesNotContain("tree");
        Map<String, String> bad = Map.of("ring;allreduce:fast", "names 'fast', not one of",
                "ring;allreduc:ring", "names 'allreduc', not a collective",
                "ring;tree", "has two lists for every collective ('tree')",
                "allreduce:ring;AllReduce:tree", "names 'allreduce' twice",
                "allreduce:^" + String.join(",", Config.defaults().algorithms()), "leaves nothing to use",
                ";", "must be a comma list of names, or ^ and a list to exclude; per collective: list;collective:list");
        bad.forEach((spec, problem) -> assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_ALGO", spec))).as(spec)
                .isInstanceOf(JcclException.class).hasMessageContaining("argument 'JCCL_ALGO' is '" + spec.strip() + "': " + problem));
        assertThatThrownBy(() -> Config.fromVariables(Map.of("NCCL_PROTO", "allreduce:LL;reduce:LL64"))).isInstanceOf(JcclException.class)
                .hasMessageContaining("argument 'NCCL_PROTO' is 'allreduce:LL;reduce:LL64': names 'LL64', not one of LL, LL128, Simple");
    }

    @Test
    void aBlankVariableIsUnsetAndAWithNullGoesBackToTheDefault() {
        for (Setting<?> s : Settings.ALL) {
            Values v = Values.fromVariables(Map.of(s.name(), " "));
            assertThat(v.given(s)).as(s.name()).isFalse();
            assertThat(v.text(s)).as(s.name()).isEqualTo(Values.defaults().text(s));
        }
        Config c = Config.fromVariables(SAMPLE).withTopoFile(null).withHostId("  ").withTuningFile(null).withSocketFamily(null)
                .withBootstrapTimeout(null).withInterServer(Double.NaN, Double.NaN);
        assertThat(c.topoFile()).isEmpty();
        assertThat(c.hostId()).isEmpty();
        assertThat(c.tuningFile()).isNull();
        assertThat(c.socketFamily()).isEmpty();
        assertThat(c.bootstrapTimeout()).isEqualTo(c.timeout());
        assertThat(c.interBandwidth()).isNaN();
    }

    @Test
    void buffersAreNamedByJcclProtosNames() {
        Config c = Config.defaults().withBuffSize("LL", 64 << 10).withBuffSize("ll128", 2400 << 10).withBuffSize("Simple", 1 << 20);
        assertThat(c.buffSize("LL")).isEqualTo(Protocol.LL.buffSize(c)).isEqualTo(64 << 10);
        assertThat(c.buffSize("LL128")).isEqualTo(Protocol.LL128.buffSize(c)).isEqualTo(2400 << 10);
        assertThat(c.buffSize("simple")).isEqualTo(c.buffSize()).isEqualTo(1 << 20);
        assertThat(Config.defaults().buffSize("LL128")).isEqualTo(Protocol.LL128.defaultBuffSize());
        assertThatThrownBy(() -> c.withBuffSize("LL256", 1 << 20)).isInstanceOf(JcclException.class)
                .hasMessageContaining("argument 'protocol' is 'LL256', not LL, LL128 or Simple");
        assertThatThrownBy(() -> c.buffSize((String) null)).isInstanceOf(JcclException.class).hasMessageContaining("protocol");
        assertThatThrownBy(() -> c.withBuffSize("LL", 1000)).hasMessageContaining("JCCL_LL_BUFFSIZE");
    }

    @Test
    void oneChannelBoundMovesTheOtherAndBothGivenKeepTheMaximum() {
        Config min = Config.fromVariables(Map.of("JCCL_MIN_NCHANNELS", "20"));
        assertThat(min.minChannels()).isEqualTo(20);
        assertThat(min.maxChannels()).isEqualTo(Math.max(20, Config.defaults().maxChannels()));
        Config max = Config.fromVariables(Map.of("JCCL_MAX_NCHANNELS", "1"));
        assertThat(max.minChannels()).isEqualTo(1);
        assertThat(max.maxChannels()).isEqualTo(1);
        Config both = Config.fromVariables(Map.of("JCCL_MIN_NCHANNELS", "8", "JCCL_MAX_NCHANNELS", "4"));
        assertThat(both.minChannels()).isEqualTo(4);
        assertThat(both.maxChannels()).isEqualTo(4);
        assertThat(both.channelBoundsGiven()).isTrue();
        assertThat(Config.defaults().withDefaultChannels(2, 3).channelBoundsGiven()).isFalse();
        assertThatThrownBy(() -> Config.defaults().withChannels(3, 2)).hasMessageContaining("JCCL_MIN_NCHANNELS/JCCL_MAX_NCHANNELS");
    }

    @Test
    void rankZerosSharedRowsReachEveryRankAndTheOthersStayTheRanksOwn(@TempDir Path dir) throws Exception {
        Path table = Files.writeString(dir.resolve("table.json"), "{\"rank 0's\": true}");
        Values rank0 = Values.fromVariables(SAMPLE).withText(Settings.TUNING_FILE, table.toString());
        Config own = Config.fromVariables(Map.of("JCCL_TIMEOUT", "7", "JCCL_BUFFSIZE", "2M", "JCCL_HOSTID", "mine"));
        SharedSettings s = SharedSettings.decode(SharedSettings.of(rank0.config()).encode(), 1);
        Values got = Values.of(s.applyTo(own));
        for (Setting<?> row : Settings.ALL) {
            Values expected = row.isShared() ? rank0 : Values.of(own);
            assertThat(got.text(row)).as(row.name()).isEqualTo(expected.text(row));
            assertThat(got.given(row)).as(row.name() + " given").isEqualTo(expected.given(row));
        }
        assertThat(Settings.ALL.stream().filter(Setting::isShared).map(Setting::name)).containsExactly("JCCL_BUFFSIZE",
                "JCCL_LL_BUFFSIZE", "JCCL_LL128_BUFFSIZE", "JCCL_ALGO", "JCCL_PROTO", "JCCL_MIN_NCHANNELS", "JCCL_MAX_NCHANNELS",
                "JCCL_INTER_BW", "JCCL_INTER_LATENCY", "JCCL_INTRA_BW", "JCCL_INTRA_LATENCY", "JCCL_TUNING_FILE",
                "JCCL_TUNER_SIM", "JCCL_P2P_DISABLE", "JCCL_SHM_DISABLE", "JCCL_CHECK_CALLS", "JCCL_KEEPALIVE_MS");
        assertThat(s.p2pDisable()).isTrue();
        assertThat(s.shmDisable()).isTrue();
        assertThat(s.tuningFile()).isEqualTo(table.toString());
        assertThat(s.tuningText()).isEqualTo("{\"rank 0's\": true}");
        assertThat(s.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void sharedBytesNamingARowThatIsNotSharedAreMalformed() throws Exception {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream o = new java.io.DataOutputStream(b)) {
            o.writeInt(1);
            o.writeUTF("JCCL_TIMEOUT");
            o.writeBoolean(true);
            o.writeBoolean(true);
            o.writeUTF("5");
        }
        assertThatThrownBy(() -> Values.defaults().readShared(new java.io.DataInputStream(new java.io.ByteArrayInputStream(b.toByteArray()))))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("JCCL_TIMEOUT is not a shared setting");
    }

    @Test
    void debugSubsystemsFollowNcclsGrammar() {
        Set<Subsys> all = EnumSet.allOf(Subsys.class);
        assertThat(subsys("NET")).containsExactly(Subsys.NET);
        assertThat(subsys("init, net")).containsExactlyInAnyOrder(Subsys.INIT, Subsys.NET);
        assertThat(subsys("^NET")).isEqualTo(EnumSet.complementOf(EnumSet.of(Subsys.NET)));
        assertThat(subsys("ALL")).isEqualTo(all);
        assertThat(subsys("NET,ALL")).isEqualTo(all);
        assertThat(subsys("ALLOC")).as("ALLOC is not ALL").containsExactly(Subsys.ALLOC);
        assertThat(subsys("^ALLOC,COLL")).isEqualTo(EnumSet.complementOf(EnumSet.of(Subsys.ALLOC, Subsys.COLL)));
        assertThat(Config.defaults().debugSubsys()).as("NCCL's default").containsExactlyInAnyOrder(Subsys.INIT, Subsys.BOOTSTRAP,
                Subsys.ENV);
        assertThat(Config.defaults().withDebugSubsys("ALL").toString()).contains("JCCL_DEBUG_SUBSYS=ALL");
        assertThatThrownBy(() -> subsys("^ALL")).hasMessageContaining("argument 'JCCL_DEBUG_SUBSYS' is '^ALL': leaves nothing");
        assertThatThrownBy(() -> subsys("NET,,COLL")).hasMessageContaining("names ''");
        assertThatThrownBy(() -> subsys("CALL")).hasMessageContaining("names 'CALL', not one of [INIT, COLL, P2P, SHM, NET, "
                + "GRAPH, TUNING, ENV, ALLOC, PROXY, BOOTSTRAP] or ALL");
    }

    private static Set<Subsys> subsys(String spec) {
        return Config.fromVariables(Map.of("JCCL_DEBUG_SUBSYS", spec)).debugSubsys();
    }

    @Test
    void debugLevelsAndFilesAreReadAsNcclReadsThem() {
        assertThat(Config.fromVariables(Map.of("JCCL_DEBUG", "trace")).debug()).isEqualTo(Config.Debug.TRACE);
        assertThat(Config.Debug.VERSION).isLessThan(Config.Debug.WARN);
        assertThat(Config.Debug.INFO).isLessThan(Config.Debug.TRACE);
        assertThat(Config.fromVariables(Map.of("JCCL_DEBUG_FILE", "/t/100%%-%h.%p")).debugFile()).contains("/t/100%%-%h.%p");
        assertThat(Config.defaults().withDebugFile(" ").debugFile()).isEmpty();
        for (String bad : new String[] {"/t/log%", "/t/%H", "/t/%%%"}) {
            assertThatThrownBy(() -> Config.defaults().withDebugFile(bad)).as(bad).isInstanceOf(JcclException.class)
                    .hasMessageContaining("argument 'JCCL_DEBUG_FILE' is '" + bad + "': must be a file name in which %");
        }
        assertThatThrownBy(() -> Config.defaults().withDebugFile("/t/a\0b")).isInstanceOf(JcclException.class)
                .hasMessageContaining("argument 'JCCL_DEBUG_FILE' is '/t/a\0b': must be a file name");
    }

    @Test
    void sizesAreWrittenInTheLargestWholeUnit() {
        assertThat(Settings.bytesText(4 << 20)).isEqualTo("4M");
        assertThat(Settings.bytesText(4800 << 10)).isEqualTo("4800K");
        assertThat(Settings.bytesText(3L << 30)).isEqualTo("3G");
        assertThat(Settings.bytesText(1000)).isEqualTo("1000");
        assertThat(Settings.bytesText(0)).isEqualTo("0");
        assertThat(Settings.bytes("64kB")).isEqualTo(64 << 10);
        assertThatThrownBy(() -> Settings.bytes("-1K")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Settings.bytes("99999999999G")).isInstanceOf(IllegalArgumentException.class);
    }
}
