// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import io.jccl.Config;
import io.jccl.JcclException;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A value for every row of the settings table, and whether it was given (read from the
 * environment or set by a {@code with} method) rather than left at its default. Immutable; this is
 * what a {@link Config} holds. Config is public API in another package, so the module's other
 * packages (rank 0's shared settings, the logger) reach a Config's values through {@link #of} and
 * {@link #config}, which Config's initializer binds.
 */
public final class Values {
    private static volatile Function<Config, Values> reader;
    private static volatile Function<Values, Config> maker;

    private final Object[] values;
    /** Bit i: row i was given. */
    private final long given;

    private Values(Object[] values, long given) {
        this.values = values;
        this.given = given;
    }

    /** Called once, by Config's static initializer. */
    public static synchronized void bind(Function<Config, Values> read, Function<Values, Config> make) {
        if (reader != null) {
            throw new IllegalStateException("already bound");
        }
        reader = read;
        maker = make;
    }

    /** {@code c}'s values. */
    public static Values of(Config c) {
        return reader.apply(c);
    }

    /** A Config of these values. */
    public Config config() {
        if (maker == null) {
            try {
                MethodHandles.lookup().ensureInitialized(Config.class);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return maker.apply(this);
    }

    /** Every row at its default, none given. */
    public static Values defaults() {
        Object[] v = new Object[Settings.ALL.size()];
        for (Setting<?> s : Settings.ALL) {
            v[s.index()] = s.initialValue();
        }
        return new Values(v, 0);
    }

    /** The defaults, with every row whose variable {@code env} has read from it (blank ones count as unset). */
    public static Values fromVariables(Map<String, String> env) {
        Values v = defaults();
        for (Setting<?> s : Settings.ALL) {
            String text = env.get(s.name());
            if (text != null) {
                v = v.withText(s, text);
            }
        }
        return v;
    }

    public <T> T get(Setting<T> s) {
        return s.cast(values[s.index()]);
    }

    public boolean given(Setting<?> s) {
        return (given & 1L << s.index()) != 0;
    }

    /** With {@code s} given as {@code value}, checked. */
    public <T> Values with(Setting<T> s, T value) {
        return with(s, value, true);
    }

    /** With {@code s} at {@code value}, checked, counting as given or as a default. */
    public <T> Values with(Setting<T> s, T value, boolean isGiven) {
        Object[] v = values.clone();
        v[s.index()] = s.check(value);
        return new Values(v, isGiven ? given | 1L << s.index() : given & ~(1L << s.index()));
    }

    /** With {@code s} read from {@code text} as from the environment: null or blank resets it to its default. */
    public <T> Values withText(Setting<T> s, String text) {
        return text == null || text.isBlank() ? with(s, s.initialValue(), false) : with(s, s.parse(text), true);
    }

    /** {@code s}'s value as its variable's text; null where it is unset. */
    public String text(Setting<?> s) {
        return format(s);
    }

    private <T> String format(Setting<T> s) {
        return s.format(get(s));
    }

    /** These values with rank 0's shared rows (value and given alike) from {@code rank0}. */
    public Values withSharedOf(Values rank0) {
        Object[] v = values.clone();
        long g = given;
        for (Setting<?> s : Settings.ALL) {
            if (s.isShared()) {
                long bit = 1L << s.index();
                v[s.index()] = rank0.values[s.index()];
                g = (g & ~bit) | (rank0.given & bit);
            }
        }
        return new Values(v, g);
    }

    /** The shared rows: how many, then each one's variable name, whether it was given, and its text (if set). */
    public void writeShared(DataOutput out) throws IOException {
        List<Setting<?>> shared = Settings.ALL.stream().filter(Setting::isShared).toList();
        out.writeInt(shared.size());
        for (Setting<?> s : shared) {
            out.writeUTF(s.name());
            out.writeBoolean(given(s));
            String text = text(s);
            out.writeBoolean(text != null);
            if (text != null) {
                out.writeUTF(text);
            }
        }
    }

    /** These values with the shared rows {@link #writeShared} wrote; IOException for a row this jccl does not share. */
    public Values readShared(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > Settings.ALL.size()) {
            throw new IOException(n + " shared settings");
        }
        Values v = this;
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            Setting<?> s = Settings.named(name);
            if (s == null || !s.isShared()) {
                throw new IOException(name + " is not a shared setting here");
            }
            boolean isGiven = in.readBoolean();
            String text = in.readBoolean() ? in.readUTF() : null;
            try {
                v = v.read(s, text, isGiven);
            } catch (JcclException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return v;
    }

    private <T> Values read(Setting<T> s, String text, boolean isGiven) {
        return with(s, text == null ? null : s.parse(text), isGiven);
    }

    /** The set rows as {@code JCCL_NAME=text}, in the table's order. */
    @Override
    public String toString() {
        List<String> set = new ArrayList<>();
        for (Setting<?> s : Settings.ALL) {
            String text = text(s);
            if (text != null) {
                set.add(s.name() + "=" + text);
            }
        }
        return String.join(", ", set);
    }
}
