// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;
import io.jccl.JcclException;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
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
        return capture(List.of(s), calls);
    }

    /**
     * Captures what {@code calls} issues on {@code streams} of one GPU into one graph: the first
     * begins the capture and the others join it (each waits for an event of the first), and they
     * are joined back before it ends. The ranks of a GPU, each on its own stream and issued in one
     * group, are then one launch per call in the graph ({@link DirectLaunch}).
     */
    public static CapturedGraph capture(List<GpuStream> streams, Runnable calls) {
        GpuStream s = streams.getFirst();
        CudaDevice device = s.device();
        for (GpuStream o : streams) {
            if (!o.device().pciBusId().equals(device.pciBusId())) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, "streams", "are on " + device + " and "
                        + o.device() + "; one graph is captured from the streams of one GPU");
            }
        }
        if (new java.util.HashSet<>(streams).size() != streams.size()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "streams", "name one stream twice");
        }
        device.makeCurrent();
        CudaDriver.beginCapture(s.handle(), Cuda.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
        MemorySegment fork = streams.size() > 1 ? CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING) : null;
        try {
            if (fork != null) {
                CudaDriver.record(fork, s.handle());
                for (GpuStream o : streams.subList(1, streams.size())) {
                    CudaDriver.waitEvent(o.handle(), fork);
                }
            }
            return captured(streams, calls, device);
        } finally {
            if (fork != null) {
                device.makeCurrent();
                CudaDriver.destroyEvent(fork);
            }
        }
    }

    private static CapturedGraph captured(List<GpuStream> streams, Runnable calls, CudaDevice device) {
        GpuStream s = streams.getFirst();
        long id;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = a.allocate(CudaDriver.CAPTURE_INFO);
            CudaDriver.captureInfo(s.handle(), info);
            id = info.get(ValueLayout.JAVA_LONG, 8);
        }
        MemorySegment graph;
        try {
            calls.run();
            device.makeCurrent();
            join(streams, s);
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

    /** Makes {@code to} wait for everything issued so far on the other {@code streams}. */
    private static void join(List<GpuStream> streams, GpuStream to) {
        for (GpuStream o : streams) {
            if (o != to) {
                MemorySegment e = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
                try {
                    CudaDriver.record(e, o.handle());
                    CudaDriver.waitEvent(to.handle(), e);
                } finally {
                    CudaDriver.destroyEvent(e);
                }
            }
        }
    }

    /**
     * Launches the graph of several streams' calls: on the first of {@code streams} once the others'
     * work before it is done, and the others' work after waits for it, as if each had issued its calls.
     */
    public synchronized void launch(List<GpuStream> streams) {
        if (streams.size() == 1) {
            launch(streams.getFirst());
            return;
        }
        GpuStream first = streams.getFirst();
        device.makeCurrent();
        while (events.size() < streams.size()) {
            events.add(CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING));
        }
        for (int i = 1; i < streams.size(); i++) {
            CudaDriver.record(events.get(i), streams.get(i).handle());
            CudaDriver.waitEvent(first.handle(), events.get(i));
        }
        launch(first);
        CudaDriver.record(events.getFirst(), first.handle());
        for (GpuStream o : streams.subList(1, streams.size())) {
            CudaDriver.waitEvent(o.handle(), events.getFirst());
            for (CudaComm c : comms) {
                o.launchedBy(c);
            }
        }
    }

    /** Events of {@link #launch(List)}: after the launch, then one per other stream. */
    private final List<MemorySegment> events = new java.util.ArrayList<>();

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
        events.forEach(CudaDriver::destroyEvent);
        CudaDriver.destroyGraphExec(exec);
        CudaDriver.destroyGraph(graph);
    }
}
