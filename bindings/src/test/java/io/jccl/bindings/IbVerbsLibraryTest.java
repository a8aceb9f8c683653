// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings;

import static io.jccl.bindings.CLayouts.C_INT;
import static io.jccl.bindings.CLayouts.C_POINTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.bindings.ibverbs.IbVerbs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real libibverbs (Debian's libibverbs1): every symbol is there, and the device list works. */
class IbVerbsLibraryTest {
    @BeforeAll
    static void libibverbsIsInstalled() {
        NativePrerequisites.require(IbVerbs.LIBRARY.isAvailable(),
                "libibverbs.so.1 cannot be loaded (Debian package libibverbs1, which .ci/run installs)");
    }

    @Test
    void everyBoundFunctionIsExported() {
        List<BindingClasses.Function> functions = BindingClasses.functions(IbVerbs.class);
        assertThat(functions).hasSizeGreaterThanOrEqualTo(27);
        assertThat(functions).allSatisfy(f ->
                assertThat(IbVerbs.LIBRARY.find(f.symbol())).as(f.symbol()).isPresent());
    }

    /** Devices as the kernel lists them for user verbs (none without an RDMA device). */
    private static long uverbsDevices() throws IOException {
        try (Stream<Path> s = Files.list(UVERBS)) {
            return s.filter(p -> p.getFileName().toString().startsWith("uverbs")).count();
        }
    }

    private static final Path UVERBS = Path.of("/sys/class/infiniband_verbs");
    private static final int ENOSYS = 38;

    /**
     * With the kernel's user-verbs support loaded the list holds its devices, none being an empty
     * list; without it (no {@code /sys/class/infiniband_verbs/abi_version}, as on this machine)
     * libibverbs answers NULL with ENOSYS, which callers read as no devices, as NCCL does.
     */
    @Test
    void theDeviceListHasTheKernelsDevices() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(arena);
            MemorySegment count = arena.allocate(C_INT);
            count.set(C_INT, 0, -1);
            MemorySegment list = IbVerbs.ibv_get_device_list(state, count);
            if (!Files.exists(UVERBS.resolve("abi_version"))) {
                assertThat(list).isEqualTo(MemorySegment.NULL);
                assertThat(Errno.get(state)).as("errno").isEqualTo(ENOSYS);
                System.out.println("[jccl] no kernel user-verbs support: ibv_get_device_list answers NULL, ENOSYS");
                return;
            }
            assertThat(list).as("ibv_get_device_list failed with errno %d", Errno.get(state))
                    .isNotEqualTo(MemorySegment.NULL);
            int n = count.get(C_INT, 0);
            assertThat((long) n).isEqualTo(uverbsDevices());
            MemorySegment array = list.reinterpret(C_POINTER.byteSize() * (n + 1L));
            assertThat(array.getAtIndex(C_POINTER, n)).as("NULL-terminated").isEqualTo(MemorySegment.NULL);
            for (int i = 0; i < n; i++) {
                MemorySegment name = IbVerbs.ibv_get_device_name(array.getAtIndex(C_POINTER, i));
                assertThat(name.reinterpret(64).getString(0)).isNotEmpty();
            }
            IbVerbs.ibv_free_device_list(list);
        }
    }

    @Test
    void completionStatusesHaveTheLibrarysNames() {
        assertThat(IbVerbs.ibv_wc_status_str(IbVerbs.IBV_WC_SUCCESS).reinterpret(64).getString(0)).isEqualTo("success");
        assertThat(IbVerbs.ibv_wc_status_str(IbVerbs.IBV_WC_RETRY_EXC_ERR).reinterpret(64).getString(0))
                .isEqualTo("transport retry counter exceeded");
    }
}
