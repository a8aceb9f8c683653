// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;
import io.jccl.JcclException;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;

/**
 * A CUDA graph captured from one stream and instantiated: what {@code io.jccl.CudaGraph} runs.
 * The ranks whose calls it captured are remembered, so that a stream it is launched on reports
 * their failures and watches their peers on {@code synchronize()}, as after eager calls.
 */
public final class CapturedGraph implements AutoCloseable {
    private final CudaDevice device;
    private final MemorySegment graph;
    private final MemorySegment exec;
    private final Set<CudaComm> comms;
    private boolean closed;

    private CapturedGraph(CudaDevice device, MemorySegment graph, MemorySegment exec, Set<CudaComm> comms) {
        this.device = device;
        this.graph = graph;
        this.exec = exec;
        this.comms = comms;
    }

    /**
     * Captures what {@code calls} issues on {@code s} (and on streams it joins to the capture) in
     * thread-local mode, and instantiates it. If {@code calls} throws, the capture is ended and
     * dropped, and the exception goes on.
     */
    public static CapturedGraph capture(GpuStream s, Runnable calls) {
        CudaDevice device = s.device();
        device.makeCurrent();
        CudaDriver.beginCapture(s.handle(), Cuda.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
        long id;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = a.allocate(CudaDriver.CAPTURE_INFO);
            CudaDriver.captureInfo(s.handle(), info);
            id = info.get(ValueLayout.JAVA_LONG, 8);
        }
        MemorySegment graph;
        try {
            calls.run();
        } catch (RuntimeException | Error e) {
            device.makeCurrent();
            try {
                MemorySegment g = CudaDriver.endCapture(s.handle());
                if (!g.equals(MemorySegment.NULL)) {
                    CudaDriver.destroyGraph(g);
                }
            } catch (JcclException ended) {
                e.addSuppressed(ended);
            }
            GraphHolds.captured(id);
            throw e;
        }
        device.makeCurrent();
        try {
            graph = CudaDriver.endCapture(s.handle());
        } catch (JcclException e) {
            GraphHolds.captured(id);
            throw new JcclException(e.code(), JcclException.NO_RANK, "ending the capture of a CUDA graph (a call on the"
                    + " stream CUDA forbids while capturing invalidates it, as does a stream joined and not joined back): "
                    + e.detail(), e);
        }
        Set<CudaComm> comms = GraphHolds.captured(id);
        try {
            return new CapturedGraph(device, graph, CudaDriver.instantiate(graph, 0), comms);
        } catch (JcclException e) {
            CudaDriver.destroyGraph(graph);
            throw e;
        }
    }

    /** Launches the graph on {@code s} (asynchronously, as the captured calls were issued). */
    public synchronized void launch(GpuStream s) {
        if (closed) {
            throw new JcclException(io.jccl.ErrorCode.INVALID_USAGE, JcclException.NO_RANK, "CudaGraph.launch: the graph is closed");
        }
        if (!s.device().pciBusId().equals(device.pciBusId())) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "stream", "belongs to " + s.device()
                    + ", not " + device + " where the graph was captured");
        }
        for (CudaComm c : comms) {
            c.checkUsable();
        }
        device.makeCurrent();
        CudaDriver.launchGraph(exec, s.handle());
        for (CudaComm c : comms) {
            s.launchedBy(c);
        }
    }

    /** Ranks whose calls the graph holds. */
    public int communicators() {
        return comms.size();
    }

    /** Destroys the executable graph and the graph; the captured calls' memory is freed once launches in flight end. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        device.makeCurrent();
        CudaDriver.destroyGraphExec(exec);
        CudaDriver.destroyGraph(graph);
    }
}
