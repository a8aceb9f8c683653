// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code jccl perf --engine ENGINE}: which engine runs the sweep. {@code host} (the default) is
 * {@link PerfCommand}; {@code cuda} is {@link CudaPerfCommand}, ranks sharing GPU 0.
 */
enum PerfEngine {
    HOST, CUDA;

    /** The engine the arguments name (the last --engine wins), host if none. */
    static PerfEngine of(List<String> args) {
        PerfEngine e = HOST;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = null;
            if (a.equals("--engine")) {
                if (i + 1 >= args.size()) {
                    throw new UsageException("jccl perf: option --engine needs a value (host or cuda)");
                }
                v = args.get(++i);
            } else if (a.startsWith("--engine=")) {
                v = a.substring("--engine=".length());
            }
            if (v != null) {
                e = switch (v) {
                    case "host" -> HOST;
                    case "cuda" -> CUDA;
                    default -> throw new UsageException("jccl perf: option --engine: '" + v + "' is not an engine (host or cuda)");
                };
            }
        }
        return e;
    }

    /** The arguments without the --engine option, for the engine's own parser. */
    static List<String> strip(List<String> args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--engine")) {
                i++;
            } else if (!a.startsWith("--engine=")) {
                out.add(a);
            }
        }
        return out;
    }
}
