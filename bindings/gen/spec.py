# SPDX-License-Identifier: Apache-2.0
# What the bindings bind: functions (symbol, return carrier, parameters, the C prototype as the
# header writes it, "errno" where failures set errno), constants (by name; values come from the
# header) and struct layouts (member types as the header declares them). Read by gen.py.
# carriers: I int, J long (size_t, 64-bit ints), B byte, F float, P pointer, S:<struct class> struct by value, V void
CUDA_FUNCS = [
 ("Initialisation, version and errors", [
  ("cuInit", "I", [("Flags","I")], "CUresult cuInit(unsigned int Flags)"),
  ("cuDriverGetVersion", "I", [("driverVersion","P")], "CUresult cuDriverGetVersion(int *driverVersion)"),
  ("cuGetErrorName", "I", [("error","I"),("pStr","P")], "CUresult cuGetErrorName(CUresult error, const char **pStr)"),
  ("cuGetErrorString", "I", [("error","I"),("pStr","P")], "CUresult cuGetErrorString(CUresult error, const char **pStr)"),
 ]),
 ("Devices", [
  ("cuDeviceGet", "I", [("device","P"),("ordinal","I")], "CUresult cuDeviceGet(CUdevice *device, int ordinal)"),
  ("cuDeviceGetCount", "I", [("count","P")], "CUresult cuDeviceGetCount(int *count)"),
  ("cuDeviceGetName", "I", [("name","P"),("len","I"),("dev","I")], "CUresult cuDeviceGetName(char *name, int len, CUdevice dev)"),
  ("cuDeviceGetAttribute", "I", [("pi","P"),("attrib","I"),("dev","I")], "CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)"),
  ("cuDeviceGetPCIBusId", "I", [("pciBusId","P"),("len","I"),("dev","I")], "CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)"),
  ("cuDeviceGetByPCIBusId", "I", [("dev","P"),("pciBusId","P")], "CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)"),
  ("cuDeviceTotalMem_v2", "I", [("bytes","P"),("dev","I")], "CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)"),
  ("cuDeviceGetUuid_v2", "I", [("uuid","P"),("dev","I")], "CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)"),
  ("cuDeviceCanAccessPeer", "I", [("canAccessPeer","P"),("dev","I"),("peerDev","I")], "CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)"),
  ("cuDeviceGetP2PAttribute", "I", [("value","P"),("attrib","I"),("srcDevice","I"),("dstDevice","I")], "CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice)"),
 ]),
 ("Contexts", [
  ("cuDevicePrimaryCtxRetain", "I", [("pctx","P"),("dev","I")], "CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)"),
  ("cuDevicePrimaryCtxRelease_v2", "I", [("dev","I")], "CUresult cuDevicePrimaryCtxRelease(CUdevice dev)"),
  ("cuDevicePrimaryCtxGetState", "I", [("dev","I"),("flags","P"),("active","P")], "CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)"),
  ("cuCtxSetCurrent", "I", [("ctx","P")], "CUresult cuCtxSetCurrent(CUcontext ctx)"),
  ("cuCtxGetCurrent", "I", [("pctx","P")], "CUresult cuCtxGetCurrent(CUcontext *pctx)"),
  ("cuCtxGetDevice", "I", [("device","P")], "CUresult cuCtxGetDevice(CUdevice *device)"),
  ("cuCtxPushCurrent_v2", "I", [("ctx","P")], "CUresult cuCtxPushCurrent(CUcontext ctx)"),
  ("cuCtxPopCurrent_v2", "I", [("pctx","P")], "CUresult cuCtxPopCurrent(CUcontext *pctx)"),
  ("cuCtxSynchronize", "I", [], "CUresult cuCtxSynchronize(void)"),
  ("cuCtxEnablePeerAccess", "I", [("peerContext","P"),("Flags","I")], "CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)"),
  ("cuCtxDisablePeerAccess", "I", [("peerContext","P")], "CUresult cuCtxDisablePeerAccess(CUcontext peerContext)"),
 ]),
 ("Memory", [
  ("cuMemAlloc_v2", "I", [("dptr","P"),("bytesize","J")], "CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)"),
  ("cuMemFree_v2", "I", [("dptr","J")], "CUresult cuMemFree(CUdeviceptr dptr)"),
  ("cuMemGetInfo_v2", "I", [("free","P"),("total","P")], "CUresult cuMemGetInfo(size_t *free, size_t *total)"),
  ("cuMemGetAddressRange_v2", "I", [("pbase","P"),("psize","P"),("dptr","J")], "CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)"),
  ("cuMemHostAlloc", "I", [("pp","P"),("bytesize","J"),("Flags","I")], "CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)"),
  ("cuMemFreeHost", "I", [("p","P")], "CUresult cuMemFreeHost(void *p)"),
  ("cuMemHostGetDevicePointer_v2", "I", [("pdptr","P"),("p","P"),("Flags","I")], "CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)"),
  ("cuMemHostRegister_v2", "I", [("p","P"),("bytesize","J"),("Flags","I")], "CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)"),
  ("cuMemHostUnregister", "I", [("p","P")], "CUresult cuMemHostUnregister(void *p)"),
  ("cuMemcpy", "I", [("dst","J"),("src","J"),("ByteCount","J")], "CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)"),
  ("cuMemcpyAsync", "I", [("dst","J"),("src","J"),("ByteCount","J"),("hStream","P")], "CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)"),
  ("cuMemcpyHtoD_v2", "I", [("dstDevice","J"),("srcHost","P"),("ByteCount","J")], "CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)"),
  ("cuMemcpyDtoH_v2", "I", [("dstHost","P"),("srcDevice","J"),("ByteCount","J")], "CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)"),
  ("cuMemcpyDtoD_v2", "I", [("dstDevice","J"),("srcDevice","J"),("ByteCount","J")], "CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)"),
  ("cuMemcpyHtoDAsync_v2", "I", [("dstDevice","J"),("srcHost","P"),("ByteCount","J"),("hStream","P")], "CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)"),
  ("cuMemcpyDtoHAsync_v2", "I", [("dstHost","P"),("srcDevice","J"),("ByteCount","J"),("hStream","P")], "CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)"),
  ("cuMemcpyDtoDAsync_v2", "I", [("dstDevice","J"),("srcDevice","J"),("ByteCount","J"),("hStream","P")], "CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)"),
  ("cuMemcpyPeer", "I", [("dstDevice","J"),("dstContext","P"),("srcDevice","J"),("srcContext","P"),("ByteCount","J")], "CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)"),
  ("cuMemcpyPeerAsync", "I", [("dstDevice","J"),("dstContext","P"),("srcDevice","J"),("srcContext","P"),("ByteCount","J"),("hStream","P")], "CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)"),
  ("cuMemsetD8_v2", "I", [("dstDevice","J"),("uc","B"),("N","J")], "CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)"),
  ("cuMemsetD32_v2", "I", [("dstDevice","J"),("ui","I"),("N","J")], "CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N)"),
  ("cuMemsetD8Async", "I", [("dstDevice","J"),("uc","B"),("N","J"),("hStream","P")], "CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)"),
  ("cuMemsetD32Async", "I", [("dstDevice","J"),("ui","I"),("N","J"),("hStream","P")], "CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)"),
  ("cuPointerGetAttribute", "I", [("data","P"),("attribute","I"),("ptr","J")], "CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)"),
  ("cuPointerGetAttributes", "I", [("numAttributes","I"),("attributes","P"),("data","P"),("ptr","J")], "CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data, CUdeviceptr ptr)"),
  ("cuMemGetHandleForAddressRange", "I", [("handle","P"),("dptr","J"),("size","J"),("handleType","I"),("flags","J")], "CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr, size_t size, CUmemRangeHandleType handleType, unsigned long long flags)"),
 ]),
 ("Inter-process memory", [
  ("cuIpcGetMemHandle", "I", [("pHandle","P"),("dptr","J")], "CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)"),
  ("cuIpcOpenMemHandle_v2", "I", [("pdptr","P"),("handle","S:CUipcMemHandle_st"),("Flags","I")], "CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)"),
  ("cuIpcCloseMemHandle", "I", [("dptr","J")], "CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)"),
 ]),
 ("Modules, functions and launches", [
  ("cuModuleLoadData", "I", [("module","P"),("image","P")], "CUresult cuModuleLoadData(CUmodule *module, const void *image)"),
  ("cuModuleLoadDataEx", "I", [("module","P"),("image","P"),("numOptions","I"),("options","P"),("optionValues","P")], "CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues)"),
  ("cuModuleUnload", "I", [("hmod","P")], "CUresult cuModuleUnload(CUmodule hmod)"),
  ("cuModuleGetFunction", "I", [("hfunc","P"),("hmod","P"),("name","P")], "CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)"),
  ("cuModuleGetGlobal_v2", "I", [("dptr","P"),("bytes","P"),("hmod","P"),("name","P")], "CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)"),
  ("cuFuncGetAttribute", "I", [("pi","P"),("attrib","I"),("hfunc","P")], "CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)"),
  ("cuFuncSetAttribute", "I", [("hfunc","P"),("attrib","I"),("value","I")], "CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)"),
  ("cuOccupancyMaxActiveBlocksPerMultiprocessor", "I", [("numBlocks","P"),("func","P"),("blockSize","I"),("dynamicSMemSize","J")], "CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize)"),
  ("cuLaunchKernel", "I", [("f","P"),("gridDimX","I"),("gridDimY","I"),("gridDimZ","I"),("blockDimX","I"),("blockDimY","I"),("blockDimZ","I"),("sharedMemBytes","I"),("hStream","P"),("kernelParams","P"),("extra","P")], "CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)"),
 ]),
 ("Streams", [
  ("cuStreamCreate", "I", [("phStream","P"),("Flags","I")], "CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)"),
  ("cuStreamCreateWithPriority", "I", [("phStream","P"),("flags","I"),("priority","I")], "CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)"),
  ("cuStreamDestroy_v2", "I", [("hStream","P")], "CUresult cuStreamDestroy(CUstream hStream)"),
  ("cuStreamSynchronize", "I", [("hStream","P")], "CUresult cuStreamSynchronize(CUstream hStream)"),
  ("cuStreamQuery", "I", [("hStream","P")], "CUresult cuStreamQuery(CUstream hStream)"),
  ("cuStreamWaitEvent", "I", [("hStream","P"),("hEvent","P"),("Flags","I")], "CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)"),
 ]),
 ("Stream capture and graphs", [
  ("cuStreamBeginCapture_v2", "I", [("hStream","P"),("mode","I")], "CUresult cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode)"),
  ("cuStreamEndCapture", "I", [("hStream","P"),("phGraph","P")], "CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)"),
  ("cuStreamIsCapturing", "I", [("hStream","P"),("captureStatus","P")], "CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)"),
  ("cuStreamGetCaptureInfo_v3", "I", [("hStream","P"),("captureStatus_out","P"),("id_out","P"),("graph_out","P"),("dependencies_out","P"),("edgeData_out","P"),("numDependencies_out","P")], "CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)"),
  ("cuThreadExchangeStreamCaptureMode", "I", [("mode","P")], "CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)"),
  ("cuGraphInstantiateWithFlags", "I", [("phGraphExec","P"),("hGraph","P"),("flags","J")], "CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)"),
  ("cuGraphLaunch", "I", [("hGraphExec","P"),("hStream","P")], "CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)"),
  ("cuGraphExecDestroy", "I", [("hGraphExec","P")], "CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)"),
  ("cuGraphDestroy", "I", [("hGraph","P")], "CUresult cuGraphDestroy(CUgraph hGraph)"),
  ("cuUserObjectCreate", "I", [("object_out","P"),("ptr","P"),("destroy","P"),("initialRefcount","I"),("flags","I")], "CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy, unsigned int initialRefcount, unsigned int flags)"),
  ("cuUserObjectRelease", "I", [("object","P"),("count","I")], "CUresult cuUserObjectRelease(CUuserObject object, unsigned int count)"),
  ("cuGraphRetainUserObject", "I", [("graph","P"),("object","P"),("count","I"),("flags","I")], "CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags)"),
 ]),
 ("Events", [
  ("cuEventCreate", "I", [("phEvent","P"),("Flags","I")], "CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)"),
  ("cuEventDestroy_v2", "I", [("hEvent","P")], "CUresult cuEventDestroy(CUevent hEvent)"),
  ("cuEventRecord", "I", [("hEvent","P"),("hStream","P")], "CUresult cuEventRecord(CUevent hEvent, CUstream hStream)"),
  ("cuEventSynchronize", "I", [("hEvent","P")], "CUresult cuEventSynchronize(CUevent hEvent)"),
  ("cuEventQuery", "I", [("hEvent","P")], "CUresult cuEventQuery(CUevent hEvent)"),
  ("cuEventElapsedTime_v2", "I", [("pMilliseconds","P"),("hStart","P"),("hEnd","P")], "CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)"),
 ]),
]

