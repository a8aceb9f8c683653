// SPDX-License-Identifier: Apache-2.0
/*
 * Tests only: a fake libibverbs (the calls jccl binds, with verbs.h's ABI), so that the RDMA path
 * runs without an RDMA NIC, through the same bindings and the same inline verbs (post_send,
 * post_recv, poll_cq, req_notify_cq go through the context's ops table; query_port through the
 * extended context's). It replaces libibverbs.so.1 wholly: tests load it through jccl.ibverbs.lib.
 *
 * Devices: JCCL_FAKE_IB_DEVICES, "name:ports[:ib|:eth],..." ("fake_ib0:1" unless set, at most 8
 * devices of 2 ports). Every port is ACTIVE. An InfiniBand port has a LID (16 * (device + 1) +
 * port) and GID 0 fe80::GUID; an Ethernet (RoCE v2) port has LID 0 and GIDs 0/1 fe80::..., 2/3
 * ::ffff:127.0.0.1 (types RoCE v1/v2 alternately, _ibv_query_gid_ex tells them).
 *
 * Only RC queue pairs, without SRQs, atomics, memory windows, dma-buf registration or address
 * handles; a process has at most 256 QPs of 1024 WRs and 4 SGEs (256 bytes inline), 64 CQs of
 * 4096 entries and 1024 MRs (query_device reports these). Each send queue runs and completes in
 * order; a signaled completion holds its send-queue slot until polled. QPs follow the state
 * machine RESET → INIT → RTR → RTS, any → ERR or RESET, and a transition refuses (EINVAL) a mask
 * without its required attributes or with ones it does not take.
 *
 * Processes of one host talk without the network, so that the fake also works across network
 * namespaces. Each process has a file /dev/shm/jccl-fake-ib-PID (its QPs' receive queues and
 * addresses, its CQs, its MR table) guarded by a robust process-shared mutex. The requester plays
 * the NIC of both ends: it finds the responder's QP by qp_num (unique on the host) and checks its
 * address (LID or GID) against the AV, checks rkey, bounds and access in the responder's MR table,
 * moves the bytes with process_vm_writev / process_vm_readv, consumes the responder's posted
 * receive and writes its completion into the responder's CQ. An rkey must name an MR of the
 * responder's QP's PD, registered now, with the access asked (the QP's too), covering the range;
 * else the requester gets REM_ACCESS_ERR and the responder's QP goes to ERR, a write with
 * immediate data's receive completing in LOC_ACCESS_ERR, the rest flushing. A responder without a posted
 * receive is RNR: retried for rnr_retry × min_rnr_timer (7: forever), then RNR_RETRY_EXC_ERR.
 * A responder that cannot be reached (process gone, QP destroyed or not RTR, another address) is
 * retried for timeout × (retry_cnt + 1), at most JCCL_FAKE_IB_RETRY_CAP_MS (2000 ms unless set),
 * then RETRY_EXC_ERR. An error completion moves the QP to ERR; what is queued behind flushes.
 * Progress is made in post_send, poll_cq, modify_qp, query_qp and ibv_get_cq_event: a requester
 * that never polls sends nothing it could not send at once. A child of fork has none of its
 * parent's objects. A completion channel's fd is never readable:
 * ibv_get_cq_event waits by polling.
 *
 * Hooks for tests: jccl_fake_ib_live("context" | "pd" | "mr" | "cq" | "qp" | "channel"),
 * jccl_fake_ib_rdma_bytes (bytes this process moved as requester), jccl_fake_ib_reset,
 * jccl_fake_ib_watch(addr, len) and jccl_fake_ib_watched_bytes (bytes this process's RDMA writes
 * and sends took from that range since the watch began: what went zero-copy out of a user buffer).
 */
#include <infiniband/verbs.h>
/* verbs.h wraps these in inline functions; the library exports the plain symbols. */
#undef ibv_query_port
#undef ibv_reg_mr
#undef ibv_reg_mr_iova

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr int MAX_DEVICES = 8, MAX_PORTS = 2, GIDS = 4;
constexpr int MAX_QPS = 256, MAX_CQS = 64, MAX_MRS = 1024, MAX_WR = 1024, MAX_SGE = 4, MAX_CQE = 4096;
constexpr int MAX_INLINE = 256, MAX_RD_ATOMIC = 16;
constexpr uint64_t MAGIC = 0x6a63636c2d696231ULL; /* "jccl-ib1" */
const char* const SHM_DIR = "/dev/shm";
const char* const SHM_PREFIX = "jccl-fake-ib-";

// ---- what lies in shared memory: read and written by other processes ----

struct SharedRecv {
    uint64_t wr_id;
    uint32_t num_sge;
    uint32_t pad;
    ibv_sge sge[MAX_SGE];
};

struct SharedQp {
    uint32_t used, qp_num, state, dest_qp_num;
    uint32_t pd_id, access, min_rnr_timer;
    int32_t recv_cq;
    uint16_t lid;
    uint8_t link_layer, port;
    uint32_t rq_cap;
    uint8_t gid[GIDS][16];
    uint64_t rq_head, rq_tail;
    SharedRecv rq[MAX_WR];
};

struct SharedCq {
    uint32_t used, cap, overrun, armed;
    uint32_t events; /* completion events not yet taken by ibv_get_cq_event */
    uint32_t pad;
    uint64_t head, tail;
    ibv_wc wc[MAX_CQE];
};

struct SharedMr {
    uint32_t used, lkey, rkey, access, pd_id, pad;
    uint64_t addr, iova, length;
};

struct SharedFile {
    std::atomic<uint64_t> magic; /* set last: the file is ready */
    uint64_t start_time;         /* of the owner, so that a reused pid is not taken for it */
    int32_t pid, pad;
    pthread_mutex_t lock;
    SharedQp qps[MAX_QPS];
    SharedCq cqs[MAX_CQS];
    SharedMr mrs[MAX_MRS];
};

/* The file's robust mutex: a holder that died leaves it consistent enough (every update under
 * it is a few stores), so it is marked consistent and taken. */
struct FileLock {
    pthread_mutex_t* m;
    explicit FileLock(SharedFile* f) : m(&f->lock) {
        if (pthread_mutex_lock(m) == EOWNERDEAD) pthread_mutex_consistent(m);
    }
    ~FileLock() { pthread_mutex_unlock(m); }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
};

// ---- this process's objects ----

struct Port {
    uint8_t link_layer;
    uint16_t lid;
    ibv_mtu active_mtu;
    uint8_t gid[GIDS][16];
};

struct Device {
    ibv_device dev; /* first: the list hands out its address */
    int index;
    int nports;
    uint64_t guid; /* host order */
    Port ports[MAX_PORTS];
};

struct Context {
    verbs_context vctx; /* first: ibv_context is its last member */
    Device* device;
};

struct Pd {
    ibv_pd pd;
    uint32_t id;
    int users; /* MRs and QPs */
};

struct Mr {
    ibv_mr mr;
    int slot;
    Pd* pd;
};

struct Channel {
    ibv_comp_channel ch;
    int cqs;
};

struct Cq {
    ibv_cq cq;
    int slot;
    int qps;
};

struct SendWr {
    uint64_t wr_id;
    ibv_wr_opcode opcode;
    unsigned flags;
    std::vector<ibv_sge> sge;
    std::vector<char> inl; /* IBV_SEND_INLINE: the bytes, copied at post time */
    uint64_t raddr;
    uint32_t rkey, imm, len;
    int64_t unreachable_since = -1, rnr_since = -1;
};

struct Qp {
    ibv_qp qp;
    int slot;
    Pd* pd;
    Cq* scq;
    Cq* rcq;
    ibv_qp_cap cap;
    int sq_sig_all;
    ibv_qp_attr attr; /* what modify_qp set, for query_qp and the requester */
    std::deque<SendWr> sq; /* posted, not yet completed (in order) */
    int unpolled;          /* completions in the send CQ not yet polled: they hold SQ slots */
};

