// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: a fake CUDA driver (libcuda's C API, the calls jccl makes) over the host emulation of
 * the kernels, so that the CUDA engine's Java side runs end to end without a GPU
 * (FakeDriverEngineTest, which loads it through jccl.cuda.lib). JCCL_FAKE_DEVICES devices (2 unless
 * set, at most 8), each with its primary context; device memory is host memory the driver knows,
 * each allocation a shared mapping of a memfd of its own, so that another process maps the same
 * pages from its IPC handle; it belongs to the device whose context was current. Streams are worker
 * threads running their operations in order; a kernel launch runs the emulated kernel named by
 * cuModuleGetFunction with 64 threads per block (the kernels take any multiple of 32); events count
 * completions. What a GPU would fault on, a launch refuses: a stream of another context than the
 * current one, a buffer or FIFO in another GPU's memory without peer access enabled to it, and a
 * FIFO there or in cuMemHostAlloc'd memory (another GPU's or the socket proxy's) without
 * JCCL_CONN_SYSTEM (another agent's accesses need system-scope ordering).
 * JCCL_FAKE_TOPOLOGY (or jccl_fake_set_topology; fake_topology.h) describes the GPUs instead: their
 * number, bus ids, compute capabilities and which pairs support peer access (cuDeviceGetP2PAttribute).
 * Stream capture follows the driver's rules (cuStreamBeginCapture_v2 on): a capturing stream adds
 * graph nodes instead of running, events fork and join streams of a capture, and the calls CUDA
 * forbids during a capture fail and invalidate it; cuGraphLaunch runs a graph's nodes each in a thread
 * of its own as soon as what they depend on is done. Hooks for tests: jccl_fake_live_user_objects,
 * jccl_fake_graph_kernel_nodes and jccl_fake_active_captures (at the end of the capture section).
 */
#include <cstdio>
#include <cstring>
#include <strings.h>
#include "jccl_emulation.h"
#include "jccl_work.h"
#include "emu_block.h"
#include "fake_topology.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

typedef int CUresult;
static const CUresult OK = 0, INVALID_VALUE = 1, NOT_READY = 600, NOT_FOUND = 500, INVALID_HANDLE = 400;
static const unsigned EMULATED_THREADS = 64;
/* Codes of what a GPU would fault on (ILLEGAL_ADDRESS), and of a connection between GPUs whose
 * ordering is only the GPU's (a fake code: a real GPU would run and sometimes return stale data). */
static const CUresult ILLEGAL_ADDRESS = 700, FAKE_GPU_SCOPE_ACROSS_GPUS = 990;

namespace {
/* GPUs of the described topology (-1: none described, -2: not looked at since it was set), kept
 * apart so that the calls of every launch do not copy the description. */
std::atomic<int> described{-2};
int describedCount() {
    int n = described.load();
    if (n == -2) {
        fake_topology::Topology t = fake_topology::get();
        n = !t.set ? -1 : !t.error.empty() ? 0 : (int)t.gpus.size();
        described.store(n);
    }
    return n;
}
int deviceCount() {
    static const int n = [] {
        const char* v = getenv("JCCL_FAKE_DEVICES");
        int d = v != nullptr ? atoi(v) : 2;
        return d < 1 ? 1 : d > 8 ? 8 : d;
    }();
    int t = describedCount();
    return t < 0 ? n : t > 8 ? 8 : t;
}
/* Whether src may access dst's memory: as described (same p2p group, or NVLink), else unless JCCL_FAKE_NO_PEER. */
bool peerSupported(int src, int dst) {
    if (describedCount() < 0) return getenv("JCCL_FAKE_NO_PEER") == nullptr;
    fake_topology::Topology t = fake_topology::get();
    if (!t.error.empty() || src >= (int)t.gpus.size() || dst >= (int)t.gpus.size()) return false;
    return t.gpus[src].group == t.gpus[dst].group || fake_topology::nvlinked(t, src, dst);
}
/* A device's primary context is this address plus its ordinal times CONTEXT_STRIDE. */
const uintptr_t CONTEXT_BASE = 0x1000, CONTEXT_STRIDE = 0x100;
thread_local int currentDevice = 0;

std::mutex peerLock;
std::set<std::pair<int, int>> peerAccess; /* (device, peer): kernels of device may use peer's memory */
bool reaches(int device, int peer) {
    if (device == peer) return true;
    std::lock_guard<std::mutex> g(peerLock);
    return peerAccess.count({device, peer}) != 0;
}

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
    int device; /* device memory: the GPU it is on */
};
std::map<uintptr_t, Range> allocations; /* start -> range */

void* allocate(size_t bytes, int type) {
    void* p = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
    if (p == nullptr) return nullptr;
    std::lock_guard<std::mutex> g(memoryLock);
    allocations[(uintptr_t)p] = {bytes, type, HEAP, -1, 0, -1};
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
    allocations[(uintptr_t)p] = {bytes, 2 /* DEVICE */, MEMFD, fd, len, currentDevice};
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

/* The range holding p, or a range of type 0 (unknown memory). */
Range rangeOf(uintptr_t p) {
    std::lock_guard<std::mutex> g(memoryLock);
    auto it = allocations.upper_bound(p);
    if (it == allocations.begin()) return Range{0, 0, HEAP, -1, 0, -1};
    --it;
    return p < it->first + it->second.bytes ? it->second : Range{0, 0, HEAP, -1, 0, -1};
}

int typeOf(uintptr_t p) { return rangeOf(p).type; }

/* What a fake IPC handle holds (the real one is 64 opaque bytes): the exporter's memfd, and the
 * bus id of the GPU the memory is on (so that the opener knows which GPU it is). */
struct IpcHandle {
    uint64_t magic, pid, fd, bytes, offset;
    char busId[16];
};
const uint64_t IPC_MAGIC = 0x6a63636c66616b65; /* "jcclfake" */

/* Stream capture: codes, modes (CUstreamCaptureMode) and statuses (CUstreamCaptureStatus). */
const CUresult ILLEGAL_STATE = 401, CAPTURE_UNSUPPORTED = 900, CAPTURE_INVALIDATED = 901, CAPTURE_MERGE = 902,
    CAPTURE_UNMATCHED = 903, CAPTURE_UNJOINED = 904, CAPTURE_ISOLATION = 905, CAPTURED_EVENT = 907,
    CAPTURE_WRONG_THREAD = 908;
enum { MODE_GLOBAL = 0, MODE_THREAD_LOCAL = 1, MODE_RELAXED = 2 };
enum { STATUS_NONE = 0, STATUS_ACTIVE = 1, STATUS_INVALIDATED = 2 };

/* A node of a graph: what it runs (its arguments copied when it was captured, as CUDA copies a
 * kernel's parameters) and the indexes of the nodes it waits for; children only in an exec. */
struct Op {
    size_t index;
    bool kernel;
    std::function<void()> run;
    std::vector<size_t> deps, children;
};
struct UserObject {
    void* ptr;
    void (*destroy)(void*);
    unsigned refs;
};
/* Nodes one by one on the heap, since their addresses are the CUgraphNode handles. */
struct Graph {
    std::vector<std::unique_ptr<Op>> nodes;
    std::map<UserObject*, unsigned> refs; /* the user-object references the graph owns */
};
struct Stream;
/* A capture sequence, shared by its origin stream and every stream that joined it through an event. */
struct Capture {
    uint64_t id;
    int status; /* STATUS_ACTIVE or STATUS_INVALIDATED */
    int mode;
    std::thread::id thread; /* the one that began it */
    Graph* graph;
    Stream* origin;
    std::vector<Stream*> streams; /* origin first */
};

struct Stream {
    int device = currentDevice;
    /* Under captureLock: the sequence the stream is in, and the nodes its next captured operation
     * depends on (CUgraphNode handles, so that cuStreamGetCaptureInfo_v3 hands out the array). */
    std::shared_ptr<Capture> capture;
    std::vector<void*> tail;
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
    /* Under captureLock: whether the last record was captured, in which sequence (gone once it
     * ended) and the nodes it stands for then. */
    bool captured = false;
    std::weak_ptr<Capture> capturedIn;
    std::vector<void*> capturedNodes;
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
/* Whether a launch on `device` could touch what its descriptors name: the operations' buffers
 * and every FIFO a step of any lane uses (see jccl_work.h). */
int reachable(const jccl_batch& batch, int device) {
    auto onOtherGpu = [device](uint64_t p) {
        Range r = rangeOf((uintptr_t)p);
        return r.type == 2 /* DEVICE */ && r.device >= 0 && r.device != device;
    };
    for (uint32_t b = 0; b < batch.count; b++) {
        const jccl_work* w = reinterpret_cast<const jccl_work*>(batch.works[b]);
        const uint64_t* in = reinterpret_cast<const uint64_t*>(w->inputs);
        const uint64_t* out = reinterpret_cast<const uint64_t*>(w->outputs);
        for (uint32_t op = 0; op < w->nops; op++) {
            for (uint64_t p : {in[op], in[w->nops + op], out[op]}) {
                if (p != 0 && onOtherGpu(p) && !reaches(device, rangeOf((uintptr_t)p).device)) return ILLEGAL_ADDRESS;
            }
        }
        const jccl_lane_steps* lanes = reinterpret_cast<const jccl_lane_steps*>(w->laneSteps);
        const jccl_step* steps = reinterpret_cast<const jccl_step*>(w->steps);
        const jccl_conn* conns = reinterpret_cast<const jccl_conn*>(w->conns);
        for (uint32_t i = 0; i < w->nlanes * w->nsegments; i++) {
            for (uint32_t s = lanes[i].first; s < lanes[i].first + lanes[i].count; s++) {
                for (int k = 0; k < steps[s].nrecv + steps[s].nsend; k++) {
                    const jccl_conn& c = conns[k < steps[s].nrecv ? steps[s].recv[k] : steps[s].send[k - steps[s].nrecv]];
                    Range r = rangeOf((uintptr_t)c.fifo);
                    /* cuMemHostAlloc'd FIFOs are the socket proxy's or between two GPUs: another
                     * agent is always at the other end (pinned /dev/shm FIFOs may be one GPU's) */
                    bool hostAlloc = r.type == 1 && r.owner == HEAP;
                    if (!hostAlloc && !onOtherGpu(c.fifo)) continue;
                    if (!hostAlloc && !reaches(device, r.device)) return ILLEGAL_ADDRESS;
                    if (!(c.flags & JCCL_CONN_SYSTEM)) return FAKE_GPU_SCOPE_ACROSS_GPUS;
                }
            }
        }
    }
    return 0;
}

/* Capture state: the sequences begun and not ended (invalidated ones included), the streams' and
 * events' capture fields and the graphs' nodes and references; never held while anything runs. */
std::mutex captureLock;
std::vector<std::shared_ptr<Capture>> captures;
uint64_t lastCaptureId = 0;
thread_local int captureMode = MODE_GLOBAL;

/* User objects: their counts under userLock (taken after captureLock, never before it). */
std::mutex userLock;
std::atomic<int> liveUserObjects{0};
std::atomic<long> directLaunches{0};

/* CUDA runs destroy callbacks on a thread of its own, never in the call that drops the last
 * reference: this stream's worker (never destroyed, as callbacks may come while the process exits). */
Stream* callbackThread() {
    static Stream* s = new Stream();
    return s;
}

void dropReferences(UserObject* o, unsigned count) {
    bool last;
    {
        std::lock_guard<std::mutex> g(userLock);
        o->refs -= count < o->refs ? count : o->refs;
        last = o->refs == 0;
    }
    if (last) {
        callbackThread()->enqueue([o] {
            if (o->destroy != nullptr) o->destroy(o->ptr);
            delete o;
            liveUserObjects--;
        });
    }
}

void destroyGraph(Graph* graph) {
    for (auto& r : graph->refs) dropReferences(r.first, r.second);
    delete graph;
}

/* Under captureLock: takes every stream of c out of capture; the graph goes unless it is handed out. */
void endCapture(std::shared_ptr<Capture> c, bool keepGraph) {
    for (Stream* t : c->streams) {
        t->capture.reset();
        t->tail.clear();
    }
    c->streams.clear();
    for (size_t i = 0; i < captures.size(); i++) {
        if (captures[i] == c) {
            captures.erase(captures.begin() + (long)i);
            break;
        }
    }
    if (!keepGraph) destroyGraph(c->graph);
    c->graph = nullptr;
}

/* cuThreadExchangeStreamCaptureMode's rule for potentially unsafe calls: unless this thread is
 * RELAXED, a sequence it began not RELAXED, or (this thread in GLOBAL mode) any thread's begun in
 * GLOBAL mode, forbids the call, which invalidates them. */
CUresult unsafeCall() {
    if (captureMode == MODE_RELAXED) return OK;
    std::lock_guard<std::mutex> g(captureLock);
    bool forbidden = false;
    for (auto& c : captures) {
        bool mine = c->thread == std::this_thread::get_id() && c->mode != MODE_RELAXED;
        if (mine || (captureMode == MODE_GLOBAL && c->mode == MODE_GLOBAL)) {
            c->status = STATUS_INVALIDATED;
            forbidden = true;
        }
    }
    return forbidden ? CAPTURE_UNSUPPORTED : OK;
}

/* A stream operation: runs f in order on the stream or, on a capturing one, becomes a node of the
 * capture's graph after the stream's tail (the checks of the operation were made by the caller). */
CUresult streamOperation(void* stream, bool kernel, std::function<void()> f) {
    if (stream != nullptr) {
        Stream* s = static_cast<Stream*>(stream);
        std::lock_guard<std::mutex> g(captureLock);
        if (s->capture) {
            if (s->capture->status == STATUS_INVALIDATED) return CAPTURE_INVALIDATED;
            Graph* graph = s->capture->graph;
            std::unique_ptr<Op> op(new Op{graph->nodes.size(), kernel, std::move(f), {}, {}});
            for (void* d : s->tail) op->deps.push_back(static_cast<Op*>(d)->index);
            s->tail.assign(1, op.get());
            graph->nodes.push_back(std::move(op));
            return OK;
        }
    }
    submit(stream, std::move(f));
    return OK;
}

/* An instantiated graph: its own copy of the nodes and its own user-object references. Launches
 * take tickets and run in their order; the last one to end after cuGraphExecDestroy retires it. */
struct Exec {
    std::vector<Op> ops;
    std::map<UserObject*, unsigned> refs;
    std::mutex lock;
    std::condition_variable turn;
    uint64_t tickets = 0, serving = 0;
    int inFlight = 0;
    bool destroyed = false;
};

void retire(Exec* x) {
    for (auto& r : x->refs) dropReferences(r.first, r.second);
    delete x;
}

/* Every node starts in a thread of its own once the nodes it depends on have ended: the kernels of
 * different ranks wait for one another, so running the branches one after the other would hang. */
void runNodes(const std::vector<Op>& ops) {
    std::vector<size_t> waiting(ops.size());
    std::vector<std::thread> threads;
    std::mutex m;
    std::condition_variable changed;
    std::deque<size_t> ended;
    auto start = [&](size_t i) {
        threads.emplace_back([&, i] {
            ops[i].run();
            std::lock_guard<std::mutex> g(m);
            ended.push_back(i);
            changed.notify_all();
        });
    };
    std::unique_lock<std::mutex> g(m);
    for (size_t i = 0; i < ops.size(); i++) {
        waiting[i] = ops[i].deps.size();
        if (waiting[i] == 0) start(i);
    }
    for (size_t done = 0; done < ops.size(); done++) {
        changed.wait(g, [&] { return !ended.empty(); });
        size_t i = ended.front();
        ended.pop_front();
        for (size_t c : ops[i].children) {
            if (--waiting[c] == 0) start(c);
        }
    }
    g.unlock();
    for (std::thread& t : threads) t.join();
}

/* Waiting for a capturing stream is forbidden whatever the mode, and invalidates its sequence. */
CUresult capturingStream(Stream* s) {
    std::lock_guard<std::mutex> g(captureLock);
    if (!s->capture) return OK;
    s->capture->status = STATUS_INVALIDATED;
    return CAPTURE_UNSUPPORTED;
}

/* An event last recorded in a capture stands for graph nodes, not work a stream will do:
 * CUDA_ERROR_CAPTURED_EVENT, whatever the mode; otherwise waiting is a potentially unsafe call. */
CUresult capturedEvent(Event* e) {
    {
        std::lock_guard<std::mutex> g(captureLock);
        if (e->captured) return CAPTURED_EVENT;
    }
    return unsafeCall();
}

void runExec(Exec* x, uint64_t ticket) {
    {
        std::unique_lock<std::mutex> g(x->lock);
        x->turn.wait(g, [x, ticket] { return x->serving == ticket; });
    }
    runNodes(x->ops);
    bool last;
    {
        std::lock_guard<std::mutex> g(x->lock);
        x->serving++;
        last = --x->inFlight == 0 && x->destroyed;
        x->turn.notify_all();
    }
    if (last) retire(x);
}
}  // namespace

extern "C" {
/* Tests: describe the GPUs (fake_topology.h); NULL or "" goes back to the defaults. */
void jccl_fake_set_topology(const char* spec) {
    fake_topology::set(spec);
    described.store(-2);
}
CUresult cuInit(unsigned) { return OK; }
CUresult cuDriverGetVersion(int* v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int* n) { *n = deviceCount(); return OK; }
CUresult cuDeviceGet(int* d, int ordinal) {
    if (ordinal < 0 || ordinal >= deviceCount()) return INVALID_VALUE;
    *d = ordinal;
    return OK;
}
CUresult cuDevicePrimaryCtxRetain(void** ctx, int d) {
    if (d < 0 || d >= deviceCount()) return INVALID_VALUE;
    *ctx = reinterpret_cast<void*>(CONTEXT_BASE + CONTEXT_STRIDE * d);
    return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return OK; }
int deviceOf(void* ctx) {
    uintptr_t c = reinterpret_cast<uintptr_t>(ctx);
    if (c < CONTEXT_BASE || (c - CONTEXT_BASE) % CONTEXT_STRIDE != 0) return -1;
    int d = (int)((c - CONTEXT_BASE) / CONTEXT_STRIDE);
    return d < deviceCount() ? d : -1;
}
CUresult cuCtxSetCurrent(void* ctx) {
    int d = deviceOf(ctx);
    if (d < 0) return 201; /* CUDA_ERROR_INVALID_CONTEXT */
    currentDevice = d;
    return OK;
}
/* JCCL_FAKE_NO_PEER: no peer access between this process's devices either. */
CUresult cuCtxEnablePeerAccess(void* peerCtx, unsigned) {
    int peer = deviceOf(peerCtx);
    if (peer < 0) return 201;
    if (peer == currentDevice) return 101; /* CUDA_ERROR_INVALID_DEVICE */
    if (!peerSupported(currentDevice, peer)) return 217; /* CUDA_ERROR_PEER_ACCESS_UNSUPPORTED */
    std::lock_guard<std::mutex> g(peerLock);
    return peerAccess.insert({currentDevice, peer}).second ? OK : 704; /* CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED */
}
/* A small GPU: 16 multiprocessors holding one executor block each, so that 16 blocks of all ranks
 * together are what the engine may launch at once (every block costs this emulation its threads). */
CUresult cuDeviceGetAttribute(int* v, int attribute, int d) {
    if (attribute == 16 /* MULTIPROCESSOR_COUNT */) {
        *v = 16;
        return OK;
    }
    if (attribute != 75 && attribute != 76) return INVALID_VALUE; /* COMPUTE_CAPABILITY_MAJOR, _MINOR */
    if (d < 0 || d >= deviceCount()) return 101; /* CUDA_ERROR_INVALID_DEVICE */
    int sm = 90;
    if (describedCount() >= 0) {
        fake_topology::Topology t = fake_topology::get();
        if (!t.error.empty()) return INVALID_VALUE;
        sm = t.gpus[d].sm;
    }
    *v = attribute == 75 ? sm / 10 : sm % 10;
    return OK;
}
/* PERFORMANCE_RANK (1): 0 over NVLink, 1 over PCI; ACCESS_SUPPORTED (2); NATIVE_ATOMIC_SUPPORTED (3) as access. */
CUresult cuDeviceGetP2PAttribute(int* v, int attribute, int src, int dst) {
    if (src < 0 || src >= deviceCount() || dst < 0 || dst >= deviceCount() || src == dst) return 101;
    if (describedCount() == 0) return INVALID_VALUE;
    switch (attribute) {
        case 1: {
            if (describedCount() < 0) {
                *v = 0;
                return OK;
            }
            fake_topology::Topology t = fake_topology::get();
            *v = fake_topology::nvlinked(t, src, dst) ? 0 : 1;
            return OK;
        }
        case 2:
        case 3: *v = peerSupported(src, dst) ? 1 : 0; return OK;
        default: return INVALID_VALUE;
    }
}
CUresult cuDeviceGetPCIBusId(char* id, int length, int d) {
    if (describedCount() >= 0) {
        /* The driver writes hex digits in upper case. */
        fake_topology::Topology t = fake_topology::get();
        if (!t.error.empty() || d < 0 || d >= (int)t.gpus.size()) return INVALID_VALUE;
        snprintf(id, length, "%s", t.gpus[d].busId.c_str());
        for (char* c = id; *c; c++) *c = (char)toupper((unsigned char)*c);
        return OK;
    }
    /* A process may stand for one on another GPU of the host (its memory is still this host's):
     * JCCL_FAKE_PCI_BUS_ID names its device 0; devices 1.. are 0000:81:00.0 on. */
    const char* other = getenv("JCCL_FAKE_PCI_BUS_ID");
    if (d == 0) snprintf(id, length, "%s", other != nullptr ? other : "0000:00:00.0");
    else snprintf(id, length, "0000:%02x:00.0", 0x80 + d);
    return OK;
}
/* This process's devices by their bus ids; any other bus id names device 1 (a GPU this process
 * sees, as the other processes' GPU of the multi-process tests). */
CUresult cuDeviceGetByPCIBusId(int* d, const char* id) {
    char mine[32];
    for (int i = 0; i < deviceCount(); i++) {
        cuDeviceGetPCIBusId(mine, sizeof mine, i);
        if (strcasecmp(id, mine) == 0) {
            *d = i;
            return OK;
        }
    }
    *d = 1;
    return OK;
}
CUresult cuDeviceCanAccessPeer(int* can, int d, int peer) {
    *can = peerSupported(d, peer);
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
    static const char* const capture[] = {"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
        "CUDA_ERROR_STREAM_CAPTURE_MERGE", "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "CUDA_ERROR_STREAM_CAPTURE_UNJOINED",
        "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "CUDA_ERROR_CAPTURED_EVENT",
        "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"};
    *s = e == OK ? "CUDA_SUCCESS" : e == INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
        : e == ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" : e == ILLEGAL_STATE ? "CUDA_ERROR_ILLEGAL_STATE"
        : e >= CAPTURE_UNSUPPORTED && e <= CAPTURE_WRONG_THREAD ? capture[e - CAPTURE_UNSUPPORTED] : "CUDA_ERROR_FAKE";
    return OK;
}
CUresult cuGetErrorString(CUresult e, const char** s) {
    *s = e == INVALID_VALUE ? "invalid argument"
        : e == ILLEGAL_ADDRESS ? "a launch uses memory of another GPU without peer access to it (fake driver)"
        : e == FAKE_GPU_SCOPE_ACROSS_GPUS ? "a FIFO on another GPU or shared with the CPU without JCCL_CONN_SYSTEM (fake driver)"
        : "an error of the fake driver";
    return OK;
}

/* The calls that cuThreadExchangeStreamCaptureMode's rule forbids during a capture (unsafeCall)
 * begin with it: allocations, registrations, synchronous copies, module loads, event queries. */
CUresult cuMemAlloc_v2(uint64_t* p, size_t bytes) {
    if (CUresult r = unsafeCall()) return r;
    void* m = allocateShared(bytes);
    if (m == nullptr) return 2;
    *p = (uint64_t)m;
    return OK;
}
CUresult cuMemFree_v2(uint64_t p) {
    if (CUresult r = unsafeCall()) return r;
    return release(reinterpret_cast<void*>(p), MEMFD) ? OK : INVALID_VALUE;
}
CUresult cuMemHostAlloc(void** p, size_t bytes, unsigned) {
    if (CUresult r = unsafeCall()) return r;
    *p = allocate(bytes, 1 /* CU_MEMORYTYPE_HOST */);
    return *p ? OK : 2;
}
CUresult cuMemFreeHost(void* p) {
    if (CUresult r = unsafeCall()) return r;
    return release(p, HEAP) ? OK : INVALID_VALUE;
}
CUresult cuMemHostRegister_v2(void* p, size_t bytes, unsigned) {
    if (CUresult r = unsafeCall()) return r;
    std::lock_guard<std::mutex> g(memoryLock);
    if (p == nullptr || bytes == 0 || allocations.count((uintptr_t)p)) return INVALID_VALUE;
    allocations[(uintptr_t)p] = {bytes, 1 /* HOST */, REGISTERED, -1, 0, -1};
    return OK;
}
CUresult cuMemHostUnregister(void* p) {
    if (CUresult r = unsafeCall()) return r;
    return release(p, REGISTERED) ? OK : INVALID_VALUE;
}

/* IPC: the handle names the exporting process's memfd, which the opener maps through /proc. */
CUresult cuIpcGetMemHandle(void* handle, uint64_t d) {
    /* JCCL_FAKE_IPC_UNSUPPORTED: a driver or container without CUDA IPC, as tests need one */
    if (getenv("JCCL_FAKE_IPC_UNSUPPORTED") != nullptr) return 801; /* CUDA_ERROR_NOT_SUPPORTED */
    std::lock_guard<std::mutex> g(memoryLock);
    auto it = allocations.find((uintptr_t)d);
    if (it == allocations.end() || it->second.owner != MEMFD) return INVALID_VALUE;
    IpcHandle h = {IPC_MAGIC, (uint64_t)getpid(), (uint64_t)it->second.fd, it->second.bytes, 0, {}};
    cuDeviceGetPCIBusId(h.busId, sizeof h.busId, it->second.device);
    memset(handle, 0, 64);
    memcpy(handle, &h, sizeof h);
    return OK;
}
struct CUipcMemHandle { char reserved[64]; }; /* passed by value, as libcuda's */
/* The memory is on the exporter's GPU, as this process names it (cuDeviceGetByPCIBusId); from
 * another GPU, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS (1) enables the current context's peer access to it. */
CUresult cuIpcOpenMemHandle_v2(uint64_t* d, CUipcMemHandle handle, unsigned flags) {
    if (CUresult r = unsafeCall()) return r;
    IpcHandle h;
    memcpy(&h, handle.reserved, sizeof h);
    if (h.magic != IPC_MAGIC) return INVALID_VALUE;
    if (h.pid == (uint64_t)getpid()) return 201; /* CUDA_ERROR_INVALID_CONTEXT: not in the exporting process */
    h.busId[sizeof h.busId - 1] = 0;
    int gpu;
    cuDeviceGetByPCIBusId(&gpu, h.busId);
    if (gpu != currentDevice && (flags & 1)) {
        if (getenv("JCCL_FAKE_NO_PEER") != nullptr) return 217; /* CUDA_ERROR_PEER_ACCESS_UNSUPPORTED */
        std::lock_guard<std::mutex> g(peerLock);
        peerAccess.insert({currentDevice, gpu});
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%llu/fd/%llu", (unsigned long long)h.pid, (unsigned long long)h.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return INVALID_VALUE;
    size_t len = (h.bytes + 4095) & ~(size_t)4095;
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { close(fd); return 2; }
    std::lock_guard<std::mutex> g(memoryLock);
    allocations[(uintptr_t)p] = {h.bytes, 2 /* DEVICE */, OPENED, fd, len, gpu};
    *d = (uint64_t)p;
    return OK;
}
CUresult cuIpcCloseMemHandle(uint64_t d) { return release(reinterpret_cast<void*>(d), OPENED) ? OK : INVALID_VALUE; }
CUresult cuMemHostGetDevicePointer_v2(uint64_t* d, void* p, unsigned) { *d = (uint64_t)p; return OK; }

/* CONTEXT (1), RANGE_START_ADDR (11), RANGE_SIZE (12) of the allocation holding p: false if it is
 * none of those. The context of device memory is its GPU's primary one. */
bool pointerRangeAttribute(void* data, int attribute, uintptr_t p) {
    if (attribute != 1 && attribute != 11 && attribute != 12) return false;
    uintptr_t start = 0;
    Range r{0, 0, HEAP, -1, 0, -1};
    {
        std::lock_guard<std::mutex> g(memoryLock);
        auto it = allocations.upper_bound(p);
        if (it != allocations.begin() && p < (--it)->first + it->second.bytes) { start = it->first; r = it->second; }
    }
    int gpu = r.device >= 0 ? r.device : currentDevice;
    if (attribute == 1) *static_cast<uintptr_t*>(data) = CONTEXT_BASE + CONTEXT_STRIDE * gpu;
    else if (attribute == 11) *static_cast<uint64_t*>(data) = start;
    else *static_cast<uint64_t*>(data) = r.bytes;
    return true;
}

CUresult cuPointerGetAttribute(void* data, int attribute, uint64_t p) {
    int type = typeOf((uintptr_t)p);
    if (type == 0) return INVALID_VALUE;
    if (pointerRangeAttribute(data, attribute, (uintptr_t)p)) return OK;
    if (attribute == 2 /* MEMORY_TYPE */) *static_cast<unsigned*>(data) = (unsigned)type;
    else if (attribute == 9 /* DEVICE_ORDINAL */) {
        Range r = rangeOf((uintptr_t)p);
        *static_cast<int*>(data) = r.device >= 0 ? r.device : currentDevice;
    }
    else return INVALID_VALUE;
    return OK;
}

CUresult cuMemcpyHtoD_v2(uint64_t d, const void* s, size_t n) {
    if (CUresult r = unsafeCall()) return r;
    memcpy(reinterpret_cast<void*>(d), s, n);
    return OK;
}
CUresult cuMemcpyDtoH_v2(void* d, uint64_t s, size_t n) {
    if (CUresult r = unsafeCall()) return r;
    memcpy(d, reinterpret_cast<void*>(s), n);
    return OK;
}
CUresult cuMemcpyAsync(uint64_t d, uint64_t s, size_t n, void* stream) {
    return streamOperation(stream, false, [d, s, n] { memcpy(reinterpret_cast<void*>(d), reinterpret_cast<void*>(s), n); });
}
CUresult cuMemsetD8Async(uint64_t d, unsigned char v, size_t n, void* stream) {
    return streamOperation(stream, false, [d, v, n] { memset(reinterpret_cast<void*>(d), v, n); });
}

CUresult cuModuleLoadDataEx(void** module, const void*, unsigned, void*, void*) {
    if (CUresult r = unsafeCall()) return r;
    *module = reinterpret_cast<void*>(0x2000);
    return OK;
}
CUresult cuModuleUnload(void*) { return OK; }
/* The direct kernels take a jccl_direct, the executors a jccl_batch. */
std::mutex directLock;
std::set<void*> directKernels;
bool isDirect(void* f) {
    std::lock_guard<std::mutex> g(directLock);
    return directKernels.count(f) != 0;
}
CUresult cuModuleGetFunction(void** f, void*, const char* name) {
    *f = dlsym(self(), name);
    if (*f != nullptr && strncmp(name, "jccl_direct_", 12) == 0) {
        std::lock_guard<std::mutex> g(directLock);
        directKernels.insert(*f);
    }
    return *f ? OK : NOT_FOUND;
}
/* A direct launch: every buffer it names must be reachable from the launching GPU. */
CUresult launchDirect(void* f, unsigned gx, void* stream, void** params) {
    jccl_direct d = *static_cast<jccl_direct*>(params[0]);
    if (d.nranks == 0 || d.nranks > JCCL_DIRECT_MAX_RANKS) return INVALID_VALUE;
    for (uint32_t r = 0; r < d.nranks; r++) {
        for (uint64_t p : {d.inputs[r], d.outputs[r]}) {
            Range range = rangeOf((uintptr_t)p);
            if (p != 0 && range.type == 2 /* DEVICE */ && range.device >= 0 && range.device != currentDevice
                    && !reaches(currentDevice, range.device)) {
                return ILLEGAL_ADDRESS;
            }
        }
    }
    emu_direct_kernel k = reinterpret_cast<emu_direct_kernel>(f);
    static const bool skip = [] { const char* v = getenv("JCCL_FAKE_KERNELS"); return v != nullptr && strcmp(v, "skip") == 0; }();
    if (skip) return streamOperation(stream, true, [] { directLaunches++; });
    return streamOperation(stream, true, [k, d, gx] {
        emu_launch_direct(k, d, gx, EMULATED_THREADS);
        directLaunches++;
    });
}
CUresult cuLaunchKernel(void* f, unsigned gx, unsigned, unsigned, unsigned bx, unsigned, unsigned, unsigned, void* stream,
                        void** params, void**) {
    if (f == nullptr || params == nullptr || bx % 32 != 0 || bx > JCCL_MAX_THREADS) return INVALID_VALUE;
    if (stream != nullptr && static_cast<Stream*>(stream)->device != currentDevice) return INVALID_HANDLE;
    if (isDirect(f)) return launchDirect(f, gx, stream, params);
    jccl_batch batch = *static_cast<jccl_batch*>(params[0]);
    CUresult reach = reachable(batch, currentDevice);
    if (reach != OK) return reach;
    emu_kernel k = reinterpret_cast<emu_kernel>(f);
    /* JCCL_FAKE_KERNELS=skip: launches are checked and ordered but run nothing (benchmarks of the
     * issue path, bench's CudaIssueBench, where no peer's kernel would ever meet them). */
    static const bool skip = [] { const char* v = getenv("JCCL_FAKE_KERNELS"); return v != nullptr && strcmp(v, "skip") == 0; }();
    if (skip) return streamOperation(stream, true, [] {});
    return streamOperation(stream, true, [k, batch, gx] { emu_launch(k, batch, gx, EMULATED_THREADS); });
}

CUresult cuStreamCreate(void** s, unsigned) { *s = new Stream(); return OK; }
/* A capturing stream destroyed invalidates its sequence and leaves it; its origin destroyed ends it,
 * as nothing could end it any more. */
CUresult cuStreamDestroy_v2(void* stream) {
    Stream* s = static_cast<Stream*>(stream);
    {
        std::lock_guard<std::mutex> g(captureLock);
        if (std::shared_ptr<Capture> c = s->capture) {
            c->status = STATUS_INVALIDATED;
            if (c->origin == s) {
                endCapture(c, false);
            } else {
                for (size_t i = 0; i < c->streams.size(); i++) {
                    if (c->streams[i] == s) c->streams.erase(c->streams.begin() + (long)i);
                }
                s->capture.reset();
            }
        }
    }
    delete s;
    return OK;
}
CUresult cuStreamSynchronize(void* s) {
    if (s == nullptr) return OK;
    if (CUresult r = capturingStream(static_cast<Stream*>(s))) return r;
    static_cast<Stream*>(s)->drain();
    return OK;
}
CUresult cuStreamQuery(void* s) {
    if (s == nullptr) return OK;
    if (CUresult r = capturingStream(static_cast<Stream*>(s))) return r;
    return static_cast<Stream*>(s)->idle() ? OK : NOT_READY;
}

CUresult cuEventCreate(void** e, unsigned) { *e = new Event(); return OK; }
CUresult cuEventDestroy_v2(void* e) { delete static_cast<Event*>(e); return OK; }
/* On a capturing stream a record counts nothing: the event stands for the stream's tail in its
 * sequence (what cuStreamWaitEvent forks or joins on); a record outside capture forgets that. */
CUresult cuEventRecord(void* ev, void* stream) {
    Event* e = static_cast<Event*>(ev);
    {
        std::lock_guard<std::mutex> g(captureLock);
        Stream* s = static_cast<Stream*>(stream);
        if (s != nullptr && s->capture) {
            if (s->capture->status == STATUS_INVALIDATED) return CAPTURE_INVALIDATED;
            e->captured = true;
            e->capturedIn = s->capture;
            e->capturedNodes = s->tail;
            return OK;
        }
        e->captured = false;
        e->capturedIn.reset();
        e->capturedNodes.clear();
    }
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
/* An event of an active sequence brings a stream that is not capturing into it (a fork) or adds
 * its nodes to a capturing stream's tail (a join); an event recorded outside capture cannot be a
 * dependency of captured work (ISOLATION), nor can another sequence's (MERGE). */
CUresult cuStreamWaitEvent(void* stream, void* ev, unsigned) {
    Event* e = static_cast<Event*>(ev);
    {
        std::lock_guard<std::mutex> g(captureLock);
        Stream* s = static_cast<Stream*>(stream);
        std::shared_ptr<Capture> mine = s != nullptr ? s->capture : nullptr;
        if (mine && mine->status == STATUS_INVALIDATED) return CAPTURE_INVALIDATED;
        if (e->captured) {
            std::shared_ptr<Capture> c = e->capturedIn.lock();
            if (!c || s == nullptr) {
                /* its sequence ended (or the legacy stream, which cannot capture, would join it) */
                if (mine) mine->status = STATUS_INVALIDATED;
                if (c) c->status = STATUS_INVALIDATED;
                return mine ? CAPTURE_ISOLATION : c ? CAPTURE_UNSUPPORTED : CAPTURED_EVENT;
            }
            if (c->status == STATUS_INVALIDATED) return CAPTURE_INVALIDATED;
            if (mine && mine != c) return CAPTURE_MERGE;
            if (!mine) {
                s->capture = c;
                s->tail = e->capturedNodes;
                c->streams.push_back(s);
                return OK;
            }
            for (void* n : e->capturedNodes) {
                bool known = false;
                for (void* t : s->tail) known = known || t == n;
                if (!known) s->tail.push_back(n);
            }
            return OK;
        }
        if (mine) {
            /* an event never recorded stands for no work: no dependency */
            std::lock_guard<std::mutex> h(e->lock);
            if (e->recorded == 0) return OK;
            mine->status = STATUS_INVALIDATED;
            return CAPTURE_ISOLATION;
        }
    }
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
    if (CUresult r = capturedEvent(e)) return r;
    std::unique_lock<std::mutex> g(e->lock);
    e->changed.wait(g, [e] { return e->completed >= e->recorded; });
    return OK;
}
CUresult cuEventQuery(void* ev) {
    Event* e = static_cast<Event*>(ev);
    if (CUresult r = capturedEvent(e)) return r;
    std::lock_guard<std::mutex> g(e->lock);
    return e->completed >= e->recorded ? OK : NOT_READY;
}
CUresult cuEventElapsedTime_v2(float* ms, void* a, void* b) {
    *ms = (float)(static_cast<Event*>(b)->at - static_cast<Event*>(a)->at);
    return OK;
}

/* Stream capture. The legacy stream cannot capture; a capture is ended on its origin stream, by the
 * thread that began it unless it began RELAXED. */
CUresult cuStreamBeginCapture_v2(void* stream, int mode) {
    if (stream == nullptr) return CAPTURE_UNSUPPORTED;
    if (mode < MODE_GLOBAL || mode > MODE_RELAXED) return INVALID_VALUE;
    Stream* s = static_cast<Stream*>(stream);
    std::lock_guard<std::mutex> g(captureLock);
    if (s->capture) return ILLEGAL_STATE;
    std::shared_ptr<Capture> c(
        new Capture{++lastCaptureId, STATUS_ACTIVE, mode, std::this_thread::get_id(), new Graph(), s, {s}});
    s->capture = c;
    s->tail.clear();
    captures.push_back(c);
    return OK;
}
/* A stream that joined must have been joined back: every node of its tail is one the origin's
 * tail depends on (or is in it), else the graph would not hold all of the captured work's ordering. */
CUresult cuStreamEndCapture(void* stream, void** graph) {
    if (graph == nullptr) return INVALID_VALUE;
    Stream* s = static_cast<Stream*>(stream);
    std::lock_guard<std::mutex> g(captureLock);
    std::shared_ptr<Capture> c = s != nullptr ? s->capture : nullptr;
    if (!c) return ILLEGAL_STATE;
    if (c->origin != s) return CAPTURE_UNMATCHED;
    if (c->mode != MODE_RELAXED && c->thread != std::this_thread::get_id()) return CAPTURE_WRONG_THREAD;
    *graph = nullptr;
    if (c->status == STATUS_INVALIDATED) {
        endCapture(c, false);
        return CAPTURE_INVALIDATED;
    }
    std::vector<bool> joined(c->graph->nodes.size());
    std::vector<size_t> todo;
    for (void* n : s->tail) todo.push_back(static_cast<Op*>(n)->index);
    while (!todo.empty()) {
        size_t i = todo.back();
        todo.pop_back();
        if (joined[i]) continue;
        joined[i] = true;
        for (size_t d : c->graph->nodes[i]->deps) todo.push_back(d);
    }
    for (Stream* t : c->streams) {
        for (void* n : t->tail) {
            if (!joined[static_cast<Op*>(n)->index]) {
                endCapture(c, false);
                return CAPTURE_UNJOINED;
            }
        }
    }
    *graph = c->graph;
    endCapture(c, true);
    return OK;
}
CUresult cuStreamIsCapturing(void* stream, int* status) {
    if (status == nullptr) return INVALID_VALUE;
    std::lock_guard<std::mutex> g(captureLock);
    Stream* s = static_cast<Stream*>(stream);
    *status = s != nullptr && s->capture ? s->capture->status : STATUS_NONE;
    return OK;
}
/* The dependencies are the stream's own tail array: valid until the next call on the stream. */
CUresult cuStreamGetCaptureInfo_v3(void* stream, int* status, uint64_t* id, void** graph, void* const** dependencies,
                                   const void** edgeData, size_t* count) {
    std::lock_guard<std::mutex> g(captureLock);
    Stream* s = static_cast<Stream*>(stream);
    std::shared_ptr<Capture> c = s != nullptr ? s->capture : nullptr;
    bool active = c && c->status == STATUS_ACTIVE;
    if (status != nullptr) *status = c ? c->status : STATUS_NONE;
    if (id != nullptr) *id = active ? c->id : 0;
    if (graph != nullptr) *graph = active ? c->graph : nullptr;
    if (dependencies != nullptr) *dependencies = active && !s->tail.empty() ? s->tail.data() : nullptr;
    if (edgeData != nullptr) *edgeData = nullptr;
    if (count != nullptr) *count = active ? s->tail.size() : 0;
    return OK;
}
CUresult cuThreadExchangeStreamCaptureMode(int* mode) {
    if (mode == nullptr || *mode < MODE_GLOBAL || *mode > MODE_RELAXED) return INVALID_VALUE;
    int previous = captureMode;
    captureMode = *mode;
    *mode = previous;
    return OK;
}

/* Graphs. An exec copies the graph's nodes (it does not change with the graph afterwards) and
 * holds references of its own on the graph's user objects. */
CUresult cuGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long) {
    if (exec == nullptr || graph == nullptr) return INVALID_VALUE;
    Graph* from = static_cast<Graph*>(graph);
    Exec* x = new Exec();
    std::lock_guard<std::mutex> g(captureLock);
    for (auto& op : from->nodes) x->ops.push_back(*op);
    for (Op& op : x->ops) {
        for (size_t d : op.deps) x->ops[d].children.push_back(op.index);
    }
    x->refs = from->refs;
    std::lock_guard<std::mutex> h(userLock);
    for (auto& r : x->refs) r.first->refs += r.second;
    *exec = x;
    return OK;
}
/* One job on the stream runs the whole graph; launches of one exec run one at a time, in order. */
CUresult cuGraphLaunch(void* exec, void* stream) {
    if (exec == nullptr) return INVALID_VALUE;
    if (stream != nullptr) {
        std::lock_guard<std::mutex> g(captureLock);
        std::shared_ptr<Capture> c = static_cast<Stream*>(stream)->capture;
        if (c) {
            c->status = STATUS_INVALIDATED;
            return CAPTURE_UNSUPPORTED;
        }
    }
    Exec* x = static_cast<Exec*>(exec);
    uint64_t ticket;
    {
        std::lock_guard<std::mutex> g(x->lock);
        if (x->destroyed) return INVALID_VALUE;
        ticket = x->tickets++;
        x->inFlight++;
    }
    submit(stream, [x, ticket] { runExec(x, ticket); });
    return OK;
}
/* Returns at once: an exec with launches in flight is retired by the last of them to end. */
CUresult cuGraphExecDestroy(void* exec) {
    if (exec == nullptr) return INVALID_VALUE;
    Exec* x = static_cast<Exec*>(exec);
    bool idle;
    {
        std::lock_guard<std::mutex> g(x->lock);
        if (x->destroyed) return INVALID_VALUE;
        x->destroyed = true;
        idle = x->inFlight == 0;
    }
    if (idle) retire(x);
    return OK;
}
/* A graph still being captured into is the capture's to destroy. */
CUresult cuGraphDestroy(void* graph) {
    if (graph == nullptr) return INVALID_VALUE;
    std::lock_guard<std::mutex> g(captureLock);
    for (auto& c : captures) {
        if (c->graph == graph) return ILLEGAL_STATE;
    }
    destroyGraph(static_cast<Graph*>(graph));
    return OK;
}

/* User objects. The fake refuses to release more references than the object has (undefined in CUDA). */
CUresult cuUserObjectCreate(void** object, void* ptr, void (*destroy)(void*), unsigned initialRefcount, unsigned flags) {
    if (object == nullptr || initialRefcount == 0 || initialRefcount > INT32_MAX) return INVALID_VALUE;
    if (flags != 1 /* CU_USER_OBJECT_NO_DESTRUCTOR_SYNC */) return INVALID_VALUE;
    *object = new UserObject{ptr, destroy, initialRefcount};
    liveUserObjects++;
    return OK;
}
CUresult cuUserObjectRetain(void* object, unsigned count) {
    if (object == nullptr || count == 0 || count > INT32_MAX) return INVALID_VALUE;
    std::lock_guard<std::mutex> g(userLock);
    static_cast<UserObject*>(object)->refs += count;
    return OK;
}
CUresult cuUserObjectRelease(void* object, unsigned count) {
    if (object == nullptr || count == 0 || count > INT32_MAX) return INVALID_VALUE;
    {
        std::lock_guard<std::mutex> g(userLock);
        if (count > static_cast<UserObject*>(object)->refs) return INVALID_VALUE;
    }
    dropReferences(static_cast<UserObject*>(object), count);
    return OK;
}
/* flags 0: new references for the graph; CU_GRAPH_USER_OBJECT_MOVE (1): the caller's, handed over. */
CUresult cuGraphRetainUserObject(void* graph, void* object, unsigned count, unsigned flags) {
    if (graph == nullptr || object == nullptr || count == 0 || count > INT32_MAX || flags > 1) return INVALID_VALUE;
    UserObject* o = static_cast<UserObject*>(object);
    std::lock_guard<std::mutex> g(captureLock);
    static_cast<Graph*>(graph)->refs[o] += count;
    if (flags == 0) {
        std::lock_guard<std::mutex> h(userLock);
        o->refs += count;
    }
    return OK;
}

/* Tests: user objects created whose destroy callback has not yet run; the kernel nodes of a graph
 * (-1 for NULL); capture sequences begun and not yet ended (invalidated ones included). */
int jccl_fake_live_user_objects(void) { return liveUserObjects.load(); }
/* Direct kernels run so far, eager or replayed from a graph (each serves every rank of a GPU). */
long jccl_fake_direct_launches(void) { return directLaunches.load(); }
int jccl_fake_graph_kernel_nodes(void* graph) {
    if (graph == nullptr) return -1;
    std::lock_guard<std::mutex> g(captureLock);
    int n = 0;
    for (auto& op : static_cast<Graph*>(graph)->nodes) n += op->kernel ? 1 : 0;
    return n;
}
int jccl_fake_active_captures(void) {
    std::lock_guard<std::mutex> g(captureLock);
    return (int)captures.size();
}
}
