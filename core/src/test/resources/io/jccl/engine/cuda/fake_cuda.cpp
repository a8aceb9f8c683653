/*
 * Tests only: a fake CUDA driver (libcuda's C API, the calls jccl makes) over the host emulation of
 * the kernels, so that the CUDA engine's Java side runs end to end without a GPU
 * (FakeDriverEngineTest, which loads it through jccl.cuda.lib). One device; device memory is host
 * memory the driver knows, each allocation a shared mapping of a memfd of its own, so that another
 * process maps the same pages from its IPC handle (CudaMultiProcessTest); streams are worker threads running their operations in order; a kernel
 * launch runs the emulated kernel named by cuModuleGetFunction with 64 threads per block (the
 * kernels take any multiple of 32); events count completions.
 */
#include <cstdio>
#include <cstring>
#include "jccl_emulation.h"
#include "jccl_work.h"
#include "emu_block.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

typedef int CUresult;
static const CUresult OK = 0, INVALID_VALUE = 1, NOT_READY = 600, NOT_FOUND = 500, INVALID_HANDLE = 400;
static const unsigned EMULATED_THREADS = 64;

namespace {
std::mutex memoryLock;
/* How the fake driver holds a range: its own heap (host allocations), a shared mapping of a memfd
 * it made (device memory, so that cuIpcOpenMemHandle in another process maps the same pages), one
 * it opened from another process's handle, or the caller's memory it registered. */
enum Owner { HEAP, MEMFD, OPENED, REGISTERED };
struct Range {
    size_t bytes;
    int type; /* CU_MEMORYTYPE_* */
    Owner owner;
    int fd;
    size_t mapped;
};
std::map<uintptr_t, Range> allocations; /* start -> range */

void* allocate(size_t bytes, int type) {
    void* p = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
    if (p == nullptr) return nullptr;
    std::lock_guard<std::mutex> g(memoryLock);
    allocations[(uintptr_t)p] = {bytes, type, HEAP, -1, 0};
    return p;
}

void* allocateShared(size_t bytes) {
    size_t len = (bytes + 4095) & ~(size_t)4095;
    int fd = memfd_create("jccl-fake-device", MFD_CLOEXEC);
    if (fd < 0) return nullptr;
    if (ftruncate(fd, (off_t)len) != 0) { close(fd); return nullptr; }
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { close(fd); return nullptr; }
    std::lock_guard<std::mutex> g(memoryLock);
    allocations[(uintptr_t)p] = {bytes, 2 /* DEVICE */, MEMFD, fd, len};
    return p;
}

bool release(void* p, Owner expected) {
    Range r;
    {
        std::lock_guard<std::mutex> g(memoryLock);
        auto it = allocations.find((uintptr_t)p);
        if (it == allocations.end() || it->second.owner != expected) return false;
        r = it->second;
        allocations.erase(it);
    }
    if (r.owner == HEAP) free(p);
    if (r.owner == MEMFD || r.owner == OPENED) munmap(p, r.mapped);
    if (r.fd >= 0) close(r.fd);
    return true;
}

int typeOf(uintptr_t p) {
    std::lock_guard<std::mutex> g(memoryLock);
    auto it = allocations.upper_bound(p);
    if (it == allocations.begin()) return 0;
    --it;
    return p < it->first + it->second.bytes ? it->second.type : 0;
}

/* What a fake IPC handle holds (the real one is 64 opaque bytes). */
struct IpcHandle {
    uint64_t magic, pid, fd, bytes, offset;
};
const uint64_t IPC_MAGIC = 0x6a63636c66616b65; /* "jcclfake" */

struct Stream {
    std::mutex lock;
    std::condition_variable changed;
    std::deque<std::function<void()>> work;
    bool busy = false, stop = false;
    std::thread worker;

    Stream() : worker([this] { loop(); }) {}

    void loop() {
        std::unique_lock<std::mutex> g(lock);
        while (true) {
            changed.wait(g, [this] { return stop || !work.empty(); });
            if (work.empty()) return;
            std::function<void()> f = std::move(work.front());
            work.pop_front();
            busy = true;
            g.unlock();
            f();
            g.lock();
            busy = false;
            changed.notify_all();
        }
    }

