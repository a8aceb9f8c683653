// SPDX-License-Identifier: Apache-2.0
/*
 * Writes the host engine's element-wise reduction kernels (io.jccl.engine.host's Float32Kernel,
 * Int8Kernel, Float16Kernel, ..., VectorFloat64Kernel) from the templates beside this file; the
 * build runs it in generate-sources (core/pom.xml) with the toolchain's JDK as a single-file source
 * program, into target/generated-sources/kernels, and nothing it writes is committed. The kernels
 * cannot share their loops at run time: each method must stay one plain counted loop compiled for
 * one (type, operation) pair (Kernel's Javadoc says why), so they share them here instead, and a
 * loop is changed once, in the template, with what really differs per type written as that type's
 * parameters. Usage: java Gen.java OUTPUT_ROOT TEMPLATE...
 */

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The template language. A template is a list of sections, each starting with a line of its own:
 * <ul>
 * <li>{@code #params NAME [: PARENT]}: a set of parameters, one a line ({@code name = text}, lines
 * starting with a blank continue the text on a new line); {@code name(p, q) = text} takes arguments,
 * {@code $p} standing for the first one; {@code unsigned name... = text} is the definition used in
 * the unsigned reading of the class (below). A set has its parent's parameters unless it redefines
 * them.
 * <li>{@code #class NAME [: PARENT]}: the same, and a class NAME is written from the {@code #file}
 * text with these parameters ({@code $name} is NAME).
 * <li>{@code #define NAME(p, ...)} to {@code #end}: a parameter of several lines, shared by the
 * classes.
 * <li>{@code #file}: the rest is the text of each class.
 * </ul>
 * In a text, {@code $name} is the parameter's text, {@code $name(x, y)} its text with the arguments
 * in place, both expanded again; where a parameter's value has several lines, they keep the
 * indentation of the line it stands in. In a definition, {@code ($p)} not following a name (so not a
 * call) keeps its parentheses only where the argument has an operator outside parentheses:
 * {@code (byte) ($v)} gives {@code (byte) Math.min(x, y)} and {@code (byte) (x + y)}. Lines
 * {@code #if NAME}, {@code #else} and {@code #end} keep the lines between them where the class sets
 * NAME to anything but {@code no}; {@code ##} starts a note, which is left out. A class with
 * {@code unsigned} definitions serves both signednesses: a line of its text that reads differently
 * with them is written as the template's {@code signs(u, s)} block, with the two readings.
 */
public final class Gen {
    private static final Pattern SECTION = Pattern.compile("#(params|class) (\\w+)(?: : (\\w+))?");
    private static final Pattern DEFINE = Pattern.compile("#define (\\w+)\\(([\\w, ]*)\\)");
    private static final Pattern DEFINITION = Pattern.compile("(unsigned )?(\\w+)(?:\\(([\\w, ]*)\\))? = ?(.*)");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern GROUPED = Pattern.compile("\\(\\$(\\w+)\\)");
    private static final String OPERATORS = "+-*/%&|^<>=?:";

    /** A parameter: its argument names (none for a plain value) and its text. */
    record Def(List<String> params, String body) {
    }

    /** A #define: its argument names and its lines, #if lines among them. */
    record Block(List<String> params, List<String> lines) {
    }

    /** A #params or #class section. */
    static final class Params {
        final String name;
        final Params parent;
        final Map<String, Def> plain = new HashMap<>();
        final Map<String, Def> unsigned = new HashMap<>();

        Params(String name, Params parent) {
            this.name = name;
            this.parent = parent;
        }

        Def find(String key, boolean unsignedReading) {
            if (unsignedReading) {
                for (Params p = this; p != null; p = p.parent) {
                    if (p.unsigned.containsKey(key)) {
                        return p.unsigned.get(key);
                    }
                }
            }
            for (Params p = this; p != null; p = p.parent) {
                if (p.plain.containsKey(key)) {
                    return p.plain.get(key);
                }
            }
            return null;
        }

        boolean servesUnsigned() {
            for (Params p = this; p != null; p = p.parent) {
                if (!p.unsigned.isEmpty()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Where a text is expanded: the class, which reading, and the arguments of the definition. */
    record Scope(Params cls, boolean unsignedReading, Map<String, String> args) {
    }

    private final Path source;
    private final Map<String, Params> sets = new LinkedHashMap<>();
    private final List<Params> classes = new ArrayList<>();
    private final Map<String, Block> defines = new HashMap<>();
    private List<String> file;

    private Gen(Path source) throws IOException {
        this.source = source;
        parse(Files.readAllLines(source));
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: java Gen.java OUTPUT_ROOT TEMPLATE...");
        }
        Path root = Path.of(args[0]);
        Map<Path, String> written = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            new Gen(Path.of(args[i])).generate(root, written);
        }
        // A class taken out of a template must not linger in the output until the next clean.
        if (Files.isDirectory(root)) {
            try (Stream<Path> old = Files.walk(root)) {
                for (Path p : old.filter(p -> p.toString().endsWith(".java") && !written.containsKey(p)).toList()) {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<Path, String> e : written.entrySet()) {
            // Unchanged files keep their time stamp, so the compiler does not redo the module.
            if (!Files.exists(e.getKey()) || !Files.readString(e.getKey()).equals(e.getValue())) {
                Files.createDirectories(e.getKey().getParent());
                Files.writeString(e.getKey(), e.getValue());
            }
        }
    }

    private void parse(List<String> lines) {
        Params current = null;
        Map<String, Def> lastSet = null;
        String lastName = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("##")) {
                continue;
            }
            Matcher m;
            if ((m = SECTION.matcher(line)).matches()) {
                Params parent = m.group(3) == null ? null : sets.get(m.group(3));
                if (m.group(3) != null && parent == null) {
                    throw error(i, "no set " + m.group(3) + " before this line");
                }
                if (sets.containsKey(m.group(2))) {
                    throw error(i, m.group(2) + " is defined twice");
                }
                current = new Params(m.group(2), parent);
                sets.put(current.name, current);
                if (m.group(1).equals("class")) {
                    current.plain.put("name", new Def(List.of(), current.name));
                    classes.add(current);
                }
                lastName = null;
            } else if ((m = DEFINE.matcher(line)).matches()) {
                List<String> body = new ArrayList<>();
                int depth = 0;
                for (i++; depth > 0 || !lines.get(i).equals("#end"); i++) {
                    String l = lines.get(i);
                    depth += l.startsWith("#if ") ? 1 : l.equals("#end") ? -1 : 0;
                    if (!l.startsWith("##")) {
                        body.add(l);
                    }
                }
                defines.put(m.group(1), new Block(names(m.group(2)), body));
                current = null;
            } else if (line.equals("#file")) {
                file = lines.subList(i + 1, lines.size()).stream().filter(l -> !l.startsWith("##")).toList();
                break;
            } else if (line.isBlank()) {
                lastName = null;
            } else if (current == null) {
                throw error(i, "outside a section");
            } else if (Character.isWhitespace(line.charAt(0)) && lastName != null) {
                Def last = lastSet.get(lastName);
                lastSet.put(lastName, new Def(last.params(), last.body() + "\n" + line.strip()));
            } else if ((m = DEFINITION.matcher(line)).matches()) {
                lastSet = m.group(1) == null ? current.plain : current.unsigned;
                lastName = m.group(2);
                lastSet.put(lastName, new Def(names(m.group(3)), m.group(4)));
            } else {
                throw error(i, "not a parameter: " + line);
            }
        }
        if (file == null) {
            throw new IllegalArgumentException(source + ": no #file section");
        }
    }

    private static List<String> names(String list) {
        return list == null || list.isBlank() ? List.of() : List.of(list.strip().split("\\s*,\\s*"));
    }

    private IllegalArgumentException error(int line, String what) {
        return new IllegalArgumentException(source + ":" + (line + 1) + ": " + what);
    }

    private void generate(Path root, Map<Path, String> written) {
        for (Params cls : classes) {
            Scope signed = new Scope(cls, false, Map.of());
            Scope unsigned = new Scope(cls, true, Map.of());
            StringBuilder out = new StringBuilder("// SPDX-License-Identifier: Apache-2.0\n// Generated at build time by core/src/build/kernels/Gen.java from "
                    + source.getFileName() + " there;\n// change the template, not this file.\n");
            for (String line : select(file, cls)) {
                String text = expand(line, signed);
                if (cls.servesUnsigned() && !text.equals(expand(line, unsigned))) {
                    String indent = line.substring(0, line.length() - line.stripLeading().length());
                    text = indent(indent, call("signs", List.of(expand(line.strip(), unsigned),
                            expand(line.strip(), signed)), signed));
                }
                out.append(text).append('\n');
            }
            String java = out.toString().replaceAll("[ \t]+\n", "\n");
            Matcher pkg = PACKAGE.matcher(java);
            if (!pkg.find()) {
                throw new IllegalArgumentException(source + ": class " + cls.name + " has no package line");
            }
            Path path = root.resolve(pkg.group(1).replace('.', '/')).resolve(cls.name + ".java");
            if (written.put(path, java) != null) {
                throw new IllegalArgumentException(source + ": " + cls.name + " is written twice");
            }
        }
    }

    /** The lines that the class's #if, #else and #end keep, without those lines. */
    private List<String> select(List<String> lines, Params cls) {
        List<String> kept = new ArrayList<>();
        List<Boolean> open = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("#if ")) {
                Def d = cls.find(line.substring(4).strip(), false);
                open.add(d != null && !d.body().equals("no"));
            } else if (line.equals("#else")) {
                open.set(open.size() - 1, !open.getLast());
            } else if (line.equals("#end")) {
                open.removeLast();
            } else if (!open.contains(false)) {
                kept.add(line);
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalArgumentException(source + ": an #if without its #end");
        }
        return kept;
    }

    private String expand(String text, Scope scope) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$') {
                int j = i + 1;
                while (j < text.length() && Character.isLetterOrDigit(text.charAt(j))) {
                    j++;
                }
                String key = text.substring(i + 1, j);
                String value;
                if (scope.args().containsKey(key)) {
                    value = scope.args().get(key);
                } else if (definition(key, scope).params().isEmpty()) {
                    value = call(key, List.of(), scope);
                } else {
                    // Only a parameter that takes arguments takes the parentheses after it.
                    if (j == text.length() || text.charAt(j) != '(') {
                        throw new IllegalArgumentException(source + ": $" + key + " without its arguments in: " + text);
                    }
                    int close = closing(text, j);
                    List<String> args = split(text.substring(j + 1, close)).stream().map(a -> expand(a.strip(), scope)).toList();
                    value = call(key, args, scope);
                    j = close + 1;
                }
                // The lines after the first keep the indentation (or comment's stars) of this one.
                String prefix = out.substring(out.lastIndexOf("\n") + 1).replaceAll("[^\\s*]", " ");
                out.append(value.replace("\n", "\n" + prefix));
                i = j;
            } else if (c == '(' && (i == 0 || !Character.isJavaIdentifierPart(text.charAt(i - 1)))
                    && grouped(text, i, scope) != null) {
                String arg = grouped(text, i, scope);
                out.append(needsParentheses(arg) ? "(" + arg + ")" : arg);
                i = text.indexOf(')', i) + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The argument in "($p)" at i, where p is an argument of the definition being expanded. */
    private static String grouped(String text, int i, Scope scope) {
        Matcher m = GROUPED.matcher(text).region(i, text.length());
        return m.lookingAt() ? scope.args().get(m.group(1)) : null;
    }

    /** The definition of a parameter (as the scope's class and reading have it). */
    private Def definition(String key, Scope scope) {
        if (defines.containsKey(key)) {
            Block b = defines.get(key);
            return new Def(b.params(), String.join("\n", select(b.lines(), scope.cls())));
        }
        Def d = scope.cls().find(key, scope.unsignedReading());
        if (d == null) {
            throw new IllegalArgumentException(source + ": class " + scope.cls().name + " has no parameter " + key);
        }
        return d;
    }

    /** The parameter's text, with the given arguments (expanded in the caller's scope). */
    private String call(String key, List<String> args, Scope scope) {
        Def d = definition(key, scope);
        if (args.size() != d.params().size()) {
            throw new IllegalArgumentException(source + ": $" + key + " takes " + d.params().size() + " arguments, given " + args.size());
        }
        Map<String, String> bound = new HashMap<>();
        for (int k = 0; k < args.size(); k++) {
            bound.put(d.params().get(k), args.get(k));
        }
        return expand(d.body(), new Scope(scope.cls(), scope.unsignedReading(), bound));
    }

    private static int closing(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            depth += text.charAt(i) == '(' ? 1 : text.charAt(i) == ')' ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parentheses in: " + text);
    }

    /** The arguments of a call, split at the commas outside parentheses. */
    private static List<String> split(String list) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                parts.add(list.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(list.substring(start));
        return parts;
    }

    private static boolean needsParentheses(String expression) {
        int depth = 0;
        for (char c : expression.toCharArray()) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0 && OPERATORS.indexOf(c) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The text with every line starting with the prefix. */
    private static String indent(String prefix, String text) {
        return prefix + text.replace("\n", "\n" + prefix);
    }
}
