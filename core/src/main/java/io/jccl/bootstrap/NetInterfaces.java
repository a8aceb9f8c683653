// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Which network interfaces and addresses jccl's sockets use, as NCCL chooses them. With
 * {@code JCCL_SOCKET_IFNAME} set, the interfaces its grammar matches ({@link IfnameFilter});
 * otherwise the first non-empty group of: interfaces named {@code ib*}; the interface on the
 * subnet of the root's address, when one is known; any but {@code docker*}, {@code lo*} and
 * {@code virbr*}; {@code docker*}; {@code lo*}. Only interfaces that are up and hold an address of
 * the allowed family ({@code JCCL_SOCKET_FAMILY}) count. Within an interface IPv4 comes first,
 * then global IPv6, then link-local IPv6 (unlike NCCL, IPv6 loopback is allowed, so
 * {@code AF_INET6} works on {@code lo}).
 *
 * <pre>{@code
 * NetInterfaces.Selected s = NetInterfaces.select(Config.fromEnvironment(), null);
 * ServerSocket ss = new ServerSocket(0, 128, s.address());
 * }</pre>
 */
public final class NetInterfaces {
    private NetInterfaces() {
    }

    /** An address of an interface and its network prefix length (for subnet matching). */
    public record Address(InetAddress address, int prefixLength) {
    }

    /** One interface as the operating system lists it. */
    public record NetInterface(String name, int index, boolean up, boolean loopback, List<Address> addresses) {
        public NetInterface {
            addresses = List.copyOf(addresses);
        }
    }

    /** A chosen interface and the address to use on it. */
    public record Selected(String name, InetAddress address) {
    }

