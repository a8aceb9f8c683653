// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;

import io.jccl.bindings.NativeLibrary;
import io.jccl.bindings.Errno;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * libibverbs ({@code infiniband/verbs.h}, {@code libibverbs.so.1}) in jextract's shape: for every
 * exported function a {@link FunctionDescriptor} ({@code NAME$descriptor()}), a downcall
 * {@link MethodHandle} looked up on first use ({@code NAME$handle()}) and a static method that calls
 * it; the enum values jccl uses as constants. The functions {@code verbs.h} defines
 * {@code static inline} ({@code ibv_post_send}, {@code ibv_poll_cq}, {@code ibv_query_port}, ...)
 * have no symbol: {@link IbVerbsInline} calls them through the context's operation table as the
 * header does.
 *
 * <p>Functions that report failure by returning {@code NULL} (or -1) and setting {@code errno} take
 * a capture segment first ({@link Errno#allocate}); read it with {@link Errno#get}. The others return
 * an errno value themselves, as rdma-core documents.
 *
 * <p>The library is opened when the first function is called; a missing library is a
 * {@link io.jccl.bindings.NativeLibraryException} naming it. A machine without RDMA devices has an
 * empty device list, which is not an error.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     MemorySegment state = Errno.allocate(arena);
 *     MemorySegment count = arena.allocate(C_INT);
 *     MemorySegment list = IbVerbs.ibv_get_device_list(state, count);
 *     if (list.equals(MemorySegment.NULL)) {
 *         throw new IllegalStateException("ibv_get_device_list: errno " + Errno.get(state));
 *     }
 *     System.out.println(count.get(C_INT, 0) + " RDMA devices");
 *     IbVerbs.ibv_free_device_list(list);
 * }
 * }
 */
public final class IbVerbs {
    private IbVerbs() {}

    /** libibverbs: {@code JCCL_IBVERBS_LIB} or {@code -Djccl.ibverbs.lib}, else {@code libibverbs.so.1} on the loader's path. */
    public static final NativeLibrary LIBRARY = new NativeLibrary("libibverbs", "libibverbs.so.1", "JCCL_IBVERBS_LIB", "jccl.ibverbs.lib");

    // enum ibv_qp_state
    public static final int IBV_QPS_RESET = 0;
    public static final int IBV_QPS_INIT = 1;
    public static final int IBV_QPS_RTR = 2;
    public static final int IBV_QPS_RTS = 3;
    public static final int IBV_QPS_SQD = 4;
    public static final int IBV_QPS_SQE = 5;
    public static final int IBV_QPS_ERR = 6;

    // enum ibv_qp_type
    public static final int IBV_QPT_RC = 2;
    public static final int IBV_QPT_UC = 3;
    public static final int IBV_QPT_UD = 4;

    // enum ibv_qp_attr_mask
    public static final int IBV_QP_STATE = 1;
    public static final int IBV_QP_CUR_STATE = 2;
    public static final int IBV_QP_EN_SQD_ASYNC_NOTIFY = 4;
    public static final int IBV_QP_ACCESS_FLAGS = 8;
    public static final int IBV_QP_PKEY_INDEX = 16;
    public static final int IBV_QP_PORT = 32;
    public static final int IBV_QP_QKEY = 64;
    public static final int IBV_QP_AV = 128;
    public static final int IBV_QP_PATH_MTU = 256;
    public static final int IBV_QP_TIMEOUT = 512;
    public static final int IBV_QP_RETRY_CNT = 1024;
    public static final int IBV_QP_RNR_RETRY = 2048;
    public static final int IBV_QP_RQ_PSN = 4096;
    public static final int IBV_QP_MAX_QP_RD_ATOMIC = 8192;
    public static final int IBV_QP_ALT_PATH = 16384;
    public static final int IBV_QP_MIN_RNR_TIMER = 32768;
    public static final int IBV_QP_SQ_PSN = 65536;
    public static final int IBV_QP_MAX_DEST_RD_ATOMIC = 131072;
    public static final int IBV_QP_PATH_MIG_STATE = 262144;
    public static final int IBV_QP_CAP = 524288;
    public static final int IBV_QP_DEST_QPN = 1048576;

