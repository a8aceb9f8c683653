// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;

/**
 * The FIFOs between this process's ranks and ranks of other processes on the same GPU, NCCL's
 * transports of one host:
 *
 * <ul>
 *   <li>{@link Kind#IPC} (the default): the receiver's FIFO in its device memory, as between ranks
 *       of one process; the receiver's process exports it with {@code cuIpcGetMemHandle} into a
 *       small file under /dev/shm ({@link ShmFiles}), the sender's process opens it with
 *       {@code cuIpcOpenMemHandle}. The receiver owns the memory, so a sender that closes early
 *       takes nothing away from it.</li>
 *   <li>{@link Kind#HOST} (JCCL_P2P_DISABLE, as NCCL's shm transport): the FIFO in a /dev/shm
 *       file both processes map and pin with {@code cuMemHostRegister}; kernels reach it over the
 *       bus. Either side may come first: a fresh file is zero, a FIFO's initial state.</li>
 * </ul>
 *
 * A sender's process waits (up to the rank's timeout, giving up at once if the receiver's process
 * dies or the domain aborts) for the receiver's process to export the FIFO, which it does the first
 * time one of its calls uses the connection, before that call waits for anything itself.
 */
public final class GpuProcessFifos {
    /** Where the FIFOs between processes are: the receiver's device memory (CUDA IPC), or pinned shared host memory. */
    public enum Kind { IPC, HOST }

    /**
     * Layout of an IPC file after {@link ShmFiles#HEADER}: a ready word (1: the handle is there;
     * {@link #FAILED}: the receiver could not export, its reason follows), the handle, the reason
     * (length, UTF-8 bytes).
     */
    private static final long READY = ShmFiles.HEADER;
    private static final long HANDLE = READY + 8;
    private static final long REASON = HANDLE + 64;
    private static final int REASON_BYTES = 508;
    private static final long IPC_FILE_BYTES = REASON + 4 + REASON_BYTES;
    private static final long FAILED = -1;
    private static final String HINT = "; JCCL_P2P_DISABLE=1 puts the FIFOs between processes in pinned host memory instead";

    /** How often {@link #abortedBy} looks for abort files (a look at /dev/shm each). */
    private static final long CHECK_NANOS = 50_000_000;

    private final long commId;
    private final Kind kind;
    /** Where every rank runs: its process, how messages name it, whether it is still alive. */
    private final PeerProcesses peers;
    private volatile long lastCheck;
    private volatile int abortedBy = -1;
    private final Duration timeout;
    private final ConcurrentHashMap<FifoKey, CompletableFuture<Long>> made = new ConcurrentHashMap<>();
    /** What {@link #close} undoes, in reverse order: opened handles, registrations. */
    private final List<Runnable> undo = new CopyOnWriteArrayList<>();
    private final Arena mappings = Arena.ofShared();
    /** IPC files holding the reason an export failed, with the sender's process id. */
    private final java.util.Map<Path, Long> failedExports = new ConcurrentHashMap<>();
    /**
     * HOST: the files of FIFOs this process sends on, with the receiver's process id. One still
     * there at close has not been mapped by its receiver, and may hold messages it has yet to take
     * (a send completes without its receiver while slots are free).
     */
    private final java.util.Map<Path, Long> sending = new ConcurrentHashMap<>();

    /** Where the ranks are: pairs on two GPUs without peer access both ways get pinned host memory whatever the kind. */
    private final GpuPlacement where;

    public GpuProcessFifos(Kind kind, GpuPlacement where, Duration timeout) {
        this.where = where;
        this.peers = where.processes;
        this.commId = peers.commId;
        this.kind = kind;
        this.timeout = timeout;
    }

    /** How messages name a rank ("rank 3 (pid 123 on host)"). */
    public String name(int rank) {
        return peers.describe(rank);
    }

    /**
     * A rank whose process has died, or -1 ({@link PeerProcesses#lost}: kernels waiting for a dead
     * peer would otherwise wait until their timeout).
     */
    public int lost() {
        return peers.lost();
    }

    /**
     * A rank of another process that aborted the communicator, or -1: looks for its file at most
     * every {@link #CHECK_NANOS}, whichever thread asks.
     */
    public int abortedBy() {
        long now = System.nanoTime();
        if (abortedBy >= 0 || now - lastCheck < CHECK_NANOS) {
            return abortedBy;
        }
        lastCheck = now;
        for (int r = 0; r < peers.size(); r++) {
            for (int me = 0; me < peers.size() && !peers.inProcess(r); me++) {
                if (peers.inProcess(me) && java.nio.file.Files.exists(abortFile(r, me))) {
                    abortedBy = r;
                    return r;
                }
            }
        }
        return -1;
    }

