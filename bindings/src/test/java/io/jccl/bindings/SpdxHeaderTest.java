// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every source file of the repository carries the Apache-2.0 SPDX tag near its top, so that each
 * file (also one copied out of the sources jar) says its licence. It lives in bindings, the first
 * module the build runs, and walks the whole tree above it: Java, C, C++, CUDA and PTX, the
 * kernel templates, Python and shell scripts (those without a suffix by their {@code #!} line).
 */
class SpdxHeaderTest {
    private static final String TAG = "SPDX-License-Identifier: Apache-2.0";
    /** The comment that carries the tag, by file suffix. */
    private static final Map<String, String> COMMENT = Map.of(
            "java", "// ", "c", "// ", "cpp", "// ", "h", "// ", "cu", "// ", "ptx", "// ",
            "template", "## ", "py", "# ", "sh", "# ");

    @Test
    void everySourceFileCarriesTheTag() throws IOException {
        // surefire runs in the module's folder; the repository is the folder above it
        Path root = Path.of("").toAbsolutePath().getParent();
        assertThat(root.resolve("pom.xml")).exists();
        List<String> missing = new ArrayList<>();
        List<Path> checked = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skip = !dir.equals(root)
                        && (name.equals("target") || (name.startsWith(".") && !name.equals(".ci")));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String comment = commentOf(file);
                if (comment != null) {
                    checked.add(file);
                    List<String> head = Files.readAllLines(file, StandardCharsets.ISO_8859_1).stream().limit(3).toList();
                    if (!head.contains(comment + TAG)) {
                        missing.add(root.relativize(file) + " (wants '" + comment + TAG + "' in its first lines)");
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
        // the walk found the sources at all: the four modules' Java, the kernels, the scripts
        assertThat(checked).hasSizeGreaterThan(400)
                .contains(root.resolve("jccl"), root.resolve(".ci/run"),
                        root.resolve("kernels-ptx/src/main/cuda/jccl_kernels.cu"),
                        root.resolve("kernels-ptx/src/main/resources/io/jccl/kernels/jccl.ptx"));
        assertThat(missing).as("source files without the SPDX tag").isEmpty();
    }

    /** The comment the tag takes in this file, or null when the file is not a source file. */
    private static String commentOf(Path file) throws IOException {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            return COMMENT.get(name.substring(dot + 1));
        }
        // a script without a suffix (./jccl, .ci/run)
        try (var in = Files.newInputStream(file)) {
            byte[] two = in.readNBytes(2);
            return two.length == 2 && two[0] == '#' && two[1] == '!' ? "# " : null;
        }
    }
}