CUDA_CONST_GROUPS = [
 ("CUresult", "RE:CUDA_SUCCESS|CUDA_ERROR_[A-Z0-9_]+"),
 ("CUdevice_attribute (the ones jccl reads)", ["CU_DEVICE_ATTRIBUTE_"+a for a in "MAX_THREADS_PER_BLOCK WARP_SIZE MULTIPROCESSOR_COUNT MAX_BLOCKS_PER_MULTIPROCESSOR MAX_SHARED_MEMORY_PER_BLOCK MAX_SHARED_MEMORY_PER_BLOCK_OPTIN MAX_SHARED_MEMORY_PER_MULTIPROCESSOR L2_CACHE_SIZE GLOBAL_MEMORY_BUS_WIDTH ASYNC_ENGINE_COUNT CAN_MAP_HOST_MEMORY UNIFIED_ADDRESSING INTEGRATED CONCURRENT_MANAGED_ACCESS COOPERATIVE_LAUNCH HOST_NATIVE_ATOMIC_SUPPORTED PCI_BUS_ID PCI_DEVICE_ID PCI_DOMAIN_ID MEMORY_CLOCK_RATE COMPUTE_CAPABILITY_MAJOR COMPUTE_CAPABILITY_MINOR GPU_DIRECT_RDMA_SUPPORTED DMA_BUF_SUPPORTED".split()]),
 ("CUdevice_P2PAttribute", ["CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK","CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED","CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED"]),
 ("Context flags (primary context state)", ["CU_CTX_SCHED_AUTO","CU_CTX_SCHED_SPIN","CU_CTX_SCHED_YIELD","CU_CTX_SCHED_BLOCKING_SYNC","CU_CTX_SCHED_MASK","CU_CTX_MAP_HOST"]),
 ("cuMemHostAlloc and cuMemHostRegister flags", ["CU_MEMHOSTALLOC_PORTABLE","CU_MEMHOSTALLOC_DEVICEMAP","CU_MEMHOSTALLOC_WRITECOMBINED","CU_MEMHOSTREGISTER_PORTABLE","CU_MEMHOSTREGISTER_DEVICEMAP","CU_MEMHOSTREGISTER_IOMEMORY","CU_MEMHOSTREGISTER_READ_ONLY"]),
 ("CUpointer_attribute", ["CU_POINTER_ATTRIBUTE_"+a for a in "CONTEXT MEMORY_TYPE DEVICE_POINTER HOST_POINTER SYNC_MEMOPS BUFFER_ID IS_MANAGED DEVICE_ORDINAL RANGE_START_ADDR RANGE_SIZE MAPPED".split()]),
 ("CUmemorytype", ["CU_MEMORYTYPE_HOST","CU_MEMORYTYPE_DEVICE","CU_MEMORYTYPE_ARRAY","CU_MEMORYTYPE_UNIFIED"]),
 ("CUmemRangeHandleType", ["CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD"]),
 ("Inter-process handles", ["CU_IPC_HANDLE_SIZE","CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS"]),
 ("CUjit_option (cuModuleLoadDataEx)", ["CU_JIT_"+a for a in "MAX_REGISTERS THREADS_PER_BLOCK WALL_TIME INFO_LOG_BUFFER INFO_LOG_BUFFER_SIZE_BYTES ERROR_LOG_BUFFER ERROR_LOG_BUFFER_SIZE_BYTES OPTIMIZATION_LEVEL TARGET_FROM_CUCONTEXT GENERATE_LINE_INFO LOG_VERBOSE".split()]),
 ("CUfunction_attribute", ["CU_FUNC_ATTRIBUTE_"+a for a in "MAX_THREADS_PER_BLOCK SHARED_SIZE_BYTES CONST_SIZE_BYTES LOCAL_SIZE_BYTES NUM_REGS PTX_VERSION BINARY_VERSION MAX_DYNAMIC_SHARED_SIZE_BYTES".split()]),
 ("Stream capture (CUstreamCaptureStatus, CUstreamCaptureMode) and graph user objects", ["CU_STREAM_CAPTURE_STATUS_NONE","CU_STREAM_CAPTURE_STATUS_ACTIVE","CU_STREAM_CAPTURE_STATUS_INVALIDATED","CU_STREAM_CAPTURE_MODE_GLOBAL","CU_STREAM_CAPTURE_MODE_THREAD_LOCAL","CU_STREAM_CAPTURE_MODE_RELAXED","CU_USER_OBJECT_NO_DESTRUCTOR_SYNC","CU_GRAPH_USER_OBJECT_MOVE","CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD"]),
 ("Stream and event flags", ["CU_STREAM_DEFAULT","CU_STREAM_NON_BLOCKING","CU_EVENT_DEFAULT","CU_EVENT_BLOCKING_SYNC","CU_EVENT_DISABLE_TIMING","CU_EVENT_INTERPROCESS","CU_EVENT_WAIT_DEFAULT"]),
]

