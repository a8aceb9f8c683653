// SPDX-License-Identifier: Apache-2.0
package io.jccl.cuda;

import static io.jccl.bindings.CLayouts.C_CHAR;
import static io.jccl.bindings.CLayouts.C_FLOAT;
import static io.jccl.bindings.CLayouts.C_INT;
import static io.jccl.bindings.CLayouts.C_LONG;
import static io.jccl.bindings.CLayouts.C_POINTER;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bindings.NativeLibraryException;
import io.jccl.bindings.cuda.CUipcMemHandle_st;
import io.jccl.bindings.cuda.Cuda;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Checked calls into the CUDA driver. Each method makes one driver call (named in its Javadoc),
 * returns what the call writes through its out-parameters, and throws a {@link JcclException} with
 * {@link ErrorCode#UNHANDLED_CUDA_ERROR} if the driver answers anything but {@code CUDA_SUCCESS}:
 * "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory". A driver that cannot be loaded
 * is a {@link ErrorCode#SYSTEM_ERROR}, as in NCCL. Handles ({@code CUcontext}, {@code CUstream},
 * {@code CUevent}, {@code CUmodule}, {@code CUfunction}) are {@link MemorySegment} addresses;
 * device pointers are {@code long}s.
 *
 * {@snippet :
 * if (CudaDriver.available()) {
 *     CudaDriver.init();
 *     int device = CudaDriver.device(0);
 *     MemorySegment context = CudaDriver.retainPrimaryContext(device);
 *     CudaDriver.setCurrent(context);
 *     long buffer = CudaDriver.memAlloc(1 << 20);
 *     CudaDriver.memFree(buffer);
 *     CudaDriver.releasePrimaryContext(device);
 * }
 * }
 */
public final class CudaDriver {
    private CudaDriver() {}

    /** Bytes of each JIT log buffer given to {@code cuModuleLoadDataEx}. */
    private static final int JIT_LOG_BYTES = 16 * 1024;

    /** Whether the CUDA driver library can be loaded (it is loaded now if it was not). */
    public static boolean available() {
        return Cuda.LIBRARY.isAvailable();
    }

    /**
     * Runs one driver call and checks its result.
     *
     * @param call the API name, for the message ("cuMemAlloc")
     * @throws JcclException {@code UNHANDLED_CUDA_ERROR} for a result other than {@code CUDA_SUCCESS},
     *     {@code SYSTEM_ERROR} if the driver or the call's symbol cannot be loaded
     */
    public static void check(String call, IntSupplier driverCall) {
        int result;
        try {
            result = driverCall.getAsInt();
        } catch (NativeLibraryException e) {
            throw new JcclException(ErrorCode.SYSTEM_ERROR, JcclException.NO_RANK, call + ": " + e.getMessage(), e);
        }
        if (result != Cuda.CUDA_SUCCESS) {
            throw new JcclException(ErrorCode.UNHANDLED_CUDA_ERROR, JcclException.NO_RANK,
                    call + " failed: " + describe(result));
        }
    }

    /**
     * A {@code CUresult} as the driver names and describes it ("CUDA_ERROR_OUT_OF_MEMORY (2): out of
     * memory"). Where the driver cannot (the stub library, an unknown code) the name comes from the
     * bindings' constants and the text says why there is no description.
     */
    public static String describe(int result) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(C_POINTER);
            int nameResult = Cuda.cuGetErrorName(result, text);
            String name = nameResult == Cuda.CUDA_SUCCESS ? string(text) : ResultNames.NAMES.getOrDefault(result, "CUresult");
            int stringResult = Cuda.cuGetErrorString(result, text);
            String description = stringResult == Cuda.CUDA_SUCCESS ? string(text)
                    : "(the driver gives no description: cuGetErrorString answered " + stringResult + ")";
            return name + " (" + result + "): " + description;
        } catch (NativeLibraryException e) {
            return ResultNames.NAMES.getOrDefault(result, "CUresult") + " (" + result + ")";
        }
    }

    @SuppressWarnings("restricted") // a C string or array the library returned, read to its length
    private static String string(MemorySegment pointerToString) {
        return pointerToString.get(C_POINTER, 0).reinterpret(Integer.MAX_VALUE).getString(0);
    }

    /** The CUresult names the bindings define, for codes the driver will not name. */
    private static final class ResultNames {
        static final Map<Integer, String> NAMES = new HashMap<>();

        static {
            for (Field f : Cuda.class.getFields()) {
                String n = f.getName();
                if (f.getType() == int.class && Modifier.isStatic(f.getModifiers())
                        && (n.startsWith("CUDA_ERROR_") || n.equals("CUDA_SUCCESS"))) {
                    try {
                        NAMES.putIfAbsent(f.getInt(null), n);
                    } catch (IllegalAccessException e) {
                        throw new ExceptionInInitializerError(e);
                    }
                }
            }
        }
    }

    // ---- initialisation and devices ----

    /** {@code cuInit(0)}. */
    public static void init() {
        check("cuInit", () -> Cuda.cuInit(0));
    }

    /** {@code cuDriverGetVersion}: 1000 × major + 10 × minor (13000 for CUDA 13.0). */
    public static int driverVersion() {
        return intOut("cuDriverGetVersion", p -> Cuda.cuDriverGetVersion(p));
    }

    /** {@code cuDeviceGetCount}. */
    public static int deviceCount() {
        return intOut("cuDeviceGetCount", p -> Cuda.cuDeviceGetCount(p));
    }

    /** {@code cuDeviceGet}: the device of ordinal {@code ordinal}. */
    public static int device(int ordinal) {
        return intOut("cuDeviceGet", p -> Cuda.cuDeviceGet(p, ordinal));
    }

    /** {@code cuDeviceGetName}. */
    public static String deviceName(int device) {
        return stringOut("cuDeviceGetName", 256, (p, n) -> Cuda.cuDeviceGetName(p, n, device));
    }

    /** {@code cuDeviceGetPCIBusId}: "0000:65:00.0", the form topology files use. */
    public static String pciBusId(int device) {
        return stringOut("cuDeviceGetPCIBusId", 64, (p, n) -> Cuda.cuDeviceGetPCIBusId(p, n, device));
    }

    /** {@code cuDeviceGetAttribute}, e.g. {@link Cuda#CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}. */
    public static int attribute(int attribute, int device) {
        return intOut("cuDeviceGetAttribute", p -> Cuda.cuDeviceGetAttribute(p, attribute, device));
    }

    /** {@code cuDeviceTotalMem}. */
    public static long totalMemory(int device) {
        return longOut("cuDeviceTotalMem", p -> Cuda.cuDeviceTotalMem_v2(p, device));
    }

    /** {@code cuDeviceGetByPCIBusId}: the device of this process with that bus id ("0000:65:00.0"). */
    public static int deviceByPciBusId(String busId) {
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment id = a.allocateFrom(busId);
            return intOut("cuDeviceGetByPCIBusId", p -> Cuda.cuDeviceGetByPCIBusId(p, id));
        }
    }

    /** {@code cuDeviceCanAccessPeer}. */
    public static boolean canAccessPeer(int device, int peer) {
        return intOut("cuDeviceCanAccessPeer", p -> Cuda.cuDeviceCanAccessPeer(p, device, peer)) != 0;
    }

    /**
     * {@code cuDeviceGetP2PAttribute}: an attribute of the link from {@code src} to {@code dst},
     * e.g. {@link Cuda#CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED}.
     */
    public static int p2pAttribute(int attribute, int src, int dst) {
        return intOut("cuDeviceGetP2PAttribute", p -> Cuda.cuDeviceGetP2PAttribute(p, attribute, src, dst));
    }

    // ---- contexts ----

    /** {@code cuDevicePrimaryCtxRetain}. */
    public static MemorySegment retainPrimaryContext(int device) {
        return pointerOut("cuDevicePrimaryCtxRetain", p -> Cuda.cuDevicePrimaryCtxRetain(p, device));
    }

    /** {@code cuDevicePrimaryCtxRelease}. */
    public static void releasePrimaryContext(int device) {
        check("cuDevicePrimaryCtxRelease", () -> Cuda.cuDevicePrimaryCtxRelease_v2(device));
    }

    /** {@code cuCtxSetCurrent}. */
    public static void setCurrent(MemorySegment context) {
        check("cuCtxSetCurrent", () -> Cuda.cuCtxSetCurrent(context));
    }

    /** {@code cuCtxGetCurrent}: NULL if the thread has none. */
    public static MemorySegment current() {
        return pointerOut("cuCtxGetCurrent", p -> Cuda.cuCtxGetCurrent(p));
    }

    /** {@code cuCtxEnablePeerAccess}; access that is already enabled is not an error. */
    public static void enablePeerAccess(MemorySegment peerContext) {
        check("cuCtxEnablePeerAccess", () -> {
            int r = Cuda.cuCtxEnablePeerAccess(peerContext, 0);
            return r == Cuda.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED ? Cuda.CUDA_SUCCESS : r;
        });
    }

    // ---- memory ----

    /** {@code cuMemAlloc}: a device pointer to {@code bytes} bytes. */
    public static long memAlloc(long bytes) {
        return longOut("cuMemAlloc", p -> Cuda.cuMemAlloc_v2(p, bytes));
    }

    /** {@code cuMemFree}. */
    public static void memFree(long devicePointer) {
        check("cuMemFree", () -> Cuda.cuMemFree_v2(devicePointer));
    }

    /**
     * {@code cuMemHostAlloc}: pinned host memory, e.g. with {@link Cuda#CU_MEMHOSTALLOC_PORTABLE}
     * {@code |} {@link Cuda#CU_MEMHOSTALLOC_DEVICEMAP} for FIFOs the GPU reads.
     */
    @SuppressWarnings("restricted") // the driver's allocation, widened to the size asked for
    public static MemorySegment hostAlloc(long bytes, int flags) {
        return pointerOut("cuMemHostAlloc", p -> Cuda.cuMemHostAlloc(p, bytes, flags)).reinterpret(bytes);
    }

    /** {@code cuMemFreeHost}. */
    public static void freeHost(MemorySegment host) {
        check("cuMemFreeHost", () -> Cuda.cuMemFreeHost(host));
    }

    /**
     * {@code cuMemHostRegister}: pins host memory the process already has (a mapped file under
     * /dev/shm shared with another process), e.g. with {@link Cuda#CU_MEMHOSTREGISTER_PORTABLE}
     * {@code |} {@link Cuda#CU_MEMHOSTREGISTER_DEVICEMAP} so that kernels reach it.
     */
    public static void hostRegister(MemorySegment host, int flags) {
        check("cuMemHostRegister", () -> Cuda.cuMemHostRegister_v2(host, host.byteSize(), flags));
    }

    /** {@code cuMemHostUnregister}. */
    public static void hostUnregister(MemorySegment host) {
        check("cuMemHostUnregister", () -> Cuda.cuMemHostUnregister(host));
    }

    /** {@code cuMemHostGetDevicePointer}: the device's address of mapped host memory. */
    public static long hostDevicePointer(MemorySegment host) {
        return longOut("cuMemHostGetDevicePointer", p -> Cuda.cuMemHostGetDevicePointer_v2(p, host, 0));
    }

    /** {@code cuMemcpyAsync}: any kind of memory to any kind, the kinds told by unified addressing. */
    public static void copyAsync(long dst, long src, long bytes, MemorySegment stream) {
        check("cuMemcpyAsync", () -> Cuda.cuMemcpyAsync(dst, src, bytes, stream));
    }

    /** {@code cuMemcpyHtoD}. */
    public static void copyToDevice(long dst, MemorySegment src, long bytes) {
        check("cuMemcpyHtoD", () -> Cuda.cuMemcpyHtoD_v2(dst, src, bytes));
    }

    /** {@code cuMemcpyDtoH}. */
    public static void copyToHost(MemorySegment dst, long src, long bytes) {
        check("cuMemcpyDtoH", () -> Cuda.cuMemcpyDtoH_v2(dst, src, bytes));
    }

    /** {@code cuMemsetD8Async}. */
    public static void memsetAsync(long dst, byte value, long bytes, MemorySegment stream) {
        check("cuMemsetD8Async", () -> Cuda.cuMemsetD8Async(dst, value, bytes, stream));
    }

    /** {@code cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_MEMORY_TYPE)}: a {@code CU_MEMORYTYPE_*}. */
    public static int memoryType(long pointer) {
        return intOut("cuPointerGetAttribute(MEMORY_TYPE)",
                p -> Cuda.cuPointerGetAttribute(p, Cuda.CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer));
    }

    /** {@code cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)}. */
    public static int pointerDevice(long pointer) {
        return intOut("cuPointerGetAttribute(DEVICE_ORDINAL)",
                p -> Cuda.cuPointerGetAttribute(p, Cuda.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, pointer));
    }

    /** {@code cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_CONTEXT)}: the context the memory was allocated in. */
    public static MemorySegment pointerContext(long pointer) {
        return pointerOut("cuPointerGetAttribute(CONTEXT)",
                p -> Cuda.cuPointerGetAttribute(p, Cuda.CU_POINTER_ATTRIBUTE_CONTEXT, pointer));
    }

    /**
     * {@code cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR / RANGE_SIZE)}: the start
     * and the length of the allocation holding {@code pointer}.
     */
    public static long[] pointerRange(long pointer) {
        return new long[] {
            longOut("cuPointerGetAttribute(RANGE_START_ADDR)",
                    p -> Cuda.cuPointerGetAttribute(p, Cuda.CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, pointer)),
            longOut("cuPointerGetAttribute(RANGE_SIZE)",
                    p -> Cuda.cuPointerGetAttribute(p, Cuda.CU_POINTER_ATTRIBUTE_RANGE_SIZE, pointer))};
    }

    // ---- inter-process memory ----

    /** {@code cuIpcGetMemHandle}: the 64-byte handle another process opens. */
    public static MemorySegment ipcHandle(long devicePointer, SegmentAllocator allocator) {
        MemorySegment handle = CUipcMemHandle_st.allocate(allocator);
        check("cuIpcGetMemHandle", () -> Cuda.cuIpcGetMemHandle(handle, devicePointer));
        return handle;
    }

    /** {@code cuIpcOpenMemHandle} with {@link Cuda#CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS}. */
    public static long openIpcHandle(MemorySegment handle) {
        return longOut("cuIpcOpenMemHandle",
                p -> Cuda.cuIpcOpenMemHandle_v2(p, handle, Cuda.CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    }

    /** {@code cuIpcCloseMemHandle}. */
    public static void closeIpcHandle(long devicePointer) {
        check("cuIpcCloseMemHandle", () -> Cuda.cuIpcCloseMemHandle(devicePointer));
    }

    // ---- modules and launches ----

    /**
     * {@code cuModuleLoadDataEx} on a NUL-terminated PTX or cubin image, with JIT info and error logs;
     * a failure's message carries the JIT's error log.
     */
    public static MemorySegment loadModule(MemorySegment image) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errorLog = arena.allocate(JIT_LOG_BYTES);
            MemorySegment infoLog = arena.allocate(JIT_LOG_BYTES);
            int[] keys = {Cuda.CU_JIT_ERROR_LOG_BUFFER, Cuda.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                    Cuda.CU_JIT_INFO_LOG_BUFFER, Cuda.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
            MemorySegment options = arena.allocateFrom(C_INT, keys);
            MemorySegment values = arena.allocate(C_POINTER, keys.length);
            values.setAtIndex(C_POINTER, 0, errorLog);
            values.setAtIndex(C_POINTER, 1, MemorySegment.ofAddress(JIT_LOG_BYTES));
            values.setAtIndex(C_POINTER, 2, infoLog);
            values.setAtIndex(C_POINTER, 3, MemorySegment.ofAddress(JIT_LOG_BYTES));
            MemorySegment module = arena.allocate(C_POINTER);
            try {
                check("cuModuleLoadDataEx", () -> Cuda.cuModuleLoadDataEx(module, image, keys.length, options, values));
            } catch (JcclException e) {
                String log = errorLog.getString(0, StandardCharsets.UTF_8).strip();
                if (log.isEmpty()) {
                    throw e;
                }
                throw new JcclException(e.code(), e.rank(), "cuModuleLoadDataEx failed: JIT error log:\n" + log, e);
            }
            return module.get(C_POINTER, 0);
        }
    }

    /** {@code cuModuleUnload}. */
    public static void unloadModule(MemorySegment module) {
        check("cuModuleUnload", () -> Cuda.cuModuleUnload(module));
    }

    /** {@code cuModuleGetFunction}. */
    public static MemorySegment function(MemorySegment module, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cName = arena.allocateFrom(name);
            return pointerOut("cuModuleGetFunction(" + name + ")", p -> Cuda.cuModuleGetFunction(p, module, cName));
        }
    }

    /** A {@code __device__} variable of a module: its device address and size. */
    public record Global(long address, long bytes) {}

    /** {@code cuModuleGetGlobal}. */
    public static Global global(MemorySegment module, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment address = arena.allocate(C_LONG);
            MemorySegment bytes = arena.allocate(C_LONG);
            MemorySegment cName = arena.allocateFrom(name);
            check("cuModuleGetGlobal(" + name + ")", () -> Cuda.cuModuleGetGlobal_v2(address, bytes, module, cName));
            return new Global(address.get(C_LONG, 0), bytes.get(C_LONG, 0));
        }
    }

    /** {@code cuFuncGetAttribute}, e.g. {@link Cuda#CU_FUNC_ATTRIBUTE_NUM_REGS}. */
    public static int functionAttribute(int attribute, MemorySegment function) {
        return intOut("cuFuncGetAttribute", p -> Cuda.cuFuncGetAttribute(p, attribute, function));
    }

    /** {@code cuFuncSetAttribute}, e.g. {@link Cuda#CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}. */
    public static void setFunctionAttribute(MemorySegment function, int attribute, int value) {
        check("cuFuncSetAttribute", () -> Cuda.cuFuncSetAttribute(function, attribute, value));
    }

    /** {@code cuOccupancyMaxActiveBlocksPerMultiprocessor}. */
    public static int maxActiveBlocksPerMultiprocessor(MemorySegment function, int blockSize, long dynamicSharedBytes) {
        return intOut("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                p -> Cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(p, function, blockSize, dynamicSharedBytes));
    }

    /**
     * {@code cuLaunchKernel} of a one-dimensional grid; {@code parameters} is the {@code void*[]} of
     * pointers to each kernel argument.
     */
    public static void launch(MemorySegment function, int blocks, int threads, int sharedBytes,
            MemorySegment stream, MemorySegment parameters) {
        check("cuLaunchKernel", () -> Cuda.cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, sharedBytes,
                stream, parameters, MemorySegment.NULL));
    }

    // ---- streams and events ----

    /** {@code cuStreamCreate}, e.g. with {@link Cuda#CU_STREAM_NON_BLOCKING}. */
    public static MemorySegment createStream(int flags) {
        return pointerOut("cuStreamCreate", p -> Cuda.cuStreamCreate(p, flags));
    }

    /** {@code cuStreamDestroy}. */
    public static void destroyStream(MemorySegment stream) {
        check("cuStreamDestroy", () -> Cuda.cuStreamDestroy_v2(stream));
    }

    /** {@code cuStreamSynchronize}. */
    public static void synchronize(MemorySegment stream) {
        check("cuStreamSynchronize", () -> Cuda.cuStreamSynchronize(stream));
    }

    /** {@code cuStreamQuery}: whether all work on the stream is done ({@code CUDA_ERROR_NOT_READY}: not yet). */
    public static boolean streamDone(MemorySegment stream) {
        return ready("cuStreamQuery", () -> Cuda.cuStreamQuery(stream));
    }

    /** {@code cuStreamWaitEvent}. */
    public static void waitEvent(MemorySegment stream, MemorySegment event) {
        check("cuStreamWaitEvent", () -> Cuda.cuStreamWaitEvent(stream, event, Cuda.CU_EVENT_WAIT_DEFAULT));
    }

    /** {@code cuEventCreate}, e.g. with {@link Cuda#CU_EVENT_DISABLE_TIMING}. */
    public static MemorySegment createEvent(int flags) {
        return pointerOut("cuEventCreate", p -> Cuda.cuEventCreate(p, flags));
    }

    /** {@code cuEventDestroy}. */
    public static void destroyEvent(MemorySegment event) {
        check("cuEventDestroy", () -> Cuda.cuEventDestroy_v2(event));
    }

    /** {@code cuEventRecord}. */
    public static void record(MemorySegment event, MemorySegment stream) {
        check("cuEventRecord", () -> Cuda.cuEventRecord(event, stream));
    }

    /** {@code cuEventSynchronize}. */
    public static void synchronizeEvent(MemorySegment event) {
        check("cuEventSynchronize", () -> Cuda.cuEventSynchronize(event));
    }

    /** {@code cuEventQuery}: whether the event has completed. */
    public static boolean eventDone(MemorySegment event) {
        return ready("cuEventQuery", () -> Cuda.cuEventQuery(event));
    }

    /** {@code cuEventElapsedTime}: milliseconds between two recorded events. */
    public static float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ms = arena.allocate(C_FLOAT);
            check("cuEventElapsedTime", () -> Cuda.cuEventElapsedTime_v2(ms, start, end));
            return ms.get(C_FLOAT, 0);
        }
    }

    // ---- stream capture and graphs ----

    /** {@code cuStreamBeginCapture} with a {@code CU_STREAM_CAPTURE_MODE_*}. */
    public static void beginCapture(MemorySegment stream, int mode) {
        check("cuStreamBeginCapture", () -> Cuda.cuStreamBeginCapture_v2(stream, mode));
    }

    /** {@code cuStreamEndCapture}: the captured graph. */
    public static MemorySegment endCapture(MemorySegment stream) {
        return pointerOut("cuStreamEndCapture", p -> Cuda.cuStreamEndCapture(stream, p));
    }

    /**
     * Where {@link #captureInfo} writes: the status ({@code CU_STREAM_CAPTURE_STATUS_*}, an int at 0),
     * and for an active capture its id (a long at 8) and graph (a pointer at 16).
     */
    public static final MemoryLayout CAPTURE_INFO = MemoryLayout.structLayout(C_INT.withName("status"),
            MemoryLayout.paddingLayout(4), C_LONG.withName("id"), C_POINTER.withName("graph"));

    /**
     * {@code cuStreamGetCaptureInfo} into {@code info} (a {@link #CAPTURE_INFO} the caller keeps, so
     * that the query allocates nothing): the stream's capture status.
     */
    public static int captureInfo(MemorySegment stream, MemorySegment info) {
        Boolean v3 = captureInfoV3;
        if (v3 == null) {
            v3 = Cuda.LIBRARY.find("cuStreamGetCaptureInfo_v3").isPresent();
            captureInfoV3 = v3;
        }
        if (!v3) {
            // A driver before CUDA 12.3: its status alone, enough for calls that are not captured.
            check("cuStreamGetCaptureInfo", () -> Cuda.cuStreamIsCapturing(stream, info));
            int status = info.get(C_INT, 0);
            if (status != Cuda.CU_STREAM_CAPTURE_STATUS_NONE) {
                throw new JcclException(ErrorCode.INVALID_USAGE, JcclException.NO_RANK, "capturing jccl's calls in a CUDA"
                        + " graph needs a CUDA driver of 12.3 or newer (cuStreamGetCaptureInfo_v3); this one is "
                        + driverVersion());
            }
            return status;
        }
        check("cuStreamGetCaptureInfo", () -> Cuda.cuStreamGetCaptureInfo_v3(stream, info, info.asSlice(8),
                info.asSlice(16), MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL));
        return info.get(C_INT, 0);
    }

    /** Whether the driver exports cuStreamGetCaptureInfo_v3 (CUDA 12.3 on); null until asked. */
    private static volatile Boolean captureInfoV3;

    /** {@code cuStreamIsCapturing}: a {@code CU_STREAM_CAPTURE_STATUS_*}. */
    public static int captureStatus(MemorySegment stream) {
        return intOut("cuStreamIsCapturing", p -> Cuda.cuStreamIsCapturing(stream, p));
    }

    /**
     * {@code cuThreadExchangeStreamCaptureMode}: sets this thread's capture mode, returns the one it
     * had (to be set back).
     */
    public static int exchangeCaptureMode(int mode) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(C_INT);
            m.set(C_INT, 0, mode);
            check("cuThreadExchangeStreamCaptureMode", () -> Cuda.cuThreadExchangeStreamCaptureMode(m));
            return m.get(C_INT, 0);
        }
    }

    /** {@code cuGraphInstantiateWithFlags}: an executable graph of {@code graph}. */
    public static MemorySegment instantiate(MemorySegment graph, long flags) {
        return pointerOut("cuGraphInstantiate", p -> Cuda.cuGraphInstantiateWithFlags(p, graph, flags));
    }

    /** {@code cuGraphLaunch}. */
    public static void launchGraph(MemorySegment graphExec, MemorySegment stream) {
        check("cuGraphLaunch", () -> Cuda.cuGraphLaunch(graphExec, stream));
    }

    /** {@code cuGraphExecDestroy}. */
    public static void destroyGraphExec(MemorySegment graphExec) {
        check("cuGraphExecDestroy", () -> Cuda.cuGraphExecDestroy(graphExec));
    }

    /** {@code cuGraphDestroy}. */
    public static void destroyGraph(MemorySegment graph) {
        check("cuGraphDestroy", () -> Cuda.cuGraphDestroy(graph));
    }

    /**
     * {@code cuUserObjectCreate} with one reference: {@code destroy} (a {@code void (*)(void*)}) is
     * called with {@code pointer} on a driver thread once no graph holds it.
     */
    public static MemorySegment createUserObject(MemorySegment pointer, MemorySegment destroy) {
        return pointerOut("cuUserObjectCreate", p -> Cuda.cuUserObjectCreate(p, pointer, destroy, 1,
                Cuda.CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    }

    /** {@code cuUserObjectRelease} of {@code count} references. */
    public static void releaseUserObject(MemorySegment object, int count) {
        check("cuUserObjectRelease", () -> Cuda.cuUserObjectRelease(object, count));
    }

    /** {@code cuGraphRetainUserObject} moving the caller's one reference to {@code graph}. */
    public static void moveUserObject(MemorySegment graph, MemorySegment object) {
        check("cuGraphRetainUserObject", () -> Cuda.cuGraphRetainUserObject(graph, object, 1, Cuda.CU_GRAPH_USER_OBJECT_MOVE));
    }

    // ---- out-parameters ----

    private interface OutCall {
        int call(MemorySegment out);
    }

    private interface BufferCall {
        int call(MemorySegment buffer, int length);
    }

    /** A query's answer: done ({@code CUDA_SUCCESS}), not yet ({@code CUDA_ERROR_NOT_READY}), or a failure. */
    private static boolean ready(String call, IntSupplier query) {
        boolean[] notReady = {false};
        check(call, () -> {
            int r = query.getAsInt();
            notReady[0] = r == Cuda.CUDA_ERROR_NOT_READY;
            return notReady[0] ? Cuda.CUDA_SUCCESS : r;
        });
        return !notReady[0];
    }

    private static int intOut(String call, OutCall f) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(C_INT);
            check(call, () -> f.call(out));
            return out.get(C_INT, 0);
        }
    }

    private static long longOut(String call, OutCall f) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(C_LONG);
            check(call, () -> f.call(out));
            return out.get(C_LONG, 0);
        }
    }

    private static MemorySegment pointerOut(String call, OutCall f) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(C_POINTER);
            check(call, () -> f.call(out));
            return out.get(C_POINTER, 0);
        }
    }

    private static String stringOut(String call, int capacity, BufferCall f) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(C_CHAR, capacity);
            check(call, () -> f.call(out, capacity));
            return out.getString(0);
        }
    }
}
