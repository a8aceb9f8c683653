/*
 * Tests only: runs jccl's executor kernels on the host. Usage: emulator ARENA BASE BYTES LAUNCHES.
 * ARENA is a file mapped shared at address BASE (device memory: descriptors, FIFOs, buffers);
 * LAUNCHES lists "kernel blocks threads count work-address..." per line (a jccl_batch). Every block of every launch is a
 * process of its own (so __shared__ variables are per block) running one thread per CUDA thread;
 * all run at once, as the ranks' kernels do on a GPU. Exit status 0 when every block ended normally.
 */
#include "jccl_emulation.h"
#include "jccl_work.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

thread_local emu_dim3 threadIdx;
emu_dim3 blockIdx;
emu_dim3 blockDim;

static pthread_barrier_t blockBarrier;
static pthread_barrier_t warpBarrier[JCCL_MAX_THREADS / 32];
struct Part {
    const void* p;
    uint64_t a, b;
    int v;
};
static Part stage[JCCL_MAX_THREADS / 32][32];

void __syncthreads() { pthread_barrier_wait(&blockBarrier); }

static inline int warp() { return threadIdx.x / 32; }
static inline int lane() { return threadIdx.x & 31; }
static void warpSync() { pthread_barrier_wait(&warpBarrier[warp()]); }

int emu_shfl(int v, int src) {
    stage[warp()][lane()].v = v;
    warpSync();
    int r = stage[warp()][src & 31].v;
    warpSync();
    return r;
}

bool emu_all(bool v) {
    stage[warp()][lane()].v = v;
    warpSync();
    bool r = true;
    for (int i = 0; i < 32; i++) r = r && stage[warp()][i].v;
    warpSync();
    return r;
}

bool emu_any(bool v) {
    stage[warp()][lane()].v = v;
    warpSync();
    bool r = false;
    for (int i = 0; i < 32; i++) r = r || stage[warp()][i].v;
    warpSync();
    return r;
}

/* A line is written whole: the first thread of each group of eight stores the 15 data words, then
 * the flag word with release, which is what the GPU's single 128-byte transaction guarantees. */
void emu_store_line_part(void* p, uint64_t a, uint64_t b) {
    Part* s = stage[warp()];
    s[lane()].p = p;
    s[lane()].a = a;
    s[lane()].b = b;
    warpSync();
    if ((lane() & 7) == 0 && p != nullptr) {
        uint64_t* line = reinterpret_cast<uint64_t*>(p);
        for (int k = 0; k < 8; k++) {
            line[2 * k] = s[lane() + k].a;
            if (k < 7) line[2 * k + 1] = s[lane() + k].b;
        }
        __atomic_store_n(&line[15], s[lane() + 7].b, __ATOMIC_RELEASE);
    }
    warpSync();
}

/* A line is read whole: the flag first (acquire), then the data it guards. */
void emu_load_line_part(const void* p, uint64_t* a, uint64_t* b) {
    Part* s = stage[warp()];
    s[lane()].p = p;
    warpSync();
    if ((lane() & 7) == 0 && p != nullptr) {
        const uint64_t* line = reinterpret_cast<const uint64_t*>(p);
        uint64_t flag = __atomic_load_n(&line[15], __ATOMIC_ACQUIRE);
        for (int k = 0; k < 8; k++) {
            s[lane() + k].a = __atomic_load_n(&line[2 * k], __ATOMIC_RELAXED);
            s[lane() + k].b = k < 7 ? __atomic_load_n(&line[2 * k + 1], __ATOMIC_RELAXED) : flag;
        }
    }
    warpSync();
    if (p != nullptr) {
        *a = s[lane()].a;
        *b = s[lane()].b;
    }
    warpSync();
}

typedef void (*Kernel)(jccl_batch);
struct Args {
    Kernel k;
    jccl_batch b;
    unsigned t;
};

static void* thread(void* x) {
    Args* a = static_cast<Args*>(x);
    threadIdx = emu_dim3{a->t, 0, 0};
    a->k(a->b);
    return nullptr;
}

static int runBlock(Kernel k, const jccl_batch& w, unsigned block, unsigned threads) {
    blockIdx = emu_dim3{block, 0, 0};
    blockDim = emu_dim3{threads, 1, 1};
    pthread_barrier_init(&blockBarrier, nullptr, threads);
    for (unsigned i = 0; i < threads / 32; i++) pthread_barrier_init(&warpBarrier[i], nullptr, 32);
    std::vector<pthread_t> ts(threads);
    std::vector<Args> args(threads);
    for (unsigned t = 0; t < threads; t++) {
        args[t] = Args{k, w, t};
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 256 * 1024);
        if (pthread_create(&ts[t], &attr, thread, &args[t]) != 0) return 3;
    }
    for (unsigned t = 0; t < threads; t++) pthread_join(ts[t], nullptr);
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: emulator ARENA BASE BYTES LAUNCHES\n");
        return 2;
    }
    uint64_t base = strtoull(argv[2], nullptr, 0);
    uint64_t bytes = strtoull(argv[3], nullptr, 0);
    int fd = open(argv[1], O_RDWR);
    if (fd < 0) { perror("open"); return 2; }
    void* at = mmap(reinterpret_cast<void*>(base), bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
    if (at != reinterpret_cast<void*>(base)) { perror("mmap"); return 2; }
    FILE* f = fopen(argv[4], "r");
    if (f == nullptr) { perror("launches"); return 2; }
    char name[128];
    unsigned blocks, threads, count;
    std::vector<pid_t> pids;
    while (fscanf(f, "%127s %u %u %u", name, &blocks, &threads, &count) == 4) {
        Kernel k = reinterpret_cast<Kernel>(dlsym(RTLD_DEFAULT, name));
        if (k == nullptr || threads % 32 != 0 || threads > JCCL_MAX_THREADS || count > JCCL_MAX_BATCH) {
            fprintf(stderr, "bad launch %s %u %u %u\n", name, blocks, threads, count);
            return 2;
        }
        jccl_batch batch = {};
        batch.count = count;
        for (unsigned i = 0; i < count; i++) {
            unsigned long long w;
            if (fscanf(f, "%llx", &w) != 1) return 2;
            batch.works[i] = w;
        }
        for (unsigned b = 0; b < blocks; b++) {
            pid_t pid = fork();
            if (pid == 0) _exit(runBlock(k, batch, b, threads));
            pids.push_back(pid);
        }
    }
    int bad = 0;
    for (pid_t p : pids) {
        int st = 0;
        waitpid(p, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "block process %d ended with status %d\n", (int)p, st);
            bad = 1;
        }
    }
    return bad;
}
