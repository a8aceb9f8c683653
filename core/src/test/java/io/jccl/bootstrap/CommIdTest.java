// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommIdTest {
    private static final byte[] SECRET = new byte[CommId.SECRET_BYTES];

    static {
        for (int i = 0; i < SECRET.length; i++) {
            SECRET[i] = (byte) (i * 7 + 1);
        }
    }

    @AfterEach
    void noThreadsLeft() {
        RankThreads.assertNoBootstrapThreads();
    }

    @Test
    void textAndBytesRoundTripForEveryKindOfHost() {
        for (String host : new String[] {"10.1.2.3", "::1", "fd00::2", "node-17.cluster.example", "localhost"}) {
            CommId id = CommId.of(host, 29500, SECRET);
            assertThat(CommId.parse(id.encode())).isEqualTo(id);
            byte[] b = id.toBytes();
            assertThat(b).hasSize(CommId.BYTES);
            assertThat(CommId.fromBytes(b)).isEqualTo(id);
            assertThat(CommId.fromBytes(b).encode()).isEqualTo(id.encode());
        }
    }

    @Test
    void textIsShortAndBracketsIpv6() {
        CommId v4 = CommId.of("192.0.2.7", 41000, SECRET);
        assertThat(v4.encode()).startsWith("192.0.2.7:41000#").hasSize("192.0.2.7:41000#".length() + 43);
        CommId v6 = CommId.of("::1", 5, SECRET);
        assertThat(v6.encode()).startsWith("[0:0:0:0:0:0:0:1]:5#");
        assertThat(CommId.parse("[::1]:5#" + Base64.getUrlEncoder().withoutPadding().encodeToString(SECRET))).isEqualTo(v6);
    }

    @Test
    void toStringHidesTheSecret() {
        CommId id = CommId.of("10.0.0.1", 1234, SECRET);
        String secretText = id.encode().substring(id.encode().indexOf('#') + 1);
        assertThat(id.toString()).contains("10.0.0.1:1234").doesNotContain(secretText);
    }

    @Test
    void createPicksTheSelectedInterfaceAFreePortAndAFreshSecret() throws Exception {
        try (BootstrapRoot a = BootstrapRoot.start(RankThreads.LOOPBACK); BootstrapRoot b = BootstrapRoot.start(RankThreads.LOOPBACK)) {
            assertThat(a.id().host()).isEqualTo("127.0.0.1");
            assertThat(a.id().port()).isPositive().isNotEqualTo(b.id().port());
            assertThat(a.id().secret()).hasSize(32).isNotEqualTo(b.id().secret());
            assertThat(Arrays.equals(a.id().secret(), new byte[32])).isFalse();
        }
    }

    @Test
    void malformedTextIsRejectedNamingTheProblem() {
        String s = Base64.getUrlEncoder().withoutPadding().encodeToString(SECRET);
        expectInvalid(null, "empty");
        expectInvalid("  ", "empty");
        expectInvalid("10.0.0.1:80", "no secret");
        expectInvalid("10.0.0.1#" + s, "no :PORT");
        expectInvalid("10.0.0.1:http#" + s, "not a number");
        expectInvalid("10.0.0.1:0#" + s, "not 1..65535");
        expectInvalid("10.0.0.1:70000#" + s, "not 1..65535");
        expectInvalid("::1:80#" + s, "brackets");
        expectInvalid(":80#" + s, "empty host");
        expectInvalid("bad host!:80#" + s, "neither an IP address nor a host name");
        expectInvalid("x".repeat(81) + ":80#" + s, "neither an IP address nor a host name");
        expectInvalid("10.0.0.1:80#" + s.substring(1), "31 bytes");
        expectInvalid("10.0.0.1:80#" + s + "AAAA", "35 bytes");
        expectInvalid("10.0.0.1:80#" + s.replace(s.charAt(3), '*'), "not base64url");
    }

    @Test
    void malformedTextNeverEchoesTheSecret() {
        String s = Base64.getUrlEncoder().withoutPadding().encodeToString(SECRET);
        assertThatThrownBy(() -> CommId.parse("10.0.0.1:80#" + s + "A")).isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(s));
    }

    @Test
    void malformedBytesAreRejected() {
        byte[] good = CommId.of("10.0.0.1", 80, SECRET).toBytes();
        assertThatThrownBy(() -> CommId.fromBytes(null)).hasMessageContaining("no bytes");
        assertThatThrownBy(() -> CommId.fromBytes(Arrays.copyOf(good, 127))).hasMessageContaining("127 bytes, not 128");
        byte[] magic = good.clone();
        magic[0] ^= 1;
        assertThatThrownBy(() -> CommId.fromBytes(magic)).hasMessageContaining("magic");
        byte[] version = good.clone();
        version[4] = 9;
        assertThatThrownBy(() -> CommId.fromBytes(version)).hasMessageContaining("version 9");
        byte[] kind = good.clone();
        kind[5] = 5;
        assertThatThrownBy(() -> CommId.fromBytes(kind)).hasMessageContaining("address kind 5");
        byte[] port = good.clone();
        port[6] = 0;
        port[7] = 0;
        assertThatThrownBy(() -> CommId.fromBytes(port)).hasMessageContaining("port 0");
        byte[] tail = good.clone();
        tail[127] = 1;
        assertThatThrownBy(() -> CommId.fromBytes(tail)).hasMessageContaining("garbage");
        byte[] name = CommId.of("node1", 80, SECRET).toBytes();
        name[40] = (byte) 200; // name length
        assertThatThrownBy(() -> CommId.fromBytes(name)).hasMessageContaining("host name of 200 bytes");
    }

    @Test
    void ofChecksItsArguments() {
        assertThatThrownBy(() -> CommId.of("10.0.0.1", 80, new byte[16])).hasMessageContaining("secret of 16 bytes");
        assertThatThrownBy(() -> CommId.of("10.0.0.1", -1, SECRET)).hasMessageContaining("port -1");
    }

    private static void expectInvalid(String text, String fragment) {
        assertThatThrownBy(() -> CommId.parse(text)).isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("argument 'id'").hasMessageContaining(fragment);
    }
}
