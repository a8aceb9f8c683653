// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import static io.jccl.bindings.ibverbs.IbVerbs.IBV_ACCESS_LOCAL_WRITE;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_SEND_SIGNALED;
import static io.jccl.bindings.ibverbs.IbVerbs.IBV_WR_RDMA_WRITE;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The other process of {@link FakeVerbsTest}: an RC endpoint on the fake verbs of its own JVM, driven
 * by lines on standard input, answering on standard output. It prints "PEER qpn lid gid addr rkey"
 * (its QP's address and a 4 KiB region open to remote writes), reads "CONNECT qpn lid gid addr rkey",
 * connects and posts two receives (one without buffer, one of 256 bytes over two SGEs), prints READY;
 * on "RECV" waits for two receive completions and prints them and its memory; on "WRITE" writes the
 * first 256 bytes of its region into the parent's; on "EXIT" releases everything and prints the
 * counts of live objects.
 */
public final class FakeVerbsPeer {
    private FakeVerbsPeer() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        RcEndpoint e = new RcEndpoint(args[0]);
        RcEndpoint.Region target = e.register(4096, RcEndpoint.ALL_ACCESS);
        RcEndpoint.Region buffer = e.register(256, IBV_ACCESS_LOCAL_WRITE);
        say("PEER " + e.address() + " " + target.address() + " " + Integer.toUnsignedString(target.rkey()));
        String[] connect = in.readLine().split(" ");
        e.connect(connect[1] + " " + connect[2] + " " + connect[3]);
        long parentAddress = Long.parseLong(connect[4]);
        int parentRkey = Integer.parseUnsignedInt(connect[5]);
        e.postRecv(1);
        e.postRecv(2, RcEndpoint.sge(buffer, 0, 100), RcEndpoint.sge(buffer, 100, 156));
        say("READY");
        for (String line; (line = in.readLine()) != null; ) {
            switch (line) {
                case "RECV" -> {
                    for (RcEndpoint.Completion c : e.poll(2, 10_000)) {
                        say("COMPLETION " + c.wrId() + " " + c.status() + " " + c.opcode() + " " + c.byteLen() + " "
                                + Integer.toUnsignedString(c.imm()) + " " + c.srcQp() + " " + c.flags());
                    }
                    say("MEMORY " + HexFormat.of().formatHex(target.memory().toArray(ValueLayout.JAVA_BYTE)));
                    say("BUFFER " + HexFormat.of().formatHex(buffer.memory().toArray(ValueLayout.JAVA_BYTE)));
                }
                case "WRITE" -> {
                    e.post(7, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, parentAddress, parentRkey, 0, RcEndpoint.sge(target, 0, 256));
                    RcEndpoint.Completion c = e.pollOne();
                    say("WROTE " + c.wrId() + " " + c.status() + " " + FakeIbCounters.rdmaBytes());
                }
                case "EXIT" -> {
                    e.close();
                    say("LIVE " + FakeIbCounters.allLive());
                    return;
                }
                default -> say("UNKNOWN " + line);
            }
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
