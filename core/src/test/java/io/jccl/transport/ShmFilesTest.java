// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a closing process removes from /dev/shm: its own files whose peer will not come, never a
 * message a live receiver has yet to take, never the files of two other processes (ranks of other
 * "hosts" can share this /dev/shm: JCCL_HOSTID, containers sharing IPC). The 4 × 2 namespace
 * matrix lost messages that way before.
 */
class ShmFilesTest {
    private static final long COMM = 0x0123_4567_89ab_cdefL;
    private final List<Path> made = new ArrayList<>();

    @AfterEach
    void clean() throws IOException {
        for (Path p : made) {
            Files.deleteIfExists(p);
        }
    }

    /** A FIFO file's header as one or two sides left it. */
    private Path file(int from, int to, long pidFrom, long pidTo, long attached, long tail, long head) throws IOException {
        Path p = ShmFiles.path(COMM, Protocol.SIMPLE, 0, from, to, pidFrom, pidTo);
        ByteBuffer b = ByteBuffer.allocate((int) Fifo.SLOTS).order(ByteOrder.nativeOrder());
        b.putLong((int) Fifo.HEAD, head).putLong((int) Fifo.TAIL, tail).putLong((int) Fifo.ATTACHED, attached);
        Files.write(p, b.array());
        made.add(p);
        return p;
    }

    /** The pid of a process that has ended. */
    private static long deadPid() throws Exception {
        Process gone = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-version").start();
        gone.getInputStream().readAllBytes();
        gone.getErrorStream().readAllBytes();
        assertThat(gone.waitFor()).isZero();
        return gone.pid();
    }

    @Test
    void aClosingProcessRemovesOnlyItsOwnFilesAndKeepsMessagesForALiveReceiver() throws IOException {
        long me = ProcessHandle.current().pid();
        long other = ProcessHandle.current().parent().orElseThrow().pid();
        long third = 1;
        Path sentNotTaken = file(0, 1, me, other, 1, 3, 1);
        Path sentAllTaken = file(0, 2, me, other, 1, 2, 2);
        Path toMeNeverMapped = file(1, 0, other, me, 1, 1, 0);
        Path othersFile = file(2, 3, other, third, 1, 0, 0);
        Path othersMessage = file(3, 2, third, other, 1, 5, 0);

        ShmFiles.removeUnclaimed(COMM);

        assertThat(sentNotTaken).as("a message a live receiver has yet to take").exists();
        assertThat(sentAllTaken).as("nothing left in it").doesNotExist();
        assertThat(toMeNeverMapped).as("this process will never receive it now").doesNotExist();
        assertThat(othersFile).as("between two other processes").exists();
        assertThat(othersMessage).as("between two other processes").exists();
    }

    @Test
    void aMessageForADeadReceiverIsRemoved() throws Exception {
        long me = ProcessHandle.current().pid();
        long gone = deadPid();
        Path forTheDead = file(0, 1, me, gone, 1, 1, 0);

        ShmFiles.removeUnclaimed(COMM);

        assertThat(forTheDead).doesNotExist();
    }

    /**
     * At another init of this host, a file whose receiver died goes; one whose sender died while
     * its receiver lives stays: that receiver may still take what the sender left before it exited.
     */
    @Test
    void staleFilesAreThoseOfDeadReceivers() throws Exception {
        long me = ProcessHandle.current().pid();
        long gone = deadPid();
        Path fromTheDead = file(0, 1, gone, me, 1, 1, 0);
        Path toTheDead = file(1, 0, me, gone, 1, 1, 0);

        ShmFiles.removeStale();

        assertThat(fromTheDead).as("its live receiver may still take the message").exists();
        assertThat(toTheDead).as("no one will read it").doesNotExist();
    }

    @Test
    void filesTheCallerKeepsStayAndTheOthersOfThisProcessGo() throws IOException {
        long me = ProcessHandle.current().pid();
        long other = ProcessHandle.current().parent().orElseThrow().pid();
        Path note = ShmFiles.path(COMM, "ipcsimple", 0, 1, 0, other, me);
        Path plain = ShmFiles.path(COMM, "ipcsimple", 1, 1, 0, other, me);
        for (Path p : List.of(note, plain)) {
            Files.write(p, new byte[(int) ShmFiles.HEADER + 64]);
            made.add(p);
        }

        ShmFiles.removeUnclaimed(COMM, note::equals);

        assertThat(note).as("kept for its reader").exists();
        assertThat(plain).doesNotExist();
    }

    /**
     * A side that closes unlinks a file it mapped alone, which the other side may have just
     * opened: mapping it must not need its name any more (a fake-CUDA CI run failed that way).
     */
    @Test
    void aFileUnlinkedWhileTheOtherSideMapsItStillMaps() throws Exception {
        Path p = ShmFiles.path(COMM, "race", 0, 0, 1, 1, 2);
        made.add(p);
        Thread unlinker = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    return;
                }
            }
        });
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            for (int i = 0; i < 2_000 && System.nanoTime() < deadline; i++) {
                try (Arena a = Arena.ofConfined()) {
                    assertThat(ShmFiles.attach(p, ShmFiles.HEADER + 64, a, 0).byteSize()).isEqualTo(ShmFiles.HEADER + 64);
                }
            }
        } finally {
            unlinker.interrupt();
            unlinker.join(5_000);
        }
    }
}
