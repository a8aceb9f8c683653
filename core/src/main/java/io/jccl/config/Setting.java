// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import io.jccl.JcclException;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One row of the settings table ({@link Settings}): a {@code JCCL_*} variable, how its text is read
 * and written back, which values it allows, its default, whether rank 0's value holds for every
 * rank, and the line that documents it. Rows are built once, in {@link Settings}' initializer.
 *
 * @param <T> the value's type; a null value means unset (only where the default is null)
 */
public final class Setting<T> {
    private final String name;
    private final Function<String, T> parser;
    private final Function<T, String> format;
    private final String allowed;
    private Predicate<T> valid = v -> true;
    private Supplier<T> initial = () -> null;
    private String defaultDoc;
    private boolean shared;
    private String doc = "";
    private int index = -1;

    /** A parser's complaint that says more than the row's {@code allowed} (an unknown name in a list). */
    static final class Problem extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message);
        }
    }

    /**
     * @param parser  reads the variable's (stripped, non-blank) text; throws IllegalArgumentException
     *                (a {@link Problem} where it can say what is wrong better than {@code allowed})
     * @param format  writes a value as text {@code parser} reads back to the same value
     * @param allowed what the values may be, for errors ("must be ...")
     */
    Setting(String name, Function<String, T> parser, Function<T, String> format, String allowed) {
        this.name = name;
        this.parser = parser;
        this.format = format;
        this.allowed = allowed;
    }

    Setting<T> valid(Predicate<T> test) {
        this.valid = test;
        return this;
    }

    Setting<T> initial(Supplier<T> value) {
        this.initial = value;
        return this;
    }

    /** What the table says the default is, where the value's own text does not say it (a computed default). */
    Setting<T> defaultDoc(String text) {
        this.defaultDoc = text;
        return this;
    }

    /** Rank 0's value holds for every rank: it travels at init (engine.host.SharedSettings). */
    Setting<T> shared() {
        this.shared = true;
        return this;
    }

    Setting<T> doc(String line) {
        this.doc = line;
        return this;
    }

    void index(int i) {
        this.index = i;
    }

    int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public boolean isShared() {
        return shared;
    }

    /** The user guide's line (Markdown). */
    public String doc() {
        return doc;
    }

    /** The default as the user guide's table states it. */
    public String defaultText() {
        if (defaultDoc != null) {
            return defaultDoc;
        }
        T v = initial.get();
        return v == null ? "unset" : format.apply(v);
    }

    /** The default value (null: unset). */
    public T initialValue() {
        return initial.get();
    }

    /** {@code value} as the variable's text; null for unset. */
    public String format(T value) {
        return value == null ? null : format.apply(value);
    }

    /** Reads {@code text} (not blank) as the variable would be read, checked. */
    public T parse(String text) {
        return parse(text, name);
    }

    /** NCCL's name for this variable ({@code JCCL_ALGO}: {@code NCCL_ALGO}), read where this one is unset. */
    public String ncclName() {
        return "NCCL_" + name.substring("JCCL_".length());
    }

    /** As {@link #parse(String)}, an error naming {@code variable} (the NCCL name it came from). */
    T parse(String text, String variable) {
        String t = text.strip();
        T v;
        try {
            v = parser.apply(t);
        } catch (Problem e) {
            throw invalid(variable, t, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw invalid(variable, t, allowed);
        }
        return check(v, t, variable);
    }

    /** {@code value} if this variable allows it; else a JcclException naming the variable, the value and what is allowed. */
    public T check(T value) {
        return check(value, value == null ? null : format.apply(value), name);
    }

    private T check(T value, String text, String variable) {
        if (value == null ? initial.get() != null : !valid.test(value)) {
            throw invalid(variable, text, allowed);
        }
        return value;
    }

    private static JcclException invalid(String variable, String text, String problem) {
        return JcclException.invalidArgument(JcclException.NO_RANK, variable, (text == null ? "is null" : "is '" + text + "'")
                + ": " + problem);
    }

    /** Unchecked cast of a value held for this row (Values keeps them as Objects). */
    @SuppressWarnings("unchecked")
    T cast(Object value) {
        return (T) value;
    }

    @Override
    public String toString() {
        return name;
    }
}
