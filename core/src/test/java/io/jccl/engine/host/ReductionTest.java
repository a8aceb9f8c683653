// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import static org.assertj.core.api.Assertions.fail;

import io.jccl.DataType;
import io.jccl.RedOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every data type with every operation, against {@link TypeModel}: random inputs, every
 * combination of the pre and post flags, heap and native segments, odd offsets and counts, the
 * in-place and unary forms, empty ranges, and ranges long enough to cross the staging chunks.
 * Results must match bit for bit (any NaN where a NaN is expected). Rerun a failure with
 * {@code -Djccl.test.seed=<seed>}.
 */
class ReductionTest {
    private static final long SEED = Long.getLong("jccl.test.seed", 0x5EED_0001L);
    private static final int GUARD = 16;

    private enum Alias { NONE, DST_IS_A, DST_IS_B }

    private record Layout(String name, boolean heapA, boolean heapB, boolean heapD, boolean unary, Alias alias,
                          long aOff, long bOff, long dOff, int count) {
    }

    private static List<Layout> layouts(DataType type) {
        int crossing = 2 * Reduction.STAGING_BYTES / type.size() + 5;
        return List.of(
                new Layout("native", false, false, false, false, Alias.NONE, 0, 0, 0, 257),
                new Layout("native, odd offsets", false, false, false, false, Alias.NONE, 3, 5, 7, 131),
                new Layout("heap, odd offsets", true, true, true, false, Alias.NONE, 1, 2, 3, 129),
                new Layout("heap a and dst, native b", true, false, true, false, Alias.NONE, 0, 1, 0, 65),
                new Layout("native a, heap b and dst", false, true, false, false, Alias.NONE, 2, 0, 5, 63),
                new Layout("native in place dst == a", false, false, false, false, Alias.DST_IS_A, 0, 0, 0, 100),
                new Layout("native in place dst == b", false, false, false, false, Alias.DST_IS_B, 9, 1, 1, 101),
                new Layout("heap in place dst == b", true, true, true, false, Alias.DST_IS_B, 4, 5, 5, 99),
                new Layout("heap in place dst == a", true, true, true, false, Alias.DST_IS_A, 1, 0, 1, 97),
                new Layout("unary native", false, false, false, true, Alias.NONE, 0, 0, 0, 77),
                new Layout("unary heap, odd offsets", true, false, true, true, Alias.NONE, 3, 0, 1, 33),
                new Layout("unary native in place", false, false, false, true, Alias.DST_IS_A, 1, 0, 1, 50),
                new Layout("unary heap in place", true, false, true, true, Alias.DST_IS_A, 0, 0, 0, 51),
                new Layout("count 0 native", false, false, false, false, Alias.NONE, 0, 0, 0, 0),
                new Layout("count 0 heap", true, true, true, false, Alias.NONE, 1, 1, 1, 0),
                new Layout("count 1", false, false, false, false, Alias.NONE, 1, 1, 1, 1),
                new Layout("heap in place across staging chunks", true, false, true, false, Alias.DST_IS_A, 3, 1, 3, crossing),
                new Layout("native to heap across staging chunks", false, false, true, false, Alias.NONE, 0, 0, 2, crossing));
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (DataType type : DataType.values()) {
            List<RedOp> ops = new ArrayList<>(List.of(RedOp.SUM, RedOp.PROD, RedOp.MIN, RedOp.MAX, RedOp.AVG,
                    RedOp.preMulSum(type.isFloatingPoint() ? 0.5 : 3)));
            if (type.isFloatingPoint()) {
                ops.add(RedOp.preMulSum(1 / 3.0)); // needs rounding into the type
            } else if (!type.isUnsigned()) {
                ops.add(RedOp.preMulSum(-2));
            } else if (type == DataType.UINT32) {
                ops.add(RedOp.preMulSum(4294967295.0));
            } else if (type == DataType.UINT64) {
                ops.add(RedOp.preMulSum(0x1p63 + 2048)); // above Long.MAX_VALUE
            }
            for (RedOp op : ops) {
                cases.add(Arguments.of(type, op, 3));
            }
            cases.add(Arguments.of(type, RedOp.AVG, 8));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} nranks={2}")
    @MethodSource("cases")
    void matchesTheModel(DataType type, RedOp op, int nranks) {
        TypeModel model = TypeModel.of(type);
        Reduction reduction = Reduction.of(type, op, nranks);
        long seed = SEED ^ (type.ordinal() * 0x9E37_79B9_7F4A_7C15L) ^ (op.hashCode() * 31L + nranks);
        SplittableRandom random = new SplittableRandom(seed);
        try (Arena arena = Arena.ofConfined()) {
            for (Layout layout : layouts(type)) {
                boolean crossesChunks = layout.count() > 1000;
                for (int flags = 0; flags < 8; flags++) {
                    // Long ranges only with every flag set, to keep the run short.
                    if (crossesChunks && flags != 7) {
                        continue;
                    }
                    boolean preA = (flags & 1) != 0;
                    boolean preB = (flags & 2) != 0;
                    boolean post = (flags & 4) != 0;
                    runOne(arena, model, reduction, layout, preA, preB, post, random, seed);
                }
            }
        }
    }

    private static MemorySegment segment(Arena arena, boolean heap, long bytes) {
        return heap ? MemorySegment.ofArray(new byte[(int) bytes]) : arena.allocate(bytes, 1);
    }

    private static void runOne(Arena arena, TypeModel model, Reduction reduction, Layout l,
                               boolean preA, boolean preB, boolean post, SplittableRandom random, long seed) {
        int size = model.type.size();
        long span = (long) l.count() * size;
        MemorySegment a = segment(arena, l.heapA(), l.aOff() + span + GUARD);
        MemorySegment b = l.unary() ? null : segment(arena, l.heapB(), l.bOff() + span + GUARD);
        long[] as = new long[l.count()];
        long[] bs = new long[l.count()];
        fillRandom(a, random);
        if (b != null) {
            fillRandom(b, random);
        }
        for (int i = 0; i < l.count(); i++) {
            as[i] = model.random(random);
            bs[i] = model.partner(as[i], random);
            model.write(a, l.aOff() + (long) i * size, as[i]);
            if (b != null) {
                model.write(b, l.bOff() + (long) i * size, bs[i]);
            }
        }
        MemorySegment d;
        long dOff;
        switch (l.alias()) {
            case DST_IS_A -> { d = a; dOff = l.aOff(); }
            case DST_IS_B -> { d = b; dOff = l.bOff(); }
            default -> {
                d = segment(arena, l.heapD(), l.dOff() + span + GUARD);
                fillRandom(d, random);
                dOff = l.dOff();
            }
        }
        byte[] before = d.toArray(ValueLayout.JAVA_BYTE);

        reduction.combine(a, l.aOff(), preA, b, l.bOff(), preB, d, dOff, l.count(), post);

        String context = "seed " + SEED + " (case seed " + seed + "), " + reduction + ", layout '" + l.name()
                + "', preA=" + preA + " preB=" + preB + " post=" + post;
        for (int i = 0; i < l.count(); i++) {
            long actual = model.read(d, dOff + (long) i * size);
            TypeModel.Expected e = model.expected(reduction.op(), reduction.nranks(), as[i], b != null, bs[i], preA, preB, post);
            boolean ok = e.nan() ? model.isNaN(actual) : actual == e.raw();
            if (!ok) {
                fail("%s: element %d: a=%s%s expected %s but was %s", context, i, model.show(as[i]),
                        b != null ? " b=" + model.show(bs[i]) : "", e.nan() ? "NaN" : model.show(e.raw()), model.show(actual));
            }
        }
        byte[] after = d.toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < after.length; i++) {
            boolean inRange = i >= dOff && i < dOff + span;
            if (!inRange && after[i] != before[i]) {
                fail("%s: byte %d of dst, outside [%d, %d), was overwritten", context, i, dOff, dOff + span);
            }
        }
    }

    private static void fillRandom(MemorySegment s, SplittableRandom random) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
        }
    }
}
