// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

/**
 * Whether the reductions of FLOAT32 and FLOAT64 run on the Vector API ({@code jdk.incubator.vector}).
 *
 * <p>C2 in JDK 25 does not vectorise a loop over two or three native segments, since it cannot
 * prove they do not overlap: only the Vector API's loops use SIMD, several times the scalar rate
 * in cache (docs/results.md, "Numbers behind the code"). The Vector API is still an incubator module in JDK 25: it is used
 * only when the JVM resolved it ({@code --add-modules jdk.incubator.vector}; the jccl runtime image's
 * launcher passes it), and the JVM then prints its one-line incubator warning at start. Without it
 * the scalar kernels run. Both give the same bits: every lane is the same IEEE operation as the
 * scalar loop's (no fused multiply-add, {@link Math#min} rules for min and max).
 */
final class VectorKernels {
    /** The module is in the boot layer and this class's module reads it ({@code requires static}). */
    static final boolean AVAILABLE = available();

    private VectorKernels() {
    }

    private static boolean available() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector")
                .map(m -> VectorKernels.class.getModule().canRead(m))
                .orElse(false);
    }

    /** For JCCL_DEBUG=INFO: how this process reduces floats. */
    static String describe() {
        return AVAILABLE ? "FLOAT32 and FLOAT64 reductions in " + VectorWidth.bits() + "-bit SIMD lanes (jdk.incubator.vector)"
                : "FLOAT32 and FLOAT64 reductions in scalar loops (the JVM did not resolve jdk.incubator.vector; "
                        + "--add-modules=jdk.incubator.vector vectorises them)";
    }

    /** The preferred vector width; its own class so that only a JVM with the module loads it. */
    private static final class VectorWidth {
        static int bits() {
            return jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.vectorBitSize();
        }
    }

    /** FLOAT32's kernel: the Vector API's where available, else the scalar one. */
    static Kernel float32(double scalar, int nranks) {
        return AVAILABLE ? new VectorFloat32Kernel(scalar, nranks) : new Float32Kernel(scalar, nranks);
    }

    /** FLOAT64's kernel: the Vector API's where available, else the scalar one. */
    static Kernel float64(double scalar, int nranks) {
        return AVAILABLE ? new VectorFloat64Kernel(scalar, nranks) : new Float64Kernel(scalar, nranks);
    }
}
