// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One GPU as jccl uses it: its primary context, and device memory as {@link MemorySegment}s whose
 * address is the device pointer, freed when their {@link Arena} closes. Such a segment must never
 * be read or written on the host (its address is not host memory); pass it to the CUDA engine's
 * collectives and copy with {@link #copyToDevice}/{@link #copyToHost}.
 *
 * {@snippet class="io.jccl.JcclExamplesTestOnGpu" region="cuda-device"}
 *
 * <p>(The example runs with the tests where {@link #available()}: a GPU and its driver.)
 */
public final class CudaDevice {
    private final int ordinal;
    private final MemorySegment context;
    private final int multiprocessors;
    private final String name;
    private final String pciBusId;
    /** Peak memory bandwidth in GB/s, 0 where the driver does not say; -1 until asked. */
    private volatile double memoryGBps = -1;

    private CudaDevice(int ordinal, MemorySegment context, int multiprocessors, String name, String pciBusId) {
        this.ordinal = ordinal;
        this.context = context;
        this.multiprocessors = multiprocessors;
        this.name = name;
        this.pciBusId = pciBusId;
    }

    /** Whether a CUDA driver with at least one GPU is there (false with the stub library or no driver). */
    public static boolean available() {
        try {
            if (!CudaDriver.available()) {
                return false;
            }
            CudaDriver.init();
            return CudaDriver.deviceCount() > 0;
        } catch (JcclException | io.jccl.bindings.NativeLibraryException e) {
            return false;
        }
    }

    /** GPU {@code ordinal}: initialises the driver and retains the device's primary context. */
    public static CudaDevice open(int ordinal) {
        CudaDriver.init();
        int count = CudaDriver.deviceCount();
        if (ordinal < 0 || ordinal >= count) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "device", "is " + ordinal + " but there are "
                    + count + " GPUs");
        }
        int dev = CudaDriver.device(ordinal);
        MemorySegment ctx = CudaDriver.retainPrimaryContext(dev);
        CudaDriver.setCurrent(ctx);
        return new CudaDevice(ordinal, ctx,
                CudaDriver.attribute(io.jccl.bindings.cuda.Cuda.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
                CudaDriver.deviceName(dev), CudaDriver.pciBusId(dev));
    }

    /** The GPU's PCI bus id (cuDeviceGetPCIBusId, e.g. "0000:19:00.0"): the same GPU in every process of its host. */
    public String pciBusId() {
        return pciBusId;
    }

    /** The GPU's name as the driver gives it (cuDeviceGetName), e.g. "NVIDIA H100 80GB HBM3". */
    public String name() {
        return name;
    }

    /** The GPU's streaming multiprocessors (CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT). */
    public int multiprocessors() {
        return multiprocessors;
    }

    public int ordinal() {
        return ordinal;
    }

    /**
     * The peak bandwidth of the GPU's memory in GB/s: twice its memory clock times its bus width
     * (CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, _GLOBAL_MEMORY_BUS_WIDTH; about 3 352 on an H100
     * 80GB HBM3); 0 where the driver does not report them. The CUDA engine's cost model scales to it.
     */
    public double memoryBandwidthGBps() {
        double known = memoryGBps;
        if (known < 0) {
            try {
                int dev = CudaDriver.device(ordinal);
                double kHz = CudaDriver.attribute(io.jccl.bindings.cuda.Cuda.CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev);
                double bits = CudaDriver.attribute(io.jccl.bindings.cuda.Cuda.CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev);
                known = Math.max(0, 2 * kHz * 1e3 * bits / 8 / 1e9);
            } catch (JcclException e) {
                known = 0;
            }
            memoryGBps = known;
        }
        return known;
    }

    /** The device's primary context ({@code CUcontext}, cuDevicePrimaryCtxRetain), for the caller's own driver calls. */
    public MemorySegment context() {
        return context;
    }

    /** Makes this device's context the calling thread's (every driver call of jccl does this first). */
    public void makeCurrent() {
        CudaDriver.setCurrent(context);
    }

    /** {@code bytes} of device memory (256-byte aligned), freed by {@code arena}. */
    @SuppressWarnings("restricted") // a device address: never dereferenced on the host
    public MemorySegment allocate(long bytes, Arena arena) {
        if (bytes < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "bytes", "must be positive, was " + bytes);
        }
        makeCurrent();
        long ptr = CudaDriver.memAlloc(bytes);
        return MemorySegment.ofAddress(ptr).reinterpret(bytes, arena, s -> {
            makeCurrent();
            CudaDriver.memFree(ptr);
        });
    }

    /**
     * Device memory another allocator made (PyTorch's caching allocator through DJL, JavaCPP's
     * {@code cudaMalloc}, the caller's own {@code cuMemAlloc}) as a segment jccl's collectives take,
     * as NCCL takes any device pointer. The driver is asked what it is
     * ({@code cuPointerGetAttribute}): device memory of this GPU, allocated in its primary
     * context (the one jccl's kernels run in), with {@code bytes} from {@code devicePointer}
     * inside one allocation; anything else is refused. The segment does not own the memory: the
     * caller keeps it allocated while jccl uses it, and frees it with its own allocator.
     *
     * <pre>{@code
     * long ptr = tensorDataPointer();   // from another library, on GPU 0
     * MemorySegment buf = gpu.wrap(ptr, 1024 * 4L);
     * comm.allReduce(buf, buf, 1024, DataType.FLOAT32, RedOp.SUM, stream);
     * }</pre>
     */
    @SuppressWarnings("restricted") // a device address: never dereferenced on the host
    public MemorySegment wrap(long devicePointer, long bytes) {
        if (devicePointer == 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "devicePointer", "is null (0)");
        }
        if (bytes < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "bytes", "must be positive, was " + bytes);
        }
        String at = "0x" + Long.toHexString(devicePointer);
        String why = io.jccl.engine.cuda.CudaComm.whyNotDeviceMemory(this, devicePointer);
        if (why != null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "devicePointer", at + " " + why.replace(
                    "allocate it with CudaDevice.allocate", "wrap device memory of GPU " + ordinal));
        }
        MemorySegment ctx = CudaDriver.pointerContext(devicePointer);
        // Memory mapped by the virtual memory API has no context (null): it is usable in every context of its GPU.
        if (ctx.address() != 0 && ctx.address() != context.address()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "devicePointer", at + " was allocated in context 0x"
                    + Long.toHexString(ctx.address()) + ", not in GPU " + ordinal + "'s primary context 0x"
                    + Long.toHexString(context.address()) + " where jccl's kernels run");
        }
        long[] range = CudaDriver.pointerRange(devicePointer);
        long end = range[0] + range[1];
        if (bytes > end - devicePointer) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "bytes", "is " + bytes + " but the allocation holding "
                    + at + " (0x" + Long.toHexString(range[0]) + ", " + range[1] + " bytes) has only "
                    + (end - devicePointer) + " bytes from there");
        }
        return MemorySegment.ofAddress(devicePointer).reinterpret(bytes);
    }

    /** Copies all of {@code host} to the start of {@code device} (synchronous). */
    public void copyToDevice(MemorySegment device, MemorySegment host) {
        checkFits(device, host.byteSize());
        makeCurrent();
        if (host.isNative()) {
            CudaDriver.copyToDevice(device.address(), host, host.byteSize());
        } else {
            try (Arena a = Arena.ofConfined()) {
                CudaDriver.copyToDevice(device.address(), a.allocate(host.byteSize(), 16).copyFrom(host), host.byteSize());
            }
        }
    }

    /** Copies the start of {@code device} into all of {@code host} (synchronous). */
    public void copyToHost(MemorySegment host, MemorySegment device) {
        checkFits(device, host.byteSize());
        makeCurrent();
        if (host.isNative()) {
            CudaDriver.copyToHost(host, device.address(), host.byteSize());
        } else {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment staging = a.allocate(host.byteSize(), 16);
                CudaDriver.copyToHost(staging, device.address(), host.byteSize());
                host.copyFrom(staging);
            }
        }
    }

    private static void checkFits(MemorySegment device, long bytes) {
        if (device.byteSize() < bytes) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "device", "holds " + device.byteSize()
                    + " bytes, fewer than " + bytes);
        }
    }

    @Override
    public String toString() {
        return "CudaDevice[" + ordinal + "]";
    }
}
