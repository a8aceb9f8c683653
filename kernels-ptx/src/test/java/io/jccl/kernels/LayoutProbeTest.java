// SPDX-License-Identifier: Apache-2.0
package io.jccl.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The header the kernels are built from, compiled host-side by g++, against {@link WorkLayout}:
 * every struct's size and alignment, every member's offset and size, and every constant (both
 * ways: no #define the Java side lacks, no Java constant the header lacks).
 */
class LayoutProbeTest {
    static String header() {
        return new String(Kernels.resource("jccl_work.h"), StandardCharsets.US_ASCII);
    }

    /** WorkLayout's int and long constants by C name (JCCL_ + the Java name). */
    static Map<String, Long> javaConstants() throws IllegalAccessException {
        Map<String, Long> c = new LinkedHashMap<>();
        for (Field f : WorkLayout.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && (f.getType() == int.class || f.getType() == long.class)) {
                c.put("JCCL_" + f.getName(), ((Number) f.get(null)).longValue());
            }
        }
        return c;
    }

    static String probe(Map<String, Long> constants) {
        StringBuilder b = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n#include \"jccl_work.h\"\nint main(void) {\n");
        for (StructLayout s : WorkLayout.STRUCTS) {
            String t = s.name().orElseThrow();
            b.append("  printf(\"struct ").append(t).append(" %zu %zu\\n\", sizeof(").append(t).append("), _Alignof(")
                    .append(t).append("));\n");
            for (MemoryLayout m : s.memberLayouts()) {
                String n = m.name().orElseThrow();
                b.append("  printf(\"member ").append(t).append('.').append(n).append(" %zu %zu\\n\", offsetof(").append(t)
                        .append(", ").append(n).append("), sizeof(((").append(t).append(" *)0)->").append(n).append("));\n");
            }
        }
        for (String name : constants.keySet()) {
            b.append("  printf(\"const ").append(name).append(" %llu\\n\", (unsigned long long)(").append(name).append("));\n");
        }
        return b.append("  return 0;\n}\n").toString();
    }

    @Test
    void theHeaderMatchesTheJavaLayoutsAndConstants(@TempDir Path dir) throws Exception {
        Optional<Path> cxx = Tools.cxx();
        Tools.require(cxx.isPresent(), "g++ was not found (set CXX, or install g++)");
        Map<String, Long> constants = javaConstants();
        Files.writeString(dir.resolve("jccl_work.h"), header());
        Files.writeString(dir.resolve("probe.cpp"), probe(constants).replace("_Alignof(", "alignof("));
        Tools.Result c = Tools.run(dir, List.of(cxx.get().toString(), "-std=c++17", "-Wall", "-Werror", "-o", "probe", "probe.cpp"));
        assertThat(c.exit()).as(c.output()).isZero();
        Tools.Result r = Tools.run(dir, List.of(dir.resolve("probe").toString()));
        assertThat(r.exit()).as(r.output()).isZero();

        Map<String, String> seen = new LinkedHashMap<>();
        for (String line : r.output().split("\n")) {
            int sp = line.indexOf(' ', line.indexOf(' ') + 1);
            seen.put(line.substring(0, sp), line.substring(sp + 1));
        }
        int checked = 0;
        for (StructLayout s : WorkLayout.STRUCTS) {
            String t = s.name().orElseThrow();
            assertThat(seen.get("struct " + t)).as(t).isEqualTo(s.byteSize() + " " + s.byteAlignment());
            for (MemoryLayout m : s.memberLayouts()) {
                String n = m.name().orElseThrow();
                long off = s.byteOffset(MemoryLayout.PathElement.groupElement(n));
                assertThat(seen.get("member " + t + "." + n)).as(t + "." + n).isEqualTo(off + " " + m.byteSize());
                checked++;
            }
        }
        for (Map.Entry<String, Long> e : constants.entrySet()) {
            assertThat(seen.get("const " + e.getKey())).as(e.getKey()).isEqualTo(Long.toUnsignedString(e.getValue()));
        }
        assertThat(checked).isGreaterThan(40);
    }

    @Test
    void everyDefineOfTheHeaderHasItsJavaConstant() throws Exception {
        Matcher m = Pattern.compile("(?m)^#define (JCCL_\\w+)[ \\t]+\\S").matcher(header());
        TreeSet<String> defines = new TreeSet<>();
        while (m.find()) {
            defines.add(m.group(1));
        }
        assertThat(defines).isEqualTo(new TreeSet<>(javaConstants().keySet()));
    }

    @Test
    void structsHaveNoHiddenPadding() {
        // A Java struct layout without padding members must be as long as its members: the C
        // compiler would otherwise insert padding the probe reports as a different offset.
        for (StructLayout s : WorkLayout.STRUCTS) {
            long sum = s.memberLayouts().stream().mapToLong(MemoryLayout::byteSize).sum();
            assertThat(sum).as(s.name().orElseThrow()).isEqualTo(s.byteSize());
            assertThat(s).isInstanceOf(GroupLayout.class);
        }
    }
}