std::recursive_mutex lock; /* this process's objects; taken before any file lock */
SharedFile* self = nullptr;
std::string selfPath;
std::map<uint32_t, Qp*> qps; /* qp_num -> QP of this process */
std::vector<Cq*> cqs;
std::atomic<int> liveContexts{0}, livePds{0}, liveMrs{0}, liveCqs{0}, liveQps{0}, liveChannels{0};
std::atomic<long long> rdmaBytes{0};
std::atomic<uint64_t> watchStart{0}, watchEnd{0};
std::atomic<long long> watchedBytes{0};

/* Bytes of the requester's local iovecs that lie in the watched range. */
long long watched(const std::vector<iovec>& local) {
    uint64_t s = watchStart.load(), e = watchEnd.load();
    long long n = 0;
    for (const iovec& v : local) {
        uint64_t a = (uint64_t)v.iov_base, b = a + v.iov_len;
        if (b > s && a < e) n += (long long)(std::min(b, e) - std::max(a, s));
    }
    return n;
}
uint32_t nextPdId = 1;

int64_t nowNs() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

uint32_t random32() {
    uint32_t v = 0;
    while (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
    }
    return v;
}

/* The start time of process pid (field 22 of /proc/PID/stat), 0 if it is gone. */
uint64_t startTime(int pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    char* p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (p == nullptr) return 0;
    int field = 2;
    for (; *p && field < 22; p++) {
        if (*p == ' ') field++;
    }
    return strtoull(p, nullptr, 10);
}

bool alive(int pid) { return kill(pid, 0) == 0 || errno == EPERM; }

// ---- devices ----

std::vector<Device*>& devices() {
    static std::vector<Device*> list = [] {
        std::vector<Device*> out;
        const char* env = getenv("JCCL_FAKE_IB_DEVICES");
        std::string spec = env != nullptr && *env ? env : "fake_ib0:1";
        size_t start = 0;
        while (start <= spec.size() && (int)out.size() < MAX_DEVICES) {
            size_t end = spec.find(',', start);
            std::string item = spec.substr(start, end == std::string::npos ? std::string::npos : end - start);
            start = end == std::string::npos ? spec.size() + 1 : end + 1;
            if (item.empty()) continue;
            std::vector<std::string> parts;
            for (size_t s = 0;;) {
                size_t e = item.find(':', s);
                parts.push_back(item.substr(s, e == std::string::npos ? std::string::npos : e - s));
                if (e == std::string::npos) break;
                s = e + 1;
            }
            Device* d = new Device();
            d->index = (int)out.size();
            d->nports = parts.size() > 1 ? atoi(parts[1].c_str()) : 1;
            d->nports = d->nports < 1 ? 1 : d->nports > MAX_PORTS ? MAX_PORTS : d->nports;
            bool eth = parts.size() > 2 && parts[2] == "eth";
            d->guid = 0x0002fa4e00000000ULL | ((uint64_t)(d->index + 1) << 8);
            d->dev.node_type = IBV_NODE_CA;
            d->dev.transport_type = IBV_TRANSPORT_IB;
            snprintf(d->dev.name, sizeof d->dev.name, "%s", parts[0].c_str());
            snprintf(d->dev.dev_name, sizeof d->dev.dev_name, "uverbs%d", d->index);
            snprintf(d->dev.dev_path, sizeof d->dev.dev_path, "/sys/class/infiniband_verbs/uverbs%d", d->index);
            snprintf(d->dev.ibdev_path, sizeof d->dev.ibdev_path, "/sys/class/infiniband/%s", d->dev.name);
            for (int p = 0; p < d->nports; p++) {
                Port& port = d->ports[p];
                uint64_t portGuid = d->guid + p + 1;
                port.link_layer = eth ? IBV_LINK_LAYER_ETHERNET : IBV_LINK_LAYER_INFINIBAND;
                port.lid = eth ? 0 : (uint16_t)(16 * (d->index + 1) + p + 1);
                port.active_mtu = eth ? IBV_MTU_1024 : IBV_MTU_4096; /* RoCE under a 1500-byte Ethernet MTU */
                uint8_t local[16] = {0xfe, 0x80};
                for (int i = 0; i < 8; i++) local[8 + i] = (uint8_t)(portGuid >> (56 - 8 * i));
                memcpy(port.gid[0], local, 16);
                if (eth) {
                    uint8_t v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1};
                    memcpy(port.gid[1], local, 16);
                    memcpy(port.gid[2], v4, 16);
                    memcpy(port.gid[3], v4, 16);
                }
            }
            out.push_back(d);
        }
        return out;
    }();
    return list;
}

int gidCount(const Port& p) { return p.link_layer == IBV_LINK_LAYER_ETHERNET ? 4 : 1; }

Context* contextOf(ibv_context* c) {
    return reinterpret_cast<Context*>(reinterpret_cast<char*>(c) - offsetof(verbs_context, context));
}

// ---- the shared files ----

std::string pathOf(int pid) { return std::string(SHM_DIR) + "/" + SHM_PREFIX + std::to_string(pid); }

/* Creates this process's file (a stale one of a dead process with the same pid goes first). */
bool createSelf() {
    selfPath = pathOf(getpid());
    unlink(selfPath.c_str());
    int fd = open(selfPath.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    if (ftruncate(fd, sizeof(SharedFile)) != 0) {
        close(fd);
        unlink(selfPath.c_str());
        return false;
    }
    void* p = mmap(nullptr, sizeof(SharedFile), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        unlink(selfPath.c_str());
        return false;
    }
    SharedFile* f = static_cast<SharedFile*>(p); /* a new file reads as zeros */
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&f->lock, &a);
    pthread_mutexattr_destroy(&a);
    f->pid = getpid();
    f->start_time = startTime(getpid());
    f->magic.store(MAGIC, std::memory_order_release);
    self = f;
    return true;
}

void removeSelf() {
    if (self == nullptr) return;
    unlink(selfPath.c_str());
    munmap(self, sizeof(SharedFile));
    self = nullptr;
}

__attribute__((destructor)) void removeSelfAtExit() {
    if (self != nullptr && self->pid == getpid()) unlink(selfPath.c_str());
}

/* A child of fork has none of its parent's verbs objects (as with a NIC): its own file comes at
 * its first ibv_open_device. */
void forgetParent() {
    self = nullptr;
    qps.clear();
    cqs.clear();
    liveContexts = livePds = liveMrs = liveCqs = liveQps = liveChannels = 0;
    rdmaBytes = 0;
}
__attribute__((constructor)) void watchForks() { pthread_atfork(nullptr, nullptr, forgetParent); }

struct PeerFile {
    SharedFile* file;
    uint64_t start;
};
std::map<int, PeerFile> peerFiles; /* pid -> its file, mapped; never this process's */
int64_t lastScan = 0;

