// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.Locale;

/**
 * Link bandwidths in GB/s, NCCL's numbers: NVLink per link and GPU generation, PCI from the link
 * speed and width, the SMP interconnect per CPU family, the network from the port speed.
 */
public final class Bandwidth {
    /** Inside one device. */
    public static final double LOC = 5000.0;
    /** PCI Gen3 x16, the unit the searches were tuned with. */
    public static final double PCI_GEN3_X16 = 12.0;

    private Bandwidth() {
    }

    /** One NVLink of a GPU of compute capability {@code sm} (major*10+minor). */
    public static double nvlink(int sm) {
        if (sm >= 100) {
            return 40.1;
        }
        if (sm >= 90) {
            return 20.6;
        }
        if (sm == 86) {
            return 12.0;
        }
        if (sm >= 80) {
            return 20.0;
        }
        if (sm >= 70) {
            return 20.0;
        }
        if (sm >= 60) {
            return 18.0;
        }
        return 20.0;
    }

    /**
     * Per-lane rate in units of 100 Mb/s for a sysfs {@code max_link_speed} string (kernels before
     * 5.6 write "8 GT/s", later ones "8.0 GT/s PCIe"); an unknown or empty string counts as Gen3.
     */
    static int pciLaneRate(String linkSpeed) {
        String s = linkSpeed == null ? "" : linkSpeed.trim();
        if (s.startsWith("2.5 GT/s")) {
            return 15;
        }
        if (s.startsWith("5 GT/s") || s.startsWith("5.0 GT/s")) {
            return 30;
        }
        if (s.startsWith("8 GT/s") || s.startsWith("8.0 GT/s")) {
            return 60;
        }
        if (s.startsWith("16 GT/s") || s.startsWith("16.0 GT/s")) {
            return 120;
        }
        if (s.startsWith("32 GT/s") || s.startsWith("32.0 GT/s")) {
            return 240;
        }
        if (s.startsWith("64 GT/s") || s.startsWith("64.0 GT/s")) {
            return 480;
        }
        return 60;
    }

    /** A PCI link: {@code width} lanes (0 or unknown counts as 16) at {@code linkSpeed}. */
    public static double pci(String linkSpeed, int width) {
        int w = width <= 0 ? 16 : width;
        return w * pciLaneRate(linkSpeed) / 80.0;
    }

    /** A network port of {@code mbps} megabits per second (unknown or negative: 10 Gb/s). */
    public static double net(long mbps) {
        return (mbps <= 0 ? 10000 : mbps) / 8000.0;
    }

    /**
     * The SMP interconnect out of a NUMA domain of this CPU: Intel by model (Broadwell QPI 6,
     * Skylake UPI 10, Sapphire Rapids 22, Emerald/Granite Rapids 40), AMD by family (Zen 1/2 16,
     * Zen 3/4 24, Zen 5 32), Zhaoxin 6 or 9, POWER9 32, Arm 6; unknown: no limit.
     */
    public static double interCpu(TopoNode.Cpu cpu) {
        String arch = cpu.arch().toLowerCase(Locale.ROOT);
        if (arch.startsWith("ppc")) {
            return 32.0;
        }
        if (arch.equals("arm64") || arch.equals("aarch64")) {
            return 6.0;
        }
        if (!arch.equals("x86_64")) {
            return LOC;
        }
        return switch (cpu.vendor().strip()) {
            case "GenuineIntel" -> {
                int f = cpu.familyId();
                int m = cpu.modelId();
                if (f == 6 && (m >= 0xCF || m == 0xAD || m == 0xAE || m == 0xAF)) {
                    yield 40.0;
                }
                if (f == 6 && m >= 0x8F) {
                    yield 22.0;
                }
                if (f == 6 && m >= 0x55) {
                    yield 10.0;
                }
                yield 6.0;
            }
            case "AuthenticAMD" -> switch (cpu.familyId()) {
                case 26, 0xBF -> 32.0;
                case 25, 0xAF -> 24.0;
                default -> 16.0;
            };
            case "CentaurHauls", "Shanghai" -> cpu.familyId() == 7 && cpu.modelId() == 0x5B ? 9.0 : 6.0;
            default -> LOC;
        };
    }

    /** Whether the CPU is an Intel x86, whose root complex turns GPU peer traffic into 64-byte TLPs. */
    static boolean intelX86(TopoNode.Cpu cpu) {
        return cpu.arch().equals("x86_64") && cpu.vendor().strip().equals("GenuineIntel");
    }
}