CUDA_STRUCTS = [
 ("CUipcMemHandle_st", "struct", "typedef struct CUipcMemHandle_st { char reserved[CU_IPC_HANDLE_SIZE]; } CUipcMemHandle", [("reserved", ("arr","u8",64))], []),
 ("CUuuid_st", "struct", "typedef struct CUuuid_st { char bytes[16]; } CUuuid", [("bytes", ("arr","u8",16))], []),
]

E = "errno"
IBV_FUNCS = [
 ("Devices", [
  ("ibv_get_device_list", "P", [("num_devices","P")], "struct ibv_device **ibv_get_device_list(int *num_devices)", E),
  ("ibv_free_device_list", "V", [("list","P")], "void ibv_free_device_list(struct ibv_device **list)"),
  ("ibv_get_device_name", "P", [("device","P")], "const char *ibv_get_device_name(struct ibv_device *device)"),
  ("ibv_get_device_guid", "J", [("device","P")], "__be64 ibv_get_device_guid(struct ibv_device *device)"),
  ("ibv_open_device", "P", [("device","P")], "struct ibv_context *ibv_open_device(struct ibv_device *device)", E),
  ("ibv_close_device", "I", [("context","P")], "int ibv_close_device(struct ibv_context *context)"),
  ("ibv_fork_init", "I", [], "int ibv_fork_init(void)"),
 ]),
 ("Queries", [
  ("ibv_query_device", "I", [("context","P"),("device_attr","P")], "int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)"),
  ("ibv_query_port", "I", [("context","P"),("port_num","B"),("port_attr","P")], "int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)"),
  ("ibv_query_gid", "I", [("context","P"),("port_num","B"),("index","I"),("gid","P")], "int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)"),
 ]),
 ("Protection domains and memory regions", [
  ("ibv_alloc_pd", "P", [("context","P")], "struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)", E),
  ("ibv_dealloc_pd", "I", [("pd","P")], "int ibv_dealloc_pd(struct ibv_pd *pd)"),
  ("ibv_reg_mr", "P", [("pd","P"),("addr","P"),("length","J"),("access","I")], "struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)", E),
  ("ibv_reg_mr_iova2", "P", [("pd","P"),("addr","P"),("length","J"),("iova","J"),("access","I")], "struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)", E),
  ("ibv_reg_dmabuf_mr", "P", [("pd","P"),("offset","J"),("length","J"),("iova","J"),("fd","I"),("access","I")], "struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)", E),
  ("ibv_dereg_mr", "I", [("mr","P")], "int ibv_dereg_mr(struct ibv_mr *mr)"),
 ]),
 ("Completion channels and queues", [
  ("ibv_create_comp_channel", "P", [("context","P")], "struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)", E),
  ("ibv_destroy_comp_channel", "I", [("channel","P")], "int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)"),
  ("ibv_create_cq", "P", [("context","P"),("cqe","I"),("cq_context","P"),("channel","P"),("comp_vector","I")], "struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)", E),
  ("ibv_destroy_cq", "I", [("cq","P")], "int ibv_destroy_cq(struct ibv_cq *cq)"),
  ("ibv_get_cq_event", "I", [("channel","P"),("cq","P"),("cq_context","P")], "int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)", E),
  ("ibv_ack_cq_events", "V", [("cq","P"),("nevents","I")], "void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)"),
 ]),
 ("Queue pairs", [
  ("ibv_create_qp", "P", [("pd","P"),("qp_init_attr","P")], "struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)", E),
  ("ibv_modify_qp", "I", [("qp","P"),("attr","P"),("attr_mask","I")], "int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)"),
  ("ibv_query_qp", "I", [("qp","P"),("attr","P"),("attr_mask","I"),("init_attr","P")], "int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)"),
  ("ibv_destroy_qp", "I", [("qp","P")], "int ibv_destroy_qp(struct ibv_qp *qp)"),
 ]),
 ("Strings", [
  ("ibv_wc_status_str", "P", [("status","I")], "const char *ibv_wc_status_str(enum ibv_wc_status status)"),
 ]),
]

