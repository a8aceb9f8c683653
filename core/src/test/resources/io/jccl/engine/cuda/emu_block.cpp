// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: the blocks of the host emulation (jccl_emulation.h). A launch runs every block at
 * once, one thread per CUDA thread; a block's threads share an emu_block (barriers, the warps'
 * exchange, __shared__ variables).
 */
#include "jccl_emulation.h"
#include "jccl_work.h"
#include "emu_block.h"
#include <functional>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

thread_local emu_dim3 threadIdx;
thread_local emu_dim3 blockIdx;
thread_local emu_dim3 blockDim;
thread_local emu_dim3 gridDim;
thread_local emu_block* emuBlock;
thread_local unsigned emuSharedCursor;

void __syncthreads() { pthread_barrier_wait(&emuBlock->barrier); }

static thread_local unsigned orPhase;

/* Every thread's predicate ORed at the barrier. The slot of this call is cleared by thread 0 after
 * the second barrier; the next call uses the other slot, and the one after finds this one cleared
 * (thread 0 clears it before it reaches that call's first barrier). */
int __syncthreads_or(int predicate) {
    int* slot = &emuBlock->orSlot[orPhase++ & 1];
    if (predicate) __atomic_store_n(slot, 1, __ATOMIC_RELAXED);
    pthread_barrier_wait(&emuBlock->barrier);
    int r = __atomic_load_n(slot, __ATOMIC_RELAXED);
    pthread_barrier_wait(&emuBlock->barrier);
    if (threadIdx.x == 0) __atomic_store_n(slot, 0, __ATOMIC_RELAXED);
    return r;
}

/* Seconds a thread may wait at a named barrier before the emulation aborts naming it
 * (JCCL_EMU_BARRIER_LIMIT_S; unset or 0: no limit). A GPU's barriers have no timeout: a team whose
 * threads take different paths around one waits for ever, and this turns that into a message. */
static unsigned barrierLimitSeconds() {
    static const unsigned limit = [] {
        const char* v = getenv("JCCL_EMU_BARRIER_LIMIT_S");
        return v == nullptr ? 0u : (unsigned)strtoul(v, nullptr, 10);
    }();
    return limit;
}

int emu_bar_red_or(unsigned id, unsigned count, int predicate) {
    if (id >= JCCL_EMU_NAMED_BARRIERS || count == 0 || count % 32 != 0 || count > blockDim.x) {
        fprintf(stderr, "emu_bar_red_or: barrier %u of %u threads in a block of %u\n", id, count, blockDim.x);
        abort();
    }
    emu_named& b = emuBlock->named[id];
    pthread_mutex_lock(&b.lock);
    if (predicate) b.any = 1;
    unsigned long generation = b.generation;
    if (++b.arrived == count) {
        b.result = b.any;
        b.any = 0;
        b.arrived = 0;
        b.generation++;
        pthread_cond_broadcast(&b.done);
    } else {
        unsigned limit = barrierLimitSeconds();
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += limit;
        while (b.generation == generation) {
            if (limit == 0) {
                pthread_cond_wait(&b.done, &b.lock);
            } else if (pthread_cond_timedwait(&b.done, &b.lock, &until) == ETIMEDOUT && b.generation == generation) {
                fprintf(stderr, "emu_bar_red_or: block %u thread %u waited %u s at barrier %u of %u threads; %u arrived\n",
                        blockIdx.x, threadIdx.x, limit, id, count, b.arrived);
                abort();
            }
        }
    }
    int r = b.result;
    pthread_mutex_unlock(&b.lock);
    return r;
}

static inline int warp() { return threadIdx.x / 32; }
static inline int lane() { return threadIdx.x & 31; }
static void warpSync() { pthread_barrier_wait(&emuBlock->warps[warp()]); }

int emu_shfl(int v, int src) {
    emuBlock->stage[warp()][lane()].v = v;
    warpSync();
    int r = emuBlock->stage[warp()][src & 31].v;
    warpSync();
    return r;
}

bool emu_all(bool v) {
    emuBlock->stage[warp()][lane()].v = v;
    warpSync();
    bool r = true;
    for (int i = 0; i < 32; i++) r = r && emuBlock->stage[warp()][i].v;
    warpSync();
    return r;
}

bool emu_any(bool v) {
    emuBlock->stage[warp()][lane()].v = v;
    warpSync();
    bool r = false;
    for (int i = 0; i < 32; i++) r = r || emuBlock->stage[warp()][i].v;
    warpSync();
    return r;
}