SharedFile* mapPeer(int pid) {
    auto it = peerFiles.find(pid);
    if (it != peerFiles.end()) return it->second.file;
    int fd = open(pathOf(pid).c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return nullptr;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(SharedFile)) {
        close(fd);
        return nullptr;
    }
    void* p = mmap(nullptr, sizeof(SharedFile), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return nullptr;
    SharedFile* f = static_cast<SharedFile*>(p);
    if (f->magic.load(std::memory_order_acquire) != MAGIC) { /* still being made */
        munmap(p, sizeof(SharedFile));
        return nullptr;
    }
    peerFiles[pid] = {f, f->start_time};
    return f;
}

void forgetPeer(int pid) {
    auto it = peerFiles.find(pid);
    if (it == peerFiles.end()) return;
    munmap(it->second.file, sizeof(SharedFile));
    peerFiles.erase(it);
}

/* Maps the files of live processes not mapped yet, and removes those of dead ones (stale files:
 * a process killed before it could remove its own). */
void scanPeers() {
    for (auto it = peerFiles.begin(); it != peerFiles.end();) {
        int pid = (it++)->first;
        if (!alive(pid)) forgetPeer(pid);
    }
    DIR* d = opendir(SHM_DIR);
    if (d == nullptr) return;
    size_t prefix = strlen(SHM_PREFIX);
    while (dirent* e = readdir(d)) {
        if (strncmp(e->d_name, SHM_PREFIX, prefix) != 0) continue;
        char* end;
        long pid = strtol(e->d_name + prefix, &end, 10);
        if (*end != 0 || pid <= 0 || pid == getpid()) continue;
        if (!alive((int)pid)) {
            forgetPeer((int)pid);
            unlink(pathOf((int)pid).c_str());
            continue;
        }
        SharedFile* f = mapPeer((int)pid);
        if (f != nullptr && f->start_time != startTime((int)pid)) { /* the pid was reused */
            forgetPeer((int)pid);
            unlink(pathOf((int)pid).c_str());
        }
    }
    closedir(d);
}

/* A host-wide lock (flock of /dev/shm) under which a new QP number is chosen and published. */
struct HostLock {
    int fd;
    HostLock() : fd(open(SHM_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
        if (fd >= 0) flock(fd, LOCK_EX);
    }
    ~HostLock() {
        if (fd >= 0) close(fd);
    }
    HostLock(const HostLock&) = delete;
    HostLock& operator=(const HostLock&) = delete;
};

bool qpNumTaken(uint32_t n) {
    if (qps.count(n)) return true;
    for (auto& [pid, pf] : peerFiles) {
        for (const SharedQp& q : pf.file->qps) {
            if (q.used && q.qp_num == n) return true;
        }
    }
    return false;
}

// ---- completions ----

/* Adds a completion to CQ slot cq of file f; the caller holds f's lock. A full CQ overruns. */
void pushWc(SharedFile* f, int cq, const ibv_wc& wc) {
    SharedCq& c = f->cqs[cq];
    if (!c.used) return;
    if (c.tail - c.head >= c.cap) {
        c.overrun = 1;
        return;
    }
    c.wc[c.tail % c.cap] = wc;
    c.tail++;
    if (c.armed) {
        c.armed = 0;
        c.events++;
    }
}

ibv_wc_opcode wcOpcode(ibv_wr_opcode op) {
    switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_WC_RDMA_WRITE;
    case IBV_WR_RDMA_READ: return IBV_WC_RDMA_READ;
    default: return IBV_WC_SEND;
    }
}

/* The requester's completion of wr, in its send CQ (own file). */
void completeSend(Qp* q, const SendWr& w, ibv_wc_status status) {
    if (status == IBV_WC_SUCCESS && !(w.flags & IBV_SEND_SIGNALED) && !q->sq_sig_all) return;
    ibv_wc wc{};
    wc.wr_id = w.wr_id;
    wc.status = status;
    wc.opcode = wcOpcode(w.opcode);
    wc.byte_len = w.opcode == IBV_WR_RDMA_READ ? w.len : 0;
    wc.qp_num = q->qp.qp_num;
    FileLock g(self);
    pushWc(self, q->scq->slot, wc);
    q->unpolled++;
}

/* Flushes the receive queue of shared QP d (file f, locked): each receive completes in error. */
void flushRecvs(SharedFile* f, SharedQp& d) {
    for (; d.rq_head < d.rq_tail; d.rq_head++) {
        ibv_wc wc{};
        wc.wr_id = d.rq[d.rq_head % d.rq_cap].wr_id;
        wc.status = IBV_WC_WR_FLUSH_ERR;
        wc.opcode = IBV_WC_RECV;
        wc.qp_num = d.qp_num;
        pushWc(f, d.recv_cq, wc);
    }
}

/* Moves q to ERR: what its send queue holds flushes, and so does its receive queue. */
void enterError(Qp* q) {
    q->qp.state = IBV_QPS_ERR;
    q->attr.qp_state = IBV_QPS_ERR;
    while (!q->sq.empty()) {
        completeSend(q, q->sq.front(), IBV_WC_WR_FLUSH_ERR);
        q->sq.pop_front();
    }
    FileLock g(self);
    SharedQp& d = self->qps[q->slot];
    d.state = IBV_QPS_ERR;
    flushRecvs(self, d);
}

// ---- the requester ----

struct Target {
    int pid;
    SharedFile* file;
    int slot;
};

/* Whether shared QP d sits at the address q's AV names (its LID, or a GID of its port). */
bool addressMatches(const Qp* q, const SharedQp& d) {
    const ibv_ah_attr& ah = q->attr.ah_attr;
    Device* dev = contextOf(q->qp.context)->device;
    if (d.link_layer != dev->ports[q->attr.port_num - 1].link_layer) return false;
    if (d.link_layer == IBV_LINK_LAYER_INFINIBAND) return ah.dlid == d.lid;
    for (int i = 0; i < GIDS; i++) {
        if (memcmp(d.gid[i], ah.grh.dgid.raw, 16) == 0) return true;
    }
    return false;
}

std::map<uint32_t, Target> found; /* qp_num -> where it was last found */

/* Finds the QP numbered dest_qp_num on the host; looks at new processes' files at most every ms. */
bool findQp(uint32_t qpn, Target& t) {
    auto look = [&](int pid, SharedFile* f) {
        for (int i = 0; i < MAX_QPS; i++) {
            if (f->qps[i].used && f->qps[i].qp_num == qpn) {
                t = {pid, f, i};
                found[qpn] = t;
                return true;
            }
        }
        return false;
    };
    auto it = found.find(qpn);
    if (it != found.end()) {
        Target c = it->second;
        bool mapped = c.pid == getpid() ? c.file == self : peerFiles.count(c.pid) && peerFiles[c.pid].file == c.file;
        if (mapped && c.file->qps[c.slot].used && c.file->qps[c.slot].qp_num == qpn) {
            t = c;
            return true;
        }
        found.erase(it);
    }
    if (look(getpid(), self)) return true;
    for (auto& [pid, pf] : peerFiles) {
        if (look(pid, pf.file)) return true;
    }
    int64_t now = nowNs();
    if (now - lastScan < 1000000) return false;
    lastScan = now;
    scanPeers();
    for (auto& [pid, pf] : peerFiles) {
        if (look(pid, pf.file)) return true;
    }
    return false;
}

const SharedMr* findMr(SharedFile* f, bool byRkey, uint32_t key, uint32_t pd) {
    for (const SharedMr& m : f->mrs) {
        if (m.used && (byRkey ? m.rkey : m.lkey) == key && m.pd_id == pd) return &m;
    }
    return nullptr;
}

/* The process address of [addr, addr + len) in MR m (addresses are the MR's I/O virtual ones), or 0. */
uint64_t within(const SharedMr* m, uint64_t addr, uint64_t len) {
    if (m == nullptr || addr < m->iova || len > m->length || addr - m->iova > m->length - len) return 0;
    return m->addr + (addr - m->iova);
}

/* The local side of wr as iovecs, each SGE checked against this process's MRs; false: LOC_PROT_ERR. */
bool localIovs(Qp* q, const SendWr& w, bool write, std::vector<iovec>& out) {
    if (!w.inl.empty() || (w.flags & IBV_SEND_INLINE)) {
        if (!w.inl.empty()) out.push_back({const_cast<char*>(w.inl.data()), w.inl.size()});
        return true;
    }
    for (const ibv_sge& s : w.sge) {
        if (s.length == 0) continue;
        const SharedMr* m = findMr(self, false, s.lkey, q->pd->id);
        uint64_t a = within(m, s.addr, s.length);
        if (a == 0 || (write && !(m->access & IBV_ACCESS_LOCAL_WRITE))) return false;
        out.push_back({(void*)a, s.length});
    }
    return true;
}

/* Copies between local and remote iovecs (equal totals) of process pid; 0, or errno. */
int transfer(int pid, std::vector<iovec>& local, std::vector<iovec>& remote, bool write) {
    size_t total = 0;
    for (const iovec& v : local) total += v.iov_len;
    if (total == 0) return 0;
    if (pid == getpid()) {
        size_t li = 0, lo = 0, ri = 0, ro = 0;
        while (li < local.size() && ri < remote.size()) {
            size_t n = std::min(local[li].iov_len - lo, remote[ri].iov_len - ro);
            char* l = static_cast<char*>(local[li].iov_base) + lo;
            char* r = static_cast<char*>(remote[ri].iov_base) + ro;
            if (write) memmove(r, l, n);
            else memmove(l, r, n);
            lo += n;
            ro += n;
            if (lo == local[li].iov_len) li++, lo = 0;
            if (ro == remote[ri].iov_len) ri++, ro = 0;
        }
        return 0;
    }
    ssize_t n = write ? process_vm_writev(pid, local.data(), local.size(), remote.data(), remote.size(), 0)
                      : process_vm_readv(pid, local.data(), local.size(), remote.data(), remote.size(), 0);
    if (n < 0) return errno;
    return (size_t)n == total ? 0 : EFAULT;
}

constexpr int WAIT = -1;

/* Nanoseconds of the RNR timer encoding t (IBA: 0 is 655.36 ms, then 0.01 ms up to 491.52 ms). */
int64_t rnrTimerNs(uint32_t t) {
    static const int us[32] = {655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
        2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};
    return (int64_t)us[t & 31] * 1000;
}

int64_t retryCapNs() {
    static const int64_t cap = [] {
        const char* v = getenv("JCCL_FAKE_IB_RETRY_CAP_MS");
        long ms = v != nullptr ? atol(v) : 2000;
        return (int64_t)(ms < 1 ? 1 : ms) * 1000000;
    }();
    return cap;
}

/* The responder cannot be reached now: wait, retried, for timeout × (retry_cnt + 1). */
int unreachable(Qp* q, SendWr& w, int64_t now) {
    if (w.unreachable_since < 0) w.unreachable_since = now;
    int64_t per = q->attr.timeout == 0 ? retryCapNs() : (int64_t)(4096LL << q->attr.timeout);
    int64_t budget = std::min(retryCapNs(), per * (q->attr.retry_cnt + 1));
    return now - w.unreachable_since >= budget ? IBV_WC_RETRY_EXC_ERR : WAIT;
}

int rnr(Qp* q, SendWr& w, const SharedQp& d, int64_t now) {
    if (w.rnr_since < 0) w.rnr_since = now;
    if (q->attr.rnr_retry == 7) return WAIT; /* 7: retried forever */
    return now - w.rnr_since >= q->attr.rnr_retry * rnrTimerNs(d.min_rnr_timer) ? IBV_WC_RNR_RETRY_EXC_ERR : WAIT;
}

/* A completion in the responder's receive CQ; d's file is locked. */
void completeRecv(SharedFile* f, SharedQp& d, uint64_t wrId, ibv_wc_status status, ibv_wc_opcode op, uint32_t len,
                  const SendWr& w, const Qp* from) {
    ibv_wc wc{};
    wc.wr_id = wrId;
    wc.status = status;
    wc.opcode = op;
    wc.byte_len = len;
    wc.qp_num = d.qp_num;
    wc.src_qp = from->qp.qp_num;
    wc.slid = contextOf(from->qp.context)->device->ports[from->attr.port_num - 1].lid;
    if (status == IBV_WC_SUCCESS && (w.opcode == IBV_WR_RDMA_WRITE_WITH_IMM || w.opcode == IBV_WR_SEND_WITH_IMM)) {
        wc.imm_data = w.imm;
        wc.wc_flags = IBV_WC_WITH_IMM;
    }
    pushWc(f, d.recv_cq, wc);
}

/* The responder fails a receive: its completion, and its QP in ERR (what it has posted flushes). */
void responderError(SharedFile* f, SharedQp& d, ibv_wc_status status, const SendWr& w, const Qp* from) {
    uint64_t wrId = d.rq[d.rq_head % d.rq_cap].wr_id;
    d.rq_head++;
    completeRecv(f, d, wrId, status, IBV_WC_RECV, 0, w, from);
    d.state = IBV_QPS_ERR;
    flushRecvs(f, d);
}

/* An RDMA request the responder refuses (rkey of no MR of its QP's PD, range outside the MR,
 * access not granted): as a NIC's responder (IBA class C: NAK remote access error), its QP goes
 * to ERR; a write with immediate data had taken a receive, which completes in error (local access
 * error, as ibv_poll_cq(3) says), and what else it had posted flushes. */
void remoteAccessError(SharedFile* f, SharedQp& d, const SendWr& w, const Qp* from) {
    if (w.opcode == IBV_WR_RDMA_WRITE_WITH_IMM && d.rq_head < d.rq_tail) {
        responderError(f, d, IBV_WC_LOC_ACCESS_ERR, w, from);
        return;
    }
    d.state = IBV_QPS_ERR;
    flushRecvs(f, d);
}

/* Carries out wr: a completion status, or WAIT (responder not ready: retried later). */
int execute(Qp* q, SendWr& w) {
    int64_t now = nowNs();
    bool read = w.opcode == IBV_WR_RDMA_READ;
    std::vector<iovec> local;
    if (!localIovs(q, w, read, local)) return IBV_WC_LOC_PROT_ERR;
    Target t;
    if (!findQp(q->attr.dest_qp_num, t)) return unreachable(q, w, now);
    if (!alive(t.pid)) { /* killed: its file is stale */
        forgetPeer(t.pid);
        unlink(pathOf(t.pid).c_str());
        return unreachable(q, w, now);
    }
    FileLock g(t.file);
    SharedQp& d = t.file->qps[t.slot];
    if (!d.used || d.qp_num != q->attr.dest_qp_num || (d.state != IBV_QPS_RTR && d.state != IBV_QPS_RTS)
        || d.dest_qp_num != q->qp.qp_num || !addressMatches(q, d)) {
        return unreachable(q, w, now);
    }
    w.unreachable_since = -1;
    bool imm = w.opcode == IBV_WR_RDMA_WRITE_WITH_IMM || w.opcode == IBV_WR_SEND_WITH_IMM;
    bool send = w.opcode == IBV_WR_SEND || w.opcode == IBV_WR_SEND_WITH_IMM;
    if ((imm || send) && d.rq_head == d.rq_tail) return rnr(q, w, d, now);
    std::vector<iovec> remote;
    if (send) {
        SharedRecv& r = d.rq[d.rq_head % d.rq_cap];
        uint64_t room = 0;
        for (uint32_t i = 0; i < r.num_sge; i++) room += r.sge[i].length;
        if (room < w.len) {
            responderError(t.file, d, IBV_WC_LOC_LEN_ERR, w, q);
            return IBV_WC_REM_INV_REQ_ERR;
        }
        uint64_t left = w.len;
        for (uint32_t i = 0; i < r.num_sge && left > 0; i++) {
            uint64_t n = std::min<uint64_t>(left, r.sge[i].length);
            const SharedMr* m = findMr(t.file, false, r.sge[i].lkey, d.pd_id);
            uint64_t a = within(m, r.sge[i].addr, n);
            if (a == 0 || !(m->access & IBV_ACCESS_LOCAL_WRITE)) {
                responderError(t.file, d, IBV_WC_LOC_PROT_ERR, w, q);
                return IBV_WC_REM_OP_ERR;
            }
            remote.push_back({(void*)a, n});
            left -= n;
        }
    } else {
        unsigned need = read ? IBV_ACCESS_REMOTE_READ : IBV_ACCESS_REMOTE_WRITE;
        const SharedMr* m = findMr(t.file, true, w.rkey, d.pd_id);
        uint64_t a = w.len == 0 ? 1 : within(m, w.raddr, w.len);
        if (!(d.access & need) || (w.len > 0 && (a == 0 || !(m->access & need)))) {
            remoteAccessError(t.file, d, w, q);
            return IBV_WC_REM_ACCESS_ERR;
        }
        if (w.len > 0) remote.push_back({(void*)a, w.len});
    }
    int err = transfer(t.pid, local, remote, !read);
    if (err == ESRCH) return unreachable(q, w, now);
    if (err != 0) {
        if (send) return IBV_WC_REM_OP_ERR;
        remoteAccessError(t.file, d, w, q);
        return IBV_WC_REM_ACCESS_ERR;
    }
    rdmaBytes += w.len;
    if (!read) watchedBytes += watched(local);
    if (imm || send) {
        uint64_t wrId = d.rq[d.rq_head % d.rq_cap].wr_id;
        d.rq_head++;
        completeRecv(t.file, d, wrId, IBV_WC_SUCCESS, send ? IBV_WC_RECV : IBV_WC_RECV_RDMA_WITH_IMM, w.len, w, q);
    }
    return IBV_WC_SUCCESS;
}

/* Runs q's send queue in order, as far as the responders allow. */
void progress(Qp* q) {
    /* one word a requester may set: read without the lock, as progress runs at every poll */
    uint32_t shared = __atomic_load_n(&self->qps[q->slot].state, __ATOMIC_ACQUIRE);
    if (shared == IBV_QPS_ERR && q->qp.state != IBV_QPS_ERR) { /* a requester failed our receive */
        enterError(q);
        return;
    }
    while (!q->sq.empty() && q->qp.state == IBV_QPS_RTS) {
        int status = execute(q, q->sq.front());
        if (status == WAIT) return;
        completeSend(q, q->sq.front(), (ibv_wc_status)status);
        q->sq.pop_front();
        if (status != IBV_WC_SUCCESS) enterError(q);
    }
}

void progressAll() {
    for (auto& [n, q] : qps) progress(q);
}

// ---- ops of the context ----

int postSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Qp* q = reinterpret_cast<Qp*>(qp);
    for (; wr != nullptr; wr = wr->next) {
        int err = 0;
        uint64_t len = 0;
        for (int i = 0; i < wr->num_sge; i++) len += wr->sg_list[i].length;
        if (q->qp.state != IBV_QPS_RTS && q->qp.state != IBV_QPS_ERR) err = EINVAL;
        else if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->cap.max_send_sge) err = EINVAL;
        else if (wr->opcode != IBV_WR_RDMA_WRITE && wr->opcode != IBV_WR_RDMA_WRITE_WITH_IMM && wr->opcode != IBV_WR_SEND
                 && wr->opcode != IBV_WR_SEND_WITH_IMM && wr->opcode != IBV_WR_RDMA_READ) err = EINVAL;
        else if ((wr->send_flags & IBV_SEND_INLINE) && (wr->opcode == IBV_WR_RDMA_READ || len > q->cap.max_inline_data)) err = EINVAL;
        else if (len > (1u << 31)) err = EINVAL;
        else if (q->sq.size() + q->unpolled >= q->cap.max_send_wr) err = ENOMEM;
        if (err != 0) {
            *bad = wr;
            return err;
        }
        SendWr w;
        w.wr_id = wr->wr_id;
        w.opcode = wr->opcode;
        w.flags = wr->send_flags;
        w.sge.assign(wr->sg_list, wr->sg_list + wr->num_sge);
        w.raddr = wr->wr.rdma.remote_addr;
        w.rkey = wr->wr.rdma.rkey;
        w.imm = wr->imm_data;
        w.len = (uint32_t)len;
        if (wr->send_flags & IBV_SEND_INLINE) {
            for (const ibv_sge& s : w.sge) {
                const char* p = reinterpret_cast<const char*>(s.addr);
                w.inl.insert(w.inl.end(), p, p + s.length);
            }
        }
        if (q->qp.state == IBV_QPS_ERR) {
            completeSend(q, w, IBV_WC_WR_FLUSH_ERR);
            continue;
        }
        q->sq.push_back(std::move(w));
    }
    progress(q);
    return 0;
}

