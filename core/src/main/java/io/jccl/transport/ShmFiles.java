// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;

/**
 * The files under {@code /dev/shm} that hold the FIFOs between ranks of one host in different
 * processes. A FIFO's file is named by the communicator's id (agreed at init), the protocol, the
 * channel, the two ranks and the two processes' pids:
 * {@code jccl-<comm>-<proto>-c<channel>-<from>-<to>-<pidFrom>-<pidTo>}.
 *
 * <p>Whichever side uses the connection first creates the file (mode 600) and both map it: a
 * fresh file is zero-filled, which is a FIFO's initial state in every protocol, so neither side
 * waits for the other. Each side counts itself in the file's {@link Fifo#ATTACHED} word once
 * mapped; the second one unlinks the file, so a healthy job leaves nothing behind while it runs.
 * A file whose peer never came is removed when the communicator closes ({@link #removeUnclaimed}:
 * except one holding messages for a live receiver that has yet to map it), and one left by
 * processes killed before that is removed by the next communicator of this host whose init finds
 * its receiver's pid dead (a dead sender's file waits for its live receiver's close).
 *
 * <p>The CUDA engine's files between processes follow the same rules ({@link #path(long, String,
 * int, int, int, long, long)} with a kind of its own): a FIFO in pinned host memory, or the
 * CUDA IPC handle of a receiver's FIFO in device memory.
 */
public final class ShmFiles {
    static final Path DIR = Path.of("/dev/shm");
    private static final Path PROC = Path.of("/proc");
    /** Bytes of /proc/PID/stat read: past the command (at most 64 bytes) and the state after it. */
    private static final int STAT_HEAD = 256;
    /** Bytes at the start of every file that this class's bookkeeping uses (a host FIFO's header); the user's bytes start here. */
    public static final long HEADER = Fifo.SLOTS;
    private static final String PREFIX = "jccl-";
    /** The smallest page a FIFO file's memory comes in. */
    private static final long PAGE = 4096;

    private ShmFiles() {
    }

    /** Whether this host has a shared-memory file system at {@link #DIR}. */
    public static boolean available() {
        return Files.isDirectory(DIR) && Files.isWritable(DIR);
    }

    static String prefix(long commId) {
        return PREFIX + String.format(Locale.ROOT, "%016x", commId) + "-";
    }

    static Path path(long commId, Protocol p, int channel, int from, int to, long pidFrom, long pidTo) {
        return path(commId, p.id().toLowerCase(Locale.ROOT), channel, from, to, pidFrom, pidTo);
    }

    /** The file of connection {@code from -> to} on a channel, of a kind of file ({@code [a-z0-9]+}, no dash). */
    public static Path path(long commId, String kind, int channel, int from, int to, long pidFrom, long pidTo) {
        return DIR.resolve(prefix(commId) + kind + "-c" + channel + "-" + from + "-" + to + "-" + pidFrom + "-" + pidTo);
    }

    /**
     * Maps the FIFO file {@code path} ({@code bytes} long), creating it if the other side has not;
     * unlinks it if the other side mapped it already. Its memory is reserved here, page by page: a
     * file system that is full now fails the init with a SYSTEM_ERROR that says so, where it would
     * otherwise fail some later access to the mapping with a bus error.
     */
    public static MemorySegment attach(Path path, long bytes, Arena arena, int rank) {
        MemorySegment seg;
        try (FileChannel ch = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            // The directory's store, not the file's: the other side's close may unlink the name now.
            long free = Files.getFileStore(path.getParent()).getUsableSpace();
            if (bytes - ch.size() > free) {
                throw full(path, bytes, free, rank, null);
            }
            // Mapping past the end grows the file (with zeros); both sides ask for the same size.
            seg = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        } catch (IOException | UnsupportedOperationException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot map the shared-memory FIFO " + path + ": " + e, e);
        }
        try {
            // An atomic add of 0 to a word of each page makes the file system give the page now,
            // without changing what the other side may already have written there.
            for (long off = 0; off < bytes; off += PAGE) {
                Fifo.LONG.getAndAdd(seg, off, 0L);
            }
        } catch (InternalError e) {
            // What the JVM makes of the bus error of a page the file system could not give.
            throw full(path, bytes, -1, rank, e);
        }
        if ((long) Fifo.LONG.getAndAdd(seg, Fifo.ATTACHED, 1L) == 1) {
            delete(path);
        }
        return seg;
    }

    private static JcclException full(Path path, long bytes, long free, int rank, Throwable cause) {
        return new JcclException(ErrorCode.SYSTEM_ERROR, rank, DIR + " is full: the shared-memory FIFO " + path + " needs " + bytes
                + " bytes" + (free >= 0 ? " and " + free + " are free" : " and the file system could not give them")
                + "; make " + DIR + " larger (a container's --shm-size) or set JCCL_SHM_DISABLE=1, which sends between the"
                + " processes of this host over sockets", cause);
    }

