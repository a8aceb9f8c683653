// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import java.lang.foreign.MemorySegment;

/**
 * The element loops of one data type. Each method is one simple counted loop, so that the JIT
 * compiles it for a single (type, operation) pair with nothing to decide per element; which method
 * runs is decided once per call by {@link Reduction}.
 *
 * <p>The subclasses (Float32Kernel, Int8Kernel, Float16Kernel, ...) are generated at build time
 * from core/src/build/kernels/ScalarKernel.template by Gen.java there, and FLOAT32's and FLOAT64's
 * Vector API subclasses ({@link VectorKernels}), which override the binary operations and must give
 * the same bits, from VectorKernel.template; change the template, not the generated classes. Each
 * type gets its own copy of the loops on purpose: a shared loop calling a per-type conversion would
 * be profiled across every type, its call megamorphic and not inlined, paid on every element.
 *
 * <p>Every segment passed here is native ({@link MemorySegment#isNative()}): a loop whose profile
 * has seen both heap and native segments can no longer tell whether an access is on-heap, and C2
 * then compiles every access conservatively, which on JDK 25 makes even native calls about ten
 * times slower for the rest of the process. {@link Reduction} stages heap operands through native
 * memory to keep these loops native-only. Offsets are in bytes, counts in elements, bounds are
 * checked by the caller, and {@code d} may be exactly {@code a} or {@code b} (an element is read
 * before it is written).
 */
abstract class Kernel {
    /** d = a + b. */
    abstract void sum(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n);

    /** d = a * b. */
    abstract void prod(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n);

    /** d = min(a, b). */
    abstract void min(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n);

    /** d = max(a, b). */
    abstract void max(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n);

    /** d = (preA ? a * scalar : a) + (preB ? b * scalar : b). */
    abstract void preMulSum(MemorySegment a, long ao, boolean preA, MemorySegment b, long bo, boolean preB,
                            MemorySegment d, long dO, long n);

    /** d = (a + b) / nranks. */
    abstract void sumDiv(MemorySegment a, long ao, MemorySegment b, long bo, MemorySegment d, long dO, long n);

    /** d = a * scalar. */
    abstract void scale(MemorySegment a, long ao, MemorySegment d, long dO, long n);

    /** d = a / nranks. */
    abstract void div(MemorySegment a, long ao, MemorySegment d, long dO, long n);
}
