// SPDX-License-Identifier: Apache-2.0
package io.jccl.config;

import io.jccl.Config;
import io.jccl.JcclException;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
    /** What reading the environment has to tell: logged once per process (io.jccl.log.Log). */
    private final EnvironmentNotes notes;

    private Values(Object[] values, long given, EnvironmentNotes notes) {
        this.values = values;
        this.given = given;
        this.notes = notes;
    }

    /**
     * What {@link #fromVariables} has to say about the variables it read.
     *
     * @param info        INFO lines: an {@code NCCL_} name that gave a value, a {@code JCCL_} one that
     *                    won over a different {@code NCCL_} one
     * @param unknownNccl the {@code NCCL_*} variables set that jccl does not read, sorted
     */
    public record EnvironmentNotes(List<String> info, List<String> unknownNccl) {
        public EnvironmentNotes {
            info = List.copyOf(info);
            unknownNccl = List.copyOf(unknownNccl);
        }

        static final EnvironmentNotes NONE = new EnvironmentNotes(List.of(), List.of());

        /** The WARN line naming {@link #unknownNccl}, or null where there are none. */
        public String unknownWarning() {
            return unknownNccl.isEmpty() ? null : "jccl does not read " + String.join(", ", unknownNccl)
                    + " (it reads NCCL_ names only for its own settings, docs/user-guide.md)";
        }
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
        return new Values(v, 0, EnvironmentNotes.NONE);
    }

    /**
     * The defaults, with every row whose variable {@code env} has read from it (blank ones count as
     * unset), or else NCCL's name for it ({@code NCCL_ALGO} for {@code JCCL_ALGO}).
     */
    public static Values fromVariables(Map<String, String> env) {
        Values v = defaults();
        List<String> info = new ArrayList<>();
        Set<String> known = new HashSet<>();
        for (Setting<?> s : Settings.ALL) {
            known.add(s.ncclName());
            String mine = env.get(s.name());
            String nccl = env.get(s.ncclName());
            boolean ncclSet = nccl != null && !nccl.isBlank();
            if (mine != null && !mine.isBlank()) {
                v = v.withText(s, mine);
                if (ncclSet && !sameValue(s, v.get(s), nccl)) {
                    info.add(s.name() + "=" + mine.strip() + " wins over " + s.ncclName() + "=" + nccl.strip());
                }
            } else if (ncclSet) {
                v = v.withNccl(s, nccl);
                info.add(s.ncclName() + "=" + nccl.strip() + " read as " + s.name());
            }
        }
        List<String> unknown = new TreeSet<>(env.keySet()).stream().filter(k -> k.startsWith("NCCL_") && !known.contains(k))
                .toList();
        return new Values(v.values, v.given, new EnvironmentNotes(info, unknown));
    }

    /** Whether {@code ncclText} reads as {@code value} (text that does not read at all differs). */
    private static <T> boolean sameValue(Setting<T> s, Object value, String ncclText) {
        try {
            return Objects.equals(value, s.parse(ncclText, s.ncclName()));
        } catch (JcclException e) {
            return false;
        }
    }

    private <T> Values withNccl(Setting<T> s, String text) {
        return with(s, s.parse(text, s.ncclName()), true);
    }

    /** What reading the environment had to say; none for values not read from one. */
    public EnvironmentNotes notes() {
        return notes;
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
        return new Values(v, isGiven ? given | 1L << s.index() : given & ~(1L << s.index()), notes);
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
        return new Values(v, g, notes);
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
