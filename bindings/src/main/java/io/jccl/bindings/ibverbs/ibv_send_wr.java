// SPDX-License-Identifier: Apache-2.0
package io.jccl.bindings.ibverbs;

import static io.jccl.bindings.CLayouts.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout.OfInt;
import java.lang.foreign.ValueLayout.OfLong;
import java.lang.foreign.ValueLayout.OfShort;

/**
 * {@snippet lang=c :
 * struct ibv_send_wr
 * }
 */
public final class ibv_send_wr {
    private ibv_send_wr() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
        C_LONG.withName("wr_id"),
        C_POINTER.withName("next"),
        C_POINTER.withName("sg_list"),
        C_INT.withName("num_sge"),
        C_INT.withName("opcode"),
        C_INT.withName("send_flags"),
        MemoryLayout.unionLayout(
            C_INT.withName("imm_data"),
            C_INT.withName("invalidate_rkey")).withName("$anon$0"),
        MemoryLayout.unionLayout(
            MemoryLayout.structLayout(
                C_LONG.withName("remote_addr"),
                C_INT.withName("rkey"),
                MemoryLayout.paddingLayout(4)).withName("rdma"),
            MemoryLayout.structLayout(
                C_LONG.withName("remote_addr"),
                C_LONG.withName("compare_add"),
                C_LONG.withName("swap"),
                C_INT.withName("rkey"),
                MemoryLayout.paddingLayout(4)).withName("atomic"),
            MemoryLayout.structLayout(
                C_POINTER.withName("ah"),
                C_INT.withName("remote_qpn"),
                C_INT.withName("remote_qkey")).withName("ud")).withName("wr"),
        MemoryLayout.unionLayout(
            MemoryLayout.structLayout(
                C_INT.withName("remote_srqn")).withName("xrc")).withName("qp_type"),
        MemoryLayout.paddingLayout(4),
        MemoryLayout.unionLayout(
            MemoryLayout.structLayout(
                C_POINTER.withName("mw"),
                C_INT.withName("rkey"),
                MemoryLayout.paddingLayout(4),
                ibv_mw_bind_info.layout().withName("bind_info")).withName("bind_mw"),
            MemoryLayout.structLayout(
                C_POINTER.withName("hdr"),
                C_SHORT.withName("hdr_sz"),
                C_SHORT.withName("mss"),
                MemoryLayout.paddingLayout(4)).withName("tso")).withName("$anon$1")).withName("ibv_send_wr");

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

    private static final long wr_id$OFFSET = $LAYOUT.byteOffset(groupElement("wr_id"));

    /** Offset of {@code wr_id} in bytes. */
    public static long wr_id$offset() {
        return wr_id$OFFSET;
    }

    private static final OfLong wr_id$LAYOUT = (OfLong) $LAYOUT.select(groupElement("wr_id"));

    public static long wr_id(MemorySegment struct) {
        return struct.get(wr_id$LAYOUT, wr_id$OFFSET);
    }

    public static void wr_id(MemorySegment struct, long fieldValue) {
        struct.set(wr_id$LAYOUT, wr_id$OFFSET, fieldValue);
    }

    private static final long next$OFFSET = $LAYOUT.byteOffset(groupElement("next"));

    /** Offset of {@code next} in bytes. */
    public static long next$offset() {
        return next$OFFSET;
    }

    private static final AddressLayout next$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("next"));

    public static MemorySegment next(MemorySegment struct) {
        return struct.get(next$LAYOUT, next$OFFSET);
    }

    public static void next(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(next$LAYOUT, next$OFFSET, fieldValue);
    }

    private static final long sg_list$OFFSET = $LAYOUT.byteOffset(groupElement("sg_list"));

    /** Offset of {@code sg_list} in bytes. */
    public static long sg_list$offset() {
        return sg_list$OFFSET;
    }

    private static final AddressLayout sg_list$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("sg_list"));

    public static MemorySegment sg_list(MemorySegment struct) {
        return struct.get(sg_list$LAYOUT, sg_list$OFFSET);
    }

    public static void sg_list(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(sg_list$LAYOUT, sg_list$OFFSET, fieldValue);
    }

    private static final long num_sge$OFFSET = $LAYOUT.byteOffset(groupElement("num_sge"));

    /** Offset of {@code num_sge} in bytes. */
    public static long num_sge$offset() {
        return num_sge$OFFSET;
    }

    private static final OfInt num_sge$LAYOUT = (OfInt) $LAYOUT.select(groupElement("num_sge"));

    public static int num_sge(MemorySegment struct) {
        return struct.get(num_sge$LAYOUT, num_sge$OFFSET);
    }

    public static void num_sge(MemorySegment struct, int fieldValue) {
        struct.set(num_sge$LAYOUT, num_sge$OFFSET, fieldValue);
    }

    private static final long opcode$OFFSET = $LAYOUT.byteOffset(groupElement("opcode"));

    /** Offset of {@code opcode} in bytes. */
    public static long opcode$offset() {
        return opcode$OFFSET;
    }

    private static final OfInt opcode$LAYOUT = (OfInt) $LAYOUT.select(groupElement("opcode"));

    public static int opcode(MemorySegment struct) {
        return struct.get(opcode$LAYOUT, opcode$OFFSET);
    }

    public static void opcode(MemorySegment struct, int fieldValue) {
        struct.set(opcode$LAYOUT, opcode$OFFSET, fieldValue);
    }

    private static final long send_flags$OFFSET = $LAYOUT.byteOffset(groupElement("send_flags"));

    /** Offset of {@code send_flags} in bytes. */
    public static long send_flags$offset() {
        return send_flags$OFFSET;
    }

    private static final OfInt send_flags$LAYOUT = (OfInt) $LAYOUT.select(groupElement("send_flags"));

    public static int send_flags(MemorySegment struct) {
        return struct.get(send_flags$LAYOUT, send_flags$OFFSET);
    }

    public static void send_flags(MemorySegment struct, int fieldValue) {
        struct.set(send_flags$LAYOUT, send_flags$OFFSET, fieldValue);
    }

    private static final long imm_data$OFFSET = $LAYOUT.byteOffset(groupElement("$anon$0"), groupElement("imm_data"));

    /** Offset of {@code imm_data} in bytes. */
    public static long imm_data$offset() {
        return imm_data$OFFSET;
    }

    private static final OfInt imm_data$LAYOUT = (OfInt) $LAYOUT.select(groupElement("$anon$0"), groupElement("imm_data"));

    public static int imm_data(MemorySegment struct) {
        return struct.get(imm_data$LAYOUT, imm_data$OFFSET);
    }

    public static void imm_data(MemorySegment struct, int fieldValue) {
        struct.set(imm_data$LAYOUT, imm_data$OFFSET, fieldValue);
    }

    private static final long invalidate_rkey$OFFSET = $LAYOUT.byteOffset(groupElement("$anon$0"), groupElement("invalidate_rkey"));

    /** Offset of {@code invalidate_rkey} in bytes. */
    public static long invalidate_rkey$offset() {
        return invalidate_rkey$OFFSET;
    }

    private static final OfInt invalidate_rkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("$anon$0"), groupElement("invalidate_rkey"));

    public static int invalidate_rkey(MemorySegment struct) {
        return struct.get(invalidate_rkey$LAYOUT, invalidate_rkey$OFFSET);
    }

    public static void invalidate_rkey(MemorySegment struct, int fieldValue) {
        struct.set(invalidate_rkey$LAYOUT, invalidate_rkey$OFFSET, fieldValue);
    }

    private static final long wr$OFFSET = $LAYOUT.byteOffset(groupElement("wr"));

    /** Offset of {@code wr} in bytes. */
    public static long wr$offset() {
        return wr$OFFSET;
    }

    private static final MemoryLayout wr$LAYOUT = $LAYOUT.select(groupElement("wr"));

    /** The {@code wr} member as a slice of {@code struct}. */
    public static MemorySegment wr(MemorySegment struct) {
        return struct.asSlice(wr$OFFSET, wr$LAYOUT.byteSize());
    }

    /** The unnamed union type of member {@code wr}. */
    public static final class wr {
        private wr() {}

        private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.$LAYOUT.select(groupElement("wr"));

        public static GroupLayout layout() {
            return $LAYOUT;
        }

        private static final long rdma$OFFSET = $LAYOUT.byteOffset(groupElement("rdma"));

        /** Offset of {@code rdma} in bytes. */
        public static long rdma$offset() {
            return rdma$OFFSET;
        }

        private static final MemoryLayout rdma$LAYOUT = $LAYOUT.select(groupElement("rdma"));

        /** The {@code rdma} member as a slice of {@code struct}. */
        public static MemorySegment rdma(MemorySegment struct) {
            return struct.asSlice(rdma$OFFSET, rdma$LAYOUT.byteSize());
        }

        /** The unnamed struct type of member {@code rdma}. */
        public static final class rdma {
            private rdma() {}

            private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.wr.$LAYOUT.select(groupElement("rdma"));

            public static GroupLayout layout() {
                return $LAYOUT;
            }

            private static final long remote_addr$OFFSET = $LAYOUT.byteOffset(groupElement("remote_addr"));

            /** Offset of {@code remote_addr} in bytes. */
            public static long remote_addr$offset() {
                return remote_addr$OFFSET;
            }

            private static final OfLong remote_addr$LAYOUT = (OfLong) $LAYOUT.select(groupElement("remote_addr"));

            public static long remote_addr(MemorySegment struct) {
                return struct.get(remote_addr$LAYOUT, remote_addr$OFFSET);
            }

            public static void remote_addr(MemorySegment struct, long fieldValue) {
                struct.set(remote_addr$LAYOUT, remote_addr$OFFSET, fieldValue);
            }

            private static final long rkey$OFFSET = $LAYOUT.byteOffset(groupElement("rkey"));

            /** Offset of {@code rkey} in bytes. */
            public static long rkey$offset() {
                return rkey$OFFSET;
            }

            private static final OfInt rkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("rkey"));

            public static int rkey(MemorySegment struct) {
                return struct.get(rkey$LAYOUT, rkey$OFFSET);
            }

            public static void rkey(MemorySegment struct, int fieldValue) {
                struct.set(rkey$LAYOUT, rkey$OFFSET, fieldValue);
            }
        }

        private static final long atomic$OFFSET = $LAYOUT.byteOffset(groupElement("atomic"));

        /** Offset of {@code atomic} in bytes. */
        public static long atomic$offset() {
            return atomic$OFFSET;
        }

        private static final MemoryLayout atomic$LAYOUT = $LAYOUT.select(groupElement("atomic"));

        /** The {@code atomic} member as a slice of {@code struct}. */
        public static MemorySegment atomic(MemorySegment struct) {
            return struct.asSlice(atomic$OFFSET, atomic$LAYOUT.byteSize());
        }

        /** The unnamed struct type of member {@code atomic}. */
        public static final class atomic {
            private atomic() {}

            private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.wr.$LAYOUT.select(groupElement("atomic"));

            public static GroupLayout layout() {
                return $LAYOUT;
            }

            private static final long remote_addr$OFFSET = $LAYOUT.byteOffset(groupElement("remote_addr"));

            /** Offset of {@code remote_addr} in bytes. */
            public static long remote_addr$offset() {
                return remote_addr$OFFSET;
            }

            private static final OfLong remote_addr$LAYOUT = (OfLong) $LAYOUT.select(groupElement("remote_addr"));

            public static long remote_addr(MemorySegment struct) {
                return struct.get(remote_addr$LAYOUT, remote_addr$OFFSET);
            }

            public static void remote_addr(MemorySegment struct, long fieldValue) {
                struct.set(remote_addr$LAYOUT, remote_addr$OFFSET, fieldValue);
            }

            private static final long compare_add$OFFSET = $LAYOUT.byteOffset(groupElement("compare_add"));

            /** Offset of {@code compare_add} in bytes. */
            public static long compare_add$offset() {
                return compare_add$OFFSET;
            }

            private static final OfLong compare_add$LAYOUT = (OfLong) $LAYOUT.select(groupElement("compare_add"));

            public static long compare_add(MemorySegment struct) {
                return struct.get(compare_add$LAYOUT, compare_add$OFFSET);
            }

            public static void compare_add(MemorySegment struct, long fieldValue) {
                struct.set(compare_add$LAYOUT, compare_add$OFFSET, fieldValue);
            }

            private static final long swap$OFFSET = $LAYOUT.byteOffset(groupElement("swap"));

            /** Offset of {@code swap} in bytes. */
            public static long swap$offset() {
                return swap$OFFSET;
            }

            private static final OfLong swap$LAYOUT = (OfLong) $LAYOUT.select(groupElement("swap"));

            public static long swap(MemorySegment struct) {
                return struct.get(swap$LAYOUT, swap$OFFSET);
            }

            public static void swap(MemorySegment struct, long fieldValue) {
                struct.set(swap$LAYOUT, swap$OFFSET, fieldValue);
            }

            private static final long rkey$OFFSET = $LAYOUT.byteOffset(groupElement("rkey"));

            /** Offset of {@code rkey} in bytes. */
            public static long rkey$offset() {
                return rkey$OFFSET;
            }

            private static final OfInt rkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("rkey"));

            public static int rkey(MemorySegment struct) {
                return struct.get(rkey$LAYOUT, rkey$OFFSET);
            }

            public static void rkey(MemorySegment struct, int fieldValue) {
                struct.set(rkey$LAYOUT, rkey$OFFSET, fieldValue);
            }
        }

        private static final long ud$OFFSET = $LAYOUT.byteOffset(groupElement("ud"));

        /** Offset of {@code ud} in bytes. */
        public static long ud$offset() {
            return ud$OFFSET;
        }

        private static final MemoryLayout ud$LAYOUT = $LAYOUT.select(groupElement("ud"));

        /** The {@code ud} member as a slice of {@code struct}. */
        public static MemorySegment ud(MemorySegment struct) {
            return struct.asSlice(ud$OFFSET, ud$LAYOUT.byteSize());
        }

        /** The unnamed struct type of member {@code ud}. */
        public static final class ud {
            private ud() {}

            private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.wr.$LAYOUT.select(groupElement("ud"));

            public static GroupLayout layout() {
                return $LAYOUT;
            }

            private static final long ah$OFFSET = $LAYOUT.byteOffset(groupElement("ah"));

            /** Offset of {@code ah} in bytes. */
            public static long ah$offset() {
                return ah$OFFSET;
            }

            private static final AddressLayout ah$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("ah"));

            public static MemorySegment ah(MemorySegment struct) {
                return struct.get(ah$LAYOUT, ah$OFFSET);
            }

            public static void ah(MemorySegment struct, MemorySegment fieldValue) {
                struct.set(ah$LAYOUT, ah$OFFSET, fieldValue);
            }

            private static final long remote_qpn$OFFSET = $LAYOUT.byteOffset(groupElement("remote_qpn"));

            /** Offset of {@code remote_qpn} in bytes. */
            public static long remote_qpn$offset() {
                return remote_qpn$OFFSET;
            }

            private static final OfInt remote_qpn$LAYOUT = (OfInt) $LAYOUT.select(groupElement("remote_qpn"));

            public static int remote_qpn(MemorySegment struct) {
                return struct.get(remote_qpn$LAYOUT, remote_qpn$OFFSET);
            }

            public static void remote_qpn(MemorySegment struct, int fieldValue) {
                struct.set(remote_qpn$LAYOUT, remote_qpn$OFFSET, fieldValue);
            }

            private static final long remote_qkey$OFFSET = $LAYOUT.byteOffset(groupElement("remote_qkey"));

            /** Offset of {@code remote_qkey} in bytes. */
            public static long remote_qkey$offset() {
                return remote_qkey$OFFSET;
            }

            private static final OfInt remote_qkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("remote_qkey"));

            public static int remote_qkey(MemorySegment struct) {
                return struct.get(remote_qkey$LAYOUT, remote_qkey$OFFSET);
            }

            public static void remote_qkey(MemorySegment struct, int fieldValue) {
                struct.set(remote_qkey$LAYOUT, remote_qkey$OFFSET, fieldValue);
            }
        }
    }

    private static final long qp_type$OFFSET = $LAYOUT.byteOffset(groupElement("qp_type"));

    /** Offset of {@code qp_type} in bytes. */
    public static long qp_type$offset() {
        return qp_type$OFFSET;
    }

    private static final MemoryLayout qp_type$LAYOUT = $LAYOUT.select(groupElement("qp_type"));

    /** The {@code qp_type} member as a slice of {@code struct}. */
    public static MemorySegment qp_type(MemorySegment struct) {
        return struct.asSlice(qp_type$OFFSET, qp_type$LAYOUT.byteSize());
    }

    /** The unnamed union type of member {@code qp_type}. */
    public static final class qp_type {
        private qp_type() {}

        private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.$LAYOUT.select(groupElement("qp_type"));

        public static GroupLayout layout() {
            return $LAYOUT;
        }

        private static final long xrc$OFFSET = $LAYOUT.byteOffset(groupElement("xrc"));

        /** Offset of {@code xrc} in bytes. */
        public static long xrc$offset() {
            return xrc$OFFSET;
        }

        private static final MemoryLayout xrc$LAYOUT = $LAYOUT.select(groupElement("xrc"));

        /** The {@code xrc} member as a slice of {@code struct}. */
        public static MemorySegment xrc(MemorySegment struct) {
            return struct.asSlice(xrc$OFFSET, xrc$LAYOUT.byteSize());
        }

        /** The unnamed struct type of member {@code xrc}. */
        public static final class xrc {
            private xrc() {}

            private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.qp_type.$LAYOUT.select(groupElement("xrc"));

            public static GroupLayout layout() {
                return $LAYOUT;
            }

            private static final long remote_srqn$OFFSET = $LAYOUT.byteOffset(groupElement("remote_srqn"));

            /** Offset of {@code remote_srqn} in bytes. */
            public static long remote_srqn$offset() {
                return remote_srqn$OFFSET;
            }

            private static final OfInt remote_srqn$LAYOUT = (OfInt) $LAYOUT.select(groupElement("remote_srqn"));

            public static int remote_srqn(MemorySegment struct) {
                return struct.get(remote_srqn$LAYOUT, remote_srqn$OFFSET);
            }

            public static void remote_srqn(MemorySegment struct, int fieldValue) {
                struct.set(remote_srqn$LAYOUT, remote_srqn$OFFSET, fieldValue);
            }
        }
    }

    private static final long bind_mw$OFFSET = $LAYOUT.byteOffset(groupElement("$anon$1"), groupElement("bind_mw"));

    /** Offset of {@code bind_mw} in bytes. */
    public static long bind_mw$offset() {
        return bind_mw$OFFSET;
    }

    private static final MemoryLayout bind_mw$LAYOUT = $LAYOUT.select(groupElement("$anon$1"), groupElement("bind_mw"));

    /** The {@code bind_mw} member as a slice of {@code struct}. */
    public static MemorySegment bind_mw(MemorySegment struct) {
        return struct.asSlice(bind_mw$OFFSET, bind_mw$LAYOUT.byteSize());
    }

    /** The unnamed struct type of member {@code bind_mw}. */
    public static final class bind_mw {
        private bind_mw() {}

        private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.$LAYOUT.select(groupElement("$anon$1"), groupElement("bind_mw"));

        public static GroupLayout layout() {
            return $LAYOUT;
        }

        private static final long mw$OFFSET = $LAYOUT.byteOffset(groupElement("mw"));

        /** Offset of {@code mw} in bytes. */
        public static long mw$offset() {
            return mw$OFFSET;
        }

        private static final AddressLayout mw$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("mw"));

        public static MemorySegment mw(MemorySegment struct) {
            return struct.get(mw$LAYOUT, mw$OFFSET);
        }

        public static void mw(MemorySegment struct, MemorySegment fieldValue) {
            struct.set(mw$LAYOUT, mw$OFFSET, fieldValue);
        }

        private static final long rkey$OFFSET = $LAYOUT.byteOffset(groupElement("rkey"));

        /** Offset of {@code rkey} in bytes. */
        public static long rkey$offset() {
            return rkey$OFFSET;
        }

        private static final OfInt rkey$LAYOUT = (OfInt) $LAYOUT.select(groupElement("rkey"));

        public static int rkey(MemorySegment struct) {
            return struct.get(rkey$LAYOUT, rkey$OFFSET);
        }

        public static void rkey(MemorySegment struct, int fieldValue) {
            struct.set(rkey$LAYOUT, rkey$OFFSET, fieldValue);
        }

        private static final long bind_info$OFFSET = $LAYOUT.byteOffset(groupElement("bind_info"));

        /** Offset of {@code bind_info} in bytes. */
        public static long bind_info$offset() {
            return bind_info$OFFSET;
        }

        private static final MemoryLayout bind_info$LAYOUT = $LAYOUT.select(groupElement("bind_info"));

        /** The {@code bind_info} member as a slice of {@code struct}. */
        public static MemorySegment bind_info(MemorySegment struct) {
            return struct.asSlice(bind_info$OFFSET, bind_info$LAYOUT.byteSize());
        }

        public static void bind_info(MemorySegment struct, MemorySegment fieldValue) {
            MemorySegment.copy(fieldValue, 0L, struct, bind_info$OFFSET, bind_info$LAYOUT.byteSize());
        }
    }

    private static final long tso$OFFSET = $LAYOUT.byteOffset(groupElement("$anon$1"), groupElement("tso"));

    /** Offset of {@code tso} in bytes. */
    public static long tso$offset() {
        return tso$OFFSET;
    }

    private static final MemoryLayout tso$LAYOUT = $LAYOUT.select(groupElement("$anon$1"), groupElement("tso"));

    /** The {@code tso} member as a slice of {@code struct}. */
    public static MemorySegment tso(MemorySegment struct) {
        return struct.asSlice(tso$OFFSET, tso$LAYOUT.byteSize());
    }

    /** The unnamed struct type of member {@code tso}. */
    public static final class tso {
        private tso() {}

        private static final GroupLayout $LAYOUT = (GroupLayout) ibv_send_wr.$LAYOUT.select(groupElement("$anon$1"), groupElement("tso"));

        public static GroupLayout layout() {
            return $LAYOUT;
        }

        private static final long hdr$OFFSET = $LAYOUT.byteOffset(groupElement("hdr"));

        /** Offset of {@code hdr} in bytes. */
        public static long hdr$offset() {
            return hdr$OFFSET;
        }

        private static final AddressLayout hdr$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("hdr"));

        public static MemorySegment hdr(MemorySegment struct) {
            return struct.get(hdr$LAYOUT, hdr$OFFSET);
        }

        public static void hdr(MemorySegment struct, MemorySegment fieldValue) {
            struct.set(hdr$LAYOUT, hdr$OFFSET, fieldValue);
        }

        private static final long hdr_sz$OFFSET = $LAYOUT.byteOffset(groupElement("hdr_sz"));

        /** Offset of {@code hdr_sz} in bytes. */
        public static long hdr_sz$offset() {
            return hdr_sz$OFFSET;
        }

        private static final OfShort hdr_sz$LAYOUT = (OfShort) $LAYOUT.select(groupElement("hdr_sz"));

        public static short hdr_sz(MemorySegment struct) {
            return struct.get(hdr_sz$LAYOUT, hdr_sz$OFFSET);
        }

        public static void hdr_sz(MemorySegment struct, short fieldValue) {
            struct.set(hdr_sz$LAYOUT, hdr_sz$OFFSET, fieldValue);
        }

        private static final long mss$OFFSET = $LAYOUT.byteOffset(groupElement("mss"));

        /** Offset of {@code mss} in bytes. */
        public static long mss$offset() {
            return mss$OFFSET;
        }

        private static final OfShort mss$LAYOUT = (OfShort) $LAYOUT.select(groupElement("mss"));

        public static short mss(MemorySegment struct) {
            return struct.get(mss$LAYOUT, mss$OFFSET);
        }

        public static void mss(MemorySegment struct, short fieldValue) {
            struct.set(mss$LAYOUT, mss$OFFSET, fieldValue);
        }
    }
}