    /** What a wait of this process's ranks watches: {@code aborted} (this process), the peers' processes, their abort files. */
    public Wait.Watch watch(BooleanSupplier aborted) {
        return new Wait.Watch() {
            @Override
            public boolean aborted() {
                return aborted.getAsBoolean();
            }

            @Override
            public boolean dead(int rank) {
                return peers.dead(rank);
            }

            @Override
            public int anyDead() {
                return peers.lost();
            }

            @Override
            public long abortWord() {
                return abortedBy() + 1;
            }
        };
    }

    /** The file by which rank {@code from}'s abort reaches rank {@code to}'s process. */
    private Path abortFile(int from, int to) {
        return ShmFiles.path(commId, "abort", 0, from, to, peers.pid(from), peers.pid(to));
    }

    /**
     * Tells the other processes that this process's ranks aborted: a file to each of their ranks,
     * which their waits look for; each stays until its reader closes or dies.
     */
    public void announceAbort() {
        for (int from = 0; from < peers.size(); from++) {
            for (int to = 0; to < peers.size() && peers.inProcess(from); to++) {
                if (!peers.inProcess(to)) {
                    try {
                        java.nio.file.Files.write(abortFile(from, to), new byte[0]);
                    } catch (java.io.IOException e) {
                        // /dev/shm full or gone: that peer learns of it through its timeout
                    }
                }
            }
        }
    }

