// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.kernels.Kernels;
import io.jccl.kernels.WorkLayout;
import io.jccl.plan.StepKind;
import io.jccl.proto.Protocol;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The CUDA header's constants (read from the source that travels in io.jccl.kernels) against the
 * library's: io.jccl.proto.Protocol, the step kinds, the reductions and the data types. The header's
 * agreement with WorkLayout itself is kernels-ptx's LayoutProbeTest.
 */
class KernelConstantsTest {
    static Map<String, Long> defines() {
        String h = new String(Kernels.resource("jccl_work.h"), StandardCharsets.US_ASCII);
        Matcher m = Pattern.compile("(?m)^#define (JCCL_\\w+)[ \\t]+(\\d+)(?:ULL|U)?\\b").matcher(h);
        Map<String, Long> d = new HashMap<>();
        while (m.find()) {
            d.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return d;
    }

    @Test
    void theHeadersProtocolConstantsAreProtocols() {
        Map<String, Long> d = defines();
        assertThat(d.get("JCCL_STEPS")).isEqualTo(Protocol.STEPS);
        assertThat(d.get("JCCL_HEADER_BYTES")).isEqualTo(Protocol.HEADER_BYTES);
        assertThat(d.get("JCCL_LL_LINE_BYTES")).isEqualTo(Protocol.LL.lineBytes());
        assertThat(d.get("JCCL_LL_DATA_BYTES")).isEqualTo(Protocol.LL.dataBytesPerLine());
        assertThat(d.get("JCCL_LL128_LINE_BYTES")).isEqualTo(Protocol.LL128.lineBytes());
        assertThat(d.get("JCCL_LL128_DATA_BYTES")).isEqualTo(Protocol.LL128.dataBytesPerLine());
        assertThat(d.get("JCCL_LL_CLEAN_INTERVAL")).isEqualTo(Protocol.LL_CLEAN_INTERVAL);
        // The slots' data fits what the protocol says a slot carries.
        assertThat(Protocol.LL.maxMessageBytes(Protocol.LL.defaultBuffSize()))
                .isEqualTo((Protocol.LL.defaultBuffSize() / d.get("JCCL_STEPS") / d.get("JCCL_LL_LINE_BYTES") - 1)
                        * d.get("JCCL_LL_DATA_BYTES"));
        // The default LL and LL128 buffers are NCCL's, computed from the threads per block launched.
        assertThat(Protocol.LL.defaultBuffSize()).isEqualTo(8L * CudaTuning.threads(Protocol.LL) * Protocol.STEPS * 16);
        assertThat(Protocol.LL128.defaultBuffSize()).isEqualTo(120L * CudaTuning.threads(Protocol.LL128) * Protocol.STEPS * 8);
        assertThat(CudaTuning.threads(Protocol.LL128)).isLessThanOrEqualTo(d.get("JCCL_MAX_THREADS").intValue());
        for (Protocol p : Protocol.values()) {
            assertThat(CudaTuning.threads(p) % 32).isZero();
        }
    }

    @Test
    void stepKindsReductionsAndTypesHaveTheKernelsNumbers() {
        Map<String, Long> d = defines();
        for (StepKind k : StepKind.values()) {
            assertThat(d.get("JCCL_" + k.name())).as(k.name()).isEqualTo(k.ordinal());
        }
        for (RedOp.Kind k : RedOp.Kind.values()) {
            assertThat(d.get("JCCL_OP_" + k.name())).as(k.name()).isEqualTo(k.ordinal());
        }
        assertThat(d.get("JCCL_OP_NONE")).isEqualTo(RedOp.Kind.values().length);
        assertThat(Kernels.TYPES).hasSize(DataType.values().length);
        for (DataType t : DataType.values()) {
            String name = Kernels.TYPES.get(t.ordinal());
            int bits = Integer.parseInt(name.replaceAll("\\D", "").isEmpty() ? "8" : name.replaceAll("\\D", ""));
            if (t == DataType.FLOAT8_E4M3 || t == DataType.FLOAT8_E5M2) {
                bits = 8;
            }
            assertThat(bits / 8).as(t + " is kernel type " + name).isEqualTo(t.size());
            assertThat(name.startsWith("u")).as(t + " is kernel type " + name).isEqualTo(t.isUnsigned());
            assertThat(name.startsWith("i") || name.startsWith("u")).as(t + " is kernel type " + name)
                    .isEqualTo(!t.isFloatingPoint());
        }
        assertThat(CudaTuning.kernelProtocol(Protocol.LL)).isEqualTo(WorkLayout.PROTO_LL);
        assertThat(Kernels.PROTOCOLS.get(CudaTuning.kernelProtocol(Protocol.LL128))).isEqualTo("ll128");
        assertThat(Kernels.PROTOCOLS.get(CudaTuning.kernelProtocol(Protocol.SIMPLE))).isEqualTo("simple");
    }
}
