// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.Collective;
import io.jccl.JcclException;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;
import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.EngineRank;
import io.jccl.kernels.WorkLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * One call of every rank of a communicator whose ranks are all on one GPU of this process, issued
 * together in a group, run by one launch of a direct kernel ({@code jccl_direct_<type>}, a
 * {@link WorkLayout#DIRECT jccl_direct} by value): its blocks read every rank's input and write
 * every rank's output, with no FIFO, no wait and no descriptor to upload. Separate kernels pay a
 * launch per rank and exchange through FIFOs; this pays one launch and moves each byte once.
 *
 * <p>Order: the launch goes on rank 0's stream, after an event of each other rank's stream (their
 * inputs are ready), and each other stream waits for the event recorded after it. Captured (all
 * the streams in one capture) the same calls make the graph's edges. The reduction is each
 * element's in rank order, with the executors' arithmetic.
 *
 * <p>Not used, and the ranks run their own kernels as usual, where JCCL_ALGO or JCCL_PROTO is set
 * (a forced algorithm is run as asked), for sends and receives, for groups of several calls, for
 * calls that differ between ranks, for an in-place all-to-all or buffers of one rank overlapping
 * another's, and for streams not all in the same capture state.
 */
final class DirectLaunch implements EngineRank.Joint {
    private static final VarHandle INPUTS = WorkLayout.DIRECT.varHandle(MemoryLayout.PathElement.groupElement("inputs"),
            MemoryLayout.PathElement.sequenceElement());
    private static final VarHandle OUTPUTS = WorkLayout.DIRECT.varHandle(MemoryLayout.PathElement.groupElement("outputs"),
            MemoryLayout.PathElement.sequenceElement());
    private static final long COUNT = WorkLayout.offset(WorkLayout.DIRECT, "count");
    private static final long SCALAR = WorkLayout.offset(WorkLayout.DIRECT, "scalar");
    private static final long NRANKS = WorkLayout.offset(WorkLayout.DIRECT, "nranks");
    private static final long KIND = WorkLayout.offset(WorkLayout.DIRECT, "kind");
    private static final long REDOP = WorkLayout.offset(WorkLayout.DIRECT, "redop");
    private static final long ROOT = WorkLayout.offset(WorkLayout.DIRECT, "root");

    private final CudaDomain domain;
    private final DomainGpu gpu;
    private final boolean forced;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment param = arena.allocate(WorkLayout.DIRECT);
    private final MemorySegment params = arena.allocate(ValueLayout.ADDRESS, 1);
    /** After each eager launch, and after each captured one (an event recorded in a capture is the graph's). */
    private MemorySegment done;
    private MemorySegment capturedDone;
    /** Per rank: the event of its stream the launch waits for (eager or captured alike). */
    private final MemorySegment[] ready;

    DirectLaunch(CudaDomain domain, DomainGpu gpu) {
        this.domain = domain;
        this.gpu = gpu;
        io.jccl.config.Values values = io.jccl.config.Values.of(domain.config);
        this.forced = values.given(io.jccl.config.Settings.ALGO) || values.given(io.jccl.config.Settings.PROTO);
        this.ready = new MemorySegment[domain.nranks];
        params.setAtIndex(ValueLayout.ADDRESS, 0, param);
    }

    /** Whether the {@code nranks} ranks of a domain may launch together: all in this process ({@code allLocal}) on one GPU. */
    static boolean fits(int nranks, boolean allLocal, int gpus) {
        return allLocal && gpus == 1 && nranks >= 2 && nranks <= WorkLayout.DIRECT_MAX_RANKS;
    }

    @Override
    public boolean takes(Collective collective, long count) {
        return !forced && kind(collective) >= 0 && count > 0;
    }

    @Override
    public boolean submit(List<EngineRank.Issue> issues) {
        int n = domain.nranks;
        if (forced || issues.size() != n) {
            return false;
        }
        CollectiveArgs[] calls = new CollectiveArgs[n];
        EngineRank.Issue[] byRank = new EngineRank.Issue[n];
        for (EngineRank.Issue i : issues) {
            int r = i.rank().rank();
            if (byRank[r] != null || !i.p2p().isEmpty() || i.collectives().size() != 1) {
                return false;
            }
            byRank[r] = i;
            calls[r] = i.collectives().getFirst();
        }
        if (!sameCall(calls) || overlapping(calls)) {
            return false;
        }
        CudaComm[] comms = new CudaComm[n];
        GpuStream[] streams = new GpuStream[n];
        for (int r = 0; r < n; r++) {
            comms[r] = (CudaComm) byRank[r].rank();
            streams[r] = comms[r].checkedStream(byRank[r].stream(), null, calls[r], List.of());
        }
        synchronized (this) {
            return lockedLaunch(0, comms, streams, calls);
        }
    }

    /** Takes every rank's lock in rank order (as each rank's own calls take its own), then launches. */
    private boolean lockedLaunch(int r, CudaComm[] comms, GpuStream[] streams, CollectiveArgs[] calls) {
        if (r < comms.length) {
            synchronized (comms[r]) {
                return lockedLaunch(r + 1, comms, streams, calls);
            }
        }
        gpu.device.makeCurrent();
        long captureId = 0;
        for (int i = 0; i < comms.length; i++) {
            comms[i].releaseHeld();
            long id = comms[i].captureId(streams[i]);
            if (i > 0 && id != captureId) {
                return false; // some capturing and some not, or in different captures: each rank alone
            }
            captureId = id;
        }
        int mode = captureId != 0 ? CudaDriver.exchangeCaptureMode(Cuda.CU_STREAM_CAPTURE_MODE_RELAXED) : -1;
        try {
            launch(comms, streams, calls, captureId);
        } finally {
            if (mode >= 0) {
                CudaDriver.exchangeCaptureMode(mode);
            }
        }
        return true;
    }

    private void launch(CudaComm[] comms, GpuStream[] streams, CollectiveArgs[] calls, long captureId) {
        int n = comms.length;
        GpuStream on = streams[0];
        for (int r = 0; r < n; r++) {
            if (r > 0 && streams[r] != on) {
                if (ready[r] == null) {
                    ready[r] = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
                }
                CudaDriver.record(ready[r], streams[r].handle());
                CudaDriver.waitEvent(on.handle(), ready[r]);
            }
            comms[r].waitForPrevious(on, streams[r], captureId);
        }
        fill(comms, calls);
        CollectiveArgs call = calls[0];
        MemorySegment f = gpu.directFunction(call.type().ordinal());
        try {
            CudaDriver.launch(f, blocks(call, n), WorkLayout.DIRECT_THREADS, 0, on.handle(), params);
        } catch (JcclException e) {
            if (captureId != 0) {
                throw new JcclException(e.code(), JcclException.NO_RANK, "capturing the direct kernel of ranks 0-" + (n - 1)
                        + " into a CUDA graph: " + e.detail(), e);
            }
            JcclException failed = new JcclException(e.code(), JcclException.NO_RANK, "launching the direct kernel of ranks 0-"
                    + (n - 1) + " (one launch for all ranks of " + gpu.device + "): " + e.detail(), e);
            for (CudaComm c : comms) {
                c.failedDirect(failed);
            }
            throw failed;
        }
        MemorySegment after = event(captureId != 0);
        CudaDriver.record(after, on.handle());
        for (int r = 0; r < n; r++) {
            if (streams[r] != on) {
                CudaDriver.waitEvent(streams[r].handle(), after);
            }
            comms[r].launchedDirect(streams[r], captureId, after);
        }
    }

    private MemorySegment event(boolean captured) {
        if (captured) {
            if (capturedDone == null) {
                capturedDone = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
            }
            return capturedDone;
        }
        if (done == null) {
            done = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
        }
        return done;
    }

    /** The kernel's parameter: every rank's buffers ({@code calls} by rank) and the call. */
    private void fill(CudaComm[] comms, CollectiveArgs[] calls) {
        CollectiveArgs call = calls[0];
        for (int r = 0; r < WorkLayout.DIRECT_MAX_RANKS; r++) {
            CollectiveArgs a = r < calls.length ? calls[r] : null;
            INPUTS.set(param, 0L, (long) r, a == null || a.send() == null ? 0L : a.send().address());
            OUTPUTS.set(param, 0L, (long) r, a == null || a.recv() == null ? 0L : a.recv().address());
        }
        param.set(ValueLayout.JAVA_LONG, COUNT, call.count());
        param.set(ValueLayout.JAVA_LONG, SCALAR, call.collective().reduces() ? DeviceScalars.bits(call.type(), call.op()) : 0L);
        param.set(ValueLayout.JAVA_INT, NRANKS, comms.length);
        param.set(ValueLayout.JAVA_INT, KIND, kind(call.collective()));
        param.set(ValueLayout.JAVA_INT, REDOP, call.collective().reduces() ? call.op().kind().ordinal() : WorkLayout.OP_NONE);
        param.set(ValueLayout.JAVA_INT, ROOT, call.root());
    }

    /**
     * Blocks of the launch: one per 16-byte vector of each of its threads over the largest part
     * set, at most one wave (a block per multiprocessor: the kernel keeps many loads in flight).
     */
    private int blocks(CollectiveArgs call, int n) {
        long parts = switch (call.collective()) {
            case ALL_REDUCE, REDUCE, BROADCAST -> 1;
            case ALL_TO_ALL -> (long) n * n;
            default -> n;
        };
        long vectors = Math.ceilDiv(parts * call.type().bytes(call.count()), 16);
        long blocks = Math.ceilDiv(vectors, WorkLayout.DIRECT_THREADS);
        return (int) Math.max(1, Math.min(blocks, gpu.device.multiprocessors()));
    }

    static int kind(Collective c) {
        return switch (c) {
            case ALL_REDUCE -> WorkLayout.DIRECT_ALL_REDUCE;
            case REDUCE -> WorkLayout.DIRECT_REDUCE;
            case BROADCAST -> WorkLayout.DIRECT_BROADCAST;
            case ALL_GATHER -> WorkLayout.DIRECT_ALL_GATHER;
            case REDUCE_SCATTER -> WorkLayout.DIRECT_REDUCE_SCATTER;
            case ALL_TO_ALL -> WorkLayout.DIRECT_ALL_TO_ALL;
            case GATHER -> WorkLayout.DIRECT_GATHER;
            case SCATTER -> WorkLayout.DIRECT_SCATTER;
            case SEND_RECV -> -1;
        };
    }

    /** Whether every rank makes the same call (collective, count, type, reduction and root), a kind with a direct form. */
    private boolean sameCall(CollectiveArgs[] calls) {
        CollectiveArgs c = calls[0];
        if (!takes(c.collective(), c.count())) {
            return false;
        }
        for (CollectiveArgs a : calls) {
            if (a.collective() != c.collective() || a.count() != c.count() || a.type() != c.type() || a.root() != c.root()
                    || !java.util.Objects.equals(a.op(), c.op())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether one rank's buffer overlaps another rank's: each element is read and written by one
     * thread, so a rank's own in-place call is safe, but not bytes that two ranks' parts share, nor
     * an in-place all-to-all (a block lands where another part has yet to be read).
     */
    private static boolean overlapping(CollectiveArgs[] calls) {
        for (int i = 0; i < calls.length; i++) {
            for (int j = 0; j < calls.length; j++) {
                boolean sameRank = i == j;
                if (!sameRank && (overlap(calls[i].send(), calls[j].recv()) || overlap(calls[i].recv(), calls[j].recv()))) {
                    return true;
                }
                if (calls[i].collective() == Collective.ALL_TO_ALL && overlap(calls[i].send(), calls[j].recv())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean overlap(MemorySegment a, MemorySegment b) {
        return a != null && b != null && a.byteSize() > 0 && b.byteSize() > 0 && a.address() < b.address() + b.byteSize()
                && b.address() < a.address() + a.byteSize();
    }

    /** Frees the events (the domain's last rank is leaving: nothing is launched any more). */
    void close() {
        gpu.device.makeCurrent();
        for (MemorySegment e : ready) {
            if (e != null) {
                CudaDriver.destroyEvent(e);
            }
        }
        if (done != null) {
            CudaDriver.synchronizeEvent(done);
            CudaDriver.destroyEvent(done);
        }
        if (capturedDone != null) {
            CudaDriver.destroyEvent(capturedDone);
        }
        arena.close();
    }
}
