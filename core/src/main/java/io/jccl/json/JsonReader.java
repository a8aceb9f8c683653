// SPDX-License-Identifier: Apache-2.0
package io.jccl.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259) into plain Java values: objects become {@code Map<String, Object>}
 * (in document order), arrays {@code List<Object>}, numbers {@code Double} (or {@code Long} when
 * written as an integer that fits), strings, booleans and null. Errors name the line and column.
 * Nesting is bounded so that a hostile file cannot exhaust the stack.
 *
 * <pre>{@code
 * Map<String, Object> doc = JsonReader.object("{\"a\": [1, 2.5]}");
 * }</pre>
 */
public final class JsonReader {
    private static final int MAX_DEPTH = 64;

    private final String s;
    private int i;
    private int depth;

    private JsonReader(String s) {
        this.s = s;
    }

    /** Parses a document whose top level is any value. */
    public static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        r.space();
        Object v = r.value();
        r.space();
        if (r.i != r.s.length()) {
            throw r.error("text after the end of the document");
        }
        return v;
    }

    /** Parses a document whose top level is an object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String text) {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("JSON: the document is not an object");
        }
        return (Map<String, Object>) v;
    }

    private Object value() {
        if (i >= s.length()) {
            throw error("unexpected end of the document");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected '" + c + "'");
            }
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        elements('}', () -> {
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String k = string();
            space();
            expect(':');
            space();
            if (m.put(k, value()) != null) {
                throw error("member '" + k + "' appears twice");
            }
        });
        return m;
    }

    private List<Object> array() {
        List<Object> a = new ArrayList<>();
        elements(']', () -> a.add(value()));
        return a;
    }

    /** Reads the elements of the object or array opening here, up to {@code close}, each by {@code element}. */
    private void elements(char close, Runnable element) {
        enter();
        i++;
        space();
        if (peek() == close) {
            i++;
            depth--;
            return;
        }
        while (true) {
            space();
            element.run();
            space();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect(close);
            depth--;
            return;
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
    }

    private String string() {
        i++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                throw error("unterminated escape");
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    i += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Object number() {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        digits();
        boolean integer = true;
        if (peek() == '.') {
            integer = false;
            i++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integer = false;
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            digits();
        }
        String t = s.substring(start, i);
        if (integer) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException tooLong) {
                // fall through to a double
            }
        }
        return Double.parseDouble(t);
    }

    private void digits() {
        int start = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == start) {
            throw error("expected a digit");
        }
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, i)) {
            throw error("unexpected text");
        }
        i += word.length();
        return v;
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private void space() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\r' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int col = 1;
        for (int k = 0; k < Math.min(i, s.length()); k++) {
            if (s.charAt(k) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new IllegalArgumentException("JSON line " + line + ", column " + col + ": " + what);
    }
}
