// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the bindings against the real headers. For each binding package the test writes a C++
 * probe from the Java classes themselves (every struct layout, function descriptor, function-pointer
 * member and constant found by {@link BindingClasses}), compiles it with g++ against the header and
 * runs it. The probe prints what the compiler knows: each struct's size and alignment, each
 * member's offset, size and kind, each function's return and parameter types (size and kind:
 * integer, pointer, float, struct, void, read from the prototype with C++ type traits), the symbol
 * each name expands to ({@code cuMemAlloc} → {@code cuMemAlloc_v2}), and each constant's value. Any
 * difference from the Java side fails, with all differences listed.
 */
class HeaderProbeTest {
    /** The headers each binding package is proved against; a package missing here fails the test. */
    private static final Map<String, List<String>> HEADERS = Map.of(
            "cuda", List.of("cuda.h"),
            "ibverbs", List.of("infiniband/verbs.h"),
            "libc", List.of("string.h", "sys/uio.h", "sched.h"),
            "nvml", List.of("nvml.h"));

    @TempDir
    Path work;

    @Test
    void everyBindingPackageHasAHeader() {
        assertThat(BindingClasses.packages()).containsExactlyInAnyOrderElementsOf(HEADERS.keySet());
    }

    @Test
    void cudaBindingsMatchCudaH() throws Exception {
        Optional<Path> include = NativePrerequisites.cudaInclude();
        NativePrerequisites.require(include.isPresent(),
                "cuda.h not found (-Djccl.cuda.include, $CUDA_HOME/include, /usr/local/cuda/include)");
        Result r = probe("cuda", include.get());
        assertThat(r.functions).as("CUDA functions checked").isGreaterThanOrEqualTo(75);
        assertThat(r.structs).as("CUDA structs checked").isEqualTo(2);
    }

    @Test
    void ibverbsBindingsMatchVerbsH() throws Exception {
        Optional<Path> include = NativePrerequisites.verbsInclude();
        NativePrerequisites.require(include.isPresent(),
                "infiniband/verbs.h not found (Debian package libibverbs-dev, which .ci/run installs)");
        Result r = probe("ibverbs", include.get());
        assertThat(r.functions).as("ibverbs functions checked").isGreaterThanOrEqualTo(27);
        assertThat(r.structs).as("ibverbs structs checked").isGreaterThanOrEqualTo(20);
        assertThat(r.functionPointers).as("ops-table members checked").isEqualTo(5);
    }

    @Test
    void libcBindingsMatchItsHeaders() throws Exception {
        Result r = probe("libc", Path.of("/usr/include"));
        assertThat(r.functions).isEqualTo(4);
        assertThat(r.structs).as("struct iovec").isEqualTo(1);
    }

    @Test
    void nvmlBindingsMatchNvmlH() throws Exception {
        Optional<Path> include = NativePrerequisites.nvmlInclude();
        NativePrerequisites.require(include.isPresent(),
                "nvml.h not found (Debian package libnvidia-ml-dev, which .ci/run installs)");
        Result r = probe("nvml", include.get());
        assertThat(r.functions).as("NVML functions checked").isEqualTo(7);
        assertThat(r.structs).as("nvmlPciInfo_st").isEqualTo(1);
        assertThat(r.constants).as("NVML constants checked").isGreaterThanOrEqualTo(30);
    }

    /** What a probe run checked, by kind. */
    private record Result(int structs, int members, int functions, int functionPointers, int constants) {}

