// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The two levels of a job: which server each rank is on and its index among the ranks of that
 * server. A server is a set of ranks joined by fast links (one host: the ranks sharing a host
 * identity); servers are joined by slower ones. Servers are numbered in the order of their lowest
 * rank and the ranks of a server are ordered by rank, so every rank computes the same layout from
 * the host identities all ranks exchanged.
 *
 * <p>The hierarchical algorithms need a <em>uniform</em> layout: every server has the same number
 * of ranks, so that the ranks of local index j on every server form a column.
 *
 * <pre>{@code
 * ServerLayout l = ServerLayout.ofHosts(List.of("a", "a", "b", "b"));   // 2 servers x 2 ranks
 * int peer = l.rank(1, l.localIndex(0));                                 // rank 0's column on server 1: 2
 * }</pre>
 */
public final class ServerLayout {
    private final int[] serverOf;
    private final int[] localIndex;
    private final int[][] ranks;

    private ServerLayout(int[] serverOf) {
        int n = serverOf.length;
        int servers = 0;
        for (int s : serverOf) {
            servers = Math.max(servers, s + 1);
        }
        int[] sizes = new int[servers];
        this.localIndex = new int[n];
        for (int r = 0; r < n; r++) {
            localIndex[r] = sizes[serverOf[r]]++;
        }
        this.ranks = new int[servers][];
        for (int s = 0; s < servers; s++) {
            ranks[s] = new int[sizes[s]];
        }
        for (int r = 0; r < n; r++) {
            ranks[serverOf[r]][localIndex[r]] = r;
        }
        this.serverOf = serverOf;
    }

    /**
     * The layout of ranks whose host identity is {@code hostOf.get(rank)} (any labels: equal
     * labels share a server; servers are numbered in order of their lowest rank).
     */
    public static ServerLayout ofHosts(List<?> hostOf) {
        if (hostOf.isEmpty()) {
            throw new IllegalArgumentException("a layout of no ranks");
        }
        Map<Object, Integer> index = new HashMap<>();
        int[] server = new int[hostOf.size()];
        for (int r = 0; r < server.length; r++) {
            Object h = hostOf.get(r);
            if (h == null) {
                throw new IllegalArgumentException("rank " + r + " has no host");
            }
            server[r] = index.computeIfAbsent(h, k -> index.size());
        }
        return new ServerLayout(server);
    }

    /** {@code servers} servers of {@code perServer} ranks, numbered server by server. */
    public static ServerLayout uniform(int servers, int perServer) {
        if (servers < 1 || perServer < 1) {
            throw new IllegalArgumentException(servers + " servers of " + perServer + " ranks");
        }
        int[] server = new int[servers * perServer];
        for (int r = 0; r < server.length; r++) {
            server[r] = r / perServer;
        }
        return new ServerLayout(server);
    }

    /** All ranks on one server (one host). */
    public static ServerLayout single(int nranks) {
        return uniform(1, nranks);
    }

    /**
     * {@code nranks} ranks over {@code servers} servers numbered server by server, as even as it
     * can be (the first servers take one more when they do not divide).
     */
    public static ServerLayout blocks(int nranks, int servers) {
        if (servers < 1 || servers > nranks) {
            throw new IllegalArgumentException(nranks + " ranks on " + servers + " servers");
        }
        int[] server = new int[nranks];
        int base = nranks / servers;
        int extra = nranks % servers;
        int r = 0;
        for (int s = 0; s < servers; s++) {
            for (int k = 0; k < base + (s < extra ? 1 : 0); k++) {
                server[r++] = s;
            }
        }
        return new ServerLayout(server);
    }

    public int nranks() {
        return serverOf.length;
    }

    public int servers() {
        return ranks.length;
    }

    public int serverOf(int rank) {
        return serverOf[rank];
    }

    /** The index of {@code rank} among the ranks of its server. */
    public int localIndex(int rank) {
        return localIndex[rank];
    }

    /** The rank of local index {@code index} on server {@code server}. */
    public int rank(int server, int index) {
        return ranks[server][index];
    }

    /** Ranks on server {@code server}. */
    public int localSize(int server) {
        return ranks[server].length;
    }

    /** Whether every server has the same number of ranks. */
    public boolean uniform() {
        for (int[] s : ranks) {
            if (s.length != ranks[0].length) {
                return false;
            }
        }
        return true;
    }

    /** Ranks per server of a uniform layout. */
    public int perServer() {
        if (!uniform()) {
            throw new IllegalStateException("the layout " + this + " is not uniform");
        }
        return ranks[0].length;
    }

    /** Whether ranks are numbered server by server (rank = server * perServer + index). */
    public boolean contiguous() {
        for (int r = 1; r < serverOf.length; r++) {
            if (serverOf[r] < serverOf[r - 1]) {
                return false;
            }
        }
        return true;
    }

    /** The ranks ordered server by server, each server's by rank: a ring crossing servers as seldom as it can. */
    public int[] serverOrder() {
        int[] order = new int[serverOf.length];
        int k = 0;
        for (int[] s : ranks) {
            for (int r : s) {
                order[k++] = r;
            }
        }
        return order;
    }

    /** {@code 2x4} for a uniform layout, {@code servers of 3+5 ranks [0 0 0 1 ...]} otherwise. */
    @Override
    public String toString() {
        if (uniform()) {
            return ranks.length + "x" + ranks[0].length + (contiguous() ? "" : " " + Arrays.toString(serverOf));
        }
        List<String> sizes = new ArrayList<>();
        for (int[] s : ranks) {
            sizes.add(String.valueOf(s.length));
        }
        return "servers of " + String.join("+", sizes) + " ranks " + Arrays.toString(serverOf);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerLayout l && Arrays.equals(serverOf, l.serverOf);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(serverOf);
    }
}
