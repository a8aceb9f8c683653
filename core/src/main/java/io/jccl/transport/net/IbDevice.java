// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.JcclException;
import io.jccl.bindings.ibverbs.IbVerbs;
import io.jccl.bindings.ibverbs.ibv_device_attr;
import io.jccl.bindings.ibverbs.ibv_gid;
import io.jccl.bindings.ibverbs.ibv_mr;
import io.jccl.bindings.ibverbs.ibv_port_attr;
import io.jccl.net.ib.Verbs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One active port of an RDMA device, opened for the IB net: its verbs context and protection
 * domain, how it is addressed (InfiniBand: its LID; RoCE: a GID, {@link IbGids}), its MTU and
 * speed, and the registrations of its memory ({@link IbMemoryCache}). As NCCL's net_ib, a process
 * opens its ports once ({@link #shared}) and keeps them: every communicator's net uses them, and
 * registrations are shared across communicators.
 */
final class IbDevice {
    /** The ports this process opened, by the settings that chose them (JCCL_IB_HCA, JCCL_IB_GID_INDEX). */
    private static final java.util.Map<String, List<IbDevice>> OPENED = new java.util.HashMap<>();

    /** Access every registration of the IB net allows: the peer writes into receive buffers and CTS FIFOs. */
    static final int ACCESS = IbVerbs.IBV_ACCESS_LOCAL_WRITE | IbVerbs.IBV_ACCESS_REMOTE_WRITE;
    private static final long PAGE = 4096;
    private static final long UNKNOWN_SPEED_MBPS = 10_000;

    final String name;
    final int port;
    final MemorySegment context;
    final MemorySegment pd;
    final boolean ethernet;
    final int lid;
    final int gidIndex;
    final byte[] gid;
    /** The port's active MTU, as verbs' enum (IBV_MTU_1024 ...). */
    final int mtu;
    final long speedMbps;
    final String pciPath;
    final IbMemoryCache memory;

    @SuppressWarnings("restricted") // registrations: the pages' range, and the ibv_mr verbs returned, at their sizes
    private IbDevice(String name, int port, MemorySegment context, boolean ethernet, int lid, int gidIndex, byte[] gid, int mtu,
            long speedMbps) {
        this.name = name;
        this.port = port;
        this.context = context;
        this.ethernet = ethernet;
        this.lid = lid;
        this.gidIndex = gidIndex;
        this.gid = gid;
        this.mtu = mtu;
        this.speedMbps = speedMbps;
        this.pciPath = pci(name);
        this.pd = Verbs.allocPd(context);
        this.memory = new IbMemoryCache(new IbMemoryCache.Registrar() {
            @Override
            public IbMemoryCache.Registration register(long start, long length) {
                MemorySegment mr = Verbs.registerMemory(pd, MemorySegment.ofAddress(start).reinterpret(length), ACCESS);
                MemorySegment m = mr.reinterpret(ibv_mr.layout().byteSize());
                return new IbMemoryCache.Registration(mr, ibv_mr.lkey(m), ibv_mr.rkey(m));
            }

            @Override
            public void deregister(IbMemoryCache.Registration r) {
                Verbs.deregister(r.mr());
            }
        }, PAGE);
    }

    /** "mlx5_0:1", for logs and errors. */
    @Override
    public String toString() {
        return name + ":" + port;
    }

    NetProperties properties(int maxRequests) {
        return new NetProperties(toString(), pciPath, speedMbps, Set.of(MemoryKind.HOST), maxRequests);
    }

    /** The ports {@code options} choose, opened by the first net that asked and kept for the process's life. */
    static synchronized List<IbDevice> shared(IbOptions options) {
        String key = options.hca() + "|" + options.gidIndex();
        List<IbDevice> found = OPENED.get(key);
        if (found == null) {
            found = List.copyOf(open(options));
            OPENED.put(key, found);
        }
        return found;
    }

    /** Closes every port {@link #shared} opened (tests that count verbs objects; no net may use them any more). */
    static synchronized void closeShared() {
        OPENED.values().forEach(l -> l.forEach(IbDevice::close));
        OPENED.clear();
    }

    /**
     * Opens every active InfiniBand or RoCE port that {@code options.hca()} allows, in device and
     * port order; none where there are none. A verbs call that fails is a JcclException naming it.
     */
    @SuppressWarnings("restricted") // verbs' structs, read at their size
    static List<IbDevice> open(IbOptions options) {
        List<IbDevice> found = new ArrayList<>();
        try {
            for (String name : Verbs.deviceNames()) {
                if (!options.hca().mayAllow(name)) {
                    continue;
                }
                for (int port : activePorts(name, options.hca())) {
                    found.add(openPort(name, port, options));
                }
            }
        } catch (RuntimeException e) {
            found.forEach(IbDevice::close);
            throw e;
        }
        return found;
    }

    /** The ports of {@code name} that are active, InfiniBand or Ethernet, and allowed. */
    private static List<Integer> activePorts(String name, IbHcaFilter hca) {
        List<Integer> ports = new ArrayList<>();
        MemorySegment ctx = Verbs.open(name);
        try (Arena a = Arena.ofConfined()) {
            int count = ibv_device_attr.phys_port_cnt(Verbs.queryDevice(ctx, a)) & 0xff;
            for (int p = 1; p <= count; p++) {
                MemorySegment attr = Verbs.queryPort(ctx, p, a);
                int ll = ibv_port_attr.link_layer(attr) & 0xff;
                if (hca.allows(name, p) && ibv_port_attr.state(attr) == IbVerbs.IBV_PORT_ACTIVE
                        && (ll == IbVerbs.IBV_LINK_LAYER_INFINIBAND || ll == IbVerbs.IBV_LINK_LAYER_ETHERNET
                        || ll == IbVerbs.IBV_LINK_LAYER_UNSPECIFIED)) {
                    ports.add(p);
                }
            }
        } finally {
            Verbs.close(ctx);
        }
        return ports;
    }

    private static IbDevice openPort(String name, int port, IbOptions options) {
        MemorySegment ctx = Verbs.open(name);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = Verbs.queryPort(ctx, port, a);
            boolean ethernet = (ibv_port_attr.link_layer(attr) & 0xff) == IbVerbs.IBV_LINK_LAYER_ETHERNET;
            int gidIndex;
            if (ethernet) {
                List<IbGids.Gid> gids = new ArrayList<>();
                int table = Math.min(ibv_port_attr.gid_tbl_len(attr), 256);
                for (int i = 0; i < table; i++) {
                    gids.add(new IbGids.Gid(i, gidOrZero(ctx, port, i, a), IbGids.type(name, port, i)));
                }
                try {
                    gidIndex = IbGids.choose(gids, options.gidIndex(), name + ":" + port);
                } catch (IllegalArgumentException e) {
                    throw JcclException.invalidArgument(JcclException.NO_RANK, "JCCL_IB_GID_INDEX", e.getMessage());
                }
            } else {
                gidIndex = Math.max(0, options.gidIndex());
            }
            byte[] gid = gidOrZero(ctx, port, gidIndex, a);
            return new IbDevice(name, port, ctx, ethernet, ibv_port_attr.lid(attr) & 0xffff, gidIndex, gid,
                    ibv_port_attr.active_mtu(attr), speedMbps(ibv_port_attr.active_speed(attr) & 0xff, ibv_port_attr.active_width(attr) & 0xff));
        } catch (RuntimeException e) {
            Verbs.close(ctx);
            throw e;
        }
    }

    /** GID {@code index}'s bytes, zero where the entry is unused (the query fails for it). */
    private static byte[] gidOrZero(MemorySegment ctx, int port, int index, Arena a) {
        try {
            return ibv_gid.raw(Verbs.queryGid(ctx, port, index, a)).toArray(ValueLayout.JAVA_BYTE);
        } catch (JcclException e) {
            return new byte[16];
        }
    }

    /**
     * A port's speed in Mbit/s from verbs' active_speed and active_width codes (IB's lane rates
     * SDR to XDR times 1, 2, 4, 8 or 12 lanes); 10 Gbit/s where a code is unknown.
     */
    static long speedMbps(int activeSpeed, int activeWidth) {
        long lane = switch (activeSpeed) {
            case 1 -> 2_500;
            case 2 -> 5_000;
            case 4, 8 -> 10_000;
            case 16 -> 14_000;
            case 32 -> 25_000;
            case 64 -> 50_000;
            case 128 -> 100_000;
            case 256 -> 200_000;
            default -> 0;
        };
        int lanes = switch (activeWidth) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
        return lane * lanes > 0 ? lane * lanes : UNKNOWN_SPEED_MBPS;
    }

    private static String pci(String name) {
        try {
            Path device = Path.of("/sys/class/infiniband", name, "device");
            return Files.exists(device) ? device.toRealPath().toString() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Deregisters what is left, frees the protection domain, closes the context; quietly, the net is going. */
    void close() {
        try {
            memory.clear();
            Verbs.deallocPd(pd);
        } catch (RuntimeException e) {
            // closing anyway
        }
        try {
            Verbs.close(context);
        } catch (RuntimeException e) {
            // closing anyway
        }
    }
}
