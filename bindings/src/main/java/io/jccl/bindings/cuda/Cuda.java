// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.cuda;

import static io.jccl.bindings.CLayouts.*;

import io.jccl.bindings.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The CUDA driver API ({@code cuda.h}, {@code libcuda.so.1}) in jextract's shape: for every function
 * a {@link FunctionDescriptor} ({@code NAME$descriptor()}), a downcall {@link MethodHandle} looked up
 * on first use ({@code NAME$handle()}) and a static method that calls it; the enum values and
 * {@code #define}s jccl uses as constants. No logic beyond loading: results are the driver's
 * {@code CUresult} codes ({@code io.jccl.cuda} in jccl's core turns them into exceptions).
 *
 * <p>Methods carry the symbol the header maps a name to: {@code cuda.h} writes
 * {@code #define cuMemAlloc cuMemAlloc_v2}, so the method is {@link #cuMemAlloc_v2}. A test compiles
 * a probe against {@code cuda.h} that checks every descriptor, symbol name, struct layout and
 * constant here against the header.
 *
 * <p>The library is opened when the first function is called, so jccl runs without CUDA until a
 * CUDA call is made; a missing library or symbol is then a {@link io.jccl.bindings.NativeLibraryException}
 * naming it.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     int rc = Cuda.cuInit(0);                       // CUDA_ERROR_STUB_LIBRARY with the stub
 *     MemorySegment count = arena.allocate(C_INT);
 *     if (rc == Cuda.CUDA_SUCCESS && Cuda.cuDeviceGetCount(count) == Cuda.CUDA_SUCCESS) {
 *         System.out.println(count.get(C_INT, 0) + " CUDA devices");
 *     }
 * }
 * }
 */
public final class Cuda {
    private Cuda() {}

    /** libcuda: {@code JCCL_CUDA_LIB} or {@code -Djccl.cuda.lib}, else {@code libcuda.so.1} on the loader's path. */
    public static final NativeLibrary LIBRARY = new NativeLibrary("the CUDA driver", "libcuda.so.1", "JCCL_CUDA_LIB", "jccl.cuda.lib");

    // CUresult
    public static final int CUDA_SUCCESS = 0;
    public static final int CUDA_ERROR_INVALID_VALUE = 1;
    public static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    public static final int CUDA_ERROR_NOT_INITIALIZED = 3;
    public static final int CUDA_ERROR_DEINITIALIZED = 4;
    public static final int CUDA_ERROR_PROFILER_DISABLED = 5;
    public static final int CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6;
    public static final int CUDA_ERROR_PROFILER_ALREADY_STARTED = 7;
    public static final int CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8;
    public static final int CUDA_ERROR_STUB_LIBRARY = 34;
    public static final int CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36;
    public static final int CUDA_ERROR_DEVICE_UNAVAILABLE = 46;
    public static final int CUDA_ERROR_NO_DEVICE = 100;
    public static final int CUDA_ERROR_INVALID_DEVICE = 101;
    public static final int CUDA_ERROR_DEVICE_NOT_LICENSED = 102;
    public static final int CUDA_ERROR_INVALID_IMAGE = 200;
    public static final int CUDA_ERROR_INVALID_CONTEXT = 201;
    public static final int CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202;
    public static final int CUDA_ERROR_MAP_FAILED = 205;
    public static final int CUDA_ERROR_UNMAP_FAILED = 206;
    public static final int CUDA_ERROR_ARRAY_IS_MAPPED = 207;
    public static final int CUDA_ERROR_ALREADY_MAPPED = 208;
    public static final int CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
    public static final int CUDA_ERROR_ALREADY_ACQUIRED = 210;
    public static final int CUDA_ERROR_NOT_MAPPED = 211;
    public static final int CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212;
    public static final int CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213;
    public static final int CUDA_ERROR_ECC_UNCORRECTABLE = 214;
    public static final int CUDA_ERROR_UNSUPPORTED_LIMIT = 215;
    public static final int CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216;
    public static final int CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217;
    public static final int CUDA_ERROR_INVALID_PTX = 218;
    public static final int CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219;
    public static final int CUDA_ERROR_NVLINK_UNCORRECTABLE = 220;
    public static final int CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221;
    public static final int CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
    public static final int CUDA_ERROR_JIT_COMPILATION_DISABLED = 223;
    public static final int CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY = 224;
    public static final int CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 225;
    public static final int CUDA_ERROR_CONTAINED = 226;
    public static final int CUDA_ERROR_INVALID_SOURCE = 300;
    public static final int CUDA_ERROR_FILE_NOT_FOUND = 301;
    public static final int CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302;
    public static final int CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303;
    public static final int CUDA_ERROR_OPERATING_SYSTEM = 304;
    public static final int CUDA_ERROR_INVALID_HANDLE = 400;
    public static final int CUDA_ERROR_ILLEGAL_STATE = 401;
    public static final int CUDA_ERROR_LOSSY_QUERY = 402;
    public static final int CUDA_ERROR_NOT_FOUND = 500;
    public static final int CUDA_ERROR_NOT_READY = 600;
    public static final int CUDA_ERROR_ILLEGAL_ADDRESS = 700;
    public static final int CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
    public static final int CUDA_ERROR_LAUNCH_TIMEOUT = 702;
    public static final int CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703;
    public static final int CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
    public static final int CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705;
    public static final int CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708;
    public static final int CUDA_ERROR_CONTEXT_IS_DESTROYED = 709;
    public static final int CUDA_ERROR_ASSERT = 710;
    public static final int CUDA_ERROR_TOO_MANY_PEERS = 711;
    public static final int CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712;
    public static final int CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713;
    public static final int CUDA_ERROR_HARDWARE_STACK_ERROR = 714;
    public static final int CUDA_ERROR_ILLEGAL_INSTRUCTION = 715;
    public static final int CUDA_ERROR_MISALIGNED_ADDRESS = 716;
    public static final int CUDA_ERROR_INVALID_ADDRESS_SPACE = 717;
    public static final int CUDA_ERROR_INVALID_PC = 718;
    public static final int CUDA_ERROR_LAUNCH_FAILED = 719;
    public static final int CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720;
    public static final int CUDA_ERROR_TENSOR_MEMORY_LEAK = 721;
    public static final int CUDA_ERROR_NOT_PERMITTED = 800;
    public static final int CUDA_ERROR_NOT_SUPPORTED = 801;
    public static final int CUDA_ERROR_SYSTEM_NOT_READY = 802;
    public static final int CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803;
    public static final int CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804;
    public static final int CUDA_ERROR_MPS_CONNECTION_FAILED = 805;
    public static final int CUDA_ERROR_MPS_RPC_FAILURE = 806;
    public static final int CUDA_ERROR_MPS_SERVER_NOT_READY = 807;
    public static final int CUDA_ERROR_MPS_MAX_CLIENTS_REACHED = 808;
    public static final int CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED = 809;
    public static final int CUDA_ERROR_MPS_CLIENT_TERMINATED = 810;
    public static final int CUDA_ERROR_CDP_NOT_SUPPORTED = 811;
    public static final int CUDA_ERROR_CDP_VERSION_MISMATCH = 812;
    public static final int CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900;
    public static final int CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901;
    public static final int CUDA_ERROR_STREAM_CAPTURE_MERGE = 902;
    public static final int CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903;
    public static final int CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904;
    public static final int CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905;
    public static final int CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906;
    public static final int CUDA_ERROR_CAPTURED_EVENT = 907;
    public static final int CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908;
    public static final int CUDA_ERROR_TIMEOUT = 909;
    public static final int CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910;
    public static final int CUDA_ERROR_EXTERNAL_DEVICE = 911;
    public static final int CUDA_ERROR_INVALID_CLUSTER_SIZE = 912;
    public static final int CUDA_ERROR_FUNCTION_NOT_LOADED = 913;
    public static final int CUDA_ERROR_INVALID_RESOURCE_TYPE = 914;
    public static final int CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915;
    public static final int CUDA_ERROR_KEY_ROTATION = 916;
    public static final int CUDA_ERROR_UNKNOWN = 999;

    // CUdevice_attribute (the ones jccl reads)
    public static final int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
    public static final int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
    public static final int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
    public static final int CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106;
    public static final int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
    public static final int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
    public static final int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81;
    public static final int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
    public static final int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
    public static final int CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40;
    public static final int CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19;
    public static final int CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41;
    public static final int CU_DEVICE_ATTRIBUTE_INTEGRATED = 18;
    public static final int CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89;
    public static final int CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95;
    public static final int CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 86;
    public static final int CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33;
    public static final int CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34;
    public static final int CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50;
    public static final int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
    public static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
    public static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
    public static final int CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED = 116;
    public static final int CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124;

    // CUdevice_P2PAttribute
    public static final int CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK = 1;
    public static final int CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED = 2;
    public static final int CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3;

    // Context flags (primary context state)
    public static final int CU_CTX_SCHED_AUTO = 0;
    public static final int CU_CTX_SCHED_SPIN = 1;
    public static final int CU_CTX_SCHED_YIELD = 2;
    public static final int CU_CTX_SCHED_BLOCKING_SYNC = 4;
    public static final int CU_CTX_SCHED_MASK = 7;
    public static final int CU_CTX_MAP_HOST = 8;

    // cuMemHostAlloc and cuMemHostRegister flags
    public static final int CU_MEMHOSTALLOC_PORTABLE = 1;
    public static final int CU_MEMHOSTALLOC_DEVICEMAP = 2;
    public static final int CU_MEMHOSTALLOC_WRITECOMBINED = 4;
    public static final int CU_MEMHOSTREGISTER_PORTABLE = 1;
    public static final int CU_MEMHOSTREGISTER_DEVICEMAP = 2;
    public static final int CU_MEMHOSTREGISTER_IOMEMORY = 4;
    public static final int CU_MEMHOSTREGISTER_READ_ONLY = 8;

    // CUpointer_attribute
    public static final int CU_POINTER_ATTRIBUTE_CONTEXT = 1;
    public static final int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
    public static final int CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3;
    public static final int CU_POINTER_ATTRIBUTE_HOST_POINTER = 4;
    public static final int CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6;
    public static final int CU_POINTER_ATTRIBUTE_BUFFER_ID = 7;
    public static final int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
    public static final int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;
    public static final int CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11;
    public static final int CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12;
    public static final int CU_POINTER_ATTRIBUTE_MAPPED = 13;

    // CUmemorytype
    public static final int CU_MEMORYTYPE_HOST = 1;
    public static final int CU_MEMORYTYPE_DEVICE = 2;
    public static final int CU_MEMORYTYPE_ARRAY = 3;
    public static final int CU_MEMORYTYPE_UNIFIED = 4;

    // CUmemRangeHandleType
    public static final int CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1;

    // Inter-process handles
    public static final int CU_IPC_HANDLE_SIZE = 64;
    public static final int CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1;

    // CUjit_option (cuModuleLoadDataEx)
    public static final int CU_JIT_MAX_REGISTERS = 0;
    public static final int CU_JIT_THREADS_PER_BLOCK = 1;
    public static final int CU_JIT_WALL_TIME = 2;
    public static final int CU_JIT_INFO_LOG_BUFFER = 3;
    public static final int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
    public static final int CU_JIT_ERROR_LOG_BUFFER = 5;
    public static final int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
    public static final int CU_JIT_OPTIMIZATION_LEVEL = 7;
    public static final int CU_JIT_TARGET_FROM_CUCONTEXT = 8;
    public static final int CU_JIT_GENERATE_LINE_INFO = 13;
    public static final int CU_JIT_LOG_VERBOSE = 12;

    // CUfunction_attribute
    public static final int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
    public static final int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
    public static final int CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2;
    public static final int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
    public static final int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
    public static final int CU_FUNC_ATTRIBUTE_PTX_VERSION = 5;
    public static final int CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6;
    public static final int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

    // Stream capture (CUstreamCaptureStatus, CUstreamCaptureMode) and graph user objects
    public static final int CU_STREAM_CAPTURE_STATUS_NONE = 0;
    public static final int CU_STREAM_CAPTURE_STATUS_ACTIVE = 1;
    public static final int CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2;
    public static final int CU_STREAM_CAPTURE_MODE_GLOBAL = 0;
    public static final int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
    public static final int CU_STREAM_CAPTURE_MODE_RELAXED = 2;
    public static final int CU_USER_OBJECT_NO_DESTRUCTOR_SYNC = 1;
    public static final int CU_GRAPH_USER_OBJECT_MOVE = 1;
    public static final int CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD = 2;

    // Stream and event flags
    public static final int CU_STREAM_DEFAULT = 0;
    public static final int CU_STREAM_NON_BLOCKING = 1;
    public static final int CU_EVENT_DEFAULT = 0;
    public static final int CU_EVENT_BLOCKING_SYNC = 1;
    public static final int CU_EVENT_DISABLE_TIMING = 2;
    public static final int CU_EVENT_INTERPROCESS = 4;
    public static final int CU_EVENT_WAIT_DEFAULT = 0;

    // ---- Initialisation, version and errors ----

    private static final FunctionDescriptor cuInit$DESC = FunctionDescriptor.of(C_INT, C_INT);

    private static final class cuInit {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuInit", cuInit$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuInit(unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuInit$descriptor() {
        return cuInit$DESC;
    }

    /** The downcall handle of {@code cuInit}; the symbol is looked up on first use. */
    public static MethodHandle cuInit$handle() {
        return cuInit.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuInit(unsigned int Flags)
     * }
     */
    public static int cuInit(int Flags) {
        try {
            return (int) cuInit.HANDLE.invokeExact(Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDriverGetVersion$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuDriverGetVersion {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDriverGetVersion", cuDriverGetVersion$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDriverGetVersion(int *driverVersion)
     * }
     */
    public static FunctionDescriptor cuDriverGetVersion$descriptor() {
        return cuDriverGetVersion$DESC;
    }

    /** The downcall handle of {@code cuDriverGetVersion}; the symbol is looked up on first use. */
    public static MethodHandle cuDriverGetVersion$handle() {
        return cuDriverGetVersion.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDriverGetVersion(int *driverVersion)
     * }
     */
    public static int cuDriverGetVersion(MemorySegment driverVersion) {
        try {
            return (int) cuDriverGetVersion.HANDLE.invokeExact(driverVersion);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGetErrorName$DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);

    private static final class cuGetErrorName {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGetErrorName", cuGetErrorName$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGetErrorName(CUresult error, const char **pStr)
     * }
     */
    public static FunctionDescriptor cuGetErrorName$descriptor() {
        return cuGetErrorName$DESC;
    }

    /** The downcall handle of {@code cuGetErrorName}; the symbol is looked up on first use. */
    public static MethodHandle cuGetErrorName$handle() {
        return cuGetErrorName.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGetErrorName(CUresult error, const char **pStr)
     * }
     */
    public static int cuGetErrorName(int error, MemorySegment pStr) {
        try {
            return (int) cuGetErrorName.HANDLE.invokeExact(error, pStr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGetErrorString$DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);

    private static final class cuGetErrorString {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGetErrorString", cuGetErrorString$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGetErrorString(CUresult error, const char **pStr)
     * }
     */
    public static FunctionDescriptor cuGetErrorString$descriptor() {
        return cuGetErrorString$DESC;
    }

    /** The downcall handle of {@code cuGetErrorString}; the symbol is looked up on first use. */
    public static MethodHandle cuGetErrorString$handle() {
        return cuGetErrorString.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGetErrorString(CUresult error, const char **pStr)
     * }
     */
    public static int cuGetErrorString(int error, MemorySegment pStr) {
        try {
            return (int) cuGetErrorString.HANDLE.invokeExact(error, pStr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Devices ----

    private static final FunctionDescriptor cuDeviceGet$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuDeviceGet {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGet", cuDeviceGet$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGet(CUdevice *device, int ordinal)
     * }
     */
    public static FunctionDescriptor cuDeviceGet$descriptor() {
        return cuDeviceGet$DESC;
    }

    /** The downcall handle of {@code cuDeviceGet}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGet$handle() {
        return cuDeviceGet.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGet(CUdevice *device, int ordinal)
     * }
     */
    public static int cuDeviceGet(MemorySegment device, int ordinal) {
        try {
            return (int) cuDeviceGet.HANDLE.invokeExact(device, ordinal);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetCount$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuDeviceGetCount {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetCount", cuDeviceGetCount$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetCount(int *count)
     * }
     */
    public static FunctionDescriptor cuDeviceGetCount$descriptor() {
        return cuDeviceGetCount$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetCount}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetCount$handle() {
        return cuDeviceGetCount.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetCount(int *count)
     * }
     */
    public static int cuDeviceGetCount(MemorySegment count) {
        try {
            return (int) cuDeviceGetCount.HANDLE.invokeExact(count);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetName$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);

    private static final class cuDeviceGetName {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetName", cuDeviceGetName$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDeviceGetName$descriptor() {
        return cuDeviceGetName$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetName}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetName$handle() {
        return cuDeviceGetName.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
     * }
     */
    public static int cuDeviceGetName(MemorySegment name, int len, int dev) {
        try {
            return (int) cuDeviceGetName.HANDLE.invokeExact(name, len, dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetAttribute$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);

    private static final class cuDeviceGetAttribute {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetAttribute", cuDeviceGetAttribute$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDeviceGetAttribute$descriptor() {
        return cuDeviceGetAttribute$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetAttribute}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetAttribute$handle() {
        return cuDeviceGetAttribute.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
     * }
     */
    public static int cuDeviceGetAttribute(MemorySegment pi, int attrib, int dev) {
        try {
            return (int) cuDeviceGetAttribute.HANDLE.invokeExact(pi, attrib, dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetPCIBusId$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);

    private static final class cuDeviceGetPCIBusId {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetPCIBusId", cuDeviceGetPCIBusId$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDeviceGetPCIBusId$descriptor() {
        return cuDeviceGetPCIBusId$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetPCIBusId}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetPCIBusId$handle() {
        return cuDeviceGetPCIBusId.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
     * }
     */
    public static int cuDeviceGetPCIBusId(MemorySegment pciBusId, int len, int dev) {
        try {
            return (int) cuDeviceGetPCIBusId.HANDLE.invokeExact(pciBusId, len, dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetByPCIBusId$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuDeviceGetByPCIBusId {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetByPCIBusId", cuDeviceGetByPCIBusId$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
     * }
     */
    public static FunctionDescriptor cuDeviceGetByPCIBusId$descriptor() {
        return cuDeviceGetByPCIBusId$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetByPCIBusId}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetByPCIBusId$handle() {
        return cuDeviceGetByPCIBusId.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
     * }
     */
    public static int cuDeviceGetByPCIBusId(MemorySegment dev, MemorySegment pciBusId) {
        try {
            return (int) cuDeviceGetByPCIBusId.HANDLE.invokeExact(dev, pciBusId);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceTotalMem_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuDeviceTotalMem_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceTotalMem_v2", cuDeviceTotalMem_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDeviceTotalMem_v2$descriptor() {
        return cuDeviceTotalMem_v2$DESC;
    }

    /** The downcall handle of {@code cuDeviceTotalMem_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceTotalMem_v2$handle() {
        return cuDeviceTotalMem_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
     * }
     */
    public static int cuDeviceTotalMem_v2(MemorySegment bytes, int dev) {
        try {
            return (int) cuDeviceTotalMem_v2.HANDLE.invokeExact(bytes, dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetUuid_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuDeviceGetUuid_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetUuid_v2", cuDeviceGetUuid_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDeviceGetUuid_v2$descriptor() {
        return cuDeviceGetUuid_v2$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetUuid_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetUuid_v2$handle() {
        return cuDeviceGetUuid_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
     * }
     */
    public static int cuDeviceGetUuid_v2(MemorySegment uuid, int dev) {
        try {
            return (int) cuDeviceGetUuid_v2.HANDLE.invokeExact(uuid, dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceCanAccessPeer$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);

    private static final class cuDeviceCanAccessPeer {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceCanAccessPeer", cuDeviceCanAccessPeer$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
     * }
     */
    public static FunctionDescriptor cuDeviceCanAccessPeer$descriptor() {
        return cuDeviceCanAccessPeer$DESC;
    }

    /** The downcall handle of {@code cuDeviceCanAccessPeer}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceCanAccessPeer$handle() {
        return cuDeviceCanAccessPeer.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
     * }
     */
    public static int cuDeviceCanAccessPeer(MemorySegment canAccessPeer, int dev, int peerDev) {
        try {
            return (int) cuDeviceCanAccessPeer.HANDLE.invokeExact(canAccessPeer, dev, peerDev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDeviceGetP2PAttribute$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT);

    private static final class cuDeviceGetP2PAttribute {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDeviceGetP2PAttribute", cuDeviceGetP2PAttribute$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice)
     * }
     */
    public static FunctionDescriptor cuDeviceGetP2PAttribute$descriptor() {
        return cuDeviceGetP2PAttribute$DESC;
    }

    /** The downcall handle of {@code cuDeviceGetP2PAttribute}; the symbol is looked up on first use. */
    public static MethodHandle cuDeviceGetP2PAttribute$handle() {
        return cuDeviceGetP2PAttribute.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice)
     * }
     */
    public static int cuDeviceGetP2PAttribute(MemorySegment value, int attrib, int srcDevice, int dstDevice) {
        try {
            return (int) cuDeviceGetP2PAttribute.HANDLE.invokeExact(value, attrib, srcDevice, dstDevice);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Contexts ----

    private static final FunctionDescriptor cuDevicePrimaryCtxRetain$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuDevicePrimaryCtxRetain {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDevicePrimaryCtxRetain$descriptor() {
        return cuDevicePrimaryCtxRetain$DESC;
    }

    /** The downcall handle of {@code cuDevicePrimaryCtxRetain}; the symbol is looked up on first use. */
    public static MethodHandle cuDevicePrimaryCtxRetain$handle() {
        return cuDevicePrimaryCtxRetain.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
     * }
     */
    public static int cuDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
        try {
            return (int) cuDevicePrimaryCtxRetain.HANDLE.invokeExact(pctx, dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDevicePrimaryCtxRelease_v2$DESC = FunctionDescriptor.of(C_INT, C_INT);

    private static final class cuDevicePrimaryCtxRelease_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDevicePrimaryCtxRelease_v2", cuDevicePrimaryCtxRelease_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
     * }
     */
    public static FunctionDescriptor cuDevicePrimaryCtxRelease_v2$descriptor() {
        return cuDevicePrimaryCtxRelease_v2$DESC;
    }

    /** The downcall handle of {@code cuDevicePrimaryCtxRelease_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuDevicePrimaryCtxRelease_v2$handle() {
        return cuDevicePrimaryCtxRelease_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
     * }
     */
    public static int cuDevicePrimaryCtxRelease_v2(int dev) {
        try {
            return (int) cuDevicePrimaryCtxRelease_v2.HANDLE.invokeExact(dev);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuDevicePrimaryCtxGetState$DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER);

    private static final class cuDevicePrimaryCtxGetState {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuDevicePrimaryCtxGetState", cuDevicePrimaryCtxGetState$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
     * }
     */
    public static FunctionDescriptor cuDevicePrimaryCtxGetState$descriptor() {
        return cuDevicePrimaryCtxGetState$DESC;
    }

    /** The downcall handle of {@code cuDevicePrimaryCtxGetState}; the symbol is looked up on first use. */
    public static MethodHandle cuDevicePrimaryCtxGetState$handle() {
        return cuDevicePrimaryCtxGetState.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
     * }
     */
    public static int cuDevicePrimaryCtxGetState(int dev, MemorySegment flags, MemorySegment active) {
        try {
            return (int) cuDevicePrimaryCtxGetState.HANDLE.invokeExact(dev, flags, active);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxSetCurrent$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuCtxSetCurrent {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxSetCurrent", cuCtxSetCurrent$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxSetCurrent(CUcontext ctx)
     * }
     */
    public static FunctionDescriptor cuCtxSetCurrent$descriptor() {
        return cuCtxSetCurrent$DESC;
    }

    /** The downcall handle of {@code cuCtxSetCurrent}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxSetCurrent$handle() {
        return cuCtxSetCurrent.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxSetCurrent(CUcontext ctx)
     * }
     */
    public static int cuCtxSetCurrent(MemorySegment ctx) {
        try {
            return (int) cuCtxSetCurrent.HANDLE.invokeExact(ctx);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxGetCurrent$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuCtxGetCurrent {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxGetCurrent", cuCtxGetCurrent$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxGetCurrent(CUcontext *pctx)
     * }
     */
    public static FunctionDescriptor cuCtxGetCurrent$descriptor() {
        return cuCtxGetCurrent$DESC;
    }

    /** The downcall handle of {@code cuCtxGetCurrent}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxGetCurrent$handle() {
        return cuCtxGetCurrent.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxGetCurrent(CUcontext *pctx)
     * }
     */
    public static int cuCtxGetCurrent(MemorySegment pctx) {
        try {
            return (int) cuCtxGetCurrent.HANDLE.invokeExact(pctx);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxGetDevice$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuCtxGetDevice {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxGetDevice", cuCtxGetDevice$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxGetDevice(CUdevice *device)
     * }
     */
    public static FunctionDescriptor cuCtxGetDevice$descriptor() {
        return cuCtxGetDevice$DESC;
    }

    /** The downcall handle of {@code cuCtxGetDevice}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxGetDevice$handle() {
        return cuCtxGetDevice.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxGetDevice(CUdevice *device)
     * }
     */
    public static int cuCtxGetDevice(MemorySegment device) {
        try {
            return (int) cuCtxGetDevice.HANDLE.invokeExact(device);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxPushCurrent_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuCtxPushCurrent_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxPushCurrent_v2", cuCtxPushCurrent_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxPushCurrent(CUcontext ctx)
     * }
     */
    public static FunctionDescriptor cuCtxPushCurrent_v2$descriptor() {
        return cuCtxPushCurrent_v2$DESC;
    }

    /** The downcall handle of {@code cuCtxPushCurrent_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxPushCurrent_v2$handle() {
        return cuCtxPushCurrent_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxPushCurrent(CUcontext ctx)
     * }
     */
    public static int cuCtxPushCurrent_v2(MemorySegment ctx) {
        try {
            return (int) cuCtxPushCurrent_v2.HANDLE.invokeExact(ctx);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxPopCurrent_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuCtxPopCurrent_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxPopCurrent_v2", cuCtxPopCurrent_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxPopCurrent(CUcontext *pctx)
     * }
     */
    public static FunctionDescriptor cuCtxPopCurrent_v2$descriptor() {
        return cuCtxPopCurrent_v2$DESC;
    }

    /** The downcall handle of {@code cuCtxPopCurrent_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxPopCurrent_v2$handle() {
        return cuCtxPopCurrent_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxPopCurrent(CUcontext *pctx)
     * }
     */
    public static int cuCtxPopCurrent_v2(MemorySegment pctx) {
        try {
            return (int) cuCtxPopCurrent_v2.HANDLE.invokeExact(pctx);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxSynchronize$DESC = FunctionDescriptor.of(C_INT);

    private static final class cuCtxSynchronize {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxSynchronize", cuCtxSynchronize$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxSynchronize(void)
     * }
     */
    public static FunctionDescriptor cuCtxSynchronize$descriptor() {
        return cuCtxSynchronize$DESC;
    }

    /** The downcall handle of {@code cuCtxSynchronize}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxSynchronize$handle() {
        return cuCtxSynchronize.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxSynchronize(void)
     * }
     */
    public static int cuCtxSynchronize() {
        try {
            return (int) cuCtxSynchronize.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxEnablePeerAccess$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuCtxEnablePeerAccess {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxEnablePeerAccess", cuCtxEnablePeerAccess$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuCtxEnablePeerAccess$descriptor() {
        return cuCtxEnablePeerAccess$DESC;
    }

    /** The downcall handle of {@code cuCtxEnablePeerAccess}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxEnablePeerAccess$handle() {
        return cuCtxEnablePeerAccess.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
     * }
     */
    public static int cuCtxEnablePeerAccess(MemorySegment peerContext, int Flags) {
        try {
            return (int) cuCtxEnablePeerAccess.HANDLE.invokeExact(peerContext, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuCtxDisablePeerAccess$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuCtxDisablePeerAccess {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuCtxDisablePeerAccess", cuCtxDisablePeerAccess$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
     * }
     */
    public static FunctionDescriptor cuCtxDisablePeerAccess$descriptor() {
        return cuCtxDisablePeerAccess$DESC;
    }

    /** The downcall handle of {@code cuCtxDisablePeerAccess}; the symbol is looked up on first use. */
    public static MethodHandle cuCtxDisablePeerAccess$handle() {
        return cuCtxDisablePeerAccess.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
     * }
     */
    public static int cuCtxDisablePeerAccess(MemorySegment peerContext) {
        try {
            return (int) cuCtxDisablePeerAccess.HANDLE.invokeExact(peerContext);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Memory ----

    private static final FunctionDescriptor cuMemAlloc_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);

    private static final class cuMemAlloc_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemAlloc_v2", cuMemAlloc_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
     * }
     */
    public static FunctionDescriptor cuMemAlloc_v2$descriptor() {
        return cuMemAlloc_v2$DESC;
    }

    /** The downcall handle of {@code cuMemAlloc_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemAlloc_v2$handle() {
        return cuMemAlloc_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
     * }
     */
    public static int cuMemAlloc_v2(MemorySegment dptr, long bytesize) {
        try {
            return (int) cuMemAlloc_v2.HANDLE.invokeExact(dptr, bytesize);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemFree_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG);

    private static final class cuMemFree_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemFree_v2", cuMemFree_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemFree(CUdeviceptr dptr)
     * }
     */
    public static FunctionDescriptor cuMemFree_v2$descriptor() {
        return cuMemFree_v2$DESC;
    }

    /** The downcall handle of {@code cuMemFree_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemFree_v2$handle() {
        return cuMemFree_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemFree(CUdeviceptr dptr)
     * }
     */
    public static int cuMemFree_v2(long dptr) {
        try {
            return (int) cuMemFree_v2.HANDLE.invokeExact(dptr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemGetInfo_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuMemGetInfo_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemGetInfo_v2", cuMemGetInfo_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemGetInfo(size_t *free, size_t *total)
     * }
     */
    public static FunctionDescriptor cuMemGetInfo_v2$descriptor() {
        return cuMemGetInfo_v2$DESC;
    }

    /** The downcall handle of {@code cuMemGetInfo_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemGetInfo_v2$handle() {
        return cuMemGetInfo_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemGetInfo(size_t *free, size_t *total)
     * }
     */
    public static int cuMemGetInfo_v2(MemorySegment free, MemorySegment total) {
        try {
            return (int) cuMemGetInfo_v2.HANDLE.invokeExact(free, total);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemGetAddressRange_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG);

    private static final class cuMemGetAddressRange_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemGetAddressRange_v2", cuMemGetAddressRange_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
     * }
     */
    public static FunctionDescriptor cuMemGetAddressRange_v2$descriptor() {
        return cuMemGetAddressRange_v2$DESC;
    }

    /** The downcall handle of {@code cuMemGetAddressRange_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemGetAddressRange_v2$handle() {
        return cuMemGetAddressRange_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
     * }
     */
    public static int cuMemGetAddressRange_v2(MemorySegment pbase, MemorySegment psize, long dptr) {
        try {
            return (int) cuMemGetAddressRange_v2.HANDLE.invokeExact(pbase, psize, dptr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemHostAlloc$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT);

    private static final class cuMemHostAlloc {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemHostAlloc", cuMemHostAlloc$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuMemHostAlloc$descriptor() {
        return cuMemHostAlloc$DESC;
    }

    /** The downcall handle of {@code cuMemHostAlloc}; the symbol is looked up on first use. */
    public static MethodHandle cuMemHostAlloc$handle() {
        return cuMemHostAlloc.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
     * }
     */
    public static int cuMemHostAlloc(MemorySegment pp, long bytesize, int Flags) {
        try {
            return (int) cuMemHostAlloc.HANDLE.invokeExact(pp, bytesize, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemFreeHost$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuMemFreeHost {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemFreeHost", cuMemFreeHost$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemFreeHost(void *p)
     * }
     */
    public static FunctionDescriptor cuMemFreeHost$descriptor() {
        return cuMemFreeHost$DESC;
    }

    /** The downcall handle of {@code cuMemFreeHost}; the symbol is looked up on first use. */
    public static MethodHandle cuMemFreeHost$handle() {
        return cuMemFreeHost.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemFreeHost(void *p)
     * }
     */
    public static int cuMemFreeHost(MemorySegment p) {
        try {
            return (int) cuMemFreeHost.HANDLE.invokeExact(p);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemHostGetDevicePointer_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);

    private static final class cuMemHostGetDevicePointer_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemHostGetDevicePointer_v2", cuMemHostGetDevicePointer_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuMemHostGetDevicePointer_v2$descriptor() {
        return cuMemHostGetDevicePointer_v2$DESC;
    }

    /** The downcall handle of {@code cuMemHostGetDevicePointer_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemHostGetDevicePointer_v2$handle() {
        return cuMemHostGetDevicePointer_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)
     * }
     */
    public static int cuMemHostGetDevicePointer_v2(MemorySegment pdptr, MemorySegment p, int Flags) {
        try {
            return (int) cuMemHostGetDevicePointer_v2.HANDLE.invokeExact(pdptr, p, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemHostRegister_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT);

    private static final class cuMemHostRegister_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemHostRegister_v2", cuMemHostRegister_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuMemHostRegister_v2$descriptor() {
        return cuMemHostRegister_v2$DESC;
    }

    /** The downcall handle of {@code cuMemHostRegister_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemHostRegister_v2$handle() {
        return cuMemHostRegister_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
     * }
     */
    public static int cuMemHostRegister_v2(MemorySegment p, long bytesize, int Flags) {
        try {
            return (int) cuMemHostRegister_v2.HANDLE.invokeExact(p, bytesize, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemHostUnregister$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuMemHostUnregister {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemHostUnregister", cuMemHostUnregister$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostUnregister(void *p)
     * }
     */
    public static FunctionDescriptor cuMemHostUnregister$descriptor() {
        return cuMemHostUnregister$DESC;
    }

    /** The downcall handle of {@code cuMemHostUnregister}; the symbol is looked up on first use. */
    public static MethodHandle cuMemHostUnregister$handle() {
        return cuMemHostUnregister.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemHostUnregister(void *p)
     * }
     */
    public static int cuMemHostUnregister(MemorySegment p) {
        try {
            return (int) cuMemHostUnregister.HANDLE.invokeExact(p);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpy$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_LONG);

    private static final class cuMemcpy {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpy", cuMemcpy$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
     * }
     */
    public static FunctionDescriptor cuMemcpy$descriptor() {
        return cuMemcpy$DESC;
    }

    /** The downcall handle of {@code cuMemcpy}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpy$handle() {
        return cuMemcpy.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
     * }
     */
    public static int cuMemcpy(long dst, long src, long ByteCount) {
        try {
            return (int) cuMemcpy.HANDLE.invokeExact(dst, src, ByteCount);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyAsync$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_LONG, C_POINTER);

    private static final class cuMemcpyAsync {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyAsync", cuMemcpyAsync$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemcpyAsync$descriptor() {
        return cuMemcpyAsync$DESC;
    }

    /** The downcall handle of {@code cuMemcpyAsync}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyAsync$handle() {
        return cuMemcpyAsync.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
     * }
     */
    public static int cuMemcpyAsync(long dst, long src, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyAsync.HANDLE.invokeExact(dst, src, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyHtoD_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG);

    private static final class cuMemcpyHtoD_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyHtoD_v2", cuMemcpyHtoD_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
     * }
     */
    public static FunctionDescriptor cuMemcpyHtoD_v2$descriptor() {
        return cuMemcpyHtoD_v2$DESC;
    }

    /** The downcall handle of {@code cuMemcpyHtoD_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyHtoD_v2$handle() {
        return cuMemcpyHtoD_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
     * }
     */
    public static int cuMemcpyHtoD_v2(long dstDevice, MemorySegment srcHost, long ByteCount) {
        try {
            return (int) cuMemcpyHtoD_v2.HANDLE.invokeExact(dstDevice, srcHost, ByteCount);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyDtoH_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG);

    private static final class cuMemcpyDtoH_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyDtoH_v2", cuMemcpyDtoH_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
     * }
     */
    public static FunctionDescriptor cuMemcpyDtoH_v2$descriptor() {
        return cuMemcpyDtoH_v2$DESC;
    }

    /** The downcall handle of {@code cuMemcpyDtoH_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyDtoH_v2$handle() {
        return cuMemcpyDtoH_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
     * }
     */
    public static int cuMemcpyDtoH_v2(MemorySegment dstHost, long srcDevice, long ByteCount) {
        try {
            return (int) cuMemcpyDtoH_v2.HANDLE.invokeExact(dstHost, srcDevice, ByteCount);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyDtoD_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_LONG);

    private static final class cuMemcpyDtoD_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyDtoD_v2", cuMemcpyDtoD_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
     * }
     */
    public static FunctionDescriptor cuMemcpyDtoD_v2$descriptor() {
        return cuMemcpyDtoD_v2$DESC;
    }

    /** The downcall handle of {@code cuMemcpyDtoD_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyDtoD_v2$handle() {
        return cuMemcpyDtoD_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
     * }
     */
    public static int cuMemcpyDtoD_v2(long dstDevice, long srcDevice, long ByteCount) {
        try {
            return (int) cuMemcpyDtoD_v2.HANDLE.invokeExact(dstDevice, srcDevice, ByteCount);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyHtoDAsync_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG, C_POINTER);

    private static final class cuMemcpyHtoDAsync_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyHtoDAsync_v2", cuMemcpyHtoDAsync_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemcpyHtoDAsync_v2$descriptor() {
        return cuMemcpyHtoDAsync_v2$DESC;
    }

    /** The downcall handle of {@code cuMemcpyHtoDAsync_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyHtoDAsync_v2$handle() {
        return cuMemcpyHtoDAsync_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
     * }
     */
    public static int cuMemcpyHtoDAsync_v2(long dstDevice, MemorySegment srcHost, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyHtoDAsync_v2.HANDLE.invokeExact(dstDevice, srcHost, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyDtoHAsync_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_POINTER);

    private static final class cuMemcpyDtoHAsync_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyDtoHAsync_v2", cuMemcpyDtoHAsync_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemcpyDtoHAsync_v2$descriptor() {
        return cuMemcpyDtoHAsync_v2$DESC;
    }

    /** The downcall handle of {@code cuMemcpyDtoHAsync_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyDtoHAsync_v2$handle() {
        return cuMemcpyDtoHAsync_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
     * }
     */
    public static int cuMemcpyDtoHAsync_v2(MemorySegment dstHost, long srcDevice, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyDtoHAsync_v2.HANDLE.invokeExact(dstHost, srcDevice, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyDtoDAsync_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_LONG, C_POINTER);

    private static final class cuMemcpyDtoDAsync_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyDtoDAsync_v2", cuMemcpyDtoDAsync_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemcpyDtoDAsync_v2$descriptor() {
        return cuMemcpyDtoDAsync_v2$DESC;
    }

    /** The downcall handle of {@code cuMemcpyDtoDAsync_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyDtoDAsync_v2$handle() {
        return cuMemcpyDtoDAsync_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
     * }
     */
    public static int cuMemcpyDtoDAsync_v2(long dstDevice, long srcDevice, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyDtoDAsync_v2.HANDLE.invokeExact(dstDevice, srcDevice, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyPeer$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG, C_POINTER, C_LONG);

    private static final class cuMemcpyPeer {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyPeer", cuMemcpyPeer$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
     * }
     */
    public static FunctionDescriptor cuMemcpyPeer$descriptor() {
        return cuMemcpyPeer$DESC;
    }

    /** The downcall handle of {@code cuMemcpyPeer}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyPeer$handle() {
        return cuMemcpyPeer.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
     * }
     */
    public static int cuMemcpyPeer(long dstDevice, MemorySegment dstContext, long srcDevice, MemorySegment srcContext, long ByteCount) {
        try {
            return (int) cuMemcpyPeer.HANDLE.invokeExact(dstDevice, dstContext, srcDevice, srcContext, ByteCount);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemcpyPeerAsync$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG, C_POINTER, C_LONG, C_POINTER);

    private static final class cuMemcpyPeerAsync {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemcpyPeerAsync", cuMemcpyPeerAsync$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemcpyPeerAsync$descriptor() {
        return cuMemcpyPeerAsync$DESC;
    }

    /** The downcall handle of {@code cuMemcpyPeerAsync}; the symbol is looked up on first use. */
    public static MethodHandle cuMemcpyPeerAsync$handle() {
        return cuMemcpyPeerAsync.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
     * }
     */
    public static int cuMemcpyPeerAsync(long dstDevice, MemorySegment dstContext, long srcDevice, MemorySegment srcContext, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyPeerAsync.HANDLE.invokeExact(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemsetD8_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_CHAR, C_LONG);

    private static final class cuMemsetD8_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemsetD8_v2", cuMemsetD8_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
     * }
     */
    public static FunctionDescriptor cuMemsetD8_v2$descriptor() {
        return cuMemsetD8_v2$DESC;
    }

    /** The downcall handle of {@code cuMemsetD8_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemsetD8_v2$handle() {
        return cuMemsetD8_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
     * }
     */
    public static int cuMemsetD8_v2(long dstDevice, byte uc, long N) {
        try {
            return (int) cuMemsetD8_v2.HANDLE.invokeExact(dstDevice, uc, N);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemsetD32_v2$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_INT, C_LONG);

    private static final class cuMemsetD32_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemsetD32_v2", cuMemsetD32_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N)
     * }
     */
    public static FunctionDescriptor cuMemsetD32_v2$descriptor() {
        return cuMemsetD32_v2$DESC;
    }

    /** The downcall handle of {@code cuMemsetD32_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuMemsetD32_v2$handle() {
        return cuMemsetD32_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N)
     * }
     */
    public static int cuMemsetD32_v2(long dstDevice, int ui, long N) {
        try {
            return (int) cuMemsetD32_v2.HANDLE.invokeExact(dstDevice, ui, N);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemsetD8Async$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_CHAR, C_LONG, C_POINTER);

    private static final class cuMemsetD8Async {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemsetD8Async", cuMemsetD8Async$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemsetD8Async$descriptor() {
        return cuMemsetD8Async$DESC;
    }

    /** The downcall handle of {@code cuMemsetD8Async}; the symbol is looked up on first use. */
    public static MethodHandle cuMemsetD8Async$handle() {
        return cuMemsetD8Async.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
     * }
     */
    public static int cuMemsetD8Async(long dstDevice, byte uc, long N, MemorySegment hStream) {
        try {
            return (int) cuMemsetD8Async.HANDLE.invokeExact(dstDevice, uc, N, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemsetD32Async$DESC = FunctionDescriptor.of(C_INT, C_LONG, C_INT, C_LONG, C_POINTER);

    private static final class cuMemsetD32Async {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemsetD32Async", cuMemsetD32Async$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuMemsetD32Async$descriptor() {
        return cuMemsetD32Async$DESC;
    }

    /** The downcall handle of {@code cuMemsetD32Async}; the symbol is looked up on first use. */
    public static MethodHandle cuMemsetD32Async$handle() {
        return cuMemsetD32Async.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
     * }
     */
    public static int cuMemsetD32Async(long dstDevice, int ui, long N, MemorySegment hStream) {
        try {
            return (int) cuMemsetD32Async.HANDLE.invokeExact(dstDevice, ui, N, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuPointerGetAttribute$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_LONG);

    private static final class cuPointerGetAttribute {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuPointerGetAttribute", cuPointerGetAttribute$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
     * }
     */
    public static FunctionDescriptor cuPointerGetAttribute$descriptor() {
        return cuPointerGetAttribute$DESC;
    }

    /** The downcall handle of {@code cuPointerGetAttribute}; the symbol is looked up on first use. */
    public static MethodHandle cuPointerGetAttribute$handle() {
        return cuPointerGetAttribute.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
     * }
     */
    public static int cuPointerGetAttribute(MemorySegment data, int attribute, long ptr) {
        try {
            return (int) cuPointerGetAttribute.HANDLE.invokeExact(data, attribute, ptr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuPointerGetAttributes$DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER, C_LONG);

    private static final class cuPointerGetAttributes {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuPointerGetAttributes", cuPointerGetAttributes$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data, CUdeviceptr ptr)
     * }
     */
    public static FunctionDescriptor cuPointerGetAttributes$descriptor() {
        return cuPointerGetAttributes$DESC;
    }

    /** The downcall handle of {@code cuPointerGetAttributes}; the symbol is looked up on first use. */
    public static MethodHandle cuPointerGetAttributes$handle() {
        return cuPointerGetAttributes.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data, CUdeviceptr ptr)
     * }
     */
    public static int cuPointerGetAttributes(int numAttributes, MemorySegment attributes, MemorySegment data, long ptr) {
        try {
            return (int) cuPointerGetAttributes.HANDLE.invokeExact(numAttributes, attributes, data, ptr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuMemGetHandleForAddressRange$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_INT, C_LONG);

    private static final class cuMemGetHandleForAddressRange {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuMemGetHandleForAddressRange", cuMemGetHandleForAddressRange$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr, size_t size, CUmemRangeHandleType handleType, unsigned long long flags)
     * }
     */
    public static FunctionDescriptor cuMemGetHandleForAddressRange$descriptor() {
        return cuMemGetHandleForAddressRange$DESC;
    }

    /** The downcall handle of {@code cuMemGetHandleForAddressRange}; the symbol is looked up on first use. */
    public static MethodHandle cuMemGetHandleForAddressRange$handle() {
        return cuMemGetHandleForAddressRange.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr, size_t size, CUmemRangeHandleType handleType, unsigned long long flags)
     * }
     */
    public static int cuMemGetHandleForAddressRange(MemorySegment handle, long dptr, long size, int handleType, long flags) {
        try {
            return (int) cuMemGetHandleForAddressRange.HANDLE.invokeExact(handle, dptr, size, handleType, flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Inter-process memory ----

    private static final FunctionDescriptor cuIpcGetMemHandle$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);

    private static final class cuIpcGetMemHandle {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuIpcGetMemHandle", cuIpcGetMemHandle$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
     * }
     */
    public static FunctionDescriptor cuIpcGetMemHandle$descriptor() {
        return cuIpcGetMemHandle$DESC;
    }

    /** The downcall handle of {@code cuIpcGetMemHandle}; the symbol is looked up on first use. */
    public static MethodHandle cuIpcGetMemHandle$handle() {
        return cuIpcGetMemHandle.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
     * }
     */
    public static int cuIpcGetMemHandle(MemorySegment pHandle, long dptr) {
        try {
            return (int) cuIpcGetMemHandle.HANDLE.invokeExact(pHandle, dptr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuIpcOpenMemHandle_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, CUipcMemHandle_st.layout(), C_INT);

    private static final class cuIpcOpenMemHandle_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuIpcOpenMemHandle_v2", cuIpcOpenMemHandle_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuIpcOpenMemHandle_v2$descriptor() {
        return cuIpcOpenMemHandle_v2$DESC;
    }

    /** The downcall handle of {@code cuIpcOpenMemHandle_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuIpcOpenMemHandle_v2$handle() {
        return cuIpcOpenMemHandle_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
     * }
     */
    public static int cuIpcOpenMemHandle_v2(MemorySegment pdptr, MemorySegment handle, int Flags) {
        try {
            return (int) cuIpcOpenMemHandle_v2.HANDLE.invokeExact(pdptr, handle, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuIpcCloseMemHandle$DESC = FunctionDescriptor.of(C_INT, C_LONG);

    private static final class cuIpcCloseMemHandle {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuIpcCloseMemHandle", cuIpcCloseMemHandle$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
     * }
     */
    public static FunctionDescriptor cuIpcCloseMemHandle$descriptor() {
        return cuIpcCloseMemHandle$DESC;
    }

    /** The downcall handle of {@code cuIpcCloseMemHandle}; the symbol is looked up on first use. */
    public static MethodHandle cuIpcCloseMemHandle$handle() {
        return cuIpcCloseMemHandle.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
     * }
     */
    public static int cuIpcCloseMemHandle(long dptr) {
        try {
            return (int) cuIpcCloseMemHandle.HANDLE.invokeExact(dptr);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Modules, functions and launches ----

    private static final FunctionDescriptor cuModuleLoadData$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuModuleLoadData {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuModuleLoadData", cuModuleLoadData$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleLoadData(CUmodule *module, const void *image)
     * }
     */
    public static FunctionDescriptor cuModuleLoadData$descriptor() {
        return cuModuleLoadData$DESC;
    }

    /** The downcall handle of {@code cuModuleLoadData}; the symbol is looked up on first use. */
    public static MethodHandle cuModuleLoadData$handle() {
        return cuModuleLoadData.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleLoadData(CUmodule *module, const void *image)
     * }
     */
    public static int cuModuleLoadData(MemorySegment module, MemorySegment image) {
        try {
            return (int) cuModuleLoadData.HANDLE.invokeExact(module, image);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuModuleLoadDataEx$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER, C_POINTER);

    private static final class cuModuleLoadDataEx {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuModuleLoadDataEx", cuModuleLoadDataEx$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues)
     * }
     */
    public static FunctionDescriptor cuModuleLoadDataEx$descriptor() {
        return cuModuleLoadDataEx$DESC;
    }

    /** The downcall handle of {@code cuModuleLoadDataEx}; the symbol is looked up on first use. */
    public static MethodHandle cuModuleLoadDataEx$handle() {
        return cuModuleLoadDataEx.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues)
     * }
     */
    public static int cuModuleLoadDataEx(MemorySegment module, MemorySegment image, int numOptions, MemorySegment options, MemorySegment optionValues) {
        try {
            return (int) cuModuleLoadDataEx.HANDLE.invokeExact(module, image, numOptions, options, optionValues);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuModuleUnload$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuModuleUnload {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuModuleUnload", cuModuleUnload$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleUnload(CUmodule hmod)
     * }
     */
    public static FunctionDescriptor cuModuleUnload$descriptor() {
        return cuModuleUnload$DESC;
    }

    /** The downcall handle of {@code cuModuleUnload}; the symbol is looked up on first use. */
    public static MethodHandle cuModuleUnload$handle() {
        return cuModuleUnload.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleUnload(CUmodule hmod)
     * }
     */
    public static int cuModuleUnload(MemorySegment hmod) {
        try {
            return (int) cuModuleUnload.HANDLE.invokeExact(hmod);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuModuleGetFunction$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);

    private static final class cuModuleGetFunction {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuModuleGetFunction", cuModuleGetFunction$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
     * }
     */
    public static FunctionDescriptor cuModuleGetFunction$descriptor() {
        return cuModuleGetFunction$DESC;
    }

    /** The downcall handle of {@code cuModuleGetFunction}; the symbol is looked up on first use. */
    public static MethodHandle cuModuleGetFunction$handle() {
        return cuModuleGetFunction.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
     * }
     */
    public static int cuModuleGetFunction(MemorySegment hfunc, MemorySegment hmod, MemorySegment name) {
        try {
            return (int) cuModuleGetFunction.HANDLE.invokeExact(hfunc, hmod, name);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuModuleGetGlobal_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER);

    private static final class cuModuleGetGlobal_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuModuleGetGlobal_v2", cuModuleGetGlobal_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
     * }
     */
    public static FunctionDescriptor cuModuleGetGlobal_v2$descriptor() {
        return cuModuleGetGlobal_v2$DESC;
    }

    /** The downcall handle of {@code cuModuleGetGlobal_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuModuleGetGlobal_v2$handle() {
        return cuModuleGetGlobal_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
     * }
     */
    public static int cuModuleGetGlobal_v2(MemorySegment dptr, MemorySegment bytes, MemorySegment hmod, MemorySegment name) {
        try {
            return (int) cuModuleGetGlobal_v2.HANDLE.invokeExact(dptr, bytes, hmod, name);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuFuncGetAttribute$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);

    private static final class cuFuncGetAttribute {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuFuncGetAttribute", cuFuncGetAttribute$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
     * }
     */
    public static FunctionDescriptor cuFuncGetAttribute$descriptor() {
        return cuFuncGetAttribute$DESC;
    }

    /** The downcall handle of {@code cuFuncGetAttribute}; the symbol is looked up on first use. */
    public static MethodHandle cuFuncGetAttribute$handle() {
        return cuFuncGetAttribute.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
     * }
     */
    public static int cuFuncGetAttribute(MemorySegment pi, int attrib, MemorySegment hfunc) {
        try {
            return (int) cuFuncGetAttribute.HANDLE.invokeExact(pi, attrib, hfunc);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuFuncSetAttribute$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);

    private static final class cuFuncSetAttribute {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuFuncSetAttribute", cuFuncSetAttribute$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
     * }
     */
    public static FunctionDescriptor cuFuncSetAttribute$descriptor() {
        return cuFuncSetAttribute$DESC;
    }

    /** The downcall handle of {@code cuFuncSetAttribute}; the symbol is looked up on first use. */
    public static MethodHandle cuFuncSetAttribute$handle() {
        return cuFuncSetAttribute.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
     * }
     */
    public static int cuFuncSetAttribute(MemorySegment hfunc, int attrib, int value) {
        try {
            return (int) cuFuncSetAttribute.HANDLE.invokeExact(hfunc, attrib, value);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuOccupancyMaxActiveBlocksPerMultiprocessor$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_LONG);

    private static final class cuOccupancyMaxActiveBlocksPerMultiprocessor {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuOccupancyMaxActiveBlocksPerMultiprocessor", cuOccupancyMaxActiveBlocksPerMultiprocessor$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize)
     * }
     */
    public static FunctionDescriptor cuOccupancyMaxActiveBlocksPerMultiprocessor$descriptor() {
        return cuOccupancyMaxActiveBlocksPerMultiprocessor$DESC;
    }

    /** The downcall handle of {@code cuOccupancyMaxActiveBlocksPerMultiprocessor}; the symbol is looked up on first use. */
    public static MethodHandle cuOccupancyMaxActiveBlocksPerMultiprocessor$handle() {
        return cuOccupancyMaxActiveBlocksPerMultiprocessor.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize)
     * }
     */
    public static int cuOccupancyMaxActiveBlocksPerMultiprocessor(MemorySegment numBlocks, MemorySegment func, int blockSize, long dynamicSMemSize) {
        try {
            return (int) cuOccupancyMaxActiveBlocksPerMultiprocessor.HANDLE.invokeExact(numBlocks, func, blockSize, dynamicSMemSize);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuLaunchKernel$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_POINTER);

    private static final class cuLaunchKernel {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuLaunchKernel", cuLaunchKernel$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
     * }
     */
    public static FunctionDescriptor cuLaunchKernel$descriptor() {
        return cuLaunchKernel$DESC;
    }

    /** The downcall handle of {@code cuLaunchKernel}; the symbol is looked up on first use. */
    public static MethodHandle cuLaunchKernel$handle() {
        return cuLaunchKernel.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
     * }
     */
    public static int cuLaunchKernel(MemorySegment f, int gridDimX, int gridDimY, int gridDimZ, int blockDimX, int blockDimY, int blockDimZ, int sharedMemBytes, MemorySegment hStream, MemorySegment kernelParams, MemorySegment extra) {
        try {
            return (int) cuLaunchKernel.HANDLE.invokeExact(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Streams ----

    private static final FunctionDescriptor cuStreamCreate$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuStreamCreate {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamCreate", cuStreamCreate$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuStreamCreate$descriptor() {
        return cuStreamCreate$DESC;
    }

    /** The downcall handle of {@code cuStreamCreate}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamCreate$handle() {
        return cuStreamCreate.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
     * }
     */
    public static int cuStreamCreate(MemorySegment phStream, int Flags) {
        try {
            return (int) cuStreamCreate.HANDLE.invokeExact(phStream, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamCreateWithPriority$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);

    private static final class cuStreamCreateWithPriority {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamCreateWithPriority", cuStreamCreateWithPriority$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
     * }
     */
    public static FunctionDescriptor cuStreamCreateWithPriority$descriptor() {
        return cuStreamCreateWithPriority$DESC;
    }

    /** The downcall handle of {@code cuStreamCreateWithPriority}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamCreateWithPriority$handle() {
        return cuStreamCreateWithPriority.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
     * }
     */
    public static int cuStreamCreateWithPriority(MemorySegment phStream, int flags, int priority) {
        try {
            return (int) cuStreamCreateWithPriority.HANDLE.invokeExact(phStream, flags, priority);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamDestroy_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuStreamDestroy_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamDestroy_v2", cuStreamDestroy_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamDestroy(CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuStreamDestroy_v2$descriptor() {
        return cuStreamDestroy_v2$DESC;
    }

    /** The downcall handle of {@code cuStreamDestroy_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamDestroy_v2$handle() {
        return cuStreamDestroy_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamDestroy(CUstream hStream)
     * }
     */
    public static int cuStreamDestroy_v2(MemorySegment hStream) {
        try {
            return (int) cuStreamDestroy_v2.HANDLE.invokeExact(hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamSynchronize$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuStreamSynchronize {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamSynchronize", cuStreamSynchronize$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamSynchronize(CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuStreamSynchronize$descriptor() {
        return cuStreamSynchronize$DESC;
    }

    /** The downcall handle of {@code cuStreamSynchronize}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamSynchronize$handle() {
        return cuStreamSynchronize.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamSynchronize(CUstream hStream)
     * }
     */
    public static int cuStreamSynchronize(MemorySegment hStream) {
        try {
            return (int) cuStreamSynchronize.HANDLE.invokeExact(hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamQuery$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuStreamQuery {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamQuery", cuStreamQuery$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamQuery(CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuStreamQuery$descriptor() {
        return cuStreamQuery$DESC;
    }

    /** The downcall handle of {@code cuStreamQuery}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamQuery$handle() {
        return cuStreamQuery.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamQuery(CUstream hStream)
     * }
     */
    public static int cuStreamQuery(MemorySegment hStream) {
        try {
            return (int) cuStreamQuery.HANDLE.invokeExact(hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamWaitEvent$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);

    private static final class cuStreamWaitEvent {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamWaitEvent", cuStreamWaitEvent$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuStreamWaitEvent$descriptor() {
        return cuStreamWaitEvent$DESC;
    }

    /** The downcall handle of {@code cuStreamWaitEvent}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamWaitEvent$handle() {
        return cuStreamWaitEvent.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
     * }
     */
    public static int cuStreamWaitEvent(MemorySegment hStream, MemorySegment hEvent, int Flags) {
        try {
            return (int) cuStreamWaitEvent.HANDLE.invokeExact(hStream, hEvent, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Stream capture and graphs ----

    private static final FunctionDescriptor cuStreamBeginCapture_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuStreamBeginCapture_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamBeginCapture_v2", cuStreamBeginCapture_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode)
     * }
     */
    public static FunctionDescriptor cuStreamBeginCapture_v2$descriptor() {
        return cuStreamBeginCapture_v2$DESC;
    }

    /** The downcall handle of {@code cuStreamBeginCapture_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamBeginCapture_v2$handle() {
        return cuStreamBeginCapture_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode)
     * }
     */
    public static int cuStreamBeginCapture_v2(MemorySegment hStream, int mode) {
        try {
            return (int) cuStreamBeginCapture_v2.HANDLE.invokeExact(hStream, mode);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamEndCapture$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuStreamEndCapture {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamEndCapture", cuStreamEndCapture$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
     * }
     */
    public static FunctionDescriptor cuStreamEndCapture$descriptor() {
        return cuStreamEndCapture$DESC;
    }

    /** The downcall handle of {@code cuStreamEndCapture}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamEndCapture$handle() {
        return cuStreamEndCapture.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
     * }
     */
    public static int cuStreamEndCapture(MemorySegment hStream, MemorySegment phGraph) {
        try {
            return (int) cuStreamEndCapture.HANDLE.invokeExact(hStream, phGraph);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamIsCapturing$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuStreamIsCapturing {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamIsCapturing", cuStreamIsCapturing$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
     * }
     */
    public static FunctionDescriptor cuStreamIsCapturing$descriptor() {
        return cuStreamIsCapturing$DESC;
    }

    /** The downcall handle of {@code cuStreamIsCapturing}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamIsCapturing$handle() {
        return cuStreamIsCapturing.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
     * }
     */
    public static int cuStreamIsCapturing(MemorySegment hStream, MemorySegment captureStatus) {
        try {
            return (int) cuStreamIsCapturing.HANDLE.invokeExact(hStream, captureStatus);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuStreamGetCaptureInfo_v3$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER);

    private static final class cuStreamGetCaptureInfo_v3 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuStreamGetCaptureInfo_v3", cuStreamGetCaptureInfo_v3$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
     * }
     */
    public static FunctionDescriptor cuStreamGetCaptureInfo_v3$descriptor() {
        return cuStreamGetCaptureInfo_v3$DESC;
    }

    /** The downcall handle of {@code cuStreamGetCaptureInfo_v3}; the symbol is looked up on first use. */
    public static MethodHandle cuStreamGetCaptureInfo_v3$handle() {
        return cuStreamGetCaptureInfo_v3.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
     * }
     */
    public static int cuStreamGetCaptureInfo_v3(MemorySegment hStream, MemorySegment captureStatus_out, MemorySegment id_out, MemorySegment graph_out, MemorySegment dependencies_out, MemorySegment edgeData_out, MemorySegment numDependencies_out) {
        try {
            return (int) cuStreamGetCaptureInfo_v3.HANDLE.invokeExact(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out, numDependencies_out);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuThreadExchangeStreamCaptureMode$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuThreadExchangeStreamCaptureMode {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuThreadExchangeStreamCaptureMode", cuThreadExchangeStreamCaptureMode$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
     * }
     */
    public static FunctionDescriptor cuThreadExchangeStreamCaptureMode$descriptor() {
        return cuThreadExchangeStreamCaptureMode$DESC;
    }

    /** The downcall handle of {@code cuThreadExchangeStreamCaptureMode}; the symbol is looked up on first use. */
    public static MethodHandle cuThreadExchangeStreamCaptureMode$handle() {
        return cuThreadExchangeStreamCaptureMode.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
     * }
     */
    public static int cuThreadExchangeStreamCaptureMode(MemorySegment mode) {
        try {
            return (int) cuThreadExchangeStreamCaptureMode.HANDLE.invokeExact(mode);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGraphInstantiateWithFlags$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG);

    private static final class cuGraphInstantiateWithFlags {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGraphInstantiateWithFlags", cuGraphInstantiateWithFlags$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
     * }
     */
    public static FunctionDescriptor cuGraphInstantiateWithFlags$descriptor() {
        return cuGraphInstantiateWithFlags$DESC;
    }

    /** The downcall handle of {@code cuGraphInstantiateWithFlags}; the symbol is looked up on first use. */
    public static MethodHandle cuGraphInstantiateWithFlags$handle() {
        return cuGraphInstantiateWithFlags.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
     * }
     */
    public static int cuGraphInstantiateWithFlags(MemorySegment phGraphExec, MemorySegment hGraph, long flags) {
        try {
            return (int) cuGraphInstantiateWithFlags.HANDLE.invokeExact(phGraphExec, hGraph, flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGraphLaunch$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuGraphLaunch {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGraphLaunch", cuGraphLaunch$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuGraphLaunch$descriptor() {
        return cuGraphLaunch$DESC;
    }

    /** The downcall handle of {@code cuGraphLaunch}; the symbol is looked up on first use. */
    public static MethodHandle cuGraphLaunch$handle() {
        return cuGraphLaunch.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
     * }
     */
    public static int cuGraphLaunch(MemorySegment hGraphExec, MemorySegment hStream) {
        try {
            return (int) cuGraphLaunch.HANDLE.invokeExact(hGraphExec, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGraphExecDestroy$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuGraphExecDestroy {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGraphExecDestroy", cuGraphExecDestroy$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
     * }
     */
    public static FunctionDescriptor cuGraphExecDestroy$descriptor() {
        return cuGraphExecDestroy$DESC;
    }

    /** The downcall handle of {@code cuGraphExecDestroy}; the symbol is looked up on first use. */
    public static MethodHandle cuGraphExecDestroy$handle() {
        return cuGraphExecDestroy.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
     * }
     */
    public static int cuGraphExecDestroy(MemorySegment hGraphExec) {
        try {
            return (int) cuGraphExecDestroy.HANDLE.invokeExact(hGraphExec);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGraphDestroy$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuGraphDestroy {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGraphDestroy", cuGraphDestroy$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphDestroy(CUgraph hGraph)
     * }
     */
    public static FunctionDescriptor cuGraphDestroy$descriptor() {
        return cuGraphDestroy$DESC;
    }

    /** The downcall handle of {@code cuGraphDestroy}; the symbol is looked up on first use. */
    public static MethodHandle cuGraphDestroy$handle() {
        return cuGraphDestroy.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphDestroy(CUgraph hGraph)
     * }
     */
    public static int cuGraphDestroy(MemorySegment hGraph) {
        try {
            return (int) cuGraphDestroy.HANDLE.invokeExact(hGraph);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuUserObjectCreate$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_INT, C_INT);

    private static final class cuUserObjectCreate {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuUserObjectCreate", cuUserObjectCreate$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount, unsigned int flags)
     * }
     */
    public static FunctionDescriptor cuUserObjectCreate$descriptor() {
        return cuUserObjectCreate$DESC;
    }

    /** The downcall handle of {@code cuUserObjectCreate}; the symbol is looked up on first use. */
    public static MethodHandle cuUserObjectCreate$handle() {
        return cuUserObjectCreate.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount, unsigned int flags)
     * }
     */
    public static int cuUserObjectCreate(MemorySegment object_out, MemorySegment ptr, MemorySegment destroy, int initialRefcount, int flags) {
        try {
            return (int) cuUserObjectCreate.HANDLE.invokeExact(object_out, ptr, destroy, initialRefcount, flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuUserObjectRelease$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuUserObjectRelease {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuUserObjectRelease", cuUserObjectRelease$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuUserObjectRelease(CUuserObject object, unsigned int count)
     * }
     */
    public static FunctionDescriptor cuUserObjectRelease$descriptor() {
        return cuUserObjectRelease$DESC;
    }

    /** The downcall handle of {@code cuUserObjectRelease}; the symbol is looked up on first use. */
    public static MethodHandle cuUserObjectRelease$handle() {
        return cuUserObjectRelease.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuUserObjectRelease(CUuserObject object, unsigned int count)
     * }
     */
    public static int cuUserObjectRelease(MemorySegment object, int count) {
        try {
            return (int) cuUserObjectRelease.HANDLE.invokeExact(object, count);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuGraphRetainUserObject$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_INT);

    private static final class cuGraphRetainUserObject {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuGraphRetainUserObject", cuGraphRetainUserObject$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)
     * }
     */
    public static FunctionDescriptor cuGraphRetainUserObject$descriptor() {
        return cuGraphRetainUserObject$DESC;
    }

    /** The downcall handle of {@code cuGraphRetainUserObject}; the symbol is looked up on first use. */
    public static MethodHandle cuGraphRetainUserObject$handle() {
        return cuGraphRetainUserObject.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)
     * }
     */
    public static int cuGraphRetainUserObject(MemorySegment graph, MemorySegment object, int count, int flags) {
        try {
            return (int) cuGraphRetainUserObject.HANDLE.invokeExact(graph, object, count, flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Events ----

    private static final FunctionDescriptor cuEventCreate$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);

    private static final class cuEventCreate {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuEventCreate", cuEventCreate$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
     * }
     */
    public static FunctionDescriptor cuEventCreate$descriptor() {
        return cuEventCreate$DESC;
    }

    /** The downcall handle of {@code cuEventCreate}; the symbol is looked up on first use. */
    public static MethodHandle cuEventCreate$handle() {
        return cuEventCreate.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
     * }
     */
    public static int cuEventCreate(MemorySegment phEvent, int Flags) {
        try {
            return (int) cuEventCreate.HANDLE.invokeExact(phEvent, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuEventDestroy_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuEventDestroy_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuEventDestroy_v2", cuEventDestroy_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventDestroy(CUevent hEvent)
     * }
     */
    public static FunctionDescriptor cuEventDestroy_v2$descriptor() {
        return cuEventDestroy_v2$DESC;
    }

    /** The downcall handle of {@code cuEventDestroy_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuEventDestroy_v2$handle() {
        return cuEventDestroy_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventDestroy(CUevent hEvent)
     * }
     */
    public static int cuEventDestroy_v2(MemorySegment hEvent) {
        try {
            return (int) cuEventDestroy_v2.HANDLE.invokeExact(hEvent);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuEventRecord$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class cuEventRecord {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuEventRecord", cuEventRecord$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
     * }
     */
    public static FunctionDescriptor cuEventRecord$descriptor() {
        return cuEventRecord$DESC;
    }

    /** The downcall handle of {@code cuEventRecord}; the symbol is looked up on first use. */
    public static MethodHandle cuEventRecord$handle() {
        return cuEventRecord.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
     * }
     */
    public static int cuEventRecord(MemorySegment hEvent, MemorySegment hStream) {
        try {
            return (int) cuEventRecord.HANDLE.invokeExact(hEvent, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuEventSynchronize$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuEventSynchronize {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuEventSynchronize", cuEventSynchronize$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventSynchronize(CUevent hEvent)
     * }
     */
    public static FunctionDescriptor cuEventSynchronize$descriptor() {
        return cuEventSynchronize$DESC;
    }

    /** The downcall handle of {@code cuEventSynchronize}; the symbol is looked up on first use. */
    public static MethodHandle cuEventSynchronize$handle() {
        return cuEventSynchronize.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventSynchronize(CUevent hEvent)
     * }
     */
    public static int cuEventSynchronize(MemorySegment hEvent) {
        try {
            return (int) cuEventSynchronize.HANDLE.invokeExact(hEvent);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuEventQuery$DESC = FunctionDescriptor.of(C_INT, C_POINTER);

    private static final class cuEventQuery {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuEventQuery", cuEventQuery$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventQuery(CUevent hEvent)
     * }
     */
    public static FunctionDescriptor cuEventQuery$descriptor() {
        return cuEventQuery$DESC;
    }

    /** The downcall handle of {@code cuEventQuery}; the symbol is looked up on first use. */
    public static MethodHandle cuEventQuery$handle() {
        return cuEventQuery.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventQuery(CUevent hEvent)
     * }
     */
    public static int cuEventQuery(MemorySegment hEvent) {
        try {
            return (int) cuEventQuery.HANDLE.invokeExact(hEvent);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor cuEventElapsedTime_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);

    private static final class cuEventElapsedTime_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("cuEventElapsedTime_v2", cuEventElapsedTime_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
     * }
     */
    public static FunctionDescriptor cuEventElapsedTime_v2$descriptor() {
        return cuEventElapsedTime_v2$DESC;
    }

    /** The downcall handle of {@code cuEventElapsedTime_v2}; the symbol is looked up on first use. */
    public static MethodHandle cuEventElapsedTime_v2$handle() {
        return cuEventElapsedTime_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
     * }
     */
    public static int cuEventElapsedTime_v2(MemorySegment pMilliseconds, MemorySegment hStart, MemorySegment hEnd) {
        try {
            return (int) cuEventElapsedTime_v2.HANDLE.invokeExact(pMilliseconds, hStart, hEnd);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }
}