    private Result probe(String pkg, Path includeDir) throws IOException, InterruptedException {
        Optional<Path> cxx = NativePrerequisites.cxx();
        NativePrerequisites.require(cxx.isPresent(), "no C++ compiler (g++ or $CXX) to build the header probe");

        Map<String, String> expected = new LinkedHashMap<>();
        StringBuilder body = new StringBuilder();
        int structs = 0, members = 0, functions = 0, pointers = 0, constants = 0;
        for (Class<?> c : BindingClasses.classes(pkg)) {
            GroupLayout layout = BindingClasses.layout(c);
            if (layout != null) {
                structs++;
                String tag = layout.name().orElseThrow();
                String type = (layout instanceof UnionLayout ? "union " : "struct ") + tag;
                body.append(line("S " + tag + " %zu %zu", "sizeof(" + type + ")", "alignof(" + type + ")"));
                expected.put("S " + tag, layout.byteSize() + " " + layout.byteAlignment());
                members += walk(tag, type, layout, "", 0, body, expected);
                for (BindingClasses.FunctionPointer fp : BindingClasses.functionPointers(c)) {
                    pointers++;
                    String key = tag + "." + fp.member();
                    body.append("    sig<std::remove_pointer_t<decltype(((" + type + " *) nullptr)->" + fp.member()
                            + ")>>::print(\"" + key + "\");\n");
                    expectSignature(key, fp.descriptor(), expected);
                }
            }
            for (BindingClasses.Function f : BindingClasses.functions(c)) {
                functions++;
                body.append("    sig<decltype(" + f.symbol() + ")>::print(\"" + f.symbol() + "\");\n");
                expectSignature(f.symbol(), f.descriptor(), expected);
                String api = f.symbol().replaceFirst("_v[0-9]+$", "");
                body.append(line("N " + f.symbol() + " %s", "XSTR(" + api + ")"));
                expected.put("N " + f.symbol(), f.symbol());
            }
            if (!BindingClasses.functions(c).isEmpty()) {
                for (Map.Entry<String, Long> k : BindingClasses.constants(c).entrySet()) {
                    constants++;
                    body.append(line("K " + k.getKey() + " %lld", "(long long) (" + k.getKey() + ")"));
                    expected.put("K " + k.getKey(), k.getValue().toString());
                }
            }
        }

        Path source = work.resolve("probe_" + pkg + ".cpp");
        String includes = HEADERS.get(pkg).stream().map(h -> "#include <" + h + ">\n").collect(Collectors.joining());
        Files.writeString(source, PRELUDE.replace("#include <HEADER>\n", includes) + body + "    return 0;\n}\n");
        Path exe = work.resolve("probe_" + pkg);
        run(List.of(cxx.get().toString(), "-std=c++17", "-I" + includeDir, source.toString(), "-o", exe.toString()),
                "compiling " + source);
        Map<String, String> actual = new HashMap<>();
        for (String l : run(List.of(exe.toString()), "running the probe").split("\n")) {
            if (l.isBlank()) {
                continue;
            }
            String[] p = l.split(" ", 3);
            actual.put(p[0] + " " + p[1], p[2]);
        }
        List<String> wrong = new ArrayList<>();
        expected.forEach((key, want) -> {
            String got = actual.get(key);
            if (!matches(want, got)) {
                wrong.add(key + ": Java says " + want + ", " + HEADERS.get(pkg) + " says " + got);
            }
        });
        assertThat(wrong).as("differences between the %s bindings and %s (kinds: i integer, p pointer, f float,"
                + " s struct, a array, v void)", pkg, HEADERS.get(pkg)).isEmpty();
        System.out.printf("[jccl] header probe %s: %d structs, %d members, %d functions, %d function pointers,"
                + " %d constants match %s%n", pkg, structs, members, functions, pointers, constants, HEADERS.get(pkg));
        return new Result(structs, members, functions, pointers, constants);
    }

