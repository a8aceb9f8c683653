// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_context;
import io.jccl.bindings.ibverbs.ibv_context_ops;
import io.jccl.bindings.ibverbs.ibv_cq;
import io.jccl.bindings.ibverbs.ibv_qp;
import io.jccl.bindings.ibverbs.ibv_send_wr;
import io.jccl.bindings.ibverbs.ibv_wc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The facade over the real libibverbs: device lists, and how failures read. */
@SuppressWarnings("restricted")
class VerbsTest {
    @BeforeAll
    static void libibverbsIsInstalled() {
        if (!Verbs.available()) {
            String why = "libibverbs.so.1 cannot be loaded (Debian package libibverbs1, which .ci/run installs)";
            if ("true".equalsIgnoreCase(System.getenv("JCCL_REQUIRE_NATIVE_TESTS"))) {
                fail(why);
            }
            System.err.println("[jccl] SKIPPED: " + why);
            Assumptions.abort(why);
        }
    }

    private static List<String> kernelDevices() throws IOException {
        Path dir = Path.of("/sys/class/infiniband");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theDevicesAreTheKernelsAndNoneIsNotAnError() throws IOException {
        assertThat(Verbs.deviceNames()).containsExactlyInAnyOrderElementsOf(kernelDevices());
    }

    @Test
    void openingAnAbsentDeviceNamesItAndTheDevicesThereAre() throws IOException {
        String present = kernelDevices().isEmpty() ? "none" : String.join(", ", Verbs.deviceNames());
        assertThatThrownBy(() -> Verbs.open("jccl_no_such_hca"))
                .isInstanceOfSatisfying(JcclException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("invalid_argument: argument 'name' names no RDMA device: 'jccl_no_such_hca' (devices: " + present + ")");
    }

    @Test
    void errnoValuesReadAsTheCLibraryNamesThem() {
        assertThat(Verbs.failure("ibv_reg_mr", 12)).hasMessage("system_error: ibv_reg_mr failed: errno 12 (Cannot allocate memory)");
        assertThatThrownBy(() -> Verbs.check("ibv_modify_qp", () -> 22))
                .hasMessage("system_error: ibv_modify_qp failed: errno 22 (Invalid argument)");
        Verbs.check("ibv_modify_qp", () -> 0);
    }

    static int postSendFails(MemorySegment qp, MemorySegment wr, MemorySegment bad) {
        bad.reinterpret(8).set(java.lang.foreign.ValueLayout.ADDRESS, 0, wr);
        return 12;
    }

    static int pollCqFails(MemorySegment cq, int n, MemorySegment wc) {
        return -1;
    }

    /** Through the inline dispatch to a provider (an upcall here) that fails. */
    @Test
    void providerFailuresOfTheInlineVerbsAreReported() throws ReflectiveOperationException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment context = ibv_context.allocate(arena);
            MemorySegment ops = ibv_context.ops(context);
            var lookup = MethodHandles.lookup();
            FunctionDescriptor send = ibv_context_ops.post_send.descriptor();
            FunctionDescriptor poll = ibv_context_ops.poll_cq.descriptor();
            ibv_context_ops.post_send(ops, Linker.nativeLinker().upcallStub(
                    lookup.findStatic(VerbsTest.class, "postSendFails", send.toMethodType()), send, arena));
            ibv_context_ops.poll_cq(ops, Linker.nativeLinker().upcallStub(
                    lookup.findStatic(VerbsTest.class, "pollCqFails", poll.toMethodType()), poll, arena));
            MemorySegment qp = ibv_qp.allocate(arena);
            ibv_qp.context(qp, context);
            MemorySegment cq = ibv_cq.allocate(arena);
            ibv_cq.context(cq, context);

            assertThatThrownBy(() -> Verbs.postSend(qp, ibv_send_wr.allocate(arena)))
                    .hasMessage("system_error: ibv_post_send failed: errno 12 (Cannot allocate memory)");
            assertThatThrownBy(() -> Verbs.pollCq(cq, 4, ibv_wc.allocateArray(4, arena)))
                    .hasMessage("system_error: ibv_poll_cq failed: -1");
            assertThat(IbVerbs.IBV_WC_SUCCESS).isZero();
        }
    }
}
