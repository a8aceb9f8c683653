// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which ranks share a host, computed from the host identities the ranks exchanged, never from a
 * launcher's variables (those describe the launcher's view, which a container or a namespace can
 * make wrong). Hosts are numbered in the order of their lowest rank; local ranks follow the global
 * order.
 *
 * <pre>{@code
 * Locality l = bootstrap.locality();
 * int gpu = l.localRank();                       // one device per local rank
 * boolean shm = l.sameHost(bootstrap.rank(), peer);
 * }</pre>
 *
 * @param rank       the rank this view belongs to
 * @param hostOf     host index of every rank
 * @param hosts      number of distinct hosts
 * @param localRank  this rank's position among the ranks of its host
 * @param localRanks the ranks of this rank's host, ascending
 */
public record Locality(int rank, List<Integer> hostOf, int hosts, int localRank, List<Integer> localRanks) {
    public Locality {
        hostOf = List.copyOf(hostOf);
        localRanks = List.copyOf(localRanks);
    }

    /** The locality of {@code rank} among {@code peers} (indexed by rank). */
    public static Locality of(List<PeerInfo> peers, int rank) {
        Map<String, Integer> index = new HashMap<>();
        List<Integer> hostOf = new ArrayList<>(peers.size());
        for (PeerInfo p : peers) {
            hostOf.add(index.computeIfAbsent(p.hostId(), k -> index.size()));
        }
        int mine = hostOf.get(rank);
        List<Integer> local = new ArrayList<>();
        for (int r = 0; r < peers.size(); r++) {
            if (hostOf.get(r) == mine) {
                local.add(r);
            }
        }
        return new Locality(rank, hostOf, index.size(), local.indexOf(rank), local);
    }

    /** Number of ranks on this rank's host. */
    public int localSize() {
        return localRanks.size();
    }

    public boolean sameHost(int a, int b) {
        return hostOf.get(a).equals(hostOf.get(b));
    }
}