IBV_CONST_GROUPS = [
 ("enum ibv_qp_state", ["IBV_QPS_RESET","IBV_QPS_INIT","IBV_QPS_RTR","IBV_QPS_RTS","IBV_QPS_SQD","IBV_QPS_SQE","IBV_QPS_ERR"]),
 ("enum ibv_qp_type", ["IBV_QPT_RC","IBV_QPT_UC","IBV_QPT_UD"]),
 ("enum ibv_qp_attr_mask", ["IBV_QP_"+a for a in "STATE CUR_STATE EN_SQD_ASYNC_NOTIFY ACCESS_FLAGS PKEY_INDEX PORT QKEY AV PATH_MTU TIMEOUT RETRY_CNT RNR_RETRY RQ_PSN MAX_QP_RD_ATOMIC ALT_PATH MIN_RNR_TIMER SQ_PSN MAX_DEST_RD_ATOMIC PATH_MIG_STATE CAP DEST_QPN".split()]),
 ("enum ibv_mtu", ["IBV_MTU_256","IBV_MTU_512","IBV_MTU_1024","IBV_MTU_2048","IBV_MTU_4096"]),
 ("enum ibv_access_flags", ["IBV_ACCESS_LOCAL_WRITE","IBV_ACCESS_REMOTE_WRITE","IBV_ACCESS_REMOTE_READ","IBV_ACCESS_REMOTE_ATOMIC","IBV_ACCESS_RELAXED_ORDERING","IBV_ACCESS_OPTIONAL_RANGE"]),
 ("enum ibv_wr_opcode", ["IBV_WR_RDMA_WRITE","IBV_WR_RDMA_WRITE_WITH_IMM","IBV_WR_SEND","IBV_WR_SEND_WITH_IMM","IBV_WR_RDMA_READ"]),
 ("enum ibv_send_flags", ["IBV_SEND_FENCE","IBV_SEND_SIGNALED","IBV_SEND_SOLICITED","IBV_SEND_INLINE"]),
 ("enum ibv_wc_status", "RE:IBV_WC_[A-Z_]+_ERR|IBV_WC_SUCCESS|IBV_WC_WR_FLUSH_ERR|IBV_WC_RESP_TIMEOUT_ERR|IBV_WC_GENERAL_ERR|IBV_WC_TM_ERR|IBV_WC_TM_RNDV_INCOMPLETE"),
 ("enum ibv_wc_opcode", ["IBV_WC_SEND","IBV_WC_RDMA_WRITE","IBV_WC_RDMA_READ","IBV_WC_RECV","IBV_WC_RECV_RDMA_WITH_IMM"]),
 ("enum ibv_wc_flags", ["IBV_WC_GRH","IBV_WC_WITH_IMM"]),
 ("enum ibv_port_state", ["IBV_PORT_NOP","IBV_PORT_DOWN","IBV_PORT_INIT","IBV_PORT_ARMED","IBV_PORT_ACTIVE","IBV_PORT_ACTIVE_DEFER"]),
 ("Link layers", ["IBV_LINK_LAYER_UNSPECIFIED","IBV_LINK_LAYER_INFINIBAND","IBV_LINK_LAYER_ETHERNET"]),
]

