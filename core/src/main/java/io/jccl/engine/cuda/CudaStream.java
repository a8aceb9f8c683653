package io.jccl.engine.cuda;

import io.jccl.Stream;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;
import io.jccl.transport.Wait;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A CUDA stream as the API's {@link Stream}: the CUDA engine's collectives are enqueued on it
 * (descriptors uploaded, the kernel launched) and run asynchronously, in order with the caller's
 * other work on that stream. {@link #synchronize()} waits for the stream and then reports the
 * first failure of the communicators that launched on it (a timeout, a size mismatch, an abort).
 * Each rank of a communicator needs its own stream: ranks sharing one GPU run concurrently.
 *
 * <pre>{@code
 * try (CudaStream s = new CudaStream(gpu)) {
 *     comm.allReduce(buf, buf, n, DataType.FLOAT32, RedOp.SUM, s);
 *     s.synchronize();
 * }
 * }</pre>
 */
public final class CudaStream implements Stream, AutoCloseable {
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
    public CudaStream(CudaDevice device) {
        this(device, create(device), true);
    }

    private CudaStream(CudaDevice device, MemorySegment handle, boolean owned) {
        this.device = device;
        this.handle = handle;
        this.owned = owned;
    }

    private static MemorySegment create(CudaDevice device) {
        device.makeCurrent();
        return CudaDriver.createStream(Cuda.CU_STREAM_NON_BLOCKING);
    }

    /** The caller's own {@code CUstream} (not destroyed by {@link #close()}), so collectives compose with its work. */
    public static CudaStream wrap(CudaDevice device, MemorySegment cuStream) {
        return new CudaStream(device, cuStream, false);
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
    public void synchronize() {
        device.makeCurrent();
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

    @Override
    public boolean query() {
        device.makeCurrent();
        if (!CudaDriver.streamDone(handle)) {
            if (watching) {
                watched().forEach(CudaComm::watchPeers);
            }
            return false;
        }
        report();
        return true;
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

    @Override
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
