// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The CSV rules of NCCL's example tuner plugin, so that a file a user keeps for NCCL works here:
 * {@code colltype,minbytes,maxbytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]}
 * with {@code #} comments. The first rule that matches a call (collective, minbytes ≤ bytes ≤
 * maxbytes, nodes and ranks equal or -1) and names an algorithm and protocol this jccl has and the
 * configuration allows decides; channels -1 keeps jccl's own count. jccl runs each call alone and
 * registers no buffers, so a rule's numPipeOps must be -1 or 1 and its regBuff -1 or 0 to match.
 * Algorithms jccl does not have (collnet, nvls, pat) never match.
 *
 * <pre>{@code
 * TunerRules r = TunerRules.parse("allreduce,0,65536,tree,ll,-1,1,-1\n", "tuner.conf");
 * }</pre>
 */
public final class TunerRules {
    /** One line of the file; {@code algorithm} is null when jccl lacks the one it names. */
    public record Rule(Collective collective, long minBytes, long maxBytes, Algorithm algorithm, String algorithmName,
                       Protocol protocol, int channels, int nodes, int ranks, int pipeOps, int regBuff, int line) {
        boolean matches(Collective c, long bytes, int nNodes, int nRanks) {
            return collective == c && bytes >= minBytes && bytes <= maxBytes && (nodes == -1 || nodes == nNodes)
                    && (ranks == -1 || ranks == nRanks) && (pipeOps == -1 || pipeOps == 1) && (regBuff == -1 || regBuff == 0);
        }
    }

    private final List<Rule> rules;

    private TunerRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** The first matching rule that the configuration allows. */
    public Optional<Rule> match(Collective c, long bytes, int nNodes, int nRanks, Set<Algorithm> algorithms,
                                Set<Protocol> protocols) {
        for (Rule r : rules) {
            if (r.algorithm() != null && r.matches(c, bytes, nNodes, nRanks) && algorithms.contains(r.algorithm())
                    && protocols.contains(r.protocol())) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** Parses the file's text; {@code name} is used in errors, which give the line. */
    public static TunerRules parse(String text, String name) {
        List<Rule> rules = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            String where = name + " line " + (i + 1);
            if (f.length < 8 || f.length > 10) {
                throw new IllegalArgumentException(where + ": " + f.length
                        + " fields; a rule has colltype,minbytes,maxbytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]");
            }
            Collective c;
            try {
                c = Collective.parse(f[0]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage());
            }
            long min = number(f[1], where, "minbytes");
            long max = number(f[2], where, "maxbytes");
            if (min < 0 || max < min) {
                throw new IllegalArgumentException(where + ": byte range " + min + ".." + max + " is empty or negative");
            }
            String algoName = f[3].strip().toLowerCase(Locale.ROOT);
            Algorithm a = switch (algoName) {
                case "ring" -> Algorithm.RING;
                case "tree" -> Algorithm.TREE;
                case "pat" -> Algorithm.PAT;
                case "collnet_direct", "collnet_chain", "nvls", "nvls_tree" -> null;
                default -> throw new IllegalArgumentException(where + ": '" + f[3].strip() + "' is not an NCCL algorithm");
            };
            Protocol p;
            try {
                p = Protocol.parse(f[4]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage());
            }
            int channels = (int) number(f[5], where, "channels");
            int nodes = (int) number(f[6], where, "nNodes");
            int ranks = (int) number(f[7], where, "nRanks");
            int pipe = f.length > 8 ? (int) number(f[8], where, "numPipeOps") : -1;
            int reg = f.length > 9 ? (int) number(f[9], where, "regBuff") : -1;
            if (channels == 0 || channels < -1 || nodes == 0 || nodes < -1 || ranks == 0 || ranks < -1) {
                throw new IllegalArgumentException(where + ": channels, nNodes and nRanks must be positive or -1");
            }
            rules.add(new Rule(c, min, max, a, algoName, p, channels, nodes, ranks, pipe, reg, i + 1));
        }
        return new TunerRules(rules);
    }

    private static long number(String s, String where, String field) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": " + field + " '" + s.strip() + "' is not an integer");
        }
    }
}
