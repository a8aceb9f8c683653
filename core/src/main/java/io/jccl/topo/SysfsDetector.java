// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Describes the running machine in NCCL's topology format, from sysfs as NCCL reads it: a
 * {@code <cpu>} per NUMA node ({@code /sys/devices/system/node}, with its cpumap, and the CPU's
 * vendor, family and model from {@code /proc/cpuinfo}); for each network port and each GPU, the
 * chain of PCI switches above it ({@code /sys/bus/pci/devices}, each device's class, ids and link
 * speed and width, the smaller of its own and its upstream port's); the ports from
 * {@code /sys/class/infiniband} when the machine has any (NCCL's IB plugin), else the interfaces
 * of {@code /sys/class/net} that sit on a device (its socket plugin); GPUs from a
 * {@link GpuProbe}.
 *
 * <p>As NCCL does, a device's parent is the bridge two levels up its sysfs path (the switch's
 * upstream port, not the downstream port it hangs from) and a root port is left out. Anything
 * missing, as in containers, is left out or empty rather than an error: a device whose PCI path
 * cannot be found hangs from the first NUMA node, one whose NUMA node is unknown (-1) from the
 * first NUMA node too (NCCL makes a separate {@code numaid="-1"} CPU there).
 *
 * <pre>{@code
 * XmlElement xml = new SysfsDetector(Path.of("/"), GpuProbe.NONE).detect();
 * TopoSystem here = TopoSystem.fromXml(xml);
 * }</pre>
 */
public final class SysfsDetector {
    private static final Pattern BDF = Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-9a-fA-F]");
    private static final Pattern NODE = Pattern.compile("node(\\d+)");
    private static final List<String> PEERMEM = List.of("sys/kernel/mm/memory_peers/nv_mem/version",
            "sys/kernel/mm/memory_peers/nv_mem_nc/version", "sys/module/nvidia_peermem/version");

    private static final String CLASS_NIC = "0x020000";
    private static final String CLASS_GPU = "0x030200";

    private final Sysfs fs;
    private final GpuProbe probe;
    private XmlElement system;
    private final Map<Integer, XmlElement> cpus = new TreeMap<>();
    private final Map<String, XmlElement> pciByBus = new HashMap<>();

    public SysfsDetector(Path root, GpuProbe probe) {
        this.fs = new Sysfs(root);
        this.probe = probe;
    }

    /** The machine as a {@code <system>} document. */
    public XmlElement detect() {
        system = new XmlElement("system").set("version", "1");
        cpus.clear();
        pciByBus.clear();
        addNumaNodes();
        boolean gdr = PEERMEM.stream().anyMatch(fs::exists);
        addNets(gdr);
        addGpus(gdr);
        return system;
    }

    private void addNumaNodes() {
        for (String name : fs.list("sys/devices/system/node")) {
            var m = NODE.matcher(name);
            if (m.matches()) {
                cpu(Integer.parseInt(m.group(1)), fs.read("sys/devices/system/node/" + name + "/cpumap").orElse(null));
            }
        }
        if (cpus.isEmpty()) {
            // No NUMA information (a container, or a kernel without NUMA): one domain of all online CPUs.
            String map = null;
            try {
                map = fs.read("sys/devices/system/cpu/online").map(l -> CpuSet.fromCpulist(l).toCpumap()).orElse(null);
            } catch (IllegalArgumentException e) {
                // An unreadable list: the domain has no affinity, as when the file is missing.
            }
            cpu(0, map);
        }
    }

    /** The {@code <cpu>} of NUMA node {@code numa}, made on first use (kept in numa order). */
    private XmlElement cpu(int numa, String affinity) {
        XmlElement cpu = cpus.get(numa);
        if (cpu == null) {
            cpu = new XmlElement("cpu").set("numaid", numa);
            if (affinity != null) {
                cpu.set("affinity", affinity);
            }
            describeCpu(cpu);
            system.add((int) cpus.keySet().stream().filter(o -> o < numa).count(), cpu);
            cpus.put(numa, cpu);
        }
        return cpu;
    }

    /** arch, and on x86 vendor, family and model, as NCCL writes them. */
    private void describeCpu(XmlElement cpu) {
        String arch = switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "arm64";
            case "ppc64le", "ppc64" -> "ppc64";
            default -> System.getProperty("os.arch", "");
        };
        cpu.set("arch", arch);
        if (!arch.equals("x86_64")) {
            return;
        }
        String info = fs.readAll("proc/cpuinfo").orElse("");
        String vendor = cpuinfoField(info, "vendor_id");
        String family = cpuinfoField(info, "cpu family");
        String model = cpuinfoField(info, "model");
        if (!vendor.isEmpty()) {
            cpu.set("vendor", vendor);
        }
        if (family.matches("\\d+") && model.matches("\\d+")) {
            cpu.set("familyid", family).set("modelid", model);
        }
    }

    /** The value of {@code key} for the first processor of /proc/cpuinfo, or "". */
    static String cpuinfoField(String cpuinfo, String key) {
        boolean seen = false;
        for (String line : cpuinfo.split("\n")) {
            if (line.isBlank()) {
                if (seen) {
                    break; // the first processor's block has ended
                }
                continue;
            }
            seen = true;
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
                return line.substring(colon + 1).strip();
            }
        }
        return "";
    }

    private void addNets(boolean gdr) {
        List<String> ib = fs.list("sys/class/infiniband");
        int dev = 0;
        if (!ib.isEmpty()) {
            for (String name : ib) {
                String base = "sys/class/infiniband/" + name;
                String guid = fs.read(base + "/node_guid").map(g -> "0x" + g.replace(":", "")).orElse(null);
                for (String port : fs.list(base + "/ports")) {
                    String p = base + "/ports/" + port;
                    if (fs.read(p + "/state").map(s -> !s.contains("ACTIVE")).orElse(false)) {
                        continue;
                    }
                    XmlElement net = new XmlElement("net").set("name", name).set("dev", dev++)
                            .set("speed", fs.read(p + "/rate").map(SysfsDetector::ibRateMbps).orElse(10000L))
                            .set("port", port).set("latency", "0.000000");
                    if (guid != null) {
                        net.set("guid", guid);
                    }
                    net.set("maxconn", 131072).set("gdr", gdr ? 1 : 0);
                    nic(base + "/device").add(net);
                }
            }
            return;
        }
        for (String name : fs.list("sys/class/net")) {
            String base = "sys/class/net/" + name;
            if (name.equals("lo") || !fs.entryExists(base + "/device")
                    || fs.read(base + "/operstate").map(s -> s.equals("down")).orElse(false)) {
                continue; // loopback, virtual (bridges, veth, ifb: no device link) or down
            }
            long speed = fs.read(base + "/speed").map(SysfsDetector::parseLongOrZero).orElse(0L);
            XmlElement net = new XmlElement("net").set("name", name).set("dev", dev)
                    .set("speed", speed > 0 ? speed : 10000).set("port", 0).set("latency", "0.000000")
                    .set("guid", String.format(Locale.ROOT, "0x%x", dev)).set("maxconn", 65536).set("gdr", 0);
            dev++;
            nic(base + "/device").add(net);
        }
    }

    /** "400 Gb/sec (4X NDR)" is 400000 Mb/s. */
    static long ibRateMbps(String rate) {
        String[] words = rate.strip().split("\\s+");
        try {
            return Math.round(Double.parseDouble(words[0]) * 1000);
        } catch (NumberFormatException e) {
            return 10000;
        }
    }

    private static long parseLongOrZero(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The {@code <nic>} of the PCI device a {@code .../device} link leads to. */
    private XmlElement nic(String deviceLink) {
        Optional<Path> dir = fs.realPath(deviceLink).flatMap(SysfsDetector::pciDeviceDir);
        XmlElement pci = dir.map(d -> pci(d.getFileName().toString(), d))
                .orElseGet(() -> unplaced("ffff:ff:" + String.format(Locale.ROOT, "%02x", pciByBus.size()) + ".0", CLASS_NIC));
        return pci.child("nic").orElseGet(() -> pci.add(new XmlElement("nic")));
    }

    private void addGpus(boolean gdr) {
        for (GpuProbe.Gpu g : probe.gpus()) {
            String busId = g.busId().toLowerCase(Locale.ROOT);
            Optional<Path> dir = fs.realPath("sys/bus/pci/devices/" + busId);
            XmlElement pci = dir.map(d -> pci(busId, d)).orElseGet(() -> unplaced(busId, CLASS_GPU));
            XmlElement gpu = pci.add(new XmlElement("gpu").set("dev", g.dev()).set("sm", g.sm()).set("rank", g.dev())
                    .set("gdr", gdr ? 1 : 0));
            for (GpuProbe.NvLink l : g.nvlinks()) {
                gpu.add(new XmlElement("nvlink").set("target", l.targetBusId().toLowerCase(Locale.ROOT))
                        .set("count", l.count()).set("tclass", l.targetClass()));
            }
        }
    }

    /**
     * A device with no PCI path in sysfs: hung from the first NUMA node with what is known (a NIC
     * without one gets a made-up bus id in domain ffff, which no real device uses).
     */
    private XmlElement unplaced(String busId, String pciClass) {
        XmlElement existing = pciByBus.get(busId);
        if (existing != null) {
            return existing;
        }
        XmlElement pci = new XmlElement("pci").set("busid", busId).set("class", pciClass).set("link_speed", "")
                .set("link_width", 0);
        insertByBusId(cpus.values().iterator().next(), pci);
        pciByBus.put(busId, pci);
        return pci;
    }

    /** The nearest directory at or above {@code p} named as a PCI device (a NIC's port may sit below it). */
    private static Optional<Path> pciDeviceDir(Path p) {
        for (Path x = p; x != null && x.getFileName() != null; x = x.getParent()) {
            if (BDF.matcher(x.getFileName().toString()).matches()) {
                return Optional.of(x);
            }
        }
        return Optional.empty();
    }

    /** The {@code <pci>} of the device in {@code dir}, made with its ancestors on first use. */
    private XmlElement pci(String busId, Path dir) {
        XmlElement pci = pciByBus.get(busId);
        if (pci != null) {
            return pci;
        }
        pci = new XmlElement("pci").set("busid", busId);
        for (String f : List.of("class", "vendor", "device", "subsystem_vendor", "subsystem_device")) {
            XmlElement e = pci;
            Sysfs.read(dir.resolve(f)).ifPresent(v -> e.set(f, v));
        }
        pci.set("link_speed", linkSpeed(dir)).set("link_width", linkWidth(dir));
        pciByBus.put(busId, pci);
        insertByBusId(parent(dir), pci);
        return pci;
    }

    /**
     * NCCL's parent of a PCI device: two levels up its sysfs path, skipping the downstream port it
     * hangs from, and its CPU once a level up is not a PCI device (the root complex).
     */
    private XmlElement parent(Path dir) {
        Path up1 = dir.getParent();
        Path up2 = up1 == null ? null : up1.getParent();
        if (isBdf(up1) && isBdf(up2)) {
            return pci(up2.getFileName().toString(), up2);
        }
        int numa = Sysfs.read(dir.resolve("numa_node")).map(s -> (int) parseLongOrZero(s)).orElse(-1);
        return cpu(numa >= 0 ? numa : cpus.keySet().iterator().next(), null);
    }

    private static boolean isBdf(Path p) {
        return p != null && p.getFileName() != null && BDF.matcher(p.getFileName().toString()).matches();
    }

    /** The slower of the device's and its upstream port's maximum speed ("16.0 GT/s PCIe"), or "". */
    private static String linkSpeed(Path dir) {
        Optional<String> dev = Sysfs.read(dir.resolve("max_link_speed"));
        Optional<String> port = Sysfs.read(dir.getParent().resolve("max_link_speed"));
        double d = dev.map(SysfsDetector::gts).orElse(Double.MAX_VALUE);
        double p = port.map(SysfsDetector::gts).orElse(Double.MAX_VALUE);
        if (d == Double.MAX_VALUE && p == Double.MAX_VALUE) {
            return dev.or(() -> port).orElse("");
        }
        return p < d ? port.orElseThrow() : dev.orElseThrow();
    }

    private static double gts(String s) {
        try {
            return Double.parseDouble(s.strip().split("\\s+")[0]);
        } catch (NumberFormatException e) {
            return Double.MAX_VALUE;
        }
    }

    /** The narrower of the device's and its upstream port's maximum width, 0 when unknown. */
    private static long linkWidth(Path dir) {
        long d = Sysfs.read(dir.resolve("max_link_width")).map(SysfsDetector::parseLongOrZero).orElse(0L);
        long p = Sysfs.read(dir.getParent().resolve("max_link_width")).map(SysfsDetector::parseLongOrZero).orElse(0L);
        if (d <= 0 || p <= 0) {
            return Math.max(Math.max(d, p), 0);
        }
        return Math.min(d, p);
    }

    /** Adds {@code child} before the first sibling with a greater bus id, as NCCL keeps them ordered. */
    private static void insertByBusId(XmlElement parent, XmlElement child) {
        String id = child.attr("busid").orElse("");
        List<XmlElement> kids = parent.children();
        for (int i = 0; i < kids.size(); i++) {
            String other = kids.get(i).attr("busid").orElse(null);
            if (other != null && id.compareTo(other) < 0) {
                parent.add(i, child);
                return;
            }
        }
        parent.add(child);
    }
}
