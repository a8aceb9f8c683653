// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: runs jccl's executor kernels on the host. Usage: emulator ARENA BASE BYTES LAUNCHES.
 * ARENA is a file mapped shared at address BASE (device memory: descriptors, FIFOs, buffers);
 * LAUNCHES lists "kernel blocks threads count work-address..." per line (a jccl_batch). Every
 * launch runs at once, as the ranks' kernels do on a GPU, one thread per CUDA thread (emu_block.cpp).
 * Exit status 0 when every launch ended normally.
 */
#include "jccl_emulation.h"
#include "jccl_work.h"
#include "emu_block.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <thread>
#include <vector>

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
    struct Launch {
        emu_kernel k;
        jccl_batch batch;
        unsigned blocks, threads;
        int rc;
    };
    std::vector<Launch> launches;
    while (fscanf(f, "%127s %u %u %u", name, &blocks, &threads, &count) == 4) {
        emu_kernel k = reinterpret_cast<emu_kernel>(dlsym(RTLD_DEFAULT, name));
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
        launches.push_back(Launch{k, batch, blocks, threads, 0});
    }
    std::vector<std::thread> running;
    for (Launch& l : launches) {
        running.emplace_back([&l] { l.rc = emu_launch(l.k, l.batch, l.blocks, l.threads); });
    }
    int bad = 0;
    for (size_t i = 0; i < running.size(); i++) {
        running[i].join();
        if (launches[i].rc != 0) {
            fprintf(stderr, "launch %zu failed: %d\n", i, launches[i].rc);
            bad = 1;
        }
    }
    return bad;
}
