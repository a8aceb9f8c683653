// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.util.ArrayList;
import java.util.List;

/**
 * Which RDMA devices and ports the IB net may use ({@code JCCL_IB_HCA}), NCCL's grammar: a comma
 * list of devices, each with an optional {@code :port} ({@code mlx5_0:1,mlx5_1}); names are
 * prefixes ({@code mlx5} takes every mlx5 device) unless the list starts with {@code =} (exact
 * names); a leading {@code ^} (before any {@code =}) turns the list into the ports to leave out.
 *
 * @param exclude whether the list names what to leave out
 * @param exact   whether names must match whole, not as prefixes
 * @param entries the devices named, in order
 */
public record IbHcaFilter(boolean exclude, boolean exact, List<Entry> entries) {
    /** A device name (or prefix) and its port; port -1: any port of it. */
    public record Entry(String name, int port) {
        @Override
        public String toString() {
            return port < 0 ? name : name + ":" + port;
        }
    }

    /** Every port of every device: what an unset {@code JCCL_IB_HCA} means. */
    public static final IbHcaFilter ALL = new IbHcaFilter(true, false, List.of());

    public IbHcaFilter {
        entries = List.copyOf(entries);
    }

    /**
     * Reads {@code spec}; throws IllegalArgumentException for an empty name, an empty list, or a
     * port that is not a whole number of at least 1.
     */
    public static IbHcaFilter parse(String spec) {
        String s = spec.strip();
        boolean exclude = s.startsWith("^");
        s = exclude ? s.substring(1) : s;
        boolean exact = s.startsWith("=");
        s = exact ? s.substring(1) : s;
        List<Entry> entries = new ArrayList<>();
        for (String part : s.split(",", -1)) {
            String p = part.strip();
            int colon = p.indexOf(':');
            String name = colon < 0 ? p : p.substring(0, colon).strip();
            int port = -1;
            if (colon >= 0) {
                port = Integer.parseInt(p.substring(colon + 1).strip()); // a NumberFormatException is an IllegalArgumentException
                if (port < 1) {
                    throw new IllegalArgumentException("port " + port + " of " + name);
                }
            }
            if (name.isEmpty()) {
                throw new IllegalArgumentException("an empty device name in '" + spec + "'");
            }
            entries.add(new Entry(name, port));
        }
        return new IbHcaFilter(exclude, exact, entries);
    }

    /** Whether port {@code port} of device {@code device} may be used. */
    public boolean allows(String device, int port) {
        boolean named = false;
        for (Entry e : entries) {
            boolean nameMatches = exact ? device.equals(e.name) : device.startsWith(e.name);
            if (nameMatches && (e.port < 0 || e.port == port)) {
                named = true;
                break;
            }
        }
        return named != exclude;
    }

    /** Whether the filter lets some port of {@code device} through, whatever its port (a device worth opening). */
    public boolean mayAllow(String device) {
        if (exclude) {
            // Only an entry for the whole device rules all its ports out.
            return entries.stream().noneMatch(e -> e.port < 0 && (exact ? device.equals(e.name) : device.startsWith(e.name)));
        }
        return entries.stream().anyMatch(e -> exact ? device.equals(e.name) : device.startsWith(e.name));
    }

    /** The filter as {@code JCCL_IB_HCA} text that {@link #parse} reads back to it. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        b.append(exclude ? "^" : "").append(exact ? "=" : "");
        for (int i = 0; i < entries.size(); i++) {
            b.append(i == 0 ? "" : ",").append(entries.get(i));
        }
        return b.toString();
    }
}