# struct fields: (name, type); types: u8 u16 u32 u64 ptr, ("arr", t, n), ("ref", StructClass), ("opaque", ctype, size, align),
# ("group", kind, fields) named nested group of an unnamed type, ("anon", kind, fields) anonymous member group
PTHREAD_MUTEX = ("opaque", "pthread_mutex_t", 40, 8)
PTHREAD_COND = ("opaque", "pthread_cond_t", 48, 8)
OPS_FIELDS = [(n, "ptr") for n in """_compat_query_device _compat_query_port _compat_alloc_pd _compat_dealloc_pd _compat_reg_mr _compat_rereg_mr
 _compat_dereg_mr alloc_mw bind_mw dealloc_mw _compat_create_cq poll_cq req_notify_cq _compat_cq_event _compat_resize_cq _compat_destroy_cq
 _compat_create_srq _compat_modify_srq _compat_query_srq _compat_destroy_srq post_srq_recv _compat_create_qp _compat_query_qp _compat_modify_qp
 _compat_destroy_qp post_send post_recv _compat_create_ah _compat_destroy_ah _compat_attach_mcast _compat_detach_mcast _compat_async_event""".split()]
VCTX_FIELDS = [(n, "ptr") for n in """query_port advise_mr alloc_null_mr read_counters attach_counters_point_flow create_counters destroy_counters reg_dm_mr
 alloc_dm free_dm modify_flow_action_esp destroy_flow_action create_flow_action_esp modify_qp_rate_limit alloc_parent_domain dealloc_td alloc_td
 modify_cq post_srq_ops destroy_rwq_ind_table create_rwq_ind_table destroy_wq modify_wq create_wq query_rt_values create_cq_ex priv query_device_ex
 ibv_destroy_flow ABI_placeholder2 ibv_create_flow ABI_placeholder1 open_qp create_qp_ex get_srq_num create_srq_ex open_xrcd close_xrcd""".split()] + [
 ("_ABI_placeholder3", "u64"), ("sz", "u64"), ("context", ("ref", "ibv_context"))]