    /**
     * The device address of the FIFO {@code k} ({@code bytes} long) between a rank of this process
     * ({@code rank}, on {@code gpu}) and a rank of another: made once, by that rank (its GPU's
     * context current: an opened handle is mapped into it).
     */
    public long fifo(FifoKey k, long bytes, int rank, GpuMemory gpu, BooleanSupplier aborted) {
        CompletableFuture<Long> mine = new CompletableFuture<>();
        CompletableFuture<Long> f = made.putIfAbsent(k, mine);
        if (f == null) {
            try {
                gpu.makeCurrent();
                mine.complete(kind == Kind.HOST || where.viaHost(k.from(), k.to()) ? hostFifo(k, bytes, rank)
                        : k.to() == rank ? export(k, bytes, rank, gpu::zeroed) : open(k, rank, gpu, aborted));
            } catch (RuntimeException e) {
                made.remove(k, mine);
                mine.completeExceptionally(e);
                throw e;
            }
            f = mine;
        }
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private Path file(String what, FifoKey k) {
        return ShmFiles.path(commId, what + k.protocol().id().toLowerCase(Locale.ROOT), k.channel(), k.from(), k.to(),
                peers.pid(k.from()), peers.pid(k.to()));
    }

    /** HOST: the FIFO in a /dev/shm file, pinned and mapped for the GPU. */
    private long hostFifo(FifoKey k, long bytes, int rank) {
        Path path = file("gpu", k);
        if (k.from() == rank) {
            sending.put(path, peers.pid(k.to()));
        }
        MemorySegment seg = ShmFiles.attach(path, ShmFiles.HEADER + bytes, mappings, rank);
        CudaDriver.hostRegister(seg, Cuda.CU_MEMHOSTREGISTER_PORTABLE | Cuda.CU_MEMHOSTREGISTER_DEVICEMAP);
        undo.add(() -> CudaDriver.hostUnregister(seg));
        return CudaDriver.hostDevicePointer(seg) + ShmFiles.HEADER;
    }

    /** IPC, this process receives: the FIFO in its device memory, the handle written for the sender's process. */
    private long export(FifoKey k, long bytes, int rank, LongUnaryOperator zeroed) {
        long fifo = zeroed.applyAsLong(bytes);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment file = ShmFiles.attach(file("ipc", k), IPC_FILE_BYTES, a, rank);
            MemorySegment handle;
            try {
                handle = CudaDriver.ipcHandle(fifo, a);
            } catch (JcclException e) {
                // The sender's process is told at once instead of waiting for its timeout.
                byte[] why = e.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                int n = Math.min(why.length, REASON_BYTES);
                file.set(ValueLayout.JAVA_INT, REASON, n);
                file.asSlice(REASON + 4, n).copyFrom(MemorySegment.ofArray(why).asSlice(0, n));
                ValueLayout.JAVA_LONG.varHandle().setVolatile(file, READY, FAILED);
                failedExports.put(file("ipc", k), peers.pid(k.from()));
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot export the FIFO from " + peers.describe(k.from())
                        + " through CUDA IPC: " + e.getMessage() + HINT, e);
            }
            file.asSlice(HANDLE, 64).copyFrom(handle);
            // The handle's bytes before the word that says they are there.
            ValueLayout.JAVA_LONG.varHandle().setVolatile(file, READY, 1L);
        }
        return fifo;
    }

    /** IPC, this process sends: waits for the receiver's handle and opens it. */
    private long open(FifoKey k, int rank, GpuMemory gpu, BooleanSupplier aborted) {
        int peer = k.to();
        Wait wait = new Wait(watch(aborted), timeout.toNanos(), Wait.Pacing.FILE_POLL);
        wait.begin(peer);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment file = ShmFiles.attach(file("ipc", k), IPC_FILE_BYTES, a, rank);
            long ready;
            while ((ready = (long) ValueLayout.JAVA_LONG.varHandle().getVolatile(file, READY)) == 0) {
                if (!wait.pause()) {
                    throw switch (wait.end()) {
                        case ABORTED -> new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator was aborted while"
                                + " connecting to " + peers.describe(peer));
                        case REMOTE_ABORT -> new JcclException(ErrorCode.REMOTE_ERROR, rank, peers.describe((int) wait.remoteAbort() - 1)
                                + " aborted the communicator while this rank waited for the FIFO of " + peers.describe(peer));
                        case LOST_PEER -> new JcclException(ErrorCode.REMOTE_ERROR, rank, peers.describe(wait.lostPeer())
                                + " died before " + (wait.lostPeer() == peer ? "it exported its FIFO" : peers.describe(peer)
                                + " exported its FIFO") + " for channel " + k.channel() + " (" + k.protocol() + ")");
                        default -> new JcclException(ErrorCode.TIMEOUT, rank, peers.describe(peer) + " did not export its FIFO for"
                                + " channel " + k.channel() + " (" + k.protocol() + ") within " + timeout.toSeconds() + " s"
                                + " (JCCL_TIMEOUT): it has not made a call that receives from rank " + rank + " on that channel");
                    };
                }
            }
            if (ready == FAILED) {
                int n = Math.clamp(file.get(ValueLayout.JAVA_INT, REASON), 0, REASON_BYTES);
                String why = new String(file.asSlice(REASON + 4, n).toArray(ValueLayout.JAVA_BYTE),
                        java.nio.charset.StandardCharsets.UTF_8);
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, peers.describe(peer) + " could not export its FIFO through"
                        + " CUDA IPC (" + why + ")" + HINT);
            }
            long fifo;
            try {
                fifo = CudaDriver.openIpcHandle(a.allocate(64, 8).copyFrom(file.asSlice(HANDLE, 64)));
            } catch (JcclException e) {
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot open the FIFO of " + peers.describe(peer)
                        + " through CUDA IPC: " + e.getMessage() + HINT, e);
            }
            undo.add(() -> {
                gpu.makeCurrent();
                CudaDriver.closeIpcHandle(fifo);
            });
            return fifo;
        }
    }

    private boolean isAbortFileForLiveReader(Path p) {
        for (int from = 0; from < peers.size(); from++) {
            for (int to = 0; to < peers.size(); to++) {
                if (peers.inProcess(from) && !peers.inProcess(to) && p.equals(abortFile(from, to))) {
                    return ShmFiles.alive(peers.pid(to));
                }
            }
        }
        return false;
    }

    /** Closes opened handles and unpins and unmaps the files (the domain's last rank, the GPU idle for this process). */
    public void close() {
        for (int i = undo.size() - 1; i >= 0; i--) {
            try {
                undo.get(i).run();
            } catch (JcclException e) {
                // the driver is going away with the process or already freed it: nothing to give back
            }
        }
        mappings.close();
        // A failed export's reason stays for a sender whose process lives on and has not read it.
        // So does an abort for a live reader, and a FIFO this process sent on that its live receiver
        // has not mapped: the receiver's close removes it, or the next init here once it is dead.
        // (ShmFiles' own test for messages reads a host FIFO's counters, which a GPU FIFO leaves at zero.)
        ShmFiles.removeUnclaimed(commId, p -> failedExports.containsKey(p) && ShmFiles.alive(failedExports.get(p))
                || sending.containsKey(p) && ShmFiles.alive(sending.get(p)) || isAbortFileForLiveReader(p));
    }
}