    /**
     * Writes {@code word} into the abort word of every FIFO file of communicator {@code commId} that
     * still has a name, i.e. whose second side has not mapped it yet: a rank of another process
     * may be waiting on it for a peer that will never come. Counts as that second side, so the
     * file is unlinked.
     */
    static void abortAll(long commId, long word) {
        forEach(prefix(commId), p -> {
            try (Arena arena = Arena.ofConfined();
                 FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                if (ch.size() < Fifo.SLOTS) {
                    return;
                }
                MemorySegment head = ch.map(FileChannel.MapMode.READ_WRITE, 0, Fifo.SLOTS, arena);
                Fifo.LONG.compareAndSet(head, Fifo.ABORT, 0L, word);
                if ((long) Fifo.LONG.getAndAdd(head, Fifo.ATTACHED, 1L) >= 1) {
                    delete(p);
                }
            } catch (IOException e) {
                // gone meanwhile: both sides mapped it, and they hear of the abort through their own
            }
        });
    }

    /**
     * Removes this process's files of communicator {@code commId} whose second side will not come
     * (the communicator is closing in this process): all those naming this process's pid but
     * those that hold messages this process sent to a rank of a live process that has not mapped
     * the file yet. That rank may still be on its way to the receive (a sender that closes right
     * after its last send is legal); it maps the file, takes the messages and unlinks it, or its own
     * close removes it, or, if its process dies first, the next init on this host does
     * ({@link #removeStale}). Files between two other processes are theirs: ranks on different
     * "hosts" can share one {@code /dev/shm} (JCCL_HOSTID, containers sharing IPC).
     */
    public static void removeUnclaimed(long commId) {
        removeUnclaimed(commId, p -> false);
    }

    /**
     * As {@link #removeUnclaimed(long)}, also keeping the files {@code keep} names (a note for a
     * live peer that has yet to read it; its own close, or the next init on this host once it is
     * dead, removes it).
     */
    public static void removeUnclaimed(long commId, java.util.function.Predicate<Path> keep) {
        long me = ProcessHandle.current().pid();
        forEach(prefix(commId), p -> {
            long[] pids = pids(p);
            if (pids == null || (pids[0] != me && pids[1] != me)) {
                return;
            }
            if (pids[0] == me && pids[1] != me && alive(pids[1]) && holdsMessages(p)) {
                return;
            }
            if (keep.test(p)) {
                return;
            }
            delete(p);
        });
    }

    /** Whether the FIFO file {@code p} was mapped by one side only and holds messages not taken. */
    private static boolean holdsMessages(Path p) {
        try (Arena arena = Arena.ofConfined();
             FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            if (ch.size() < Fifo.SLOTS) {
                return false;
            }
            MemorySegment head = ch.map(FileChannel.MapMode.READ_ONLY, 0, Fifo.SLOTS, arena);
            return (long) Fifo.LONG.getVolatile(head, Fifo.ATTACHED) == 1
                    && (long) Fifo.LONG.getVolatile(head, Fifo.TAIL) > (long) Fifo.LONG.getVolatile(head, Fifo.HEAD);
        } catch (IOException e) {
            return false;
        }
    }

    /** The sender's and receiver's pids a FIFO file's name ends with, or null. */
    private static long[] pids(Path p) {
        String[] parts = p.getFileName().toString().split("-");
        if (parts.length < 2) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(parts[parts.length - 2]), Long.parseLong(parts[parts.length - 1])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Removes jccl's files whose receiving side's process (the second pid of the name: a FIFO's
     * receiver, an IPC handle's exporter, an abort's reader) is no longer alive; returns how many.
     * One whose sender died is left to its live receiver, which may still take the messages the
     * sender left before it closed and exited, and whose close removes it.
     */
    public static int removeStale() {
        int[] removed = {0};
        forEach(PREFIX, p -> {
            long[] pids = pids(p);
            if (pids != null && !alive(pids[1])) {
                delete(p);
                removed[0]++;
            }
        });
        return removed[0];
    }

    /**
     * Whether process {@code pid} runs. A killed process stays a zombie until its parent reaps it
     * (a launcher polling its children, or init once the launcher died too), which can take
     * seconds, and {@link ProcessHandle#isAlive()} counts a zombie as alive; so where /proc is,
     * its state is read, and a zombie ({@code Z}) or a dying process ({@code X}) is dead.
     */
    public static boolean alive(long pid) {
        // Every lane asks this every 50 ms for each process of its host (PeerProcesses), so only
        // the line's head is read: procfs reports a size of 0, and readAllBytes starts at 8 KiB.
        ByteBuffer stat = ByteBuffer.allocate(STAT_HEAD);
        try (FileChannel ch = FileChannel.open(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardOpenOption.READ)) {
            while (stat.hasRemaining() && ch.read(stat) > 0) {
                // until the head is in or the line ends
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return !Files.isDirectory(PROC) && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException e) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
        // "pid (command) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
        byte[] b = stat.array();
        int n = stat.position();
        for (int i = n - 1; i > 0; i--) {
            if (b[i] == ')') {
                byte state = i + 2 < n ? b[i + 2] : (byte) 'R';
                return state != 'Z' && state != 'X' && state != 'x';
            }
        }
        return true;
    }

    private static void forEach(String prefix, java.util.function.Consumer<Path> action) {
        if (!Files.isDirectory(DIR)) {
            return;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(DIR, prefix + "*")) {
            for (Path p : ds) {
                action.accept(p);
            }
        } catch (IOException e) {
            // Best effort: a directory we cannot list holds nothing we could remove.
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Another process's file, or gone already: nothing to clean.
        }
    }
}