int postRecv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Qp* q = reinterpret_cast<Qp*>(qp);
    FileLock f(self);
    SharedQp& d = self->qps[q->slot];
    for (; wr != nullptr; wr = wr->next) {
        int err = 0;
        if (d.state == IBV_QPS_RESET) err = EINVAL;
        else if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->cap.max_recv_sge) err = EINVAL;
        else if (d.rq_tail - d.rq_head >= d.rq_cap) err = ENOMEM;
        if (err != 0) {
            *bad = wr;
            return err;
        }
        SharedRecv& r = d.rq[d.rq_tail % d.rq_cap];
        r.wr_id = wr->wr_id;
        r.num_sge = (uint32_t)wr->num_sge;
        memcpy(r.sge, wr->sg_list, sizeof(ibv_sge) * wr->num_sge);
        d.rq_tail++;
        if (d.state == IBV_QPS_ERR) flushRecvs(self, d);
    }
    return 0;
}

int pollCq(ibv_cq* cq, int n, ibv_wc* wc) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Cq* c = reinterpret_cast<Cq*>(cq);
    progressAll();
    int k = 0;
    {
        FileLock f(self);
        SharedCq& s = self->cqs[c->slot];
        if (s.overrun) return -EOVERFLOW;
        for (; k < n && s.head < s.tail; k++, s.head++) wc[k] = s.wc[s.head % s.cap];
    }
    for (int i = 0; i < k; i++) {
        if (wc[i].opcode & IBV_WC_RECV) continue;
        auto it = qps.find(wc[i].qp_num);
        if (it != qps.end() && it->second->unpolled > 0) it->second->unpolled--;
    }
    return k;
}

