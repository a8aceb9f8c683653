// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * The one device of a socket net: the interface that holds the address it listens on, as sysfs
 * describes it (its PCI device, its speed; a link that reports none counts as 10 Gbit/s, NCCL's
 * assumption).
 */
final class SocketDevice {
    private SocketDevice() {
    }

    private static final long UNKNOWN_SPEED_MBPS = 10_000;

    static NetProperties describe(InetAddress bind, int maxRequests) {
        String name = bind.getHostAddress();
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(bind);
            if (nif != null) {
                name = nif.getName();
            }
        } catch (SocketException e) {
            // named by its address then
        }
        Path sys = Path.of("/sys/class/net", name);
        String pci = null;
        long speed = UNKNOWN_SPEED_MBPS;
        try {
            Path device = sys.resolve("device");
            if (Files.exists(device)) {
                pci = device.toRealPath().toString();
            }
            long s = Long.parseLong(Files.readString(sys.resolve("speed")).trim());
            if (s > 0) {
                speed = s;
            }
        } catch (IOException | RuntimeException e) {
            // virtual links (loopback, veth) report no speed
        }
        return new NetProperties(name, pci, speed, Set.of(MemoryKind.HOST), maxRequests);
    }
}
