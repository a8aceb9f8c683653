// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.cuda.GpuStream;

import java.lang.foreign.MemorySegment;

/**
 * A CUDA stream as the API's {@link Stream}: the CUDA engine's collectives are enqueued on it
 * (descriptors uploaded, the kernel launched) and run asynchronously, in order with the caller's
 * other work on that stream. {@link #synchronize()} waits for the stream and then reports the
 * first failure of the communicators that launched on it (a timeout, a size mismatch, an abort).
 * Each rank of a communicator needs its own stream: ranks sharing one GPU run concurrently. Here
 * two ranks {@code comms} of {@link Communicator#initAllCuda(int, CudaDevice, Config)} share
 * {@code gpu}, rank r with its buffer {@code buf[r]} of {@code n} floats in device memory:
 *
 * {@snippet class="io.jccl.JcclExamplesTestOnGpu" region="cuda-stream"}
 *
 * <p>(The example runs with the tests where {@link CudaDevice#available()}: a GPU and its driver.)
 */
public final class CudaStream implements Stream, AutoCloseable {
    private final GpuStream stream;

    /** A new non-blocking stream on {@code device}, destroyed by {@link #close()}. */
    public CudaStream(CudaDevice device) {
        this(GpuStream.create(device));
    }

    private CudaStream(GpuStream stream) {
        this.stream = stream;
    }

    /** The caller's own {@code CUstream} (not destroyed by {@link #close()}), so collectives compose with its work. */
    public static CudaStream wrap(CudaDevice device, MemorySegment cuStream) {
        return new CudaStream(GpuStream.wrap(device, cuStream));
    }

    /** The {@code CUstream}. */
    public MemorySegment handle() {
        return stream.handle();
    }

    public CudaDevice device() {
        return stream.device();
    }

    /** What the CUDA engine launches on. */
    GpuStream engineStream() {
        return stream;
    }

    @Override
    public void synchronize() {
        stream.synchronize();
    }

    @Override
    public boolean query() {
        return stream.query();
    }

    /** Destroys the stream unless it was the caller's ({@link #wrap}). */
    @Override
    public void close() {
        stream.close();
    }

    @Override
    public String toString() {
        return stream.toString();
    }
}
