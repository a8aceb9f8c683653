// SPDX-License-Identifier: Apache-2.0
package io.jccl.kernels;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The executor kernels of the PTX resource: one entry per (protocol, data type), named
 * {@code jccl_<protocol>_<type>}, each taking one parameter by value, a
 * {@link WorkLayout#BATCH jccl_batch}: the device addresses of the {@link WorkLayout#WORK jccl_work}
 * descriptors of the operations the launch runs; and one direct kernel per data type
 * ({@link #directEntry}), which runs one call of every rank of a GPU in one launch. The PTX is built for {@link #VIRTUAL_ARCH} by
 * {@code kernels-ptx/build-ptx.sh}; the driver compiles it for the GPU at load time.
 *
 * <pre>{@code
 * byte[] image = Kernels.ptx();                       // NUL-terminated, for cuModuleLoadData
 * String f32Simple = Kernels.entry(WorkLayout.PROTO_SIMPLE, Kernels.typeIndex("f32"));
 * }</pre>
 */
public final class Kernels {
    private Kernels() {
    }

    /** The resource holding the PTX, relative to this class. */
    public static final String PTX_RESOURCE = "jccl.ptx";

    /** The virtual architecture the PTX is built for (bf16 arithmetic needs sm_80). */
    public static final String VIRTUAL_ARCH = "compute_80";

    /** Protocol names by {@code JCCL_PROTO_*} value. */
    public static final List<String> PROTOCOLS = List.of("ll", "ll128", "simple");

    /**
     * Type names in the order of {@code io.jccl.DataType} (its NCCL values): index i is the type
     * whose ordinal is i.
     */
    public static final List<String> TYPES = List.of("i8", "u8", "i32", "u32", "i64", "u64", "f16", "f32", "f64",
            "bf16", "e4m3", "e5m2");

    /** The parameters of every executor entry, in order: the batch of work descriptors, by value. */
    public static final List<MemoryLayout> PARAMETERS = List.of(WorkLayout.BATCH);

    /** The parameters of every direct entry: every rank's buffers, by value. */
    public static final List<MemoryLayout> DIRECT_PARAMETERS = List.of(WorkLayout.DIRECT);

    /** Threads per block: at most this many (the kernels' {@code __launch_bounds__}), a multiple of 32. */
    public static final int MAX_THREADS = 640;

    /** The entry point of a protocol ({@code JCCL_PROTO_*}) and a type (index into {@link #TYPES}). */
    public static String entry(int protocol, int type) {
        return "jccl_" + PROTOCOLS.get(protocol) + "_" + TYPES.get(type);
    }

    /**
     * The direct kernel of a type (index into {@link #TYPES}), {@code jccl_direct_<type>}: one call
     * of every rank of a GPU in one launch, its one parameter a {@link WorkLayout#DIRECT jccl_direct}
     * by value, {@link WorkLayout#DIRECT_THREADS} threads per block.
     */
    public static String directEntry(int type) {
        return "jccl_direct_" + TYPES.get(type);
    }

    /** The index of a type name in {@link #TYPES}. */
    public static int typeIndex(String name) {
        int i = TYPES.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no kernel type " + name + "; one of " + TYPES);
        }
        return i;
    }

    /** Every entry point: the executors protocol-major, then the direct kernels. */
    public static List<String> entries() {
        List<String> all = new ArrayList<>();
        for (int p = 0; p < PROTOCOLS.size(); p++) {
            for (int t = 0; t < TYPES.size(); t++) {
                all.add(entry(p, t));
            }
        }
        for (int t = 0; t < TYPES.size(); t++) {
            all.add(directEntry(t));
        }
        return List.copyOf(all);
    }

    /** The PTX text as bytes followed by a NUL, as {@code cuModuleLoadData} takes it. */
    public static byte[] ptx() {
        byte[] text = resource(PTX_RESOURCE);
        byte[] image = java.util.Arrays.copyOf(text, text.length + 1);
        return image;
    }

    /** A resource of this package: the PTX, or the sources it was built from ({@code jccl_work.h}). */
    public static byte[] resource(String name) {
        try (InputStream in = Kernels.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource io/jccl/kernels/" + name + " is missing from io.jccl.kernels");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