    // enum ibv_mtu
    public static final int IBV_MTU_256 = 1;
    public static final int IBV_MTU_512 = 2;
    public static final int IBV_MTU_1024 = 3;
    public static final int IBV_MTU_2048 = 4;
    public static final int IBV_MTU_4096 = 5;

    // enum ibv_access_flags
    public static final int IBV_ACCESS_LOCAL_WRITE = 1;
    public static final int IBV_ACCESS_REMOTE_WRITE = 2;
    public static final int IBV_ACCESS_REMOTE_READ = 4;
    public static final int IBV_ACCESS_REMOTE_ATOMIC = 8;
    public static final int IBV_ACCESS_RELAXED_ORDERING = 1048576;
    public static final int IBV_ACCESS_OPTIONAL_RANGE = 1072693248;

    // enum ibv_wr_opcode
    public static final int IBV_WR_RDMA_WRITE = 0;
    public static final int IBV_WR_RDMA_WRITE_WITH_IMM = 1;
    public static final int IBV_WR_SEND = 2;
    public static final int IBV_WR_SEND_WITH_IMM = 3;
    public static final int IBV_WR_RDMA_READ = 4;

    // enum ibv_send_flags
    public static final int IBV_SEND_FENCE = 1;
    public static final int IBV_SEND_SIGNALED = 2;
    public static final int IBV_SEND_SOLICITED = 4;
    public static final int IBV_SEND_INLINE = 8;

    // enum ibv_wc_status
    public static final int IBV_WC_SUCCESS = 0;
    public static final int IBV_WC_LOC_LEN_ERR = 1;
    public static final int IBV_WC_LOC_QP_OP_ERR = 2;
    public static final int IBV_WC_LOC_EEC_OP_ERR = 3;
    public static final int IBV_WC_LOC_PROT_ERR = 4;
    public static final int IBV_WC_WR_FLUSH_ERR = 5;
    public static final int IBV_WC_MW_BIND_ERR = 6;
    public static final int IBV_WC_BAD_RESP_ERR = 7;
    public static final int IBV_WC_LOC_ACCESS_ERR = 8;
    public static final int IBV_WC_REM_INV_REQ_ERR = 9;
    public static final int IBV_WC_REM_ACCESS_ERR = 10;
    public static final int IBV_WC_REM_OP_ERR = 11;
    public static final int IBV_WC_RETRY_EXC_ERR = 12;
    public static final int IBV_WC_RNR_RETRY_EXC_ERR = 13;
    public static final int IBV_WC_LOC_RDD_VIOL_ERR = 14;
    public static final int IBV_WC_REM_INV_RD_REQ_ERR = 15;
    public static final int IBV_WC_REM_ABORT_ERR = 16;
    public static final int IBV_WC_INV_EECN_ERR = 17;
    public static final int IBV_WC_INV_EEC_STATE_ERR = 18;
    public static final int IBV_WC_FATAL_ERR = 19;
    public static final int IBV_WC_RESP_TIMEOUT_ERR = 20;
    public static final int IBV_WC_GENERAL_ERR = 21;
    public static final int IBV_WC_TM_ERR = 22;
    public static final int IBV_WC_TM_RNDV_INCOMPLETE = 23;

    // enum ibv_wc_opcode
    public static final int IBV_WC_SEND = 0;
    public static final int IBV_WC_RDMA_WRITE = 1;
    public static final int IBV_WC_RDMA_READ = 2;
    public static final int IBV_WC_RECV = 128;
    public static final int IBV_WC_RECV_RDMA_WITH_IMM = 129;

    // enum ibv_wc_flags
    public static final int IBV_WC_GRH = 1;
    public static final int IBV_WC_WITH_IMM = 2;

    // enum ibv_port_state
    public static final int IBV_PORT_NOP = 0;
    public static final int IBV_PORT_DOWN = 1;
    public static final int IBV_PORT_INIT = 2;
    public static final int IBV_PORT_ARMED = 3;
    public static final int IBV_PORT_ACTIVE = 4;
    public static final int IBV_PORT_ACTIVE_DEFER = 5;

