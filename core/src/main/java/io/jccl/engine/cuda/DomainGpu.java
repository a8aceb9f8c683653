// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;

import io.jccl.cuda.CudaDriver;
import io.jccl.kernels.Kernels;
import io.jccl.proto.Protocol;
import io.jccl.transport.GpuMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a {@link CudaDomain} keeps on one of its GPUs: the module (modules and functions belong to
 * a context), a non-blocking stream for the engine's own work, the abort word its kernels poll,
 * and device memory that lives as long as the domain. A domain whose ranks are on several GPUs of
 * this process has one of these per GPU.
 */
final class DomainGpu implements GpuMemory {
    final CudaDevice device;
    private final Arena arena = Arena.ofShared();
    /** The module, with every kernel loaded when this is made ({@link #DomainGpu}). */
    private final MemorySegment module;
    /** The kernels by protocol and type index, then the direct kernels by type. */
    private final MemorySegment[] functions = new MemorySegment[(Kernels.PROTOCOLS.size() + 1) * Kernels.TYPES.size()];
    /** Blocks of the executor kernels this GPU keeps resident at once. */
    private final int residentBlocks;
    /**
     * The engine's own work (zeroing FIFOs, uploading descriptors, raising the abort word) goes on
     * this non-blocking stream: the legacy default stream would wait for the kernels of ranks on
     * blocking streams, which may be waiting for exactly this work.
     */
    private final MemorySegment setup;
    /** The word every kernel on this GPU polls; non-zero stops every wait. */
    final long abortFlag;
    /** GPUs whose memory this GPU's kernels may write (cuCtxEnablePeerAccess done), by PCI bus id. */
    private final Set<String> peers = ConcurrentHashMap.newKeySet();

    /**
     * Every kernel is loaded here, before any rank of the domain can launch one, as NCCL queries
     * each kernel at init. With the driver's lazy loading (CUDA_MODULE_LOADING=LAZY, the default
     * since CUDA 12.2) a kernel loads when first asked for, and loading waits for the kernels
     * running on the GPU: a rank loading its first kernel while a peer's kernel waited for it
     * never returned (seen on an H200: cuModuleGetFunction spinning for minutes under a split).
     */
    DomainGpu(CudaDevice device) {
        this.device = device;
        device.makeCurrent();
        this.setup = CudaDriver.createStream(io.jccl.bindings.cuda.Cuda.CU_STREAM_NON_BLOCKING);
        MemorySegment loaded = null;
        try {
            this.abortFlag = zeroed(64);
            loaded = CudaDriver.loadModule(arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, Kernels.ptx()));
            int types = Kernels.TYPES.size();
            for (int t = 0; t < types; t++) {
                for (int p = 0; p < Kernels.PROTOCOLS.size(); p++) {
                    functions[p * types + t] = CudaDriver.function(loaded, Kernels.entry(p, t));
                }
                functions[Kernels.PROTOCOLS.size() * types + t] = CudaDriver.function(loaded, Kernels.directEntry(t));
            }
            this.residentBlocks = countResidentBlocks();
        } catch (RuntimeException e) {
            if (loaded != null) {
                CudaDriver.unloadModule(loaded);
            }
            CudaDriver.destroyStream(setup);
            arena.close();
            throw e;
        }
        this.module = loaded;
    }

    @Override
    public String busId() {
        return device.pciBusId();
    }

    @Override
    public int ordinal() {
        return device.ordinal();
    }

    @Override
    public void makeCurrent() {
        device.makeCurrent();
    }

    @Override
    public long zeroed(long bytes) {
        MemorySegment m = device.allocate(bytes, arena);
        synchronized (setup) {
            CudaDriver.memsetAsync(m.address(), (byte) 0, bytes, setup);
            CudaDriver.synchronize(setup);
        }
        return m.address();
    }

    /** Device memory of the domain's lifetime (a rank's scratch, a descriptor). */
    long allocate(long bytes) {
        return device.allocate(bytes, arena).address();
    }

    /** Copies host bytes to device memory, done when this returns. */
    void upload(long deviceAddress, MemorySegment host, long bytes) {
        device.makeCurrent();
        synchronized (setup) {
            CudaDriver.copyAsync(deviceAddress, host.address(), bytes, setup);
            CudaDriver.synchronize(setup);
        }
    }

    /** The kernel for a protocol and data type. */
    MemorySegment function(int protocol, int type) {
        return functions[protocol * Kernels.TYPES.size() + type];
    }

    /** The direct kernel of a data type ({@link DirectLaunch}). */
    MemorySegment directFunction(int type) {
        return function(Kernels.PROTOCOLS.size(), type);
    }

    /**
     * How many blocks of the executor kernels this GPU runs at once: its multiprocessors times the
     * fewest blocks of any kernel one multiprocessor holds (registers decide: the kernels are built
     * for up to 640 threads). Ranks sharing the GPU wait for each other inside their kernels, so all
     * their blocks must be resident together, or the waiting ones never let the others start.
     */
    int residentBlocks() {
        return residentBlocks;
    }

    private int countResidentBlocks() {
        int perSm = Integer.MAX_VALUE;
        for (Protocol p : Protocol.values()) {
            for (int t = 0; t < Kernels.TYPES.size(); t++) {
                MemorySegment f = function(CudaTuning.kernelProtocol(p), t);
                perSm = Math.min(perSm, CudaDriver.maxActiveBlocksPerMultiprocessor(f, CudaTuning.threads(p), 0));
            }
        }
        return Math.max(1, device.multiprocessors() * perSm);
    }

    @Override
    public void reach(GpuMemory other) {
        if (other != this && peers.add(other.busId())) {
            device.makeCurrent();
            CudaDriver.enablePeerAccess(((DomainGpu) other).device.context());
        }
    }

    /** Raises the abort word: every kernel on this GPU stops waiting (they report ABORTED). */
    void abort() {
        device.makeCurrent();
        synchronized (setup) {
            CudaDriver.memsetAsync(abortFlag, (byte) 1, 1, setup);
            CudaDriver.synchronize(setup);
        }
    }

    /** Unloads the module and frees the memory; the domain's last rank has left. */
    void close() {
        device.makeCurrent();
        CudaDriver.unloadModule(module);
        CudaDriver.destroyStream(setup);
        arena.close();
    }
}