/* A line is written whole: the first thread of each group of eight stores the 15 data words, then
 * the flag word with release, which is what the GPU's single 128-byte transaction guarantees. */
void emu_store_line_part(void* p, uint64_t a, uint64_t b) {
    emu_part* s = emuBlock->stage[warp()];
    s[lane()].p = p;
    s[lane()].a = a;
    s[lane()].b = b;
    warpSync();
    if ((lane() & 7) == 0 && p != nullptr) {
        uint64_t* line = reinterpret_cast<uint64_t*>(p);
        for (int k = 0; k < 8; k++) {
            __atomic_store_n(&line[2 * k], s[lane() + k].a, __ATOMIC_RELAXED);
            if (k < 7) __atomic_store_n(&line[2 * k + 1], s[lane() + k].b, __ATOMIC_RELAXED);
        }
        __atomic_store_n(&line[15], s[lane() + 7].b, __ATOMIC_RELEASE);
    }
    warpSync();
}

/* A line is read whole: the flag first (acquire), then the data it guards. */
void emu_load_line_part(const void* p, uint64_t* a, uint64_t* b) {
    emu_part* s = emuBlock->stage[warp()];
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

namespace {
struct Gate {
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t open = PTHREAD_COND_INITIALIZER;
    int state = 0; /* 0 closed, 1 run, 2 give up (a thread could not be created) */
};

struct Thread {
    const std::function<void()>* body;
    emu_block* block;
    unsigned blockIndex, blocks, threads, t;
    Gate* gate;
};

void* run(void* x) {
    Thread* a = static_cast<Thread*>(x);
    pthread_mutex_lock(&a->gate->lock);
    while (a->gate->state == 0) pthread_cond_wait(&a->gate->open, &a->gate->lock);
    int state = a->gate->state;
    pthread_mutex_unlock(&a->gate->lock);
    if (state != 1) return nullptr;
    threadIdx = emu_dim3{a->t, 0, 0};
    blockIdx = emu_dim3{a->blockIndex, 0, 0};
    blockDim = emu_dim3{a->threads, 1, 1};
    gridDim = emu_dim3{a->blocks, 1, 1};
    emuBlock = a->block;
    emuSharedCursor = 0;
    orPhase = 0;
    (*a->body)();
    return nullptr;
}
}  // namespace

int emu_launch(emu_kernel k, const jccl_batch& batch, unsigned blocks, unsigned threads) {
    jccl_batch b = batch;
    return emu_run([k, b] { k(b); }, blocks, threads);
}

int emu_launch_direct(emu_direct_kernel k, const jccl_direct& direct, unsigned blocks, unsigned threads) {
    jccl_direct d = direct;
    return emu_run([k, d] { k(d); }, blocks, threads);
}

int emu_run(const std::function<void()>& body, unsigned blocks, unsigned threads) {
    if (threads % 32 != 0 || threads / 32 > JCCL_EMU_MAX_WARPS) return 2;
    std::vector<emu_block*> bs(blocks);
    std::vector<Thread> args((size_t)blocks * threads);
    std::vector<pthread_t> ts((size_t)blocks * threads);
    for (unsigned b = 0; b < blocks; b++) {
        bs[b] = new emu_block();
        pthread_barrier_init(&bs[b]->barrier, nullptr, threads);
        for (unsigned w = 0; w < threads / 32; w++) pthread_barrier_init(&bs[b]->warps[w], nullptr, 32);
    }
    int rc = 0;
    size_t started = 0;
    Gate gate;
    for (unsigned b = 0; b < blocks && rc == 0; b++) {
        for (unsigned t = 0; t < threads; t++) {
            size_t i = (size_t)b * threads + t;
            args[i] = Thread{&body, bs[b], b, blocks, threads, t, &gate};
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setstacksize(&attr, 256 * 1024);
            int e = pthread_create(&ts[i], &attr, run, &args[i]);
            pthread_attr_destroy(&attr);
            if (e != 0) {
                fprintf(stderr, "emu_launch: thread %zu of %u x %u not created: %s\n", i, blocks, threads, strerror(e));
                rc = 3;
                break;
            }
            started = i + 1;
        }
    }
    pthread_mutex_lock(&gate.lock);
    gate.state = rc == 0 ? 1 : 2;
    pthread_cond_broadcast(&gate.open);
    pthread_mutex_unlock(&gate.lock);
    for (size_t i = 0; i < started; i++) pthread_join(ts[i], nullptr);
    for (unsigned b = 0; b < blocks; b++) delete bs[b];
    return rc;
}