    // Link layers
    public static final int IBV_LINK_LAYER_UNSPECIFIED = 0;
    public static final int IBV_LINK_LAYER_INFINIBAND = 1;
    public static final int IBV_LINK_LAYER_ETHERNET = 2;

    // ---- Devices ----

    private static final FunctionDescriptor ibv_get_device_list$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER);

    private static final class ibv_get_device_list {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_get_device_list", ibv_get_device_list$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_device **ibv_get_device_list(int *num_devices)
     * }
     */
    public static FunctionDescriptor ibv_get_device_list$descriptor() {
        return ibv_get_device_list$DESC;
    }

    /** The downcall handle of {@code ibv_get_device_list}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_get_device_list$handle() {
        return ibv_get_device_list.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_device **ibv_get_device_list(int *num_devices)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_get_device_list(MemorySegment callState, MemorySegment num_devices) {
        try {
            return (MemorySegment) ibv_get_device_list.HANDLE.invokeExact(callState, num_devices);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_free_device_list$DESC = FunctionDescriptor.ofVoid(C_POINTER);

    private static final class ibv_free_device_list {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_free_device_list", ibv_free_device_list$DESC);
    }

    /**
     * {@snippet lang=c :
     * void ibv_free_device_list(struct ibv_device **list)
     * }
     */
    public static FunctionDescriptor ibv_free_device_list$descriptor() {
        return ibv_free_device_list$DESC;
    }

    /** The downcall handle of {@code ibv_free_device_list}; the symbol is looked up on first use. */
    public static MethodHandle ibv_free_device_list$handle() {
        return ibv_free_device_list.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * void ibv_free_device_list(struct ibv_device **list)
     * }
     */
    public static void ibv_free_device_list(MemorySegment list) {
        try {
            ibv_free_device_list.HANDLE.invokeExact(list);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_get_device_name$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER);

    private static final class ibv_get_device_name {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_get_device_name", ibv_get_device_name$DESC);
    }

    /**
     * {@snippet lang=c :
     * const char *ibv_get_device_name(struct ibv_device *device)
     * }
     */
    public static FunctionDescriptor ibv_get_device_name$descriptor() {
        return ibv_get_device_name$DESC;
    }

    /** The downcall handle of {@code ibv_get_device_name}; the symbol is looked up on first use. */
    public static MethodHandle ibv_get_device_name$handle() {
        return ibv_get_device_name.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * const char *ibv_get_device_name(struct ibv_device *device)
     * }
     */
    public static MemorySegment ibv_get_device_name(MemorySegment device) {
        try {
            return (MemorySegment) ibv_get_device_name.HANDLE.invokeExact(device);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_get_device_guid$DESC = FunctionDescriptor.of(C_LONG, C_POINTER);

    private static final class ibv_get_device_guid {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_get_device_guid", ibv_get_device_guid$DESC);
    }

    /**
     * {@snippet lang=c :
     * __be64 ibv_get_device_guid(struct ibv_device *device)
     * }
     */
    public static FunctionDescriptor ibv_get_device_guid$descriptor() {
        return ibv_get_device_guid$DESC;
    }

    /** The downcall handle of {@code ibv_get_device_guid}; the symbol is looked up on first use. */
    public static MethodHandle ibv_get_device_guid$handle() {
        return ibv_get_device_guid.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * __be64 ibv_get_device_guid(struct ibv_device *device)
     * }
     */
    public static long ibv_get_device_guid(MemorySegment device) {
        try {
            return (long) ibv_get_device_guid.HANDLE.invokeExact(device);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_open_device$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER);

    private static final class ibv_open_device {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_open_device", ibv_open_device$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_context *ibv_open_device(struct ibv_device *device)
     * }
     */
    public static FunctionDescriptor ibv_open_device$descriptor() {
        return ibv_open_device$DESC;
    }

    /** The downcall handle of {@code ibv_open_device}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_open_device$handle() {
        return ibv_open_device.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_context *ibv_open_device(struct ibv_device *device)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_open_device(MemorySegment callState, MemorySegment device) {
        try {
            return (MemorySegment) ibv_open_device.HANDLE.invokeExact(callState, device);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_close_device$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class ibv_close_device {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_close_device", ibv_close_device$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_close_device(struct ibv_context *context)
     * }
     */
    public static FunctionDescriptor ibv_close_device$descriptor() {
        return ibv_close_device$DESC;
    }

    /** The downcall handle of {@code ibv_close_device}; the symbol is looked up on first use. */
    public static MethodHandle ibv_close_device$handle() {
        return ibv_close_device.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_close_device(struct ibv_context *context)
     * }
     */
    public static int ibv_close_device(MemorySegment context) {
        try {
            return (int) ibv_close_device.HANDLE.invokeExact(context);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_fork_init$DESC = FunctionDescriptor.of(C_INT);

    private static final class ibv_fork_init {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_fork_init", ibv_fork_init$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_fork_init(void)
     * }
     */
    public static FunctionDescriptor ibv_fork_init$descriptor() {
        return ibv_fork_init$DESC;
    }

    /** The downcall handle of {@code ibv_fork_init}; the symbol is looked up on first use. */
    public static MethodHandle ibv_fork_init$handle() {
        return ibv_fork_init.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_fork_init(void)
     * }
     */
    public static int ibv_fork_init() {
        try {
            return (int) ibv_fork_init.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Queries ----

    private static final FunctionDescriptor ibv_query_device$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class ibv_query_device {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_query_device", ibv_query_device$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
     * }
     */
    public static FunctionDescriptor ibv_query_device$descriptor() {
        return ibv_query_device$DESC;
    }

    /** The downcall handle of {@code ibv_query_device}; the symbol is looked up on first use. */
    public static MethodHandle ibv_query_device$handle() {
        return ibv_query_device.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
     * }
     */
    public static int ibv_query_device(MemorySegment context, MemorySegment device_attr) {
        try {
            return (int) ibv_query_device.HANDLE.invokeExact(context, device_attr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_query_port$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_CHAR, C_POINTER);

    private static final class ibv_query_port {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_query_port", ibv_query_port$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)
     * }
     */
    public static FunctionDescriptor ibv_query_port$descriptor() {
        return ibv_query_port$DESC;
    }

    /** The downcall handle of {@code ibv_query_port}; the symbol is looked up on first use. */
    public static MethodHandle ibv_query_port$handle() {
        return ibv_query_port.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)
     * }
     */
    public static int ibv_query_port(MemorySegment context, byte port_num, MemorySegment port_attr) {
        try {
            return (int) ibv_query_port.HANDLE.invokeExact(context, port_num, port_attr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_query_gid$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_CHAR, C_INT, C_POINTER);

    private static final class ibv_query_gid {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_query_gid", ibv_query_gid$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
     * }
     */
    public static FunctionDescriptor ibv_query_gid$descriptor() {
        return ibv_query_gid$DESC;
    }

    /** The downcall handle of {@code ibv_query_gid}; the symbol is looked up on first use. */
    public static MethodHandle ibv_query_gid$handle() {
        return ibv_query_gid.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
     * }
     */
    public static int ibv_query_gid(MemorySegment context, byte port_num, int index, MemorySegment gid) {
        try {
            return (int) ibv_query_gid.HANDLE.invokeExact(context, port_num, index, gid);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Protection domains and memory regions ----

    private static final FunctionDescriptor ibv_alloc_pd$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER);

    private static final class ibv_alloc_pd {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_alloc_pd", ibv_alloc_pd$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
     * }
     */
    public static FunctionDescriptor ibv_alloc_pd$descriptor() {
        return ibv_alloc_pd$DESC;
    }

    /** The downcall handle of {@code ibv_alloc_pd}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_alloc_pd$handle() {
        return ibv_alloc_pd.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_alloc_pd(MemorySegment callState, MemorySegment context) {
        try {
            return (MemorySegment) ibv_alloc_pd.HANDLE.invokeExact(callState, context);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_dealloc_pd$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class ibv_dealloc_pd {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_dealloc_pd", ibv_dealloc_pd$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_dealloc_pd(struct ibv_pd *pd)
     * }
     */
    public static FunctionDescriptor ibv_dealloc_pd$descriptor() {
        return ibv_dealloc_pd$DESC;
    }

    /** The downcall handle of {@code ibv_dealloc_pd}; the symbol is looked up on first use. */
    public static MethodHandle ibv_dealloc_pd$handle() {
        return ibv_dealloc_pd.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_dealloc_pd(struct ibv_pd *pd)
     * }
     */
    public static int ibv_dealloc_pd(MemorySegment pd) {
        try {
            return (int) ibv_dealloc_pd.HANDLE.invokeExact(pd);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_reg_mr$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_LONG, C_INT);

    private static final class ibv_reg_mr {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_reg_mr", ibv_reg_mr$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
     * }
     */
    public static FunctionDescriptor ibv_reg_mr$descriptor() {
        return ibv_reg_mr$DESC;
    }

    /** The downcall handle of {@code ibv_reg_mr}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_reg_mr$handle() {
        return ibv_reg_mr.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_reg_mr(MemorySegment callState, MemorySegment pd, MemorySegment addr, long length, int access) {
        try {
            return (MemorySegment) ibv_reg_mr.HANDLE.invokeExact(callState, pd, addr, length, access);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_reg_mr_iova2$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_LONG, C_LONG, C_INT);

    private static final class ibv_reg_mr_iova2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_reg_mr_iova2", ibv_reg_mr_iova2$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)
     * }
     */
    public static FunctionDescriptor ibv_reg_mr_iova2$descriptor() {
        return ibv_reg_mr_iova2$DESC;
    }

    /** The downcall handle of {@code ibv_reg_mr_iova2}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_reg_mr_iova2$handle() {
        return ibv_reg_mr_iova2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_reg_mr_iova2(MemorySegment callState, MemorySegment pd, MemorySegment addr, long length, long iova, int access) {
        try {
            return (MemorySegment) ibv_reg_mr_iova2.HANDLE.invokeExact(callState, pd, addr, length, iova, access);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_reg_dmabuf_mr$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER, C_LONG, C_LONG, C_LONG, C_INT, C_INT);

    private static final class ibv_reg_dmabuf_mr {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_reg_dmabuf_mr", ibv_reg_dmabuf_mr$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)
     * }
     */
    public static FunctionDescriptor ibv_reg_dmabuf_mr$descriptor() {
        return ibv_reg_dmabuf_mr$DESC;
    }

    /** The downcall handle of {@code ibv_reg_dmabuf_mr}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_reg_dmabuf_mr$handle() {
        return ibv_reg_dmabuf_mr.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_reg_dmabuf_mr(MemorySegment callState, MemorySegment pd, long offset, long length, long iova, int fd, int access) {
        try {
            return (MemorySegment) ibv_reg_dmabuf_mr.HANDLE.invokeExact(callState, pd, offset, length, iova, fd, access);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_dereg_mr$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class ibv_dereg_mr {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_dereg_mr", ibv_dereg_mr$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_dereg_mr(struct ibv_mr *mr)
     * }
     */
    public static FunctionDescriptor ibv_dereg_mr$descriptor() {
        return ibv_dereg_mr$DESC;
    }

    /** The downcall handle of {@code ibv_dereg_mr}; the symbol is looked up on first use. */
    public static MethodHandle ibv_dereg_mr$handle() {
        return ibv_dereg_mr.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_dereg_mr(struct ibv_mr *mr)
     * }
     */
    public static int ibv_dereg_mr(MemorySegment mr) {
        try {
            return (int) ibv_dereg_mr.HANDLE.invokeExact(mr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Completion channels and queues ----

    private static final FunctionDescriptor ibv_create_comp_channel$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER);

    private static final class ibv_create_comp_channel {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_create_comp_channel", ibv_create_comp_channel$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
     * }
     */
    public static FunctionDescriptor ibv_create_comp_channel$descriptor() {
        return ibv_create_comp_channel$DESC;
    }

    /** The downcall handle of {@code ibv_create_comp_channel}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_create_comp_channel$handle() {
        return ibv_create_comp_channel.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_create_comp_channel(MemorySegment callState, MemorySegment context) {
        try {
            return (MemorySegment) ibv_create_comp_channel.HANDLE.invokeExact(callState, context);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_destroy_comp_channel$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class ibv_destroy_comp_channel {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_destroy_comp_channel", ibv_destroy_comp_channel$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
     * }
     */
    public static FunctionDescriptor ibv_destroy_comp_channel$descriptor() {
        return ibv_destroy_comp_channel$DESC;
    }

    /** The downcall handle of {@code ibv_destroy_comp_channel}; the symbol is looked up on first use. */
    public static MethodHandle ibv_destroy_comp_channel$handle() {
        return ibv_destroy_comp_channel.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
     * }
     */
    public static int ibv_destroy_comp_channel(MemorySegment channel) {
        try {
            return (int) ibv_destroy_comp_channel.HANDLE.invokeExact(channel);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_create_cq$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER, C_INT, C_POINTER, C_POINTER, C_INT);

    private static final class ibv_create_cq {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_create_cq", ibv_create_cq$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)
     * }
     */
    public static FunctionDescriptor ibv_create_cq$descriptor() {
        return ibv_create_cq$DESC;
    }

    /** The downcall handle of {@code ibv_create_cq}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_create_cq$handle() {
        return ibv_create_cq.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_create_cq(MemorySegment callState, MemorySegment context, int cqe, MemorySegment cq_context, MemorySegment channel, int comp_vector) {
        try {
            return (MemorySegment) ibv_create_cq.HANDLE.invokeExact(callState, context, cqe, cq_context, channel, comp_vector);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_destroy_cq$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class ibv_destroy_cq {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_destroy_cq", ibv_destroy_cq$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_destroy_cq(struct ibv_cq *cq)
     * }
     */
    public static FunctionDescriptor ibv_destroy_cq$descriptor() {
        return ibv_destroy_cq$DESC;
    }

    /** The downcall handle of {@code ibv_destroy_cq}; the symbol is looked up on first use. */
    public static MethodHandle ibv_destroy_cq$handle() {
        return ibv_destroy_cq.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_destroy_cq(struct ibv_cq *cq)
     * }
     */
    public static int ibv_destroy_cq(MemorySegment cq) {
        try {
            return (int) ibv_destroy_cq.HANDLE.invokeExact(cq);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_get_cq_event$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);

    private static final class ibv_get_cq_event {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_get_cq_event", ibv_get_cq_event$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
     * }
     */
    public static FunctionDescriptor ibv_get_cq_event$descriptor() {
        return ibv_get_cq_event$DESC;
    }

    /** The downcall handle of {@code ibv_get_cq_event}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_get_cq_event$handle() {
        return ibv_get_cq_event.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static int ibv_get_cq_event(MemorySegment callState, MemorySegment channel, MemorySegment cq, MemorySegment cq_context) {
        try {
            return (int) ibv_get_cq_event.HANDLE.invokeExact(callState, channel, cq, cq_context);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_ack_cq_events$DESC = FunctionDescriptor.ofVoid(C_POINTER, C_INT);

    private static final class ibv_ack_cq_events {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_ack_cq_events", ibv_ack_cq_events$DESC);
    }

    /**
     * {@snippet lang=c :
     * void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
     * }
     */
    public static FunctionDescriptor ibv_ack_cq_events$descriptor() {
        return ibv_ack_cq_events$DESC;
    }

    /** The downcall handle of {@code ibv_ack_cq_events}; the symbol is looked up on first use. */
    public static MethodHandle ibv_ack_cq_events$handle() {
        return ibv_ack_cq_events.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
     * }
     */
    public static void ibv_ack_cq_events(MemorySegment cq, int nevents) {
        try {
            ibv_ack_cq_events.HANDLE.invokeExact(cq, nevents);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Queue pairs ----

    private static final FunctionDescriptor ibv_create_qp$DESC = FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER);

    private static final class ibv_create_qp {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_create_qp", ibv_create_qp$DESC, Errno.CAPTURE);
    }

    /**
     * {@snippet lang=c :
     * struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
     * }
     */
    public static FunctionDescriptor ibv_create_qp$descriptor() {
        return ibv_create_qp$DESC;
    }

    /** The downcall handle of {@code ibv_create_qp}, taking the errno capture segment first; the symbol is looked up on first use. */
    public static MethodHandle ibv_create_qp$handle() {
        return ibv_create_qp.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
     * }
     * <p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured.
     */
    public static MemorySegment ibv_create_qp(MemorySegment callState, MemorySegment pd, MemorySegment qp_init_attr) {
        try {
            return (MemorySegment) ibv_create_qp.HANDLE.invokeExact(callState, pd, qp_init_attr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_modify_qp$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);

    private static final class ibv_modify_qp {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_modify_qp", ibv_modify_qp$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
     * }
     */
    public static FunctionDescriptor ibv_modify_qp$descriptor() {
        return ibv_modify_qp$DESC;
    }

    /** The downcall handle of {@code ibv_modify_qp}; the symbol is looked up on first use. */
    public static MethodHandle ibv_modify_qp$handle() {
        return ibv_modify_qp.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
     * }
     */
    public static int ibv_modify_qp(MemorySegment qp, MemorySegment attr, int attr_mask) {
        try {
            return (int) ibv_modify_qp.HANDLE.invokeExact(qp, attr, attr_mask);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_query_qp$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER);

    private static final class ibv_query_qp {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_query_qp", ibv_query_qp$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)
     * }
     */
    public static FunctionDescriptor ibv_query_qp$descriptor() {
        return ibv_query_qp$DESC;
    }

    /** The downcall handle of {@code ibv_query_qp}; the symbol is looked up on first use. */
    public static MethodHandle ibv_query_qp$handle() {
        return ibv_query_qp.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)
     * }
     */
    public static int ibv_query_qp(MemorySegment qp, MemorySegment attr, int attr_mask, MemorySegment init_attr) {
        try {
            return (int) ibv_query_qp.HANDLE.invokeExact(qp, attr, attr_mask, init_attr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor ibv_destroy_qp$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class ibv_destroy_qp {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_destroy_qp", ibv_destroy_qp$DESC);
    }

    /**
     * {@snippet lang=c :
     * int ibv_destroy_qp(struct ibv_qp *qp)
     * }
     */
    public static FunctionDescriptor ibv_destroy_qp$descriptor() {
        return ibv_destroy_qp$DESC;
    }

    /** The downcall handle of {@code ibv_destroy_qp}; the symbol is looked up on first use. */
    public static MethodHandle ibv_destroy_qp$handle() {
        return ibv_destroy_qp.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * int ibv_destroy_qp(struct ibv_qp *qp)
     * }
     */
    public static int ibv_destroy_qp(MemorySegment qp) {
        try {
            return (int) ibv_destroy_qp.HANDLE.invokeExact(qp);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Strings ----

    private static final FunctionDescriptor ibv_wc_status_str$DESC = FunctionDescriptor.of(C_POINTER, C_INT);

    private static final class ibv_wc_status_str {
        static final MethodHandle HANDLE = LIBRARY.downcall("ibv_wc_status_str", ibv_wc_status_str$DESC);
    }

    /**
     * {@snippet lang=c :
     * const char *ibv_wc_status_str(enum ibv_wc_status status)
     * }
     */
    public static FunctionDescriptor ibv_wc_status_str$descriptor() {
        return ibv_wc_status_str$DESC;
    }

    /** The downcall handle of {@code ibv_wc_status_str}; the symbol is looked up on first use. */
    public static MethodHandle ibv_wc_status_str$handle() {
        return ibv_wc_status_str.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * const char *ibv_wc_status_str(enum ibv_wc_status status)
     * }
     */
    public static MemorySegment ibv_wc_status_str(int status) {
        try {
            return (MemorySegment) ibv_wc_status_str.HANDLE.invokeExact(status);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }
}
