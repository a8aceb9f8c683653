// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.log.Log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * What identifies this host and this process to the other ranks.
 *
 * <p>The host identity is the kernel's boot id ({@code /proc/sys/kernel/random/boot_id}, random
 * per boot, as in NCCL's host hash) joined with this process's network namespace
 * ({@code /proc/self/ns/net}, e.g. {@code net:[4026531833]}). The namespace matters because
 * containers and the network-namespace "hosts" of the multi-host tests share one kernel and so one
 * boot id: ranks in different network namespaces count as different hosts and talk over the
 * network, as they would across machines. {@code JCCL_HOSTID} replaces the detected identity
 * (tests, or sites that know better). Where {@code /proc} is missing the host name stands in.
 */
final class HostIdentity {
    /** Random per JVM: ranks with equal values are threads of one process. */
    static final long PROCESS_ID = processId();

    private static final String DETECTED = detect();

    private HostIdentity() {
    }

    private static long processId() {
        long v = 0;
        SecureRandom r = new SecureRandom();
        while (v == 0) {
            v = r.nextLong();
        }
        return v;
    }

    static String hostId(Config config) {
        return config.hostId().orElse(DETECTED);
    }

    private static String detect() {
        String boot = read(Path.of("/proc/sys/kernel/random/boot_id"));
        String netns;
        try {
            netns = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            netns = null;
        }
        if (boot == null) {
            return "host:" + hostname();
        }
        return boot + (netns == null ? "" : "/" + netns);
    }

    /** This host's name as the kernel knows it (no DNS lookup). */
    static String hostname() {
        return Log.hostname();
    }

    /**
     * The device number of {@code /dev/shm}, as NCCL's {@code shmDev}: ranks of one host share
     * memory files only when it is equal (containers may mount their own). -1 when unknown.
     */
    static long shmDevice() {
        try {
            return ((Number) Files.getAttribute(Path.of("/dev/shm"), "unix:dev")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return -1;
        }
    }

    private static String read(Path p) {
        try {
            String s = Files.readString(p).trim();
            return s.isEmpty() ? null : s;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
