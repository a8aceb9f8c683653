// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.util.List;

import static io.jccl.bootstrap.NetInterfaces.Address;
import static io.jccl.bootstrap.NetInterfaces.NetInterface;
import static io.jccl.bootstrap.NetInterfaces.Selected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NetInterfacesTest {
    private static NetInterface nic(String name, int index, boolean up, String... addrs) {
        return new NetInterface(name, index, up, name.startsWith("lo"), java.util.Arrays.stream(addrs).map(a -> {
            String[] p = a.split("/");
            return new Address(InetAddress.ofLiteral(p[0]), Integer.parseInt(p[1]));
        }).toList());
    }

    private static final List<NetInterface> HOST = List.of(
            nic("lo", 1, true, "127.0.0.1/8", "::1/128"),
            nic("eth0", 2, true, "fe80::1/64", "fd00::2/64", "192.0.2.2/24"),
            nic("eth1", 3, true, "198.51.100.5/24"),
            nic("eth10", 4, true, "203.0.113.9/24"),
            nic("docker0", 5, true, "172.17.0.1/16"),
            nic("virbr0", 6, true, "192.168.122.1/24"),
            nic("ib0", 7, false, "10.10.0.1/16"),
            nic("veth7", 8, true));

    private static List<String> names(String spec) {
        return NetInterfaces.select(HOST, spec, null, null, 16).stream().map(Selected::name).toList();
    }

    @Test
    void prefixesMatchEveryInterfaceThatStartsWithThem() {
        assertThat(names("eth")).containsExactly("eth0", "eth1", "eth10");
        assertThat(names("eth1")).containsExactly("eth1", "eth10");
        assertThat(names("eth1,lo")).containsExactly("lo", "eth1", "eth10");
        assertThat(names(" docker , virbr ")).containsExactly("docker0", "virbr0");
    }

    @Test
    void equalsSignMeansExactNames() {
        assertThat(names("=eth1")).containsExactly("eth1");
        assertThat(names("=eth1,eth0")).containsExactly("eth0", "eth1");
        assertThat(names("=eth")).isEmpty();
    }

    @Test
    void caretExcludes() {
        assertThat(names("^eth")).containsExactly("lo", "docker0", "virbr0");
        assertThat(names("^docker,lo,virbr")).containsExactly("eth0", "eth1", "eth10");
        assertThat(names("^=eth1")).containsExactly("lo", "eth0", "eth10", "docker0", "virbr0");
    }

    @Test
    void interfacesThatAreDownOrHaveNoAddressNeverCount() {
        assertThat(names("ib")).isEmpty();
        assertThat(names("veth")).isEmpty();
    }

    @Test
    void emptyGrammarIsAnError() {
        assertThatThrownBy(() -> names("^")).isInstanceOf(JcclException.class).hasMessageContaining("JCCL_SOCKET_IFNAME");
        assertThatThrownBy(() -> names(",")).isInstanceOf(JcclException.class).hasMessageContaining("names no interface");
    }

    @Test
    void defaultOrderFollowsNccl() {
        // ib first (when up), then not docker/lo/virbr, then docker, then lo
        List<NetInterface> withIb = new java.util.ArrayList<>(HOST);
        withIb.set(6, nic("ib0", 7, true, "10.10.0.1/16"));
        assertThat(NetInterfaces.select(withIb, null, null, null, 4)).extracting(Selected::name).containsExactly("ib0");
        assertThat(NetInterfaces.select(HOST, null, null, null, 4)).extracting(Selected::name).containsExactly("eth0", "eth1", "eth10");
        List<NetInterface> dockerAndLo = List.of(HOST.get(0), HOST.get(4));
        assertThat(NetInterfaces.select(dockerAndLo, null, null, null, 4)).extracting(Selected::name).containsExactly("docker0");
        assertThat(NetInterfaces.select(List.of(HOST.get(0)), null, null, null, 4)).extracting(Selected::name).containsExactly("lo");
    }

    @Test
    void theRootsSubnetWinsOverTheGenericOrder() {
        InetAddress root = InetAddress.ofLiteral("198.51.100.77");
        assertThat(NetInterfaces.select(HOST, null, null, root, 1)).containsExactly(new Selected("eth1", InetAddress.ofLiteral("198.51.100.5")));
        InetAddress local = InetAddress.ofLiteral("127.0.0.1");
        assertThat(NetInterfaces.select(HOST, null, null, local, 1)).extracting(Selected::name).containsExactly("lo");
        InetAddress v6 = InetAddress.ofLiteral("fd00::99");
        assertThat(NetInterfaces.select(HOST, null, null, v6, 1)).containsExactly(new Selected("eth0", InetAddress.ofLiteral("fd00::2")));
        InetAddress elsewhere = InetAddress.ofLiteral("8.8.8.8");
        assertThat(NetInterfaces.select(HOST, null, null, elsewhere, 1)).extracting(Selected::name).containsExactly("eth0");
    }

    @Test
    void familyPicksTheAddressAndIpv4ComesFirstOtherwise() {
        assertThat(NetInterfaces.select(HOST, "=eth0", null, null, 1).getFirst().address()).isEqualTo(InetAddress.ofLiteral("192.0.2.2"));
        assertThat(NetInterfaces.select(HOST, "=eth0", StandardProtocolFamily.INET6, null, 1).getFirst().address())
                .isEqualTo(InetAddress.ofLiteral("fd00::2"));
        assertThat(NetInterfaces.select(HOST, "eth", StandardProtocolFamily.INET6, null, 4)).extracting(Selected::name)
                .containsExactly("eth0");
        assertThat(NetInterfaces.select(HOST, "=lo", StandardProtocolFamily.INET6, null, 1).getFirst().address())
                .isEqualTo(InetAddress.ofLiteral("::1"));
    }

    @Test
    void subnetMatchRespectsThePrefix() {
        Address a = new Address(InetAddress.ofLiteral("10.1.2.3"), 23);
        assertThat(NetInterfaces.sameSubnet(a, InetAddress.ofLiteral("10.1.3.200"))).isTrue();
        assertThat(NetInterfaces.sameSubnet(a, InetAddress.ofLiteral("10.1.4.1"))).isFalse();
        assertThat(NetInterfaces.sameSubnet(a, InetAddress.ofLiteral("::1"))).isFalse();
    }

    @Test
    void realLoopbackSelectionBindsAndNamesTheMissingInterface() throws Exception {
        Selected v4 = NetInterfaces.select(Config.defaults().withSocketIfname("lo"), null);
        assertThat(v4.address()).isEqualTo(InetAddress.ofLiteral("127.0.0.1"));
        Selected v6 = NetInterfaces.select(Config.defaults().withSocketIfname("=lo").withSocketFamily(StandardProtocolFamily.INET6), null);
        assertThat(v6.address()).isEqualTo(InetAddress.ofLiteral("::1"));
        try (ServerSocket s = new ServerSocket(0, 1, v6.address())) {
            assertThat(s.getLocalPort()).isPositive();
        }
        assertThatThrownBy(() -> NetInterfaces.select(Config.defaults().withSocketIfname("=nosuch0"), null))
                .isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("'=nosuch0' matches no interface").hasMessageContaining("lo [");
    }

    @Test
    void configReadsTheVariables() {
        Config c = Config.fromVariables(java.util.Map.of("JCCL_SOCKET_IFNAME", "^docker", "JCCL_SOCKET_FAMILY", "AF_INET6",
                "JCCL_BOOTSTRAP_TIMEOUT", "2.5", "JCCL_HOSTID", "h1"));
        assertThat(c.socketIfname()).contains("^docker");
        assertThat(c.socketFamily()).contains(StandardProtocolFamily.INET6);
        assertThat(c.bootstrapTimeout()).isEqualTo(java.time.Duration.ofMillis(2500));
        assertThat(c.hostId()).contains("h1");
        assertThat(Config.defaults().bootstrapTimeout()).isEqualTo(Config.defaults().timeout());
        assertThatThrownBy(() -> Config.fromVariables(java.util.Map.of("JCCL_SOCKET_FAMILY", "AF_UNIX")))
                .hasMessageContaining("JCCL_SOCKET_FAMILY").hasMessageContaining("AF_UNIX");
        assertThatThrownBy(() -> Config.fromVariables(java.util.Map.of("JCCL_BOOTSTRAP_TIMEOUT", "soon")))
                .hasMessageContaining("JCCL_BOOTSTRAP_TIMEOUT");
        assertThatThrownBy(() -> Config.defaults().withBootstrapTimeout(java.time.Duration.ZERO))
                .hasMessageContaining("must be positive");
    }

    @Test
    void aRankNeverAdvertisesLoopbackToARootElsewhereAndWaitsForAnInterface() {
        List<NetInterface> onlyLo = List.of(nic("lo", 1, true, "127.0.0.1/8"), nic("eth0", 2, false, "192.0.2.2/24"));
        List<NetInterface> upNow = List.of(nic("lo", 1, true, "127.0.0.1/8"), nic("eth0", 2, true, "192.0.2.2/24"));
        java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
        io.jccl.Config c = io.jccl.Config.defaults();
        InetAddress root = InetAddress.ofLiteral("192.0.2.1");
        // eth0 comes up on the third look: the rank takes it, not lo.
        Selected s = NetInterfaces.awaitSelect(() -> looks.incrementAndGet() < 3 ? onlyLo : upNow, c, root,
                Deadline.after(java.time.Duration.ofSeconds(10)), 4);
        assertThat(s.name()).isEqualTo("eth0");
        assertThat(looks.get()).isEqualTo(3);
        // A root on loopback may be reached through lo.
        assertThat(NetInterfaces.awaitSelect(() -> onlyLo, c, InetAddress.ofLiteral("127.0.0.1"),
                Deadline.after(java.time.Duration.ofSeconds(10)), 4).name()).isEqualTo("lo");
        // Never up: an error naming the root and the interfaces, at the deadline.
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> NetInterfaces.awaitSelect(() -> onlyLo, c, root, Deadline.after(java.time.Duration.ofMillis(300)), 4))
                .isInstanceOf(io.jccl.JcclException.class)
                .hasMessageContaining("rank 4: system_error: no network interface but loopback is up to reach the bootstrap root at 192.0.2.1")
                .hasMessageContaining("eth0 (down) [192.0.2.2]");
        assertThat(System.nanoTime() - t0).isBetween(250_000_000L, 5_000_000_000L);
        // No other interface that could come up: at once, not at the deadline.
        long t1 = System.nanoTime();
        assertThatThrownBy(() -> NetInterfaces.awaitSelect(() -> List.of(nic("lo", 1, true, "127.0.0.1/8")), c, root,
                Deadline.after(java.time.Duration.ofSeconds(30)), 4)).hasMessageContaining("no network interface but loopback");
        assertThat(System.nanoTime() - t1).isLessThan(5_000_000_000L);
    }
}