    /** Expectations for each named member of {@code group} (anonymous groups are looked through). */
    private static int walk(String tag, String type, GroupLayout group, String prefix, long base,
            StringBuilder body, Map<String, String> expected) {
        int count = 0;
        long offset = 0;
        for (MemoryLayout m : group.memberLayouts()) {
            long at = base + (group instanceof StructLayout ? offset : 0);
            if (group instanceof StructLayout) {
                offset += m.byteSize();
            }
            if (m instanceof PaddingLayout) {
                continue;
            }
            String name = m.name().orElseThrow(() -> new AssertionError(tag + ": unnamed member " + m));
            if (name.startsWith("$anon$")) {
                count += walk(tag, type, (GroupLayout) m, prefix, at, body, expected);
                continue;
            }
            String path = prefix + name;
            String member = "((" + type + " *) nullptr)->" + path;
            count++;
            body.append(line("M " + tag + ":" + path + " %zu %zu %c",
                    "offsetof(" + type + ", " + path + ")", "sizeof(" + member + ")", "kind<decltype(" + member + ")>()"));
            String kind = switch (m) {
                case ValueLayout v -> String.valueOf(kind(v));
                case GroupLayout g -> "s";
                // arrays, and opaque types (pthread_mutex_t) laid out as arrays of their alignment unit
                case SequenceLayout s -> "a|s";
                default -> throw new AssertionError(m);
            };
            expected.put("M " + tag + ":" + path, at + " " + m.byteSize() + " " + kind);
            if (m instanceof GroupLayout g) {
                count += walk(tag, type, g, path + ".", at, body, expected);
            }
        }
        return count;
    }

    /** {@code want} equals {@code got}, where a last token "a|s" accepts either kind. */
    private static boolean matches(String want, String got) {
        if (got == null) {
            return false;
        }
        if (want.endsWith(" a|s")) {
            String stem = want.substring(0, want.length() - 3);
            return got.equals(stem + "a") || got.equals(stem + "s");
        }
        return want.equals(got);
    }

    private static void expectSignature(String key, FunctionDescriptor d, Map<String, String> expected) {
        expected.put("R " + key, d.returnLayout().map(HeaderProbeTest::carrier).orElse("0 v"));
        List<MemoryLayout> args = d.argumentLayouts();
        expected.put("C " + key, String.valueOf(args.size()));
        for (int i = 0; i < args.size(); i++) {
            expected.put("A " + key + "#" + i, carrier(args.get(i)));
        }
    }

    private static String carrier(MemoryLayout l) {
        return l.byteSize() + " " + (l instanceof ValueLayout v ? kind(v) : l instanceof GroupLayout ? 's' : '?');
    }

    private static char kind(ValueLayout v) {
        if (v instanceof AddressLayout) {
            return 'p';
        }
        return v.carrier() == float.class || v.carrier() == double.class ? 'f' : 'i';
    }

    private static String line(String format, String... args) {
        return "    std::printf(\"" + format + "\\n\"" + (args.length == 0 ? "" : ", " + String.join(", ", args)) + ");\n";
    }

    private static String run(List<String> command, String what) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(what + ": timed out");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(what + " failed:\n" + text).isZero();
        return text;
    }

    private static final String PRELUDE = """
            // Written by HeaderProbeTest from the Java bindings; see that class.
            #include <HEADER>
            #include <cstddef>
            #include <cstdio>
            #include <type_traits>

            #define STR(x) #x
            #define XSTR(x) STR(x)

            template <class T> constexpr char kind() {
                using U = std::remove_cv_t<T>;
                if constexpr (std::is_void_v<U>) return 'v';
                else if constexpr (std::is_pointer_v<U>) return 'p';
                else if constexpr (std::is_floating_point_v<U>) return 'f';
                else if constexpr (std::is_integral_v<U> || std::is_enum_v<U>) return 'i';
                else if constexpr (std::is_array_v<U>) return 'a';
                else if constexpr (std::is_class_v<U> || std::is_union_v<U>) return 's';
                else return '?';
            }
            template <class T> constexpr std::size_t size() {
                if constexpr (std::is_void_v<T>) return 0; else return sizeof(T);
            }
            template <class F> struct sig;
            template <class R, class... A> struct sig<R(A...)> {
                static void print(const char *name) {
                    std::printf("R %s %zu %c\\n", name, size<R>(), kind<R>());
                    std::printf("C %s %zu\\n", name, sizeof...(A));
                    int i = 0;
                    ((std::printf("A %s#%d %zu %c\\n", name, i++, size<A>(), kind<A>())), ...);
                }
            };
            template <class R, class... A> struct sig<R(A...) noexcept> : sig<R(A...)> {};

            int main() {
            """;
}