int reqNotifyCq(ibv_cq* cq, int solicitedOnly) {
    (void)solicitedOnly; /* every completion is an event */
    std::lock_guard<std::recursive_mutex> g(lock);
    FileLock f(self);
    self->cqs[reinterpret_cast<Cq*>(cq)->slot].armed = 1;
    return 0;
}

int queryPortExtended(ibv_context* context, uint8_t port, ibv_port_attr* attr, size_t size);

} // namespace

// ---- the exported verbs ----

extern "C" {

int jccl_fake_ib_live(const char* kind) {
    std::string k = kind == nullptr ? "" : kind;
    return k == "context" ? liveContexts.load() : k == "pd" ? livePds.load() : k == "mr" ? liveMrs.load()
         : k == "cq" ? liveCqs.load() : k == "qp" ? liveQps.load() : k == "channel" ? liveChannels.load() : -1;
}

long long jccl_fake_ib_rdma_bytes(void) { return rdmaBytes.load(); }

void jccl_fake_ib_reset(void) { rdmaBytes.store(0); }

void jccl_fake_ib_watch(uint64_t addr, uint64_t len) {
    watchStart.store(addr);
    watchEnd.store(addr + len);
    watchedBytes.store(0);
}

long long jccl_fake_ib_watched_bytes(void) { return watchedBytes.load(); }

ibv_device** ibv_get_device_list(int* num) {
    std::vector<Device*>& d = devices();
    ibv_device** list = static_cast<ibv_device**>(calloc(d.size() + 1, sizeof(ibv_device*)));
    if (list == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    for (size_t i = 0; i < d.size(); i++) list[i] = &d[i]->dev;
    if (num != nullptr) *num = (int)d.size();
    return list;
}

void ibv_free_device_list(ibv_device** list) { free(list); }

const char* ibv_get_device_name(ibv_device* device) { return device->name; }

__be64 ibv_get_device_guid(ibv_device* device) {
    return htobe64(reinterpret_cast<Device*>(device)->guid);
}

int ibv_fork_init(void) { return 0; }

ibv_context* ibv_open_device(ibv_device* device) {
    std::lock_guard<std::recursive_mutex> g(lock);
    if (self == nullptr && !createSelf()) {
        errno = EACCES;
        return nullptr;
    }
    Context* c = new Context();
    c->device = reinterpret_cast<Device*>(device);
    verbs_context& v = c->vctx;
    v.sz = sizeof(verbs_context);
    v.query_port = queryPortExtended;
    ibv_context& ctx = v.context;
    ctx.device = device;
    ctx.cmd_fd = -1;
    ctx.async_fd = -1;
    ctx.num_comp_vectors = 1;
    pthread_mutex_init(&ctx.mutex, nullptr);
    ctx.abi_compat = __VERBS_ABI_IS_EXTENDED;
    ctx.ops.post_send = postSend;
    ctx.ops.post_recv = postRecv;
    ctx.ops.poll_cq = pollCq;
    ctx.ops.req_notify_cq = reqNotifyCq;
    liveContexts++;
    return &ctx;
}

int ibv_close_device(ibv_context* context) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Context* c = contextOf(context);
    pthread_mutex_destroy(&context->mutex);
    delete c;
    if (--liveContexts == 0 && livePds == 0 && liveMrs == 0 && liveCqs == 0 && liveQps == 0) removeSelf();
    return 0;
}

int ibv_query_device(ibv_context* context, ibv_device_attr* a) {
    Device* d = contextOf(context)->device;
    memset(a, 0, sizeof *a);
    snprintf(a->fw_ver, sizeof a->fw_ver, "1.0.0 (jccl fake)");
    a->node_guid = htobe64(d->guid);
    a->sys_image_guid = htobe64(d->guid);
    a->max_mr_size = 1ULL << 40;
    a->page_size_cap = 0xfffff000;
    a->vendor_id = 0;
    a->vendor_part_id = 0;
    a->max_qp = MAX_QPS;
    a->max_qp_wr = MAX_WR;
    a->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN | IBV_DEVICE_PORT_ACTIVE_EVENT | IBV_DEVICE_CHANGE_PHY_PORT;
    a->max_sge = MAX_SGE;
    a->max_sge_rd = MAX_SGE;
    a->max_cq = MAX_CQS;
    a->max_cqe = MAX_CQE;
    a->max_mr = MAX_MRS;
    a->max_pd = 1 << 16;
    a->max_qp_rd_atom = MAX_RD_ATOMIC;
    a->max_res_rd_atom = MAX_RD_ATOMIC * MAX_QPS;
    a->max_qp_init_rd_atom = MAX_RD_ATOMIC;
    a->atomic_cap = IBV_ATOMIC_NONE; /* atomics are not modelled */
    a->max_pkeys = 1;
    a->local_ca_ack_delay = 16;
    a->phys_port_cnt = (uint8_t)d->nports;
    return 0;
}

/* The compat symbol: a caller's struct of the old size, which ends with link_layer. */
int ibv_query_port(ibv_context* context, uint8_t port, struct _compat_ibv_port_attr* attr) {
    return queryPortExtended(context, port, reinterpret_cast<ibv_port_attr*>(attr),
                             offsetof(ibv_port_attr, link_layer) + 1);
}

int ibv_query_gid(ibv_context* context, uint8_t port, int index, ibv_gid* gid) {
    Device* d = contextOf(context)->device;
    if (port < 1 || port > d->nports) return EINVAL;
    const Port& p = d->ports[port - 1];
    int len = p.link_layer == IBV_LINK_LAYER_ETHERNET ? 256 : 128;
    if (index < 0 || index >= len) return EINVAL;
    memset(gid, 0, sizeof *gid);
    if (index < gidCount(p)) memcpy(gid->raw, p.gid[index], 16);
    return 0;
}

int _ibv_query_gid_ex(ibv_context* context, uint32_t port, uint32_t index, ibv_gid_entry* entry, uint32_t flags,
                      size_t size) {
    Device* d = contextOf(context)->device;
    if (flags != 0 || size < sizeof(ibv_gid_entry) || port < 1 || port > (uint32_t)d->nports) return EINVAL;
    const Port& p = d->ports[port - 1];
    if (index >= (uint32_t)gidCount(p)) return ENODATA;
    memset(entry, 0, sizeof *entry);
    memcpy(entry->gid.raw, p.gid[index], 16);
    entry->gid_index = index;
    entry->port_num = port;
    entry->gid_type = p.link_layer == IBV_LINK_LAYER_INFINIBAND ? IBV_GID_TYPE_IB
                    : index % 2 == 0 ? IBV_GID_TYPE_ROCE_V1 : IBV_GID_TYPE_ROCE_V2;
    entry->ndev_ifindex = p.link_layer == IBV_LINK_LAYER_ETHERNET ? 1 : 0; /* lo */
    return 0;
}

ibv_pd* ibv_alloc_pd(ibv_context* context) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Pd* p = new Pd();
    p->pd.context = context;
    p->id = nextPdId++;
    p->pd.handle = p->id;
    livePds++;
    return &p->pd;
}