    void enqueue(std::function<void()> f) {
        std::lock_guard<std::mutex> g(lock);
        work.push_back(std::move(f));
        changed.notify_all();
    }

    void drain() {
        std::unique_lock<std::mutex> g(lock);
        changed.wait(g, [this] { return work.empty() && !busy; });
    }

    bool idle() {
        std::lock_guard<std::mutex> g(lock);
        return work.empty() && !busy;
    }

    ~Stream() {
        drain();
        {
            std::lock_guard<std::mutex> g(lock);
            stop = true;
            changed.notify_all();
        }
        worker.join();
    }
};

struct Event {
    std::mutex lock;
    std::condition_variable changed;
    uint64_t recorded = 0, completed = 0;
    double at = 0; /* ms, when the last record completed */
};

/* The legacy stream (NULL) runs everything at once, in the caller. */
void submit(void* stream, std::function<void()> f) {
    if (stream == nullptr) {
        f();
    } else {
        static_cast<Stream*>(stream)->enqueue(std::move(f));
    }
}

double nowMillis() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void* self() {
    static void* handle = [] {
        Dl_info info;
        dladdr(reinterpret_cast<void*>(&nowMillis), &info);
        return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    }();
    return handle;
}
}  // namespace

extern "C" {
CUresult cuInit(unsigned) { return OK; }
CUresult cuDriverGetVersion(int* v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int* n) { *n = 1; return OK; }
CUresult cuDeviceGet(int* d, int ordinal) { if (ordinal != 0) return INVALID_VALUE; *d = 0; return OK; }
CUresult cuDevicePrimaryCtxRetain(void** ctx, int) { *ctx = reinterpret_cast<void*>(0x1000); return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int) { return OK; }
CUresult cuCtxSetCurrent(void*) { return OK; }
/* A small GPU: 16 multiprocessors holding one executor block each, so that 16 blocks of all ranks
 * together are what the engine may launch at once (every block costs this emulation its threads). */
CUresult cuDeviceGetAttribute(int* v, int attribute, int) {
    if (attribute != 16 /* MULTIPROCESSOR_COUNT */) return INVALID_VALUE;
    *v = 16;
    return OK;
}
CUresult cuDeviceGetPCIBusId(char* id, int length, int) {
    /* A process may stand for one on another GPU of the host (its memory is still this host's). */
    const char* other = getenv("JCCL_FAKE_PCI_BUS_ID");
    snprintf(id, length, "%s", other != nullptr ? other : "0000:00:00.0");
    return OK;
}
/* Another GPU's bus id names device 1; JCCL_FAKE_NO_PEER makes this process see no peer access. */
CUresult cuDeviceGetByPCIBusId(int* d, const char* id) {
    const char* mine = getenv("JCCL_FAKE_PCI_BUS_ID");
    *d = strcmp(id, mine != nullptr ? mine : "0000:00:00.0") == 0 ? 0 : 1;
    return OK;
}
CUresult cuDeviceCanAccessPeer(int* can, int, int) {
    *can = getenv("JCCL_FAKE_NO_PEER") == nullptr;
    return OK;
}
CUresult cuDeviceGetName(char* name, int length, int) {
    snprintf(name, length, "jccl fake GPU");
    return OK;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void* f, int threads, size_t) {
    if (f == nullptr || threads <= 0 || threads > JCCL_MAX_THREADS) return INVALID_VALUE;
    *blocks = 1;
    return OK;
}

CUresult cuGetErrorName(CUresult e, const char** s) {
    *s = e == OK ? "CUDA_SUCCESS" : e == INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_FAKE";
    return OK;
}
CUresult cuGetErrorString(CUresult e, const char** s) {
    *s = e == INVALID_VALUE ? "invalid argument" : "an error of the fake driver";
    return OK;
}

CUresult cuMemAlloc_v2(uint64_t* p, size_t bytes) {
    void* m = allocateShared(bytes);
    if (m == nullptr) return 2;
    *p = (uint64_t)m;
    return OK;
}
CUresult cuMemFree_v2(uint64_t p) { return release(reinterpret_cast<void*>(p), MEMFD) ? OK : INVALID_VALUE; }
CUresult cuMemHostAlloc(void** p, size_t bytes, unsigned) {
    *p = allocate(bytes, 1 /* CU_MEMORYTYPE_HOST */);
    return *p ? OK : 2;
}
CUresult cuMemFreeHost(void* p) { return release(p, HEAP) ? OK : INVALID_VALUE; }
CUresult cuMemHostRegister_v2(void* p, size_t bytes, unsigned) {
    std::lock_guard<std::mutex> g(memoryLock);
    if (p == nullptr || bytes == 0 || allocations.count((uintptr_t)p)) return INVALID_VALUE;
    allocations[(uintptr_t)p] = {bytes, 1 /* HOST */, REGISTERED, -1, 0};
    return OK;
}
CUresult cuMemHostUnregister(void* p) { return release(p, REGISTERED) ? OK : INVALID_VALUE; }

/* IPC: the handle names the exporting process's memfd, which the opener maps through /proc. */
CUresult cuIpcGetMemHandle(void* handle, uint64_t d) {
    /* JCCL_FAKE_IPC_UNSUPPORTED: a driver or container without CUDA IPC, as tests need one */
    if (getenv("JCCL_FAKE_IPC_UNSUPPORTED") != nullptr) return 801; /* CUDA_ERROR_NOT_SUPPORTED */
    std::lock_guard<std::mutex> g(memoryLock);
    auto it = allocations.find((uintptr_t)d);
    if (it == allocations.end() || it->second.owner != MEMFD) return INVALID_VALUE;
    IpcHandle h = {IPC_MAGIC, (uint64_t)getpid(), (uint64_t)it->second.fd, it->second.bytes, 0};
    memset(handle, 0, 64);
    memcpy(handle, &h, sizeof h);
    return OK;
}
struct CUipcMemHandle { char reserved[64]; }; /* passed by value, as libcuda's */
CUresult cuIpcOpenMemHandle_v2(uint64_t* d, CUipcMemHandle handle, unsigned) {
    IpcHandle h;
    memcpy(&h, handle.reserved, sizeof h);
    if (h.magic != IPC_MAGIC) return INVALID_VALUE;
    if (h.pid == (uint64_t)getpid()) return 201; /* CUDA_ERROR_INVALID_CONTEXT: not in the exporting process */
    char path[64];
    snprintf(path, sizeof path, "/proc/%llu/fd/%llu", (unsigned long long)h.pid, (unsigned long long)h.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return INVALID_VALUE;
    size_t len = (h.bytes + 4095) & ~(size_t)4095;
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { close(fd); return 2; }
    std::lock_guard<std::mutex> g(memoryLock);
    allocations[(uintptr_t)p] = {h.bytes, 2 /* DEVICE */, OPENED, fd, len};
    *d = (uint64_t)p;
    return OK;
}
CUresult cuIpcCloseMemHandle(uint64_t d) { return release(reinterpret_cast<void*>(d), OPENED) ? OK : INVALID_VALUE; }
CUresult cuMemHostGetDevicePointer_v2(uint64_t* d, void* p, unsigned) { *d = (uint64_t)p; return OK; }

CUresult cuPointerGetAttribute(void* data, int attribute, uint64_t p) {
    int type = typeOf((uintptr_t)p);
    if (type == 0) return INVALID_VALUE;
    if (attribute == 2 /* MEMORY_TYPE */) *static_cast<unsigned*>(data) = (unsigned)type;
    else if (attribute == 9 /* DEVICE_ORDINAL */) *static_cast<int*>(data) = 0;
    else return INVALID_VALUE;
    return OK;
}

CUresult cuMemcpyHtoD_v2(uint64_t d, const void* s, size_t n) { memcpy(reinterpret_cast<void*>(d), s, n); return OK; }
CUresult cuMemcpyDtoH_v2(void* d, uint64_t s, size_t n) { memcpy(d, reinterpret_cast<void*>(s), n); return OK; }
CUresult cuMemcpyAsync(uint64_t d, uint64_t s, size_t n, void* stream) {
    submit(stream, [d, s, n] { memcpy(reinterpret_cast<void*>(d), reinterpret_cast<void*>(s), n); });
    return OK;
}
CUresult cuMemsetD8Async(uint64_t d, unsigned char v, size_t n, void* stream) {
    submit(stream, [d, v, n] { memset(reinterpret_cast<void*>(d), v, n); });
    return OK;
}

CUresult cuModuleLoadDataEx(void** module, const void*, unsigned, void*, void*) {
    *module = reinterpret_cast<void*>(0x2000);
    return OK;
}
CUresult cuModuleUnload(void*) { return OK; }
CUresult cuModuleGetFunction(void** f, void*, const char* name) {
    *f = dlsym(self(), name);
    return *f ? OK : NOT_FOUND;
}
CUresult cuLaunchKernel(void* f, unsigned gx, unsigned, unsigned, unsigned bx, unsigned, unsigned, unsigned, void* stream,
                        void** params, void**) {
    if (f == nullptr || params == nullptr || bx % 32 != 0 || bx > JCCL_MAX_THREADS) return INVALID_VALUE;
    jccl_batch batch = *static_cast<jccl_batch*>(params[0]);
    emu_kernel k = reinterpret_cast<emu_kernel>(f);
    submit(stream, [k, batch, gx] { emu_launch(k, batch, gx, EMULATED_THREADS); });
    return OK;
}

CUresult cuStreamCreate(void** s, unsigned) { *s = new Stream(); return OK; }
CUresult cuStreamDestroy_v2(void* s) { delete static_cast<Stream*>(s); return OK; }
CUresult cuStreamSynchronize(void* s) {
    if (s != nullptr) static_cast<Stream*>(s)->drain();
    return OK;
}
CUresult cuStreamQuery(void* s) { return s == nullptr || static_cast<Stream*>(s)->idle() ? OK : NOT_READY; }

CUresult cuEventCreate(void** e, unsigned) { *e = new Event(); return OK; }
CUresult cuEventDestroy_v2(void* e) { delete static_cast<Event*>(e); return OK; }
CUresult cuEventRecord(void* ev, void* stream) {
    Event* e = static_cast<Event*>(ev);
    uint64_t seq;
    {
        std::lock_guard<std::mutex> g(e->lock);
        seq = ++e->recorded;
    }
    submit(stream, [e, seq] {
        std::lock_guard<std::mutex> g(e->lock);
        if (seq > e->completed) e->completed = seq;
        e->at = nowMillis();
        e->changed.notify_all();
    });
    return OK;
}
CUresult cuStreamWaitEvent(void* stream, void* ev, unsigned) {
    Event* e = static_cast<Event*>(ev);
    uint64_t target;
    {
        std::lock_guard<std::mutex> g(e->lock);
        target = e->recorded;
    }
    submit(stream, [e, target] {
        std::unique_lock<std::mutex> g(e->lock);
        e->changed.wait(g, [e, target] { return e->completed >= target; });
    });
    return OK;
}
CUresult cuEventSynchronize(void* ev) {
    Event* e = static_cast<Event*>(ev);
    std::unique_lock<std::mutex> g(e->lock);
    e->changed.wait(g, [e] { return e->completed >= e->recorded; });
    return OK;
}
CUresult cuEventQuery(void* ev) {
    Event* e = static_cast<Event*>(ev);
    std::lock_guard<std::mutex> g(e->lock);
    return e->completed >= e->recorded ? OK : NOT_READY;
}
CUresult cuEventElapsedTime_v2(float* ms, void* a, void* b) {
    *ms = (float)(static_cast<Event*>(b)->at - static_cast<Event*>(a)->at);
    return OK;
}
}
