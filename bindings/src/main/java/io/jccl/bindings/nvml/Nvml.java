// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.nvml;

import static io.jccl.bindings.CLayouts.*;

import io.jccl.bindings.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * NVML ({@code nvml.h}, {@code libnvidia-ml.so.1}) in jextract's shape: the few functions topology
 * detection reads (the state of each NVLink of a GPU, and the PCI bus id and kind of the device at
 * its other end), as {@link io.jccl.bindings.cuda.Cuda} binds the driver. No logic beyond loading:
 * results are NVML's {@code nvmlReturn_t} codes. A test compiles a probe against {@code nvml.h}
 * (Debian's {@code libnvidia-ml-dev}) that checks every descriptor, symbol, layout and constant.
 *
 * <p>NVML is optional: without it jccl sees no NVLinks. The library is opened when the first
 * function is called; a missing library or symbol is then a
 * {@link io.jccl.bindings.NativeLibraryException}.
 *
 * {@snippet :
 * try (Arena arena = Arena.ofConfined()) {
 *     if (Nvml.nvmlInit_v2() == Nvml.NVML_SUCCESS) {
 *         MemorySegment dev = arena.allocate(C_POINTER);
 *         Nvml.nvmlDeviceGetHandleByPciBusId_v2(arena.allocateFrom("0000:18:00.0"), dev);
 *         MemorySegment active = arena.allocate(C_INT);
 *         Nvml.nvmlDeviceGetNvLinkState(dev.get(C_POINTER, 0), 0, active);
 *         Nvml.nvmlShutdown();
 *     }
 * }
 * }
 */
public final class Nvml {
    private Nvml() {}

    /** libnvidia-ml: {@code JCCL_NVML_LIB} or {@code -Djccl.nvml.lib}, else {@code libnvidia-ml.so.1} on the loader's path. */
    public static final NativeLibrary LIBRARY = new NativeLibrary("NVML", "libnvidia-ml.so.1", "JCCL_NVML_LIB", "jccl.nvml.lib");

    // nvmlReturn_t
    public static final int NVML_SUCCESS = 0;
    public static final int NVML_ERROR_UNINITIALIZED = 1;
    public static final int NVML_ERROR_INVALID_ARGUMENT = 2;
    public static final int NVML_ERROR_NOT_SUPPORTED = 3;
    public static final int NVML_ERROR_NO_PERMISSION = 4;
    public static final int NVML_ERROR_ALREADY_INITIALIZED = 5;
    public static final int NVML_ERROR_NOT_FOUND = 6;
    public static final int NVML_ERROR_INSUFFICIENT_SIZE = 7;
    public static final int NVML_ERROR_INSUFFICIENT_POWER = 8;
    public static final int NVML_ERROR_DRIVER_NOT_LOADED = 9;
    public static final int NVML_ERROR_TIMEOUT = 10;
    public static final int NVML_ERROR_IRQ_ISSUE = 11;
    public static final int NVML_ERROR_LIBRARY_NOT_FOUND = 12;
    public static final int NVML_ERROR_FUNCTION_NOT_FOUND = 13;
    public static final int NVML_ERROR_CORRUPTED_INFOROM = 14;
    public static final int NVML_ERROR_GPU_IS_LOST = 15;
    public static final int NVML_ERROR_RESET_REQUIRED = 16;
    public static final int NVML_ERROR_OPERATING_SYSTEM = 17;
    public static final int NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18;
    public static final int NVML_ERROR_IN_USE = 19;
    public static final int NVML_ERROR_MEMORY = 20;
    public static final int NVML_ERROR_NO_DATA = 21;
    public static final int NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22;
    public static final int NVML_ERROR_INSUFFICIENT_RESOURCES = 23;
    public static final int NVML_ERROR_FREQ_NOT_SUPPORTED = 24;
    public static final int NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25;
    public static final int NVML_ERROR_UNKNOWN = 999;

    // Limits
    public static final int NVML_NVLINK_MAX_LINKS = 18;
    public static final int NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE = 32;
    public static final int NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE = 16;

    // nvmlEnableState_t
    public static final int NVML_FEATURE_DISABLED = 0;
    public static final int NVML_FEATURE_ENABLED = 1;

    // nvmlIntNvLinkDeviceType_t
    public static final int NVML_NVLINK_DEVICE_TYPE_GPU = 0;
    public static final int NVML_NVLINK_DEVICE_TYPE_IBMNPU = 1;
    public static final int NVML_NVLINK_DEVICE_TYPE_SWITCH = 2;
    public static final int NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 255;

    // ---- Initialisation and errors ----

    private static final FunctionDescriptor nvmlInit_v2$DESC = FunctionDescriptor.of(C_INT);

    private static final class nvmlInit_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlInit_v2", nvmlInit_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlInit(void)
     * }
     */
    public static FunctionDescriptor nvmlInit_v2$descriptor() {
        return nvmlInit_v2$DESC;
    }

    /** The downcall handle of {@code nvmlInit_v2}; the symbol is looked up on first use. */
    public static MethodHandle nvmlInit_v2$handle() {
        return nvmlInit_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlInit(void)
     * }
     */
    public static int nvmlInit_v2() {
        try {
            return (int) nvmlInit_v2.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor nvmlShutdown$DESC = FunctionDescriptor.of(C_INT);

    private static final class nvmlShutdown {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlShutdown", nvmlShutdown$DESC);
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlShutdown(void)
     * }
     */
    public static FunctionDescriptor nvmlShutdown$descriptor() {
        return nvmlShutdown$DESC;
    }

    /** The downcall handle of {@code nvmlShutdown}; the symbol is looked up on first use. */
    public static MethodHandle nvmlShutdown$handle() {
        return nvmlShutdown.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlShutdown(void)
     * }
     */
    public static int nvmlShutdown() {
        try {
            return (int) nvmlShutdown.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor nvmlErrorString$DESC = FunctionDescriptor.of(C_POINTER, C_INT);

    private static final class nvmlErrorString {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlErrorString", nvmlErrorString$DESC);
    }

    /**
     * {@snippet lang=c :
     * const char *nvmlErrorString(nvmlReturn_t result)
     * }
     */
    public static FunctionDescriptor nvmlErrorString$descriptor() {
        return nvmlErrorString$DESC;
    }

    /** The downcall handle of {@code nvmlErrorString}; the symbol is looked up on first use. */
    public static MethodHandle nvmlErrorString$handle() {
        return nvmlErrorString.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * const char *nvmlErrorString(nvmlReturn_t result)
     * }
     */
    public static MemorySegment nvmlErrorString(int result) {
        try {
            return (MemorySegment) nvmlErrorString.HANDLE.invokeExact(result);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    // ---- Devices and their NVLinks ----

    private static final FunctionDescriptor nvmlDeviceGetHandleByPciBusId_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);

    private static final class nvmlDeviceGetHandleByPciBusId_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlDeviceGetHandleByPciBusId_v2", nvmlDeviceGetHandleByPciBusId_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId, nvmlDevice_t *device)
     * }
     */
    public static FunctionDescriptor nvmlDeviceGetHandleByPciBusId_v2$descriptor() {
        return nvmlDeviceGetHandleByPciBusId_v2$DESC;
    }

    /** The downcall handle of {@code nvmlDeviceGetHandleByPciBusId_v2}; the symbol is looked up on first use. */
    public static MethodHandle nvmlDeviceGetHandleByPciBusId_v2$handle() {
        return nvmlDeviceGetHandleByPciBusId_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId, nvmlDevice_t *device)
     * }
     */
    public static int nvmlDeviceGetHandleByPciBusId_v2(MemorySegment pciBusId, MemorySegment device) {
        try {
            return (int) nvmlDeviceGetHandleByPciBusId_v2.HANDLE.invokeExact(pciBusId, device);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor nvmlDeviceGetNvLinkState$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);

    private static final class nvmlDeviceGetNvLinkState {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlDeviceGetNvLinkState", nvmlDeviceGetNvLinkState$DESC);
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive)
     * }
     */
    public static FunctionDescriptor nvmlDeviceGetNvLinkState$descriptor() {
        return nvmlDeviceGetNvLinkState$DESC;
    }

    /** The downcall handle of {@code nvmlDeviceGetNvLinkState}; the symbol is looked up on first use. */
    public static MethodHandle nvmlDeviceGetNvLinkState$handle() {
        return nvmlDeviceGetNvLinkState.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive)
     * }
     */
    public static int nvmlDeviceGetNvLinkState(MemorySegment device, int link, MemorySegment isActive) {
        try {
            return (int) nvmlDeviceGetNvLinkState.HANDLE.invokeExact(device, link, isActive);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor nvmlDeviceGetNvLinkRemotePciInfo_v2$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);

    private static final class nvmlDeviceGetNvLinkRemotePciInfo_v2 {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlDeviceGetNvLinkRemotePciInfo_v2", nvmlDeviceGetNvLinkRemotePciInfo_v2$DESC);
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci)
     * }
     */
    public static FunctionDescriptor nvmlDeviceGetNvLinkRemotePciInfo_v2$descriptor() {
        return nvmlDeviceGetNvLinkRemotePciInfo_v2$DESC;
    }

    /** The downcall handle of {@code nvmlDeviceGetNvLinkRemotePciInfo_v2}; the symbol is looked up on first use. */
    public static MethodHandle nvmlDeviceGetNvLinkRemotePciInfo_v2$handle() {
        return nvmlDeviceGetNvLinkRemotePciInfo_v2.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci)
     * }
     */
    public static int nvmlDeviceGetNvLinkRemotePciInfo_v2(MemorySegment device, int link, MemorySegment pci) {
        try {
            return (int) nvmlDeviceGetNvLinkRemotePciInfo_v2.HANDLE.invokeExact(device, link, pci);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }

    private static final FunctionDescriptor nvmlDeviceGetNvLinkRemoteDeviceType$DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);

    private static final class nvmlDeviceGetNvLinkRemoteDeviceType {
        static final MethodHandle HANDLE = LIBRARY.downcall("nvmlDeviceGetNvLinkRemoteDeviceType", nvmlDeviceGetNvLinkRemoteDeviceType$DESC);
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link, nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType)
     * }
     */
    public static FunctionDescriptor nvmlDeviceGetNvLinkRemoteDeviceType$descriptor() {
        return nvmlDeviceGetNvLinkRemoteDeviceType$DESC;
    }

    /** The downcall handle of {@code nvmlDeviceGetNvLinkRemoteDeviceType}; the symbol is looked up on first use. */
    public static MethodHandle nvmlDeviceGetNvLinkRemoteDeviceType$handle() {
        return nvmlDeviceGetNvLinkRemoteDeviceType.HANDLE;
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link, nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType)
     * }
     */
    public static int nvmlDeviceGetNvLinkRemoteDeviceType(MemorySegment device, int link, MemorySegment pNvLinkDeviceType) {
        try {
            return (int) nvmlDeviceGetNvLinkRemoteDeviceType.HANDLE.invokeExact(device, link, pNvLinkDeviceType);
        } catch (Throwable t) {
            throw NativeLibrary.unchecked(t);
        }
    }
}
