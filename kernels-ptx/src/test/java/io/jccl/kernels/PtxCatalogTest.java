// SPDX-License-Identifier: Apache-2.0
package io.jccl.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Java catalog against the committed PTX's entry points, parameter lists and target (no tools needed). */
class PtxCatalogTest {
    private static final Pattern ENTRY = Pattern.compile("\\.visible \\.entry (\\w+)\\(([^)]*)\\)\\s*((?:\\.\\w+[^\\n]*\\n\\s*)*)\\{");
    private static final Pattern PARAM = Pattern.compile("\\.param\\s+((?:\\.align\\s+\\d+\\s+)?\\.\\w+)\\s+(\\w+)(\\[\\d+\\])?");

    record Entry(List<String> paramTypes, String directives) {
    }

    static Map<String, Entry> entries(String ptx) {
        Map<String, Entry> found = new LinkedHashMap<>();
        Matcher m = ENTRY.matcher(ptx);
        while (m.find()) {
            List<String> types = new ArrayList<>();
            Matcher p = PARAM.matcher(m.group(2));
            int i = 0;
            while (p.find()) {
                assertThat(p.group(2)).as("parameter name in " + m.group(1)).isEqualTo(m.group(1) + "_param_" + i++);
                types.add(p.group(1).replaceAll("\\s+", " ") + (p.group(3) == null ? "" : p.group(3)));
            }
            found.put(m.group(1), new Entry(types, m.group(3)));
        }
        return found;
    }

    /** The PTX type of a parameter as nvcc declares it for this Java layout. */
    static String ptxType(MemoryLayout l) {
        if (l instanceof java.lang.foreign.StructLayout) {
            // a struct by value: bytes with the struct's alignment
            return ".align " + l.byteAlignment() + " .b8[" + l.byteSize() + "]";
        }
        return switch ((int) l.byteSize()) {
            case 8 -> ".u64";
            case 4 -> ".u32";
            default -> throw new AssertionError("no scalar PTX parameter of " + l);
        };
    }

    @Test
    void everyEntryOfTheCatalogIsInThePtxWithItsParameters() {
        Map<String, Entry> found = entries(Tools.ptx());
        assertThat(found.keySet()).containsExactlyInAnyOrderElementsOf(Kernels.entries());
        List<String> expected = Kernels.PARAMETERS.stream().map(PtxCatalogTest::ptxType).toList();
        List<String> direct = Kernels.DIRECT_PARAMETERS.stream().map(PtxCatalogTest::ptxType).toList();
        for (Map.Entry<String, Entry> e : found.entrySet()) {
            boolean isDirect = e.getKey().startsWith("jccl_direct_");
            assertThat(e.getValue().paramTypes()).as(e.getKey()).isEqualTo(isDirect ? direct : expected);
            assertThat(e.getValue().directives()).as(e.getKey())
                    .contains(".maxntid " + (isDirect ? WorkLayout.DIRECT_THREADS : Kernels.MAX_THREADS) + ", 1, 1");
        }
        assertThat(Kernels.entries()).hasSize((Kernels.PROTOCOLS.size() + 1) * Kernels.TYPES.size()).doesNotHaveDuplicates();
        assertThat(direct).containsExactly(".align 8 .b8[544]");
    }

    @Test
    void thePtxTargetsTheStatedVirtualArchitecture() {
        String ptx = Tools.ptx();
        assertThat(ptx).contains(".target sm_" + Kernels.VIRTUAL_ARCH.substring("compute_".length()) + "\n");
        assertThat(ptx).contains(".address_size 64");
    }

    @Test
    void noFloatingPointMultiplyAddIsContracted() {
        // -fmad=false: a contracted a*b+c would round once where the host rounds twice. The only
        // fma left is bf16 arithmetic of sm_80 (a*1+b, a*b-0), which rounds exactly once anyway.
        Matcher m = Pattern.compile("\\b(fma|mad)\\.[\\w.]+").matcher(Tools.ptx());
        List<String> fmas = new ArrayList<>();
        while (m.find()) {
            fmas.add(m.group());
        }
        assertThat(fmas).allMatch(f -> f.endsWith(".bf16") || f.startsWith("mad.lo") || f.startsWith("mad.hi")
                || f.startsWith("mad.wide"), "only bf16 or integer multiply-adds");
    }

    @Test
    void parsingFindsEntriesAndRejectsOthers() {
        String sample = ".visible .entry jccl_ll_f32(\n\t.param .align 8 .b8 jccl_ll_f32_param_0[72],\n"
                + "\t.param .u64 jccl_ll_f32_param_1\n)\n.maxntid 640, 1, 1\n{\n}\n"
                + ".func helper(\n.param .u64 x\n)\n{\n}\n";
        Map<String, Entry> e = entries(sample);
        assertThat(e).containsOnlyKeys("jccl_ll_f32");
        assertThat(e.get("jccl_ll_f32").paramTypes()).containsExactly(".align 8 .b8[72]", ".u64");
        assertThat(ptxType(WorkLayout.BATCH)).isEqualTo(".align 8 .b8[72]");
        assertThat(Kernels.entry(WorkLayout.PROTO_LL128, Kernels.typeIndex("bf16"))).isEqualTo("jccl_ll128_bf16");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Kernels.typeIndex("f128"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("f128");
    }
}
