// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy over {@link MemoryNet}, a net with no sockets: messages of every protocol cross in
 * order, a broken connection aborts both sides naming the peer, a closing rank's messages leave
 * first and its close is no loss, and an impossible connection is dropped. Nothing of the socket
 * net is in play, so the proxy needs only the {@link io.jccl.transport.net.Net} interface.
 */
@Timeout(30)
class NetProxyOverMemoryNetTest {
    private final MemoryNet.Fabric fabric = new MemoryNet.Fabric();
    private final List<NetSide> sides = new ArrayList<>();
    private final List<MemoryNet> nets = new ArrayList<>();

    /** Ranks 0 and 1 on two "hosts", each knowing the other's handle. */
    private void pair() {
        for (int local = 0; local < 2; local++) {
            sides.add(new NetSide(local, NetSide.config(1, 1), (owner, config, where, rank) -> {
                MemoryNet n = new MemoryNet(fabric, tag -> "connection " + tag);
                nets.add(n);
                return new NetProxy(owner, config, where, n, rank);
            }));
        }
        sides.get(0).proxy.setHandle(1, sides.get(1).proxy.handle());
        sides.get(1).proxy.setHandle(0, sides.get(0).proxy.handle());
    }

    @AfterEach
    void close() {
        sides.forEach(NetSide::close);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void messagesOfEveryProtocolCrossInOrder(Protocol protocol) throws Exception {
        pair();
        NetSide a = sides.get(0);
        NetSide b = sides.get(1);
        long max = protocol.maxMessageBytes(protocol.buffSize(a.config));
        int messages = 40;
        // Both directions and two channels at once, over the proxy's two threads per direction.
        Thread ab0 = NetSide.send(a.fifo(protocol, 0, 0, 1), messages, max);
        Thread ab1 = NetSide.send(a.fifo(protocol, 1, 0, 1), messages, max);
        Thread ba = NetSide.send(b.fifo(protocol, 0, 1, 0), messages, max);
        NetSide.expect(b.fifo(protocol, 0, 0, 1), messages, max);
        NetSide.expect(b.fifo(protocol, 1, 0, 1), messages, max);
        NetSide.expect(a.fifo(protocol, 0, 1, 0), messages, max);
        for (Thread t : List.of(ab0, ab1, ba)) {
            t.join(5000);
        }
        assertThat(a.aborted()).as(a.abortCause()).isFalse();
        assertThat(b.aborted()).as(b.abortCause()).isFalse();
    }

    @Test
    void aBrokenConnectionAbortsBothSidesNamingThePeer() throws Exception {
        pair();
        NetSide a = sides.get(0);
        NetSide b = sides.get(1);
        Fifo out = a.fifo(Protocol.SIMPLE, 0, 0, 1);
        NetSide.send(out, 3, 1 << 16).join(5000);
        NetSide.expect(b.fifo(Protocol.SIMPLE, 0, 0, 1), 3, 1 << 16);
        fabric.breakAll();
        NetSide.await(b::aborted);
        assertThat(b.abortCause()).contains("rank 1 lost its connection with rank 0").contains("the wire broke");
        assertThat(b.lostRank()).isZero();
        // The sender learns it when it next sends.
        NetSide.send(out, 1, 8).join(5000);
        NetSide.await(a::aborted);
        assertThat(a.abortCause()).contains("rank 0 lost its connection with rank 1");
        assertThat(a.lostRank()).isEqualTo(1);
    }

    @Test
    void aClosingRanksMessagesLeaveFirstAndItsCloseIsNoLoss() throws Exception {
        pair();
        NetSide a = sides.get(0);
        NetSide b = sides.get(1);
        int messages = 20;
        long max = Protocol.SIMPLE.maxMessageBytes(Protocol.SIMPLE.buffSize(a.config));
        NetSide.send(a.fifo(Protocol.SIMPLE, 0, 0, 1), messages, max).join(5000);
        a.fifos.finish(0);
        assertThat(nets.get(0).registered).as("the sender gave its memory back").isEmpty();
        NetSide.expect(b.fifo(Protocol.SIMPLE, 0, 0, 1), messages, max);
        Thread.sleep(100);
        assertThat(b.aborted()).as(b.abortCause()).isFalse();
    }

    @Test
    void anImpossibleConnectionIsDroppedAndTheOthersGoOn() throws Exception {
        pair();
        NetSide a = sides.get(0);
        NetSide b = sides.get(1);
        long toItself = FifoKey.pack(Protocol.LL, 0, 1, 1, 2);
        nets.get(0).connect(0, b.proxy.handle(), toItself, System.nanoTime() + 1_000_000_000L);
        NetSide.await(() -> nets.get(1).closedRecvs.contains(toItself));
        NetSide.send(a.fifo(Protocol.LL, 0, 0, 1), 10, 1000).join(5000);
        NetSide.expect(b.fifo(Protocol.LL, 0, 0, 1), 10, 1000);
        assertThat(b.aborted()).as(b.abortCause()).isFalse();
    }
}
