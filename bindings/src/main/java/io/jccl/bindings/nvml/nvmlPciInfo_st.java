// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.nvml;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfByte;
import java.lang.foreign.ValueLayout.OfInt;

/**
 * {@snippet lang=c :
 * typedef struct nvmlPciInfo_st { char busIdLegacy[16]; unsigned int domain, bus, device, pciDeviceId, pciSubSystemId; char busId[32]; } nvmlPciInfo_t
 * }
 */
public final class nvmlPciInfo_st {
    private nvmlPciInfo_st() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(16, C_CHAR).withName("busIdLegacy"),
        C_INT.withName("domain"),
        C_INT.withName("bus"),
        C_INT.withName("device"),
        C_INT.withName("pciDeviceId"),
        C_INT.withName("pciSubSystemId"),
        MemoryLayout.sequenceLayout(32, C_CHAR).withName("busId")).withName("nvmlPciInfo_st");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate($LAYOUT);
    }

    public static MemorySegment allocateArray(long count, SegmentAllocator allocator) {
        return allocator.allocate(MemoryLayout.sequenceLayout(count, $LAYOUT));
    }

    /** Element {@code index} of an array of this struct. */
    public static MemorySegment asSlice(MemorySegment array, long index) {
        return array.asSlice($LAYOUT.byteSize() * index, $LAYOUT.byteSize());
    }

    /** A pointer to this struct, as returned by the library, widened to the struct's size. */
    public static MemorySegment reinterpret(MemorySegment address) {
        return address.reinterpret($LAYOUT.byteSize());
    }

    private static final long busIdLegacy$OFFSET = $LAYOUT.byteOffset(groupElement("busIdLegacy"));

    /** Offset of {@code busIdLegacy} in bytes. */
    public static long busIdLegacy$offset() {
        return busIdLegacy$OFFSET;
    }

    private static final MemoryLayout busIdLegacy$LAYOUT = $LAYOUT.select(groupElement("busIdLegacy"));

    /** The {@code busIdLegacy} member as a slice of {@code struct}. */
    public static MemorySegment busIdLegacy(MemorySegment struct) {
        return struct.asSlice(busIdLegacy$OFFSET, busIdLegacy$LAYOUT.byteSize());
    }

    public static void busIdLegacy(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, busIdLegacy$OFFSET, busIdLegacy$LAYOUT.byteSize());
    }

    private static final long domain$OFFSET = $LAYOUT.byteOffset(groupElement("domain"));

    /** Offset of {@code domain} in bytes. */
    public static long domain$offset() {
        return domain$OFFSET;
    }

    private static final OfInt domain$LAYOUT = (OfInt) $LAYOUT.select(groupElement("domain"));

    public static int domain(MemorySegment struct) {
        return struct.get(domain$LAYOUT, domain$OFFSET);
    }

    public static void domain(MemorySegment struct, int fieldValue) {
        struct.set(domain$LAYOUT, domain$OFFSET, fieldValue);
    }

    private static final long bus$OFFSET = $LAYOUT.byteOffset(groupElement("bus"));

    /** Offset of {@code bus} in bytes. */
    public static long bus$offset() {
        return bus$OFFSET;
    }

    private static final OfInt bus$LAYOUT = (OfInt) $LAYOUT.select(groupElement("bus"));

    public static int bus(MemorySegment struct) {
        return struct.get(bus$LAYOUT, bus$OFFSET);
    }

    public static void bus(MemorySegment struct, int fieldValue) {
        struct.set(bus$LAYOUT, bus$OFFSET, fieldValue);
    }

    private static final long device$OFFSET = $LAYOUT.byteOffset(groupElement("device"));

    /** Offset of {@code device} in bytes. */
    public static long device$offset() {
        return device$OFFSET;
    }

    private static final OfInt device$LAYOUT = (OfInt) $LAYOUT.select(groupElement("device"));

    public static int device(MemorySegment struct) {
        return struct.get(device$LAYOUT, device$OFFSET);
    }

    public static void device(MemorySegment struct, int fieldValue) {
        struct.set(device$LAYOUT, device$OFFSET, fieldValue);
    }

    private static final long pciDeviceId$OFFSET = $LAYOUT.byteOffset(groupElement("pciDeviceId"));

    /** Offset of {@code pciDeviceId} in bytes. */
    public static long pciDeviceId$offset() {
        return pciDeviceId$OFFSET;
    }

    private static final OfInt pciDeviceId$LAYOUT = (OfInt) $LAYOUT.select(groupElement("pciDeviceId"));

    public static int pciDeviceId(MemorySegment struct) {
        return struct.get(pciDeviceId$LAYOUT, pciDeviceId$OFFSET);
    }

    public static void pciDeviceId(MemorySegment struct, int fieldValue) {
        struct.set(pciDeviceId$LAYOUT, pciDeviceId$OFFSET, fieldValue);
    }

    private static final long pciSubSystemId$OFFSET = $LAYOUT.byteOffset(groupElement("pciSubSystemId"));

    /** Offset of {@code pciSubSystemId} in bytes. */
    public static long pciSubSystemId$offset() {
        return pciSubSystemId$OFFSET;
    }

    private static final OfInt pciSubSystemId$LAYOUT = (OfInt) $LAYOUT.select(groupElement("pciSubSystemId"));

    public static int pciSubSystemId(MemorySegment struct) {
        return struct.get(pciSubSystemId$LAYOUT, pciSubSystemId$OFFSET);
    }

    public static void pciSubSystemId(MemorySegment struct, int fieldValue) {
        struct.set(pciSubSystemId$LAYOUT, pciSubSystemId$OFFSET, fieldValue);
    }

    private static final long busId$OFFSET = $LAYOUT.byteOffset(groupElement("busId"));

    /** Offset of {@code busId} in bytes. */
    public static long busId$offset() {
        return busId$OFFSET;
    }

    private static final MemoryLayout busId$LAYOUT = $LAYOUT.select(groupElement("busId"));

    /** The {@code busId} member as a slice of {@code struct}. */
    public static MemorySegment busId(MemorySegment struct) {
        return struct.asSlice(busId$OFFSET, busId$LAYOUT.byteSize());
    }

    public static void busId(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, busId$OFFSET, busId$LAYOUT.byteSize());
    }
}