I32 = "u32"
IBV_STRUCTS = [
 ("ibv_gid", "union", "union ibv_gid { uint8_t raw[16]; struct { __be64 subnet_prefix; __be64 interface_id; } global; }",
  [("raw", ("arr","u8",16)), ("global", ("group","struct",[("subnet_prefix","u64"),("interface_id","u64")]))], []),
 ("ibv_device_attr", "struct", "struct ibv_device_attr", [("fw_ver", ("arr","u8",64)), ("node_guid","u64"), ("sys_image_guid","u64"), ("max_mr_size","u64"), ("page_size_cap","u64")]
  + [(n, I32) for n in "vendor_id vendor_part_id hw_ver max_qp max_qp_wr device_cap_flags max_sge max_sge_rd max_cq max_cqe max_mr max_pd max_qp_rd_atom max_ee_rd_atom max_res_rd_atom max_qp_init_rd_atom max_ee_init_rd_atom atomic_cap max_ee max_rdd max_mw max_raw_ipv6_qp max_raw_ethy_qp max_mcast_grp max_mcast_qp_attach max_total_mcast_qp_attach max_ah max_fmr max_map_per_fmr max_srq max_srq_wr max_srq_sge".split()]
  + [("max_pkeys","u16"), ("local_ca_ack_delay","u8"), ("phys_port_cnt","u8")], []),
 ("ibv_port_attr", "struct", "struct ibv_port_attr", [(n, I32) for n in "state max_mtu active_mtu gid_tbl_len port_cap_flags max_msg_sz bad_pkey_cntr qkey_viol_cntr".split()]
  + [("pkey_tbl_len","u16"), ("lid","u16"), ("sm_lid","u16")] + [(n,"u8") for n in "lmc max_vl_num sm_sl subnet_timeout init_type_reply active_width active_speed phys_state link_layer flags".split()] + [("port_cap_flags2","u16")], []),
 ("ibv_context_ops", "struct", "struct ibv_context_ops: the provider's operation table that verbs.h's static inline functions call through", OPS_FIELDS,
  [("poll_cq", "I", [("cq","P"),("num_entries","I"),("wc","P")], "int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)"),
   ("req_notify_cq", "I", [("cq","P"),("solicited_only","I")], "int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only)"),
   ("post_send", "I", [("qp","P"),("wr","P"),("bad_wr","P")], "int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)"),
   ("post_recv", "I", [("qp","P"),("wr","P"),("bad_wr","P")], "int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)")]),
 ("ibv_context", "struct", "struct ibv_context", [("device","ptr"), ("ops", ("ref","ibv_context_ops")), ("cmd_fd",I32), ("async_fd",I32), ("num_comp_vectors",I32), ("mutex", PTHREAD_MUTEX), ("abi_compat","ptr")], []),
 ("verbs_context", "struct", "struct verbs_context: the extended context that ends with, and is found from, struct ibv_context", VCTX_FIELDS,
  [("query_port", "I", [("context","P"),("port_num","B"),("port_attr","P"),("port_attr_len","J")], "int (*query_port)(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr, size_t port_attr_len)")]),
 ("ibv_pd", "struct", "struct ibv_pd", [("context","ptr"), ("handle",I32)], []),
 ("ibv_mr", "struct", "struct ibv_mr", [("context","ptr"), ("pd","ptr"), ("addr","ptr"), ("length","u64"), ("handle",I32), ("lkey",I32), ("rkey",I32)], []),
 ("ibv_cq", "struct", "struct ibv_cq", [("context","ptr"), ("channel","ptr"), ("cq_context","ptr"), ("handle",I32), ("cqe",I32), ("mutex",PTHREAD_MUTEX), ("cond",PTHREAD_COND), ("comp_events_completed",I32), ("async_events_completed",I32)], []),
 ("ibv_qp", "struct", "struct ibv_qp", [("context","ptr"), ("qp_context","ptr"), ("pd","ptr"), ("send_cq","ptr"), ("recv_cq","ptr"), ("srq","ptr"), ("handle",I32), ("qp_num",I32), ("state",I32), ("qp_type",I32), ("mutex",PTHREAD_MUTEX), ("cond",PTHREAD_COND), ("events_completed",I32)], []),
 ("ibv_qp_cap", "struct", "struct ibv_qp_cap", [(n, I32) for n in "max_send_wr max_recv_wr max_send_sge max_recv_sge max_inline_data".split()], []),
 ("ibv_qp_init_attr", "struct", "struct ibv_qp_init_attr", [("qp_context","ptr"), ("send_cq","ptr"), ("recv_cq","ptr"), ("srq","ptr"), ("cap", ("ref","ibv_qp_cap")), ("qp_type",I32), ("sq_sig_all",I32)], []),
 ("ibv_global_route", "struct", "struct ibv_global_route", [("dgid", ("ref","ibv_gid")), ("flow_label",I32), ("sgid_index","u8"), ("hop_limit","u8"), ("traffic_class","u8")], []),
 ("ibv_ah_attr", "struct", "struct ibv_ah_attr", [("grh", ("ref","ibv_global_route")), ("dlid","u16"), ("sl","u8"), ("src_path_bits","u8"), ("static_rate","u8"), ("is_global","u8"), ("port_num","u8")], []),
 ("ibv_qp_attr", "struct", "struct ibv_qp_attr", [(n, I32) for n in "qp_state cur_qp_state path_mtu path_mig_state qkey rq_psn sq_psn dest_qp_num qp_access_flags".split()]
  + [("cap", ("ref","ibv_qp_cap")), ("ah_attr", ("ref","ibv_ah_attr")), ("alt_ah_attr", ("ref","ibv_ah_attr")), ("pkey_index","u16"), ("alt_pkey_index","u16")]
  + [(n,"u8") for n in "en_sqd_async_notify sq_draining max_rd_atomic max_dest_rd_atomic min_rnr_timer port_num timeout retry_cnt rnr_retry alt_port_num alt_timeout".split()] + [("rate_limit",I32)], []),
 ("ibv_sge", "struct", "struct ibv_sge", [("addr","u64"), ("length",I32), ("lkey",I32)], []),
 ("ibv_mw_bind_info", "struct", "struct ibv_mw_bind_info", [("mr","ptr"), ("addr","u64"), ("length","u64"), ("mw_access_flags",I32)], []),
 ("ibv_send_wr", "struct", "struct ibv_send_wr", [("wr_id","u64"), ("next","ptr"), ("sg_list","ptr"), ("num_sge",I32), ("opcode",I32), ("send_flags",I32),
   ("$anon$0", ("anon","union",[("imm_data",I32),("invalidate_rkey",I32)])),
   ("wr", ("group","union",[("rdma",("group","struct",[("remote_addr","u64"),("rkey",I32)])),
                            ("atomic",("group","struct",[("remote_addr","u64"),("compare_add","u64"),("swap","u64"),("rkey",I32)])),
                            ("ud",("group","struct",[("ah","ptr"),("remote_qpn",I32),("remote_qkey",I32)]))])),
   ("qp_type", ("group","union",[("xrc",("group","struct",[("remote_srqn",I32)]))])),
   ("$anon$1", ("anon","union",[("bind_mw",("group","struct",[("mw","ptr"),("rkey",I32),("bind_info",("ref","ibv_mw_bind_info"))])),
                                ("tso",("group","struct",[("hdr","ptr"),("hdr_sz","u16"),("mss","u16")]))]))], []),
 ("ibv_recv_wr", "struct", "struct ibv_recv_wr", [("wr_id","u64"), ("next","ptr"), ("sg_list","ptr"), ("num_sge",I32)], []),
 ("ibv_wc", "struct", "struct ibv_wc", [("wr_id","u64"), ("status",I32), ("opcode",I32), ("vendor_err",I32), ("byte_len",I32),
   ("$anon$0", ("anon","union",[("imm_data",I32),("invalidated_rkey",I32)])), ("qp_num",I32), ("src_qp",I32), ("wc_flags",I32), ("pkey_index","u16"), ("slid","u16"), ("sl","u8"), ("dlid_path_bits","u8")], []),
]

