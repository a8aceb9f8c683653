// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.Set;

/**
 * Publishing a {@link CommId} in a directory the ranks share: rank 0 writes it, readable by this
 * user only, with an atomic rename so a reader never sees half a file; the others poll for it and
 * accept it only from a file owned by this user (another user could otherwise plant an id of their
 * own). The file is named by a hash of the launcher's job id and removed once rank 0's bootstrap
 * is done.
 */
final class FileRendezvous {
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final long FIRST_POLL_MILLIS = 10;
    private static final long MAX_POLL_MILLIS = 200;

    private FileRendezvous() {
    }

    /** {@code java.io.tmpdir}/jccl-UID: created owner-only on first use. */
    static Path defaultDirectory() {
        Object uid = uid();
        return Path.of(System.getProperty("java.io.tmpdir"), "jccl-" + (uid != null ? uid : System.getProperty("user.name")));
    }

    static Path file(LaunchEnvironment.SharedDirectory sd) {
        byte[] h = CommId.derive("jccl/1 job " + sd.jobKey());
        return sd.directory().resolve("jccl-" + HexFormat.of().formatHex(h, 0, 12) + ".id");
    }

    static void publish(LaunchEnvironment.SharedDirectory sd, CommId id, int rank) {
        Path dir = sd.directory();
        Path target = file(sd);
        try {
            if (dir.equals(defaultDirectory())) {
                try {
                    Files.createDirectories(dir.getParent());
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
                } catch (FileAlreadyExistsException e) {
                    // made by an earlier job: checked below
                }
                if (!ours(dir) || !Files.getPosixFilePermissions(dir).equals(OWNER_ONLY_DIR)) {
                    throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "bootstrap directory " + dir
                            + " is not owned by this user with mode 700; remove it or set JCCL_BOOTSTRAP_DIR");
                }
            }
            Path tmp = Files.createTempFile(dir, ".jccl-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
            try {
                Files.writeString(tmp, id.encode(), StandardCharsets.US_ASCII);
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot publish the bootstrap id in " + target + ": " + e, e);
        }
    }

    static CommId await(LaunchEnvironment.SharedDirectory sd, Deadline d, int rank) {
        Path f = file(sd);
        long pause = FIRST_POLL_MILLIS;
        while (true) {
            try {
                if (!ours(f)) {
                    throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "bootstrap id file " + f
                            + " is owned by another user; refusing it");
                }
                return CommId.parse(Files.readString(f, StandardCharsets.US_ASCII), "bootstrap id file " + f);
            } catch (NoSuchFileException e) {
                // rank 0 has not written it yet
            } catch (IOException e) {
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot read the bootstrap id from " + f + ": " + e, e);
            }
            if (d.expired()) {
                throw new JcclException(ErrorCode.TIMEOUT, rank, "waited " + d.budget() + " for rank 0 to publish the bootstrap id in "
                        + f + " (job " + sd.jobKey() + ")");
            }
            Sockets.sleep(Math.min(pause, Math.max(1, d.remainingNanos() / 1_000_000)), rank, "the bootstrap id file");
            pause = Math.min(MAX_POLL_MILLIS, pause * 2);
        }
    }

    static void remove(LaunchEnvironment.SharedDirectory sd) {
        try {
            Files.deleteIfExists(file(sd));
        } catch (IOException ignored) {
            // a leftover file names a root that is gone; the next job of that id overwrites it
        }
    }

    private static boolean ours(Path p) throws IOException {
        Object mine = uid();
        if (mine == null) {
            return true; // no unix attributes here: nothing to compare
        }
        return mine.equals(Files.getAttribute(p, "unix:uid"));
    }

    private static Object uid() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }
}
