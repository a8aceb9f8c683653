// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: the GPUs of a made-up machine, shared by the fake CUDA driver (fake_cuda.cpp) and the
 * fake NVML (fake_nvml.cpp) so that both describe the same GPUs. The description is
 * JCCL_FAKE_TOPOLOGY, or what a test set with jccl_fake_set_topology (a JVM cannot change its own
 * environment), GPUs separated by ';', each
 *
 *     BUSID [sm=NN] [p2p=GROUP] [nvl=I:N]... [nvs=N]
 *
 * BUSID its PCI bus id as the driver writes it (0000:18:00.0); sm its compute capability (90 unless
 * given); nvl=I:N N NVLinks to GPU I (its index in the list; each GPU lists its own); nvs=N N
 * NVLinks to the NVSwitches (spread over 4 switches at 0000:e0:00.0 .. 0000:e3:00.0); p2p=GROUP:
 * peer access is supported between GPUs of the same group (0 unless given) and over NVLink.
 * Example, two pairs over PCI: "0000:18:00.0 p2p=0;0000:19:00.0 p2p=0;0000:3b:00.0 p2p=1;0000:3c:00.0 p2p=1".
 * An empty or absent description is no description (the fakes' defaults); a malformed one makes
 * every GPU query fail with INVALID_VALUE (the error is in jccl_fake_topology_error()).
 */
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace fake_topology {
struct Link {
    int gpu;   /* -1: an NVSwitch */
    int count;
};
struct Gpu {
    std::string busId;
    int sm = 90;
    int group = 0;
    std::vector<Link> links;
};
struct Topology {
    bool set = false;     /* false: no description, the fakes' defaults */
    std::string error;    /* not empty: malformed */
    std::vector<Gpu> gpus;
};

inline Topology parse(const char* spec) {
    Topology t;
    if (spec == nullptr || *spec == 0) return t;
    t.set = true;
    std::string s(spec);
    size_t start = 0;
    while (start <= s.size()) {
        size_t end = s.find(';', start);
        if (end == std::string::npos) end = s.size();
        std::string entry = s.substr(start, end - start);
        start = end + 1;
        Gpu g;
        size_t p = 0;
        while (p < entry.size()) {
            while (p < entry.size() && entry[p] == ' ') p++;
            size_t q = entry.find(' ', p);
            if (q == std::string::npos) q = entry.size();
            std::string w = entry.substr(p, q - p);
            p = q;
            if (w.empty()) continue;
            int a = 0, b = 0;
            char extra;
            if (g.busId.empty() && w.find('=') == std::string::npos) {
                unsigned d, bus, dev, fn;
                if (sscanf(w.c_str(), "%x:%x:%x.%x%c", &d, &bus, &dev, &fn, &extra) != 4) {
                    t.error = "bad bus id '" + w + "'";
                    return t;
                }
                g.busId = w;
            } else if (sscanf(w.c_str(), "sm=%d%c", &a, &extra) == 1 && a > 0) {
                g.sm = a;
            } else if (sscanf(w.c_str(), "p2p=%d%c", &a, &extra) == 1) {
                g.group = a;
            } else if (sscanf(w.c_str(), "nvl=%d:%d%c", &a, &b, &extra) == 2 && a >= 0 && b > 0) {
                g.links.push_back({a, b});
            } else if (sscanf(w.c_str(), "nvs=%d%c", &b, &extra) == 1 && b > 0) {
                g.links.push_back({-1, b});
            } else {
                t.error = "bad word '" + w + "'";
                return t;
            }
        }
        if (g.busId.empty()) {
            t.error = "a GPU without a bus id";
            return t;
        }
        t.gpus.push_back(g);
        if (end == s.size()) break;
    }
    for (const Gpu& g : t.gpus) {
        for (const Link& l : g.links) {
            if (l.gpu >= (int)t.gpus.size()) {
                t.error = "an NVLink to GPU " + std::to_string(l.gpu) + " of " + std::to_string(t.gpus.size());
                return t;
            }
        }
    }
    return t;
}

inline std::mutex& lock() {
    static std::mutex m;
    return m;
}
inline Topology& current() {
    static Topology t = parse(getenv("JCCL_FAKE_TOPOLOGY"));
    return t;
}
/* A copy, so that a test changing the description does not pull it from under a query. */
inline Topology get() {
    std::lock_guard<std::mutex> g(lock());
    return current();
}
inline void set(const char* spec) {
    std::lock_guard<std::mutex> g(lock());
    current() = parse(spec);
}
/* NVLinks between GPUs a and b: direct ones, or both on the NVSwitches. */
inline bool nvlinked(const Topology& t, int a, int b) {
    bool sa = false, sb = false;
    for (const Link& l : t.gpus[a].links) {
        if (l.gpu == b) return true;
        sa |= l.gpu < 0;
    }
    for (const Link& l : t.gpus[b].links) {
        if (l.gpu == a) return true;
        sb |= l.gpu < 0;
    }
    return sa && sb;
}
}  // namespace fake_topology
