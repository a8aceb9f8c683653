// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A rank in a process of its own, started by {@link LaunchTest}: bootstraps from its environment,
 * exchanges a few messages and prints what it learned, one {@code key=value} per line.
 */
public final class BootstrapChild {
    private BootstrapChild() {
    }

    public static void main(String[] args) {
        try (Bootstrap b = Launch.bootstrap(System.getenv(), Config.fromEnvironment(), Set.of("shm", "net"))) {
            int n = b.size();
            int r = b.rank();
            byte[][] all = b.allGather(("pid" + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8));
            b.barrier();
            b.send((r + 1) % n, 1, ("from " + r).getBytes(StandardCharsets.UTF_8));
            String got = new String(b.recv((r - 1 + n) % n, 1), StandardCharsets.UTF_8);
            b.barrier();
            System.out.println("rank=" + r);
            System.out.println("size=" + n);
            System.out.println("pids=" + Arrays.stream(all).map(x -> new String(x, StandardCharsets.UTF_8)).collect(Collectors.joining(",")));
            System.out.println("received=" + got);
            System.out.println("hosts=" + b.locality().hosts());
            System.out.println("localRank=" + b.locality().localRank());
            System.out.println("otherProcesses=" + b.peers().stream().filter(p -> !p.sameProcess(b.peer(r))).count());
        }
    }
}
