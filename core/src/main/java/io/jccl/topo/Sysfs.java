// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads sysfs and procfs under a root directory ("/" on a live machine, a copied or made-up tree in
 * tests). Every read may fail, as in containers that hide parts of /sys: a missing or unreadable
 * entry is empty, never an error.
 */
final class Sysfs {
    private final Path root;

    Sysfs(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** {@code relative} under the root (a leading "/" is dropped). */
    Path path(String relative) {
        return root.resolve(relative.startsWith("/") ? relative.substring(1) : relative);
    }

    /** The first line of a file, trimmed, or empty. */
    static Optional<String> read(Path file) {
        try {
            String s = Files.readString(file).strip();
            int nl = s.indexOf('\n');
            return Optional.of(nl < 0 ? s : s.substring(0, nl).strip()).filter(v -> !v.isEmpty());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    Optional<String> read(String relative) {
        return read(path(relative));
    }

    /** The whole file, or empty. */
    Optional<String> readAll(String relative) {
        try {
            return Optional.of(Files.readString(path(relative)));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** The names in a directory, sorted, or none. */
    List<String> list(String relative) {
        Path dir = path(relative);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<String> names = new ArrayList<>(s.map(p -> p.getFileName().toString()).toList());
            names.sort(null);
            return names;
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    /** Where a link leads, resolved, or empty when it is broken or missing. */
    Optional<Path> realPath(String relative) {
        try {
            return Optional.of(path(relative).toRealPath());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    boolean exists(String relative) {
        return Files.exists(path(relative));
    }

    /** Whether the entry itself exists, a link counting even when what it leads to does not. */
    boolean entryExists(String relative) {
        return Files.exists(path(relative), java.nio.file.LinkOption.NOFOLLOW_LINKS);
    }
}
