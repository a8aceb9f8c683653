// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;

import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;
import io.jccl.engine.EngineStream;
import io.jccl.transport.Wait;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The CUDA engine's side of a {@code CudaStream}: the {@code CUstream}, and the communicators that
 * launched on it since its last synchronize, whose status that synchronize reports (a timeout, a
 * size mismatch, an abort) and whose peers it watches while it waits.
 */
public final class GpuStream implements EngineStream {
    private final CudaDevice device;
    private final MemorySegment handle;
    private final boolean owned;
    /** Communicators with launches on this stream since the last check of their status. */
    private final Set<CudaComm> launched = new LinkedHashSet<>();
    /**
     * Whether one of {@link #launched} has ranks in other processes or on other GPUs (whose death,
     * abort or failure a wait must notice).
     */
    private volatile boolean watching;
    private boolean closed;

    /** A new non-blocking stream on {@code device}, destroyed by {@link #close()}. */
    public static GpuStream create(CudaDevice device) {
        device.makeCurrent();
        return new GpuStream(device, CudaDriver.createStream(Cuda.CU_STREAM_NON_BLOCKING), true);
    }

    private GpuStream(CudaDevice device, MemorySegment handle, boolean owned) {
        this.device = device;
        this.handle = handle;
        this.owned = owned;
    }

    /** The caller's own {@code CUstream} (not destroyed by {@link #close()}), so collectives compose with its work. */
    public static GpuStream wrap(CudaDevice device, MemorySegment cuStream) {
        return new GpuStream(device, cuStream, false);
    }

    /** The {@code CUstream}. */
    public MemorySegment handle() {
        return handle;
    }

    public CudaDevice device() {
        return device;
    }

    synchronized void launchedBy(CudaComm comm) {
        launched.add(comm);
        watching |= comm.watchedWhileWaiting();
    }

    @Override
    public String apiName() {
        return "CudaStream";
    }

    /** Waits until the stream's work is done, watching the peers of the communicators that launched on it; reports their failures. */
    public void synchronize() {
        device.makeCurrent();
        refuseWhileCapturing("synchronize()");
        if (!watching) {
            CudaDriver.synchronize(handle);
        } else {
            List<CudaComm> watch = watched();
            // Polled instead of one blocking call, so that a peer process's death, or a failure on
            // another GPU, is noticed. No deadline here: the stream may carry the caller's own work,
            // and the kernels keep theirs (JCCL_TIMEOUT), as watchPeers does its communicators'.
            Wait wait = new Wait(Wait.NOTHING, Wait.NO_DEADLINE, Wait.Pacing.POLL);
            wait.begin();
            while (!CudaDriver.streamDone(handle)) {
                watch.forEach(CudaComm::watchPeers);
                wait.pause();
            }
        }
        report();
    }

    /** Whether the stream's work is done (reports failures then), without blocking. */
    public boolean query() {
        device.makeCurrent();
        refuseWhileCapturing("query()");
        if (!CudaDriver.streamDone(handle)) {
            if (watching) {
                watched().forEach(CudaComm::watchPeers);
            }
            return false;
        }
        report();
        return true;
    }

    /**
     * Issues {@code issue} (launches of {@code rank}'s on this stream) and records an event after
     * it: the call has run once the event has, and failed if its communicator has.
     */
    public io.jccl.engine.CallCompletion completion(io.jccl.engine.EngineRank rank, Runnable issue) {
        device.makeCurrent();
        if (CudaDriver.captureStatus(handle) != Cuda.CU_STREAM_CAPTURE_STATUS_NONE) {
            throw new io.jccl.JcclException(io.jccl.ErrorCode.INVALID_USAGE, rank.rank(), "an asynchronous call (a Work"
                    + " handle) on a CudaStream that is capturing a CUDA graph: the call would run only when the graph is"
                    + " launched, so no handle can wait for it; capture the plain call and synchronize the stream the"
                    + " graph is launched on");
        }
        issue.run(); // first: it refuses a stream that is not this rank's engine's
        CudaComm comm = (CudaComm) rank;
        device.makeCurrent();
        MemorySegment event = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
        CudaDriver.record(event, handle);
        return new EventCompletion(comm, event);
    }

    /** Destroys the events of handles dropped before their call was seen to finish. */
    private static final java.lang.ref.Cleaner EVENTS = java.lang.ref.Cleaner.create();

    /**
     * A call's event, polled as {@link #synchronize()} polls the stream (watching the peers);
     * destroyed once reached, or once the handle is unreachable.
     */
    private final class EventCompletion implements io.jccl.engine.CallCompletion {
        private final CudaComm comm;
        private final MemorySegment event;
        private final java.lang.ref.Cleaner.Cleanable destroy;
        private boolean reached;

        EventCompletion(CudaComm comm, MemorySegment event) {
            this.comm = comm;
            this.event = event;
            CudaDevice gpu = device;
            destroy = EVENTS.register(this, () -> {
                gpu.makeCurrent();
                CudaDriver.destroyEvent(event);
            });
        }

        @Override
        public boolean done() {
            synchronized (this) {
                if (!reached) {
                    device.makeCurrent();
                    if (!CudaDriver.eventDone(event)) {
                        if (comm.watchedWhileWaiting()) {
                            comm.watchPeers();
                        }
                        return false;
                    }
                    destroy.clean();
                    reached = true;
                }
            }
            comm.checkStatus();
            return true;
        }

        @Override
        public boolean await(long nanos) {
            long start = System.nanoTime();
            Wait wait = new Wait(Wait.NOTHING, Wait.NO_DEADLINE, Wait.Pacing.POLL);
            wait.begin();
            while (!done()) {
                if (System.nanoTime() - start >= nanos) {
                    return false;
                }
                wait.pause();
            }
            return true;
        }
    }

    /**
     * Refuses a wait on a stream that is capturing a CUDA graph (CUDA would fail it and invalidate
     * the capture): nothing captured runs before the graph is launched.
     */
    private void refuseWhileCapturing(String call) {
        if (CudaDriver.captureStatus(handle) == Cuda.CU_STREAM_CAPTURE_STATUS_NONE) {
            return;
        }
        throw new io.jccl.JcclException(io.jccl.ErrorCode.INVALID_USAGE, io.jccl.JcclException.NO_RANK, "CudaStream."
                + call + " on a stream that is capturing a CUDA graph: its work runs when the graph is launched; end the"
                + " capture first");
    }

    /** The communicators with launches here that have ranks in other processes or on other GPUs. */
    private synchronized List<CudaComm> watched() {
        List<CudaComm> w = new ArrayList<>();
        for (CudaComm c : launched) {
            if (c.watchedWhileWaiting()) {
                w.add(c);
            }
        }
        return w;
    }

    private void report() {
        List<CudaComm> comms;
        synchronized (this) {
            comms = new ArrayList<>(launched);
            launched.clear();
            watching = false;
        }
        for (CudaComm c : comms) {
            c.checkStatus();
        }
    }

    /** Destroys the stream if this engine made it. */
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (owned) {
            device.makeCurrent();
            CudaDriver.destroyStream(handle);
        }
    }

    @Override
    public String toString() {
        return "CudaStream[" + device + ", " + handle + "]";
    }
}
