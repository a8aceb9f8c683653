// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

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
 * struct ibv_global_route
 * }
 */
public final class ibv_global_route {
    private ibv_global_route() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        ibv_gid.layout().withName("dgid"),
        C_INT.withName("flow_label"),
        C_CHAR.withName("sgid_index"),
        C_CHAR.withName("hop_limit"),
        C_CHAR.withName("traffic_class"),
        MemoryLayout.paddingLayout(1)).withName("ibv_global_route");

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

    private static final long dgid$OFFSET = $LAYOUT.byteOffset(groupElement("dgid"));

    /** Offset of {@code dgid} in bytes. */
    public static long dgid$offset() {
        return dgid$OFFSET;
    }

    private static final MemoryLayout dgid$LAYOUT = $LAYOUT.select(groupElement("dgid"));

    /** The {@code dgid} member as a slice of {@code struct}. */
    public static MemorySegment dgid(MemorySegment struct) {
        return struct.asSlice(dgid$OFFSET, dgid$LAYOUT.byteSize());
    }

    public static void dgid(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, dgid$OFFSET, dgid$LAYOUT.byteSize());
    }

    private static final long flow_label$OFFSET = $LAYOUT.byteOffset(groupElement("flow_label"));

    /** Offset of {@code flow_label} in bytes. */
    public static long flow_label$offset() {
        return flow_label$OFFSET;
    }

    private static final OfInt flow_label$LAYOUT = (OfInt) $LAYOUT.select(groupElement("flow_label"));

    public static int flow_label(MemorySegment struct) {
        return struct.get(flow_label$LAYOUT, flow_label$OFFSET);
    }

    public static void flow_label(MemorySegment struct, int fieldValue) {
        struct.set(flow_label$LAYOUT, flow_label$OFFSET, fieldValue);
    }

    private static final long sgid_index$OFFSET = $LAYOUT.byteOffset(groupElement("sgid_index"));

    /** Offset of {@code sgid_index} in bytes. */
    public static long sgid_index$offset() {
        return sgid_index$OFFSET;
    }

    private static final OfByte sgid_index$LAYOUT = (OfByte) $LAYOUT.select(groupElement("sgid_index"));

    public static byte sgid_index(MemorySegment struct) {
        return struct.get(sgid_index$LAYOUT, sgid_index$OFFSET);
    }

    public static void sgid_index(MemorySegment struct, byte fieldValue) {
        struct.set(sgid_index$LAYOUT, sgid_index$OFFSET, fieldValue);
    }

    private static final long hop_limit$OFFSET = $LAYOUT.byteOffset(groupElement("hop_limit"));

    /** Offset of {@code hop_limit} in bytes. */
    public static long hop_limit$offset() {
        return hop_limit$OFFSET;
    }

    private static final OfByte hop_limit$LAYOUT = (OfByte) $LAYOUT.select(groupElement("hop_limit"));

    public static byte hop_limit(MemorySegment struct) {
        return struct.get(hop_limit$LAYOUT, hop_limit$OFFSET);
    }

    public static void hop_limit(MemorySegment struct, byte fieldValue) {
        struct.set(hop_limit$LAYOUT, hop_limit$OFFSET, fieldValue);
    }

    private static final long traffic_class$OFFSET = $LAYOUT.byteOffset(groupElement("traffic_class"));

    /** Offset of {@code traffic_class} in bytes. */
    public static long traffic_class$offset() {
        return traffic_class$OFFSET;
    }

    private static final OfByte traffic_class$LAYOUT = (OfByte) $LAYOUT.select(groupElement("traffic_class"));

    public static byte traffic_class(MemorySegment struct) {
        return struct.get(traffic_class$LAYOUT, traffic_class$OFFSET);
    }

    public static void traffic_class(MemorySegment struct, byte fieldValue) {
        struct.set(traffic_class$LAYOUT, traffic_class$OFFSET, fieldValue);
    }
}