int ibv_dealloc_pd(ibv_pd* pd) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Pd* p = reinterpret_cast<Pd*>(pd);
    if (p->users > 0) return EBUSY;
    delete p;
    livePds--;
    return 0;
}

ibv_mr* ibv_reg_mr_iova2(ibv_pd* pd, void* addr, size_t length, uint64_t iova, unsigned int access) {
    std::lock_guard<std::recursive_mutex> g(lock);
    if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) && !(access & IBV_ACCESS_LOCAL_WRITE)) {
        errno = EINVAL; /* the verbs spec: remote write needs local write */
        return nullptr;
    }
    if (addr == nullptr && length > 0) {
        errno = EFAULT;
        return nullptr;
    }
    Pd* p = reinterpret_cast<Pd*>(pd);
    FileLock f(self);
    int slot = -1;
    for (int i = 0; i < MAX_MRS && slot < 0; i++) {
        if (!self->mrs[i].used) slot = i;
    }
    if (slot < 0) {
        errno = ENOMEM;
        return nullptr;
    }
    uint32_t lkey, rkey;
    do { /* keys a peer cannot guess from another MR's, distinct in this process */
        lkey = random32();
        rkey = random32();
    } while (lkey == rkey || findMr(self, false, lkey, p->id) != nullptr || findMr(self, true, rkey, p->id) != nullptr);
    SharedMr& m = self->mrs[slot];
    m.lkey = lkey;
    m.rkey = rkey;
    m.access = access;
    m.pd_id = p->id;
    m.addr = (uint64_t)addr;
    m.iova = iova;
    m.length = length;
    m.used = 1;
    Mr* r = new Mr();
    r->slot = slot;
    r->pd = p;
    r->mr.context = pd->context;
    r->mr.pd = pd;
    r->mr.addr = addr;
    r->mr.length = length;
    r->mr.handle = (uint32_t)slot;
    r->mr.lkey = lkey;
    r->mr.rkey = rkey;
    p->users++;
    liveMrs++;
    return &r->mr;
}

ibv_mr* ibv_reg_mr(ibv_pd* pd, void* addr, size_t length, int access) {
    return ibv_reg_mr_iova2(pd, addr, length, (uint64_t)addr, (unsigned)access);
}

ibv_mr* ibv_reg_dmabuf_mr(ibv_pd*, uint64_t, size_t, uint64_t, int, int) {
    errno = EOPNOTSUPP; /* no device memory behind the fake */
    return nullptr;
}

int ibv_dereg_mr(ibv_mr* mr) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Mr* r = reinterpret_cast<Mr*>(mr);
    {
        FileLock f(self); /* waits for a requester copying into it */
        self->mrs[r->slot].used = 0;
    }
    r->pd->users--;
    delete r;
    liveMrs--;
    return 0;
}

