// SPDX-License-Identifier: Apache-2.0
package io.jccl.json;

/**
 * A minimal JSON writer, enough for jccl's reports and tuning tables: objects, arrays, strings, integers
 * and finite numbers (a NaN or an infinity, which JSON cannot hold, is written as null). It tracks
 * only whether a comma is due, so callers must nest begin and end calls properly.
 */
public final class JsonWriter {
    private final StringBuilder b = new StringBuilder();
    private boolean needComma;
    private int depth;

    public JsonWriter beginObject() {
        return open('{');
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        return open('[');
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** Starts a member of the current object; a value call must follow. */
    public JsonWriter name(String name) {
        separate();
        string(name);
        b.append(':');
        needComma = false;
        return this;
    }

    public JsonWriter value(String s) {
        separate();
        if (s == null) {
            b.append("null");
        } else {
            string(s);
        }
        needComma = true;
        return this;
    }

    public JsonWriter value(long v) {
        separate();
        b.append(v);
        needComma = true;
        return this;
    }

    public JsonWriter value(double v) {
        separate();
        b.append(Double.isFinite(v) ? Double.toString(v) : "null");
        needComma = true;
        return this;
    }

    public JsonWriter nullValue() {
        separate();
        b.append("null");
        needComma = true;
        return this;
    }

    private JsonWriter open(char c) {
        separate();
        b.append(c);
        depth++;
        needComma = false;
        newline();
        return this;
    }

    private JsonWriter close(char c) {
        depth--;
        newline();
        b.append(c);
        needComma = true;
        return this;
    }

    private void separate() {
        if (needComma) {
            b.append(',');
            newline();
        }
    }

    private void newline() {
        b.append('\n');
        b.append("  ".repeat(Math.max(0, depth)));
    }

    private void string(String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /** The document, ending with a newline. */
    @Override
    public String toString() {
        return b.toString() + "\n";
    }
}
