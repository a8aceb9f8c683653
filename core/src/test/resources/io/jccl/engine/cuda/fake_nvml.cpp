// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: a fake NVML (libnvidia-ml's C API, the calls jccl's CudaGpuProbe makes) over the GPUs
 * fake_topology.h describes, loaded through jccl.nvml.lib. A GPU's links are numbered in the order
 * of its description (nvl=I:N gives N links to GPU I, nvs=N N links spread over 4 NVSwitches), each
 * active; links past them are disabled. Remote bus ids come as NVML writes them (an 8-digit domain,
 * upper case). jccl_fake_nvml_mode makes nvmlInit fail (1: as without a driver) or the remote
 * device type unknown (2), as an NVML that cannot tell.
 */
#include "fake_topology.h"
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <strings.h>

typedef int nvmlReturn_t;
static const nvmlReturn_t SUCCESS = 0, UNINITIALIZED = 1, INVALID_ARGUMENT = 2, NOT_FOUND = 6, DRIVER_NOT_LOADED = 9;
static const unsigned MAX_LINKS = 18; /* NVML_NVLINK_MAX_LINKS */

namespace {
int mode = 0;
int inits = 0;
/* A device handle is its index plus one, as an address. */
void* handleOf(int gpu) { return reinterpret_cast<void*>((uintptr_t)gpu + 1); }
int gpuOf(void* handle) { return (int)(reinterpret_cast<uintptr_t>(handle)) - 1; }

struct PciInfo { /* nvmlPciInfo_t */
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};

/* Link `link` of GPU g: its remote (-1 an NVSwitch, with which switch), or false past its links. */
bool remoteOf(const fake_topology::Topology& t, int g, unsigned link, int* remote, int* nvswitch) {
    unsigned at = 0;
    for (const fake_topology::Link& l : t.gpus[g].links) {
        for (int i = 0; i < l.count; i++, at++) {
            if (at == link) {
                *remote = l.gpu;
                *nvswitch = (int)(link % 4);
                return true;
            }
        }
    }
    return false;
}
}  // namespace

extern "C" {
void jccl_fake_nvml_mode(int m) { mode = m; }
void jccl_fake_set_topology(const char* spec) { fake_topology::set(spec); }

nvmlReturn_t nvmlInit_v2(void) {
    if (mode & 1) return DRIVER_NOT_LOADED;
    inits++;
    return SUCCESS;
}
nvmlReturn_t nvmlShutdown(void) {
    if (inits == 0) return UNINITIALIZED;
    inits--;
    return SUCCESS;
}
const char* nvmlErrorString(nvmlReturn_t r) { return r == SUCCESS ? "Success" : "fake NVML error"; }

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* id, void** device) {
    if (inits == 0) return UNINITIALIZED;
    if (id == nullptr || device == nullptr) return INVALID_ARGUMENT;
    unsigned d, b, v, f;
    if (sscanf(id, "%x:%x:%x.%x", &d, &b, &v, &f) != 4) return INVALID_ARGUMENT;
    fake_topology::Topology t = fake_topology::get();
    for (size_t g = 0; g < t.gpus.size(); g++) {
        unsigned d2, b2, v2, f2;
        sscanf(t.gpus[g].busId.c_str(), "%x:%x:%x.%x", &d2, &b2, &v2, &f2);
        if (d == d2 && b == b2 && v == v2 && f == f2) {
            *device = handleOf((int)g);
            return SUCCESS;
        }
    }
    return NOT_FOUND;
}
nvmlReturn_t nvmlDeviceGetNvLinkState(void* device, unsigned link, int* active) {
    if (inits == 0) return UNINITIALIZED;
    fake_topology::Topology t = fake_topology::get();
    int g = gpuOf(device);
    if (g < 0 || g >= (int)t.gpus.size() || link >= MAX_LINKS || active == nullptr) return INVALID_ARGUMENT;
    int remote, sw;
    *active = remoteOf(t, g, link, &remote, &sw) ? 1 : 0; /* NVML_FEATURE_ENABLED / DISABLED */
    return SUCCESS;
}
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(void* device, unsigned link, PciInfo* pci) {
    if (inits == 0) return UNINITIALIZED;
    fake_topology::Topology t = fake_topology::get();
    int g = gpuOf(device);
    int remote, sw;
    if (g < 0 || g >= (int)t.gpus.size() || link >= MAX_LINKS || pci == nullptr || !remoteOf(t, g, link, &remote, &sw)) {
        return INVALID_ARGUMENT;
    }
    unsigned d = 0, b = 0xe0 + sw, v = 0, f = 0;
    if (remote >= 0) sscanf(t.gpus[remote].busId.c_str(), "%x:%x:%x.%x", &d, &b, &v, &f);
    memset(pci, 0, sizeof *pci);
    pci->domain = d;
    pci->bus = b;
    pci->device = v;
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.%X", d, b, v, f);
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.%X", d, b, v, f);
    return SUCCESS;
}
nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(void* device, unsigned link, int* type) {
    if (inits == 0) return UNINITIALIZED;
    fake_topology::Topology t = fake_topology::get();
    int g = gpuOf(device);
    int remote, sw;
    if (g < 0 || g >= (int)t.gpus.size() || link >= MAX_LINKS || type == nullptr || !remoteOf(t, g, link, &remote, &sw)) {
        return INVALID_ARGUMENT;
    }
    *type = (mode & 2) ? 0xFF : remote >= 0 ? 0x00 : 0x02; /* UNKNOWN, GPU, SWITCH */
    return SUCCESS;
}
}
