// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.cuda.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What CUDA graphs captured from this process's ranks keep alive. A rank's launches captured in
 * one capture sequence hold their descriptors through a {@link Hold}, tied to the graph by a CUDA
 * user object: the driver calls back once the graph and every executable graph made from it are
 * destroyed and their launches have finished, and the rank then lets the descriptors' memory be
 * reused. The callback comes on a driver thread, where no CUDA call may be made, so it only hands
 * the hold to its rank, which releases it on its next call or at close.
 *
 * <p>Also which ranks each capture sequence captured, so that launching its graph through
 * {@link CapturedGraph} lets the stream report their failures.
 */
final class GraphHolds {
    private GraphHolds() {
    }

    /** One rank's descriptors used by the launches of one capture sequence. */
    static final class Hold {
        final CudaComm comm;
        final long captureId;
        final List<DescriptorCache.Kept> descriptors = new ArrayList<>();

        Hold(CudaComm comm, long captureId) {
            this.comm = comm;
            this.captureId = captureId;
        }
    }

    /** Holds whose user object the driver has not yet destroyed, by the pointer given to it. */
    private static final Map<Long, Hold> LIVE = new ConcurrentHashMap<>();
    private static final AtomicLong SERIAL = new AtomicLong();
    /** Ranks with launches in each capture sequence in progress, by capture id. */
    private static final Map<Long, Set<CudaComm>> CAPTURED = new ConcurrentHashMap<>();
    private static volatile MemorySegment destroyStub;

    /**
     * A new hold of {@code comm}'s for capture {@code captureId}, owned by {@code graph} (the graph
     * being captured) through a user object.
     */
    static Hold create(CudaComm comm, long captureId, MemorySegment graph) {
        Hold h = new Hold(comm, captureId);
        long key = SERIAL.incrementAndGet();
        LIVE.put(key, h);
        try {
            MemorySegment object = CudaDriver.createUserObject(MemorySegment.ofAddress(key), destroyStub());
            CudaDriver.moveUserObject(graph, object);
        } catch (RuntimeException e) {
            LIVE.remove(key);
            throw e;
        }
        CAPTURED.computeIfAbsent(captureId, id -> ConcurrentHashMap.newKeySet()).add(comm);
        return h;
    }

    /** The ranks that launched in capture {@code captureId}, forgotten here. */
    static Set<CudaComm> captured(long captureId) {
        Set<CudaComm> s = CAPTURED.remove(captureId);
        return s == null ? Set.of() : s;
    }

    /** Holds of {@code comm} whose graphs still exist. */
    static int live(CudaComm comm) {
        int n = 0;
        for (Hold h : LIVE.values()) {
            if (h.comm == comm) {
                n++;
            }
        }
        return n;
    }

    /** Holds of every rank whose graphs still exist (tests). */
    static int live() {
        return LIVE.size();
    }

    /** The driver destroyed a hold's user object (on a driver thread: no CUDA call here, and nothing thrown). */
    private static void destroyed(MemorySegment pointer) {
        try {
            Hold h = LIVE.remove(pointer.address());
            if (h != null) {
                h.comm.graphReleased(h);
                // a capture the caller ended itself (not through CapturedGraph) is forgotten here
                CAPTURED.remove(h.captureId);
            }
        } catch (Throwable t) {
            // An exception must not unwind into the driver; the hold then stays until close.
        }
    }

    @SuppressWarnings("restricted") // a void (*)(void*) for the driver to call
    private static MemorySegment destroyStub() {
        MemorySegment stub = destroyStub;
        if (stub == null) {
            synchronized (GraphHolds.class) {
                stub = destroyStub;
                if (stub == null) {
                    try {
                        stub = Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(GraphHolds.class,
                                "destroyed", MethodType.methodType(void.class, MemorySegment.class)),
                                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS), Arena.global());
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                    destroyStub = stub;
                }
            }
        }
        return stub;
    }
}