ibv_comp_channel* ibv_create_comp_channel(ibv_context* context) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Channel* c = new Channel();
    c->ch.context = context;
    c->ch.fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* a descriptor that never signals */
    c->ch.refcnt = 0;
    liveChannels++;
    return &c->ch;
}

int ibv_destroy_comp_channel(ibv_comp_channel* channel) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Channel* c = reinterpret_cast<Channel*>(channel);
    if (c->cqs > 0) return EBUSY;
    if (c->ch.fd >= 0) close(c->ch.fd);
    delete c;
    liveChannels--;
    return 0;
}

ibv_cq* ibv_create_cq(ibv_context* context, int cqe, void* cqContext, ibv_comp_channel* channel, int vector) {
    std::lock_guard<std::recursive_mutex> g(lock);
    if (cqe < 1 || cqe > MAX_CQE || vector < 0 || vector >= context->num_comp_vectors) {
        errno = EINVAL;
        return nullptr;
    }
    FileLock f(self);
    int slot = -1;
    for (int i = 0; i < MAX_CQS && slot < 0; i++) {
        if (!self->cqs[i].used) slot = i;
    }
    if (slot < 0) {
        errno = ENOMEM;
        return nullptr;
    }
    SharedCq& s = self->cqs[slot];
    s.cap = (uint32_t)cqe;
    s.head = s.tail = 0;
    s.overrun = s.armed = s.events = 0;
    s.used = 1;
    Cq* c = new Cq();
    c->slot = slot;
    c->cq.context = context;
    c->cq.channel = channel;
    c->cq.cq_context = cqContext;
    c->cq.handle = (uint32_t)slot;
    c->cq.cqe = cqe;
    pthread_mutex_init(&c->cq.mutex, nullptr);
    pthread_cond_init(&c->cq.cond, nullptr);
    if (channel != nullptr) reinterpret_cast<Channel*>(channel)->cqs++;
    cqs.push_back(c);
    liveCqs++;
    return &c->cq;
}

int ibv_destroy_cq(ibv_cq* cq) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Cq* c = reinterpret_cast<Cq*>(cq);
    if (c->qps > 0) return EBUSY;
    {
        FileLock f(self);
        self->cqs[c->slot].used = 0;
    }
    if (cq->channel != nullptr) reinterpret_cast<Channel*>(cq->channel)->cqs--;
    for (size_t i = 0; i < cqs.size(); i++) {
        if (cqs[i] == c) cqs.erase(cqs.begin() + i);
    }
    pthread_mutex_destroy(&cq->mutex);
    pthread_cond_destroy(&cq->cond);
    delete c;
    liveCqs--;
    return 0;
}

int ibv_get_cq_event(ibv_comp_channel* channel, ibv_cq** cq, void** cqContext) {
    for (;;) {
        {
            std::lock_guard<std::recursive_mutex> g(lock);
            progressAll();
            FileLock f(self);
            for (Cq* c : cqs) {
                SharedCq& s = self->cqs[c->slot];
                if (c->cq.channel == channel && s.events > 0) {
                    s.events--;
                    *cq = &c->cq;
                    *cqContext = c->cq.cq_context;
                    return 0;
                }
            }
        }
        usleep(50);
    }
}

void ibv_ack_cq_events(ibv_cq* cq, unsigned int n) {
    std::lock_guard<std::recursive_mutex> g(lock);
    cq->comp_events_completed += n;
}

ibv_qp* ibv_create_qp(ibv_pd* pd, ibv_qp_init_attr* init) {
    std::lock_guard<std::recursive_mutex> g(lock);
    ibv_qp_cap& cap = init->cap;
    if (init->qp_type != IBV_QPT_RC || init->srq != nullptr) {
        errno = EOPNOTSUPP; /* only RC without SRQ is modelled */
        return nullptr;
    }
    if (init->send_cq == nullptr || init->recv_cq == nullptr || init->send_cq->context != pd->context
        || init->recv_cq->context != pd->context || cap.max_send_wr > (uint32_t)MAX_WR || cap.max_recv_wr > (uint32_t)MAX_WR
        || cap.max_send_sge > (uint32_t)MAX_SGE || cap.max_recv_sge > (uint32_t)MAX_SGE || cap.max_inline_data > (uint32_t)MAX_INLINE) {
        errno = EINVAL;
        return nullptr;
    }
    HostLock host; /* the number is unique on the host */
    scanPeers();
    FileLock f(self);
    int slot = -1;
    for (int i = 0; i < MAX_QPS && slot < 0; i++) {
        if (!self->qps[i].used) slot = i;
    }
    if (slot < 0) {
        errno = ENOMEM;
        return nullptr;
    }
    uint32_t n;
    do {
        n = random32() & 0xffffff;
    } while (n < 2 || qpNumTaken(n)); /* 0 and 1 are the special QPs */
    Pd* p = reinterpret_cast<Pd*>(pd);
    Qp* q = new Qp();
    q->slot = slot;
    q->pd = p;
    q->scq = reinterpret_cast<Cq*>(init->send_cq);
    q->rcq = reinterpret_cast<Cq*>(init->recv_cq);
    cap.max_send_wr = std::max(cap.max_send_wr, 1u);
    cap.max_recv_wr = std::max(cap.max_recv_wr, 1u);
    q->cap = cap;
    q->sq_sig_all = init->sq_sig_all;
    q->attr.qp_state = IBV_QPS_RESET;
    q->attr.cap = cap;
    ibv_qp& qp = q->qp;
    qp.context = pd->context;
    qp.qp_context = init->qp_context;
    qp.pd = pd;
    qp.send_cq = init->send_cq;
    qp.recv_cq = init->recv_cq;
    qp.handle = (uint32_t)slot;
    qp.qp_num = n;
    qp.state = IBV_QPS_RESET;
    qp.qp_type = IBV_QPT_RC;
    pthread_mutex_init(&qp.mutex, nullptr);
    pthread_cond_init(&qp.cond, nullptr);
    SharedQp& d = self->qps[slot];
    d.qp_num = n;
    d.state = IBV_QPS_RESET;
    d.dest_qp_num = 0;
    d.pd_id = p->id;
    d.access = 0;
    d.recv_cq = q->rcq->slot;
    d.rq_cap = cap.max_recv_wr;
    d.rq_head = d.rq_tail = 0;
    d.used = 1;
    p->users++;
    q->scq->qps++;
    q->rcq->qps++;
    qps[n] = q;
    liveQps++;
    return &qp;
}