LIBC_FUNCS = [
 ("Error strings", [("strerror", "P", [("errnum","I")], "char *strerror(int errnum)")]),
 # Cross-memory attach: a receiver copies a message straight out of the sending process's memory.
 ("Cross-memory attach", [("process_vm_readv", "J", [("pid","I"),("local_iov","P"),("liovcnt","J"),("remote_iov","P"),("riovcnt","J"),("flags","J")],
   "ssize_t process_vm_readv(pid_t pid, const struct iovec *local_iov, unsigned long liovcnt, const struct iovec *remote_iov, unsigned long riovcnt, unsigned long flags)", E)]),
 # Thread placement: the host engine pins each rank's lanes to cores of its NUMA domain.
 ("CPU affinity", [("sched_getaffinity", "I", [("pid","I"),("cpusetsize","J"),("mask","P")],
   "int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask)", E),
  ("sched_setaffinity", "I", [("pid","I"),("cpusetsize","J"),("mask","P")],
   "int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)", E)]),
]
LIBC_STRUCTS = [
 ("iovec", "struct", "struct iovec { void *iov_base; size_t iov_len; }", [("iov_base","ptr"), ("iov_len","u64")], []),
]

# NVML (nvml.h, libnvidia-ml.so.1): only what topology detection reads, the NVLinks of each GPU.
NVML_FUNCS = [
 ("Initialisation and errors", [
  ("nvmlInit_v2", "I", [], "nvmlReturn_t nvmlInit(void)"),
  ("nvmlShutdown", "I", [], "nvmlReturn_t nvmlShutdown(void)"),
  ("nvmlErrorString", "P", [("result","I")], "const char *nvmlErrorString(nvmlReturn_t result)"),
 ]),
 ("Devices and their NVLinks", [
  ("nvmlDeviceGetHandleByPciBusId_v2", "I", [("pciBusId","P"),("device","P")], "nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId, nvmlDevice_t *device)"),
  ("nvmlDeviceGetNvLinkState", "I", [("device","P"),("link","I"),("isActive","P")], "nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive)"),
  ("nvmlDeviceGetNvLinkRemotePciInfo_v2", "I", [("device","P"),("link","I"),("pci","P")], "nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci)"),
  ("nvmlDeviceGetNvLinkRemoteDeviceType", "I", [("device","P"),("link","I"),("pNvLinkDeviceType","P")], "nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link, nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType)"),
 ]),
]

