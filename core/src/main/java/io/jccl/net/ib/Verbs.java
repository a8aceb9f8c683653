// SPDX-License-Identifier: Apache-2.0
package io.jccl.net.ib;

import static io.jccl.bindings.CLayouts.C_INT;
import static io.jccl.bindings.CLayouts.C_POINTER;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bindings.Errno;
import io.jccl.bindings.NativeLibraryException;
import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.IbVerbsInline;
import io.jccl.bindings.ibverbs.ibv_device_attr;
import io.jccl.bindings.ibverbs.ibv_gid;
import io.jccl.bindings.ibverbs.ibv_port_attr;
import io.jccl.bindings.libc.LibC;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * Checked calls into libibverbs. A call that fails, by returning NULL with errno set or by returning
 * an errno value, throws a {@link JcclException} with {@link ErrorCode#SYSTEM_ERROR} (as NCCL reports
 * verbs failures): "ibv_reg_mr failed: errno 12 (Cannot allocate memory)". A library that cannot be
 * loaded is a {@code SYSTEM_ERROR} too. Verbs objects (contexts, protection domains, memory regions,
 * queues) are {@link MemorySegment} addresses; the struct classes of the bindings read them.
 *
 * {@snippet :
 * for (String name : Verbs.deviceNames()) {            // empty without RDMA devices
 *     MemorySegment context = Verbs.open(name);
 *     MemorySegment port = Verbs.queryPort(context, 1, arena);
 *     System.out.println(name + " port 1 state " + ibv_port_attr.state(port));
 *     Verbs.close(context);
 * }
 * }
 */
public final class Verbs {
    private Verbs() {}

    private static final int ENOSYS = 38;

    /** Whether libibverbs can be loaded (it is loaded now if it was not). */
    public static boolean available() {
        return IbVerbs.LIBRARY.isAvailable();
    }

