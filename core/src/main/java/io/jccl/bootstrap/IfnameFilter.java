// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.JcclException;

import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's interface-name grammar ({@code NCCL_SOCKET_IFNAME}): a comma list of name prefixes
 * ({@code eth,ib} matches eth0 and ib1); a leading {@code ^} turns it into a list to exclude;
 * then a leading {@code =} makes every entry an exact name ({@code =eth0} matches eth0 and not
 * eth01; {@code ^=lo} excludes lo alone).
 */
final class IfnameFilter {
    private final boolean exclude;
    private final boolean exact;
    private final List<String> names;
    private final String spec;

    private IfnameFilter(boolean exclude, boolean exact, List<String> names, String spec) {
        this.exclude = exclude;
        this.exact = exact;
        this.names = names;
        this.spec = spec;
    }

    static IfnameFilter parse(String spec) {
        String s = spec.trim();
        boolean exclude = s.startsWith("^");
        if (exclude) {
            s = s.substring(1);
        }
        boolean exact = s.startsWith("=");
        if (exact) {
            s = s.substring(1);
        }
        List<String> names = new ArrayList<>();
        for (String part : s.split(",")) {
            String n = part.trim();
            if (!n.isEmpty()) {
                names.add(n);
            }
        }
        if (names.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_SOCKET_IFNAME",
                    "'" + spec + "' names no interface (write e.g. eth0, ^docker,lo or =eth0)");
        }
        return new IfnameFilter(exclude, exact, List.copyOf(names), spec.trim());
    }

    boolean matches(String ifname) {
        boolean named = false;
        for (String n : names) {
            if (exact ? ifname.equals(n) : ifname.startsWith(n)) {
                named = true;
                break;
            }
        }
        return named != exclude;
    }

    @Override
    public String toString() {
        return spec;
    }
}
