// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The bindings found by reflection, so that every check covers a new function, struct or constant
 * without being told: library classes are those with {@code NAME$descriptor()} methods, struct
 * classes those with a static {@code layout()}, function-pointer members the nested classes of a
 * struct with a static {@code descriptor()}, constants the public static final ints and longs of a
 * library class.
 */
public final class BindingClasses {
    private BindingClasses() {}

    /** A bound library function: its symbol, C descriptor and downcall handle accessor. */
    public record Function(Class<?> owner, String symbol, FunctionDescriptor descriptor, Method handleAccessor) {
        public MethodHandle handle() {
            try {
                return (MethodHandle) handleAccessor.invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** A function-pointer member of a struct, with the descriptor jccl calls it through. */
    public record FunctionPointer(String member, FunctionDescriptor descriptor) {}

    /** The sub-packages of io.jccl.bindings that hold bindings ("cuda", "ibverbs", ...). */
    public static List<String> packages() {
        try (Stream<Path> dirs = Files.list(root().resolve("io/jccl/bindings"))) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The top-level classes of io.jccl.bindings.{@code pkg}, by name. */
    public static List<Class<?>> classes(String pkg) {
        Path dir = root().resolve("io/jccl/bindings/" + pkg);
        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.equals("package-info.class"))
                    .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Class<?>> classes = new ArrayList<>();
        for (String n : names) {
            try {
                classes.add(Class.forName("io.jccl.bindings." + pkg + "." + n));
            } catch (ClassNotFoundException e) {
                throw new AssertionError(e);
            }
        }
        return classes;
    }

    private static Path root() {
        try {
            return Path.of(NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    public static List<Function> functions(Class<?> library) {
        List<Function> functions = new ArrayList<>();
        for (Method m : library.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && m.getName().endsWith("$descriptor") && m.getParameterCount() == 0) {
                String symbol = m.getName().substring(0, m.getName().length() - "$descriptor".length());
                try {
                    functions.add(new Function(library, symbol, (FunctionDescriptor) m.invoke(null),
                            library.getMethod(symbol + "$handle")));
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        }
        functions.sort(Comparator.comparing(Function::symbol));
        return functions;
    }

    public static List<Function> functions(String pkg) {
        return classes(pkg).stream().flatMap(c -> functions(c).stream()).toList();
    }

    /** The struct's layout, or null if {@code type} is not a struct class. */
    public static GroupLayout layout(Class<?> type) {
        try {
            Method m = type.getMethod("layout");
            return Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0
                    && GroupLayout.class.isAssignableFrom(m.getReturnType()) ? (GroupLayout) m.invoke(null) : null;
        } catch (NoSuchMethodException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    public static List<FunctionPointer> functionPointers(Class<?> struct) {
        List<FunctionPointer> pointers = new ArrayList<>();
        for (Class<?> nested : struct.getClasses()) {
            try {
                Method m = nested.getMethod("descriptor");
                if (Modifier.isStatic(m.getModifiers())) {
                    pointers.add(new FunctionPointer(nested.getSimpleName(), (FunctionDescriptor) m.invoke(null)));
                }
            } catch (NoSuchMethodException e) {
                // a nested group type, not a function pointer
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        pointers.sort(Comparator.comparing(FunctionPointer::member));
        return pointers;
    }

    /** The C constants of a library class, by name. */
    public static Map<String, Long> constants(Class<?> library) {
        Map<String, Long> constants = new LinkedHashMap<>();
        for (Field f : library.getFields()) {
            int mod = f.getModifiers();
            if (Modifier.isStatic(mod) && Modifier.isFinal(mod) && (f.getType() == int.class || f.getType() == long.class)) {
                try {
                    constants.put(f.getName(), ((Number) f.get(null)).longValue());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return constants;
    }
}