    /** The exception for {@code call} failing with {@code errno}. */
    @SuppressWarnings("restricted") // a C string or array the library returned, read to its length
    public static JcclException failure(String call, int errno) {
        String text;
        try {
            text = LibC.strerror(errno).reinterpret(Integer.MAX_VALUE).getString(0);
        } catch (NativeLibraryException e) {
            text = "no description";
        }
        return new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK,
                call + " failed: errno " + errno + " (" + text + ")");
    }

    /** Runs a call that returns 0 or an errno value (the verbs that return {@code int}). */
    public static void check(String call, IntSupplier verbsCall) {
        int errno;
        try {
            errno = verbsCall.getAsInt();
        } catch (NativeLibraryException e) {
            throw unavailable(call, e);
        }
        if (errno != 0) {
            throw failure(call, errno);
        }
    }

    /** Runs a call that returns an object, or NULL with errno set; gives it the capture segment. */
    public static MemorySegment checkNotNull(String call, Function<MemorySegment, MemorySegment> verbsCall) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(arena);
            MemorySegment result = verbsCall.apply(state);
            if (result.equals(MemorySegment.NULL)) {
                throw failure(call, Errno.get(state));
            }
            return result;
        } catch (NativeLibraryException e) {
            throw unavailable(call, e);
        }
    }

    private static JcclException unavailable(String call, NativeLibraryException e) {
        return new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, call + ": " + e.getMessage(), e);
    }

    // ---- devices ----

    /**
     * The RDMA devices' names ({@code ibv_get_device_list}). Empty where there are none, and where the
     * kernel has no user verbs at all (libibverbs answers NULL with ENOSYS; NCCL reads it as no devices).
     */
    @SuppressWarnings("restricted") // a C string or array the library returned, read to its length
    public static List<String> deviceNames() {
        List<String> names = new ArrayList<>();
        withDeviceList("ibv_get_device_list", (list, i) -> {
            names.add(IbVerbs.ibv_get_device_name(list.getAtIndex(C_POINTER, i)).reinterpret(256).getString(0));
            return false;
        });
        return names;
    }

    /** {@code ibv_open_device} of the device named {@code name}. */
    @SuppressWarnings("restricted") // a C string or array the library returned, read to its length
    public static MemorySegment open(String name) {
        MemorySegment[] context = {null};
        List<String> seen = new ArrayList<>();
        withDeviceList("ibv_get_device_list", (list, i) -> {
            MemorySegment device = list.getAtIndex(C_POINTER, i);
            String n = IbVerbs.ibv_get_device_name(device).reinterpret(256).getString(0);
            seen.add(n);
            if (n.equals(name)) {
                context[0] = checkNotNull("ibv_open_device(" + name + ")", s -> IbVerbs.ibv_open_device(s, device));
                return true;
            }
            return false;
        });
        if (context[0] == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "name",
                    "names no RDMA device: '" + name + "' (devices: " + (seen.isEmpty() ? "none" : String.join(", ", seen)) + ")");
        }
        return context[0];
    }

    private interface DeviceVisitor {
        /** Returns true to stop. */
        boolean visit(MemorySegment list, int index);
    }

    /** Visits the device list, which is freed afterwards (devices not opened by then become invalid). */
    @SuppressWarnings("restricted") // a C string or array the library returned, read to its length
    private static void withDeviceList(String call, DeviceVisitor visitor) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(arena);
            MemorySegment count = arena.allocate(C_INT);
            MemorySegment list;
            try {
                list = IbVerbs.ibv_get_device_list(state, count);
            } catch (NativeLibraryException e) {
                throw unavailable(call, e);
            }
            if (list.equals(MemorySegment.NULL)) {
                if (Errno.get(state) == ENOSYS) {
                    return;
                }
                throw failure(call, Errno.get(state));
            }
            try {
                int n = count.get(C_INT, 0);
                MemorySegment devices = list.reinterpret(C_POINTER.byteSize() * n);
                for (int i = 0; i < n && !visitor.visit(devices, i); i++) {
                    // visited
                }
            } finally {
                IbVerbs.ibv_free_device_list(list);
            }
        }
    }

    /** {@code ibv_close_device}, which answers 0 or -1 (with no errno documented). */
    public static void close(MemorySegment context) {
        int r;
        try {
            r = IbVerbs.ibv_close_device(context);
        } catch (NativeLibraryException e) {
            throw unavailable("ibv_close_device", e);
        }
        if (r != 0) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, "ibv_close_device failed: " + r);
        }
    }

    /** {@code ibv_query_device}: an {@link ibv_device_attr}. */
    public static MemorySegment queryDevice(MemorySegment context, SegmentAllocator allocator) {
        MemorySegment attr = ibv_device_attr.allocate(allocator);
        check("ibv_query_device", () -> IbVerbs.ibv_query_device(context, attr));
        return attr;
    }

    /** {@code ibv_query_port} as verbs.h defines it: an {@link ibv_port_attr}. */
    public static MemorySegment queryPort(MemorySegment context, int port, SegmentAllocator allocator) {
        MemorySegment attr = ibv_port_attr.allocate(allocator);
        check("ibv_query_port(" + port + ")", () -> IbVerbsInline.ibv_query_port(context, (byte) port, attr));
        return attr;
    }

    /** {@code ibv_query_gid}: an {@link ibv_gid}. */
    public static MemorySegment queryGid(MemorySegment context, int port, int index, SegmentAllocator allocator) {
        MemorySegment gid = ibv_gid.allocate(allocator);
        check("ibv_query_gid(" + port + ", " + index + ")", () -> IbVerbs.ibv_query_gid(context, (byte) port, index, gid));
        return gid;
    }

    // ---- protection domains and memory ----

    /** {@code ibv_alloc_pd}. */
    public static MemorySegment allocPd(MemorySegment context) {
        return checkNotNull("ibv_alloc_pd", s -> IbVerbs.ibv_alloc_pd(s, context));
    }

    /** {@code ibv_dealloc_pd}. */
    public static void deallocPd(MemorySegment pd) {
        check("ibv_dealloc_pd", () -> IbVerbs.ibv_dealloc_pd(pd));
    }

    /** {@code ibv_reg_mr} as verbs.h defines it, e.g. with {@code IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE}. */
    public static MemorySegment registerMemory(MemorySegment pd, MemorySegment memory, int access) {
        return checkNotNull("ibv_reg_mr", s -> IbVerbsInline.ibv_reg_mr(s, pd, memory, memory.byteSize(), access));
    }

    /** {@code ibv_reg_dmabuf_mr}: GPU memory exported as a dma-buf ({@code cuMemGetHandleForAddressRange}). */
    public static MemorySegment registerDmabuf(MemorySegment pd, long offset, long length, long iova, int fd, int access) {
        return checkNotNull("ibv_reg_dmabuf_mr", s -> IbVerbs.ibv_reg_dmabuf_mr(s, pd, offset, length, iova, fd, access));
    }

    /** {@code ibv_dereg_mr}. */
    public static void deregister(MemorySegment mr) {
        check("ibv_dereg_mr", () -> IbVerbs.ibv_dereg_mr(mr));
    }

    // ---- queues ----

    /** {@code ibv_create_cq} without a completion channel. */
    public static MemorySegment createCq(MemorySegment context, int entries) {
        return checkNotNull("ibv_create_cq", s -> IbVerbs.ibv_create_cq(s, context, entries, MemorySegment.NULL, MemorySegment.NULL, 0));
    }

    /** {@code ibv_destroy_cq}. */
    public static void destroyCq(MemorySegment cq) {
        check("ibv_destroy_cq", () -> IbVerbs.ibv_destroy_cq(cq));
    }

    /** {@code ibv_create_qp} from an {@code ibv_qp_init_attr}. */
    public static MemorySegment createQp(MemorySegment pd, MemorySegment initAttr) {
        return checkNotNull("ibv_create_qp", s -> IbVerbs.ibv_create_qp(s, pd, initAttr));
    }

    /** {@code ibv_modify_qp}: one step of RESET → INIT → RTR → RTS, the mask naming the fields set. */
    public static void modifyQp(MemorySegment qp, MemorySegment attr, int mask) {
        check("ibv_modify_qp", () -> IbVerbs.ibv_modify_qp(qp, attr, mask));
    }

    /** {@code ibv_destroy_qp}. */
    public static void destroyQp(MemorySegment qp) {
        check("ibv_destroy_qp", () -> IbVerbs.ibv_destroy_qp(qp));
    }

    /** {@code ibv_post_send} of a chain of work requests. */
    public static void postSend(MemorySegment qp, MemorySegment wr) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bad = arena.allocate(C_POINTER);
            check("ibv_post_send", () -> IbVerbsInline.ibv_post_send(qp, wr, bad));
        }
    }

    /** {@code ibv_post_recv} of a chain of work requests. */
    public static void postRecv(MemorySegment qp, MemorySegment wr) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bad = arena.allocate(C_POINTER);
            check("ibv_post_recv", () -> IbVerbsInline.ibv_post_recv(qp, wr, bad));
        }
    }

    /** {@code ibv_poll_cq}: the number of completions written to {@code wc} (an {@code ibv_wc} array). */
    public static int pollCq(MemorySegment cq, int entries, MemorySegment wc) {
        int n;
        try {
            n = IbVerbsInline.ibv_poll_cq(cq, entries, wc);
        } catch (NativeLibraryException e) {
            throw unavailable("ibv_poll_cq", e);
        }
        if (n < 0) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, "ibv_poll_cq failed: " + n);
        }
        return n;
    }
}