NVML_CONST_GROUPS = [
 ("nvmlReturn_t", "RE:NVML_SUCCESS|NVML_ERROR_[A-Z0-9_]+"),
 ("Limits", ["NVML_NVLINK_MAX_LINKS", "NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE", "NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE"]),
 ("nvmlEnableState_t", ["NVML_FEATURE_DISABLED", "NVML_FEATURE_ENABLED"]),
 ("nvmlIntNvLinkDeviceType_t", ["NVML_NVLINK_DEVICE_TYPE_GPU", "NVML_NVLINK_DEVICE_TYPE_IBMNPU", "NVML_NVLINK_DEVICE_TYPE_SWITCH", "NVML_NVLINK_DEVICE_TYPE_UNKNOWN"]),
]

NVML_STRUCTS = [
 ("nvmlPciInfo_st", "struct", "typedef struct nvmlPciInfo_st { char busIdLegacy[16]; unsigned int domain, bus, device, pciDeviceId, pciSubSystemId; char busId[32]; } nvmlPciInfo_t",
  [("busIdLegacy", ("arr","u8",16)), ("domain","u32"), ("bus","u32"), ("device","u32"), ("pciDeviceId","u32"), ("pciSubSystemId","u32"), ("busId", ("arr","u8",32))], []),
]