int ibv_modify_qp(ibv_qp* qp, ibv_qp_attr* a, int mask) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Qp* q = reinterpret_cast<Qp*>(qp);
    progress(q); /* the state a requester may have set */
    Device* dev = contextOf(qp->context)->device;
    int cur = q->attr.qp_state;
    if ((mask & IBV_QP_CUR_STATE) && (int)a->cur_qp_state != cur) return EINVAL;
    int next = (mask & IBV_QP_STATE) ? (int)a->qp_state : cur;
    int required = 0, optional = 0;
    const int rtsOptional = IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_MIN_RNR_TIMER | IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE;
    if (next == IBV_QPS_RESET || next == IBV_QPS_ERR) {
        optional = IBV_QP_CUR_STATE;
    } else if (cur == IBV_QPS_RESET && next == IBV_QPS_INIT) {
        required = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    } else if (cur == IBV_QPS_INIT && next == IBV_QPS_INIT) {
        optional = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    } else if (cur == IBV_QPS_INIT && next == IBV_QPS_RTR) {
        required = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        optional = IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX;
    } else if (cur == IBV_QPS_RTR && next == IBV_QPS_RTS) {
        required = IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
        optional = rtsOptional;
    } else if (cur == IBV_QPS_RTS && next == IBV_QPS_RTS) {
        optional = rtsOptional;
    } else {
        return EINVAL; /* no such transition (SQD and SQE are not modelled) */
    }
    int given = mask & ~IBV_QP_STATE;
    if ((given & required) != required || (given & ~(required | optional)) != 0) return EINVAL;
    /* the values, as a NIC checks them */
    if ((mask & IBV_QP_PORT) && (a->port_num < 1 || a->port_num > dev->nports)) return EINVAL;
    if ((mask & IBV_QP_PKEY_INDEX) && a->pkey_index != 0) return EINVAL;
    if ((mask & IBV_QP_PATH_MTU) && (a->path_mtu < IBV_MTU_256 || a->path_mtu > IBV_MTU_4096)) return EINVAL;
    if ((mask & IBV_QP_DEST_QPN) && a->dest_qp_num > 0xffffff) return EINVAL;
    if ((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > MAX_RD_ATOMIC) return EINVAL;
    if ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && a->max_rd_atomic > MAX_RD_ATOMIC) return EINVAL;
    if ((mask & IBV_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31) return EINVAL;
    if ((mask & IBV_QP_TIMEOUT) && a->timeout > 31) return EINVAL;
    if ((mask & IBV_QP_RETRY_CNT) && a->retry_cnt > 7) return EINVAL;
    if ((mask & IBV_QP_RNR_RETRY) && a->rnr_retry > 7) return EINVAL;
    if (mask & IBV_QP_AV) {
        int port = (mask & IBV_QP_PORT) ? a->port_num : q->attr.port_num;
        const Port& p = dev->ports[port - 1];
        if (p.link_layer == IBV_LINK_LAYER_ETHERNET) { /* RoCE: the GRH carries the address */
            if (!a->ah_attr.is_global || a->ah_attr.grh.sgid_index >= gidCount(p)) return EINVAL;
        } else if (a->ah_attr.dlid == 0 && !a->ah_attr.is_global) {
            return EINVAL;
        }
    }
    /* accepted: record it */
    if (mask & IBV_QP_PORT) q->attr.port_num = a->port_num;
    if (mask & IBV_QP_PKEY_INDEX) q->attr.pkey_index = a->pkey_index;
    if (mask & IBV_QP_ACCESS_FLAGS) q->attr.qp_access_flags = a->qp_access_flags;
    if (mask & IBV_QP_AV) q->attr.ah_attr = a->ah_attr;
    if (mask & IBV_QP_PATH_MTU) q->attr.path_mtu = a->path_mtu;
    if (mask & IBV_QP_DEST_QPN) q->attr.dest_qp_num = a->dest_qp_num;
    if (mask & IBV_QP_RQ_PSN) q->attr.rq_psn = a->rq_psn & 0xffffff;
    if (mask & IBV_QP_SQ_PSN) q->attr.sq_psn = a->sq_psn & 0xffffff;
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC) q->attr.max_dest_rd_atomic = a->max_dest_rd_atomic;
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC) q->attr.max_rd_atomic = a->max_rd_atomic;
    if (mask & IBV_QP_MIN_RNR_TIMER) q->attr.min_rnr_timer = a->min_rnr_timer;
    if (mask & IBV_QP_TIMEOUT) q->attr.timeout = a->timeout;
    if (mask & IBV_QP_RETRY_CNT) q->attr.retry_cnt = a->retry_cnt;
    if (mask & IBV_QP_RNR_RETRY) q->attr.rnr_retry = a->rnr_retry;
    if (next == IBV_QPS_ERR) {
        enterError(q);
        return 0;
    }
    if (next == IBV_QPS_RESET) {
        q->sq.clear();
        q->unpolled = 0;
    }
    q->attr.qp_state = (ibv_qp_state)next;
    qp->state = (ibv_qp_state)next; /* as libibverbs does */
    FileLock f(self);
    SharedQp& d = self->qps[q->slot];
    if (next == IBV_QPS_RESET) {
        d.rq_head = d.rq_tail;
        d.dest_qp_num = 0;
    }
    if (mask & IBV_QP_PORT) {
        const Port& p = dev->ports[a->port_num - 1];
        d.port = a->port_num;
        d.lid = p.lid;
        d.link_layer = p.link_layer;
        memcpy(d.gid, p.gid, sizeof d.gid);
    }
    d.access = q->attr.qp_access_flags;
    d.min_rnr_timer = q->attr.min_rnr_timer;
    if (next == IBV_QPS_RTR || next == IBV_QPS_RTS) d.dest_qp_num = q->attr.dest_qp_num;
    d.state = (uint32_t)next;
    return 0;
}

int ibv_query_qp(ibv_qp* qp, ibv_qp_attr* attr, int mask, ibv_qp_init_attr* init) {
    (void)mask; /* everything is filled in, which the mask allows */
    std::lock_guard<std::recursive_mutex> g(lock);
    Qp* q = reinterpret_cast<Qp*>(qp);
    progress(q);
    *attr = q->attr;
    attr->cur_qp_state = q->attr.qp_state;
    attr->cap = q->cap;
    memset(init, 0, sizeof *init);
    init->qp_context = qp->qp_context;
    init->send_cq = qp->send_cq;
    init->recv_cq = qp->recv_cq;
    init->cap = q->cap;
    init->qp_type = IBV_QPT_RC;
    init->sq_sig_all = q->sq_sig_all;
    return 0;
}

int ibv_destroy_qp(ibv_qp* qp) {
    std::lock_guard<std::recursive_mutex> g(lock);
    Qp* q = reinterpret_cast<Qp*>(qp);
    {
        FileLock f(self);
        self->qps[q->slot].used = 0;
        self->qps[q->slot].qp_num = 0;
    }
    qps.erase(qp->qp_num);
    q->scq->qps--;
    q->rcq->qps--;
    q->pd->users--;
    pthread_mutex_destroy(&qp->mutex);
    pthread_cond_destroy(&qp->cond);
    delete q;
    liveQps--;
    return 0;
}

const char* ibv_wc_status_str(ibv_wc_status status) {
    static const char* const names[] = {"success", "local length error", "local QP operation error",
        "local EE context operation error", "local protection error", "Work Request Flushed Error",
        "memory management operation error", "bad response error", "local access error",
        "remote invalid request error", "remote access error", "remote operation error",
        "transport retry counter exceeded", "RNR retry counter exceeded", "local RDD violation error",
        "remote invalid RD request", "aborted error", "invalid EE context number",
        "invalid EE context state", "fatal error", "response timeout error", "general error"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown";
}

} // extern "C"

namespace {
int queryPortExtended(ibv_context* context, uint8_t port, ibv_port_attr* attr, size_t size) {
    Device* d = contextOf(context)->device;
    if (port < 1 || port > d->nports) return EINVAL;
    const Port& p = d->ports[port - 1];
    ibv_port_attr a{};
    a.state = IBV_PORT_ACTIVE;
    a.max_mtu = IBV_MTU_4096;
    a.active_mtu = p.active_mtu;
    a.gid_tbl_len = p.link_layer == IBV_LINK_LAYER_ETHERNET ? 256 : 128;
    a.port_cap_flags = p.link_layer == IBV_LINK_LAYER_ETHERNET ? IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS : IBV_PORT_CM_SUP;
    a.max_msg_sz = 1u << 30;
    a.pkey_tbl_len = 1;
    a.lid = p.lid;
    a.sm_lid = p.link_layer == IBV_LINK_LAYER_INFINIBAND ? 1 : 0;
    a.max_vl_num = 4;
    a.subnet_timeout = 18;
    a.active_width = 2;  /* 4x */
    a.active_speed = 64; /* HDR: 200 Gb/s with 4x */
    a.phys_state = 5;    /* LinkUp */
    a.link_layer = p.link_layer;
    memcpy(attr, &a, std::min(size, sizeof a));
    return 0;
}
} // namespace