    /** The interfaces of this host (of this process's network namespace), in index order. */
    public static List<NetInterface> system() {
        try {
            List<NetInterface> list = new ArrayList<>();
            for (NetworkInterface ni : NetworkInterface.networkInterfaces().toList()) {
                List<Address> addrs = new ArrayList<>();
                for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                    addrs.add(new Address(ia.getAddress(), ia.getNetworkPrefixLength()));
                }
                list.add(new NetInterface(ni.getName(), ni.getIndex(), ni.isUp(), ni.isLoopback(), addrs));
            }
            list.sort(Comparator.comparingInt(NetInterface::index));
            return list;
        } catch (SocketException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, "cannot list network interfaces: " + e.getMessage(), e);
        }
    }

    /**
     * The first interface {@code config}'s settings select on this host; {@code rootHint}, if not
     * null, is the address of the bootstrap root, whose subnet the default order prefers.
     */
    public static Selected select(Config config, InetAddress rootHint) {
        List<NetInterface> all = system();
        List<Selected> s = select(all, config.socketIfname().orElse(null), config.socketFamily().orElse(null), rootHint, 1);
        if (s.isEmpty()) {
            throw noneFound(all, config.socketIfname().orElse(null), config.socketFamily().orElse(null));
        }
        return s.getFirst();
    }

    /** How often a rank looks again for an interface that can reach its root. */
    static final long LOOK_AGAIN_MILLIS = 100;

    /**
     * The interface this rank advertises to a root at {@code root}: as {@link #select(Config,
     * InetAddress)}, but never a loopback address for a root that is not on loopback (its peers on
     * other hosts could not reach it), and, while none other is up yet (an interface still coming
     * up: one that is down or has no address of the family yet), looking again every
     * {@value #LOOK_AGAIN_MILLIS} ms until {@code deadline}; at once when none could.
     * {@code system} lists the interfaces (the host's: {@link #system()}).
     */
    static Selected awaitSelect(Supplier<List<NetInterface>> system, Config config, InetAddress root, Deadline deadline,
                                int rank) {
        String spec = config.socketIfname().orElse(null);
        StandardProtocolFamily family = config.socketFamily().orElse(null);
        while (true) {
            List<NetInterface> all = system.get();
            List<Selected> s = select(all, spec, family, root, 1);
            boolean reaches = !s.isEmpty() && (root == null || root.isLoopbackAddress() || !s.getFirst().address().isLoopbackAddress());
            if (reaches) {
                return s.getFirst();
            }
            if (deadline.expired() || !couldComeUp(all, spec, family)) {
                if (s.isEmpty()) {
                    throw noneFound(all, spec, family);
                }
                String seen = describe(all);
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "no network interface but loopback is up to reach the"
                        + " bootstrap root at " + root.getHostAddress() + " (waited " + deadline.budget()
                        + "; interfaces: " + seen + "); a rank must not advertise a loopback address to peers on other hosts:"
                        + " bring an interface up, or set JCCL_SOCKET_IFNAME");
            }
            Sockets.sleep(Math.min(LOOK_AGAIN_MILLIS, Math.max(1, deadline.remainingNanos() / 1_000_000)), rank,
                    "an interface that reaches the bootstrap root");
        }
    }

    /**
     * Up to {@code max} interfaces of {@code all} chosen by the grammar {@code spec} (null for
     * NCCL's default order), with addresses of {@code family} (null for both), preferring the
     * subnet of {@code rootHint} (may be null) in the default order.
     */
    public static List<Selected> select(List<NetInterface> all, String spec, StandardProtocolFamily family,
                                        InetAddress rootHint, int max) {
        List<NetInterface> usable = all.stream().filter(i -> i.up() && !usable(i, family).isEmpty()).toList();
        if (spec != null && !spec.isBlank()) {
            IfnameFilter f = IfnameFilter.parse(spec);
            return take(usable, i -> f.matches(i.name()), family, null, max);
        }
        List<Selected> s = take(usable, i -> i.name().startsWith("ib"), family, null, max);
        if (s.isEmpty() && rootHint != null) {
            s = take(usable, i -> onSubnet(i, rootHint), family, rootHint, max);
        }
        if (s.isEmpty()) {
            IfnameFilter others = IfnameFilter.parse("^docker,lo,virbr");
            s = take(usable, i -> others.matches(i.name()), family, null, max);
        }
        if (s.isEmpty()) {
            s = take(usable, i -> i.name().startsWith("docker"), family, null, max);
        }
        if (s.isEmpty()) {
            s = take(usable, i -> i.name().startsWith("lo"), family, null, max);
        }
        return s;
    }

    private static List<Selected> take(List<NetInterface> usable, Predicate<NetInterface> which,
                                       StandardProtocolFamily family, InetAddress hint, int max) {
        List<Selected> out = new ArrayList<>();
        for (NetInterface i : usable) {
            if (out.size() < max && which.test(i)) {
                List<Address> a = usable(i, family);
                Address pick = a.getFirst();
                if (hint != null) {
                    pick = a.stream().filter(x -> sameSubnet(x, hint)).findFirst().orElse(pick);
                }
                out.add(new Selected(i.name(), pick.address()));
            }
        }
        return out;
    }

    /** The interface's addresses of the family, IPv4 first, then global IPv6, then link-local IPv6. */
    static List<Address> usable(NetInterface i, StandardProtocolFamily family) {
        return i.addresses().stream()
                .filter(a -> !a.address().isAnyLocalAddress() && !a.address().isMulticastAddress())
                .filter(a -> family == null || (family == StandardProtocolFamily.INET) == (a.address() instanceof Inet4Address))
                .sorted(Comparator.comparingInt(NetInterfaces::preference))
                .toList();
    }

    private static int preference(Address a) {
        InetAddress x = a.address();
        return x instanceof Inet4Address ? 0 : x.isLinkLocalAddress() ? 2 : 1;
    }

    private static boolean onSubnet(NetInterface i, InetAddress hint) {
        return i.addresses().stream().anyMatch(a -> sameSubnet(a, hint));
    }

    static boolean sameSubnet(Address a, InetAddress hint) {
        byte[] x = a.address().getAddress();
        byte[] y = hint.getAddress();
        if (x.length != y.length || (a.address() instanceof Inet6Address) != (hint instanceof Inet6Address)) {
            return false;
        }
        int bits = Math.min(a.prefixLength(), x.length * 8);
        for (int b = 0; b < bits; b++) {
            int mask = 0x80 >>> (b & 7);
            if ((x[b >>> 3] & mask) != (y[b >>> 3] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** Whether an interface that would do is there but not ready: not loopback, matching {@code spec}, down or without an address. */
    private static boolean couldComeUp(List<NetInterface> all, String spec, StandardProtocolFamily family) {
        IfnameFilter f = spec != null && !spec.isBlank() ? IfnameFilter.parse(spec) : null;
        return all.stream().anyMatch(i -> !i.loopback() && (f == null || f.matches(i.name()))
                && (!i.up() || usable(i, family).isEmpty()));
    }

    private static String describe(List<NetInterface> all) {
        return all.stream()
                .map(i -> i.name() + (i.up() ? "" : " (down)") + " " + i.addresses().stream()
                        .map(a -> a.address().getHostAddress()).collect(Collectors.joining(", ", "[", "]")))
                .collect(Collectors.joining("; "));
    }

    private static JcclException noneFound(List<NetInterface> all, String spec, StandardProtocolFamily family) {
        String seen = describe(all);
        String fam = family == null ? "an" : family == StandardProtocolFamily.INET ? "an AF_INET" : "an AF_INET6";
        if (spec != null) {
            return JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_IFNAME",
                    "'" + spec + "' matches no interface that is up with " + fam + " address (interfaces: " + seen + ")");
        }
        return new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK,
                "no network interface is up with " + fam + " address (interfaces: " + seen + ")");
    }
}
