// SPDX-License-Identifier: Apache-2.0
/*
 * The work descriptors the Java side (io.jccl.engine.cuda.WorkPacker) writes into device memory
 * and the executor kernels (jccl_kernels.cu) interpret, and the protocol constants both sides and
 * the host engine share (io.jccl.proto.Protocol). Plain C with fixed-width fields so that g++ can
 * compile it host-side: kernels-ptx's LayoutProbeTest compares every offset and size with the
 * Java MemoryLayouts of io.jccl.kernels.WorkLayout, and core's KernelProtocolConstantsTest every
 * constant with io.jccl.proto.Protocol.
 *
 * One launch runs the operations of one call or group of one rank: a thread block per lane (blockIdx.x), or per pair
 * of lanes (jccl_work.pairedLanes), each walking every segment of the rank's plan, every tile of the
 * segment, and that lane's steps in order, as io.jccl.engine.host.LaneExecutor does.
 */
#ifndef JCCL_WORK_H
#define JCCL_WORK_H

#include <stdint.h>

/* ---- protocols (io.jccl.proto.Protocol) ---- */
#define JCCL_STEPS 8                 /* slots per FIFO */
#define JCCL_HEADER_BYTES 8          /* LL and LL128: the message size ahead of the data */
#define JCCL_LL_LINE_BYTES 16        /* {data1, flag1, data2, flag2}, 4-byte words */
#define JCCL_LL_DATA_BYTES 8
#define JCCL_LL128_LINE_BYTES 128    /* 15 data words and the 8-byte flag word */
#define JCCL_LL128_DATA_BYTES 120
#define JCCL_LL_CLEAN_INTERVAL 2147483648ULL /* 2^31: the LL sender rewrites a slot's flags */

/* ---- a FIFO in the receiver's memory: the host engine's offsets ---- */
#define JCCL_FIFO_HEAD 0             /* uint64: messages the receiver has released */
#define JCCL_FIFO_TAIL 64            /* uint64: messages the sender has published */
#define JCCL_FIFO_SIZES 128          /* uint64[JCCL_STEPS]: Simple message sizes per slot */
#define JCCL_FIFO_SLOTS 256          /* JCCL_STEPS slots of slotBytes */

/* jccl_conn.flags: the other end of the FIFO is the CPU (the socket proxy reads or fills it in
 * pinned host memory), so its counters are acquired and released at system scope, not GPU scope. */
#define JCCL_CONN_SYSTEM 1

/* ---- kernels ---- */
#define JCCL_PROTO_LL 0
#define JCCL_PROTO_LL128 1
#define JCCL_PROTO_SIMPLE 2
#define JCCL_MAX_LINKS 4             /* receive or send links of one step */
#define JCCL_MAX_THREADS 640         /* __launch_bounds__ of every executor */
#define JCCL_MAX_BATCH 8             /* operations of one launch */

/* step kinds: the ordinals of io.jccl.plan.StepKind */
#define JCCL_SEND 0
#define JCCL_RECV 1
#define JCCL_RECV_REDUCE_SEND 2
#define JCCL_RECV_REDUCE_COPY 3
#define JCCL_RECV_REDUCE_COPY_SEND 4
#define JCCL_RECV_COPY_SEND 5
#define JCCL_COPY_SEND 6
#define JCCL_LOCAL_COPY 7

/* step flags */
#define JCCL_STEP_POST_OP 1          /* apply the post-operation (AVG's division) to the result */
#define JCCL_STEP_PRE_SRC 2          /* the source is the input buffer: apply the pre-operation */
#define JCCL_STEP_SRC_OUTPUT 4       /* the source region is in the output buffer (else input) */
#define JCCL_STEP_DST_OUTPUT 8       /* the destination region is in the output buffer */
#define JCCL_STEP_SRC_SCRATCH 16     /* the source region is in the operation's scratch, unshifted */
#define JCCL_STEP_DST_SCRATCH 32     /* the destination region is in the operation's scratch, unshifted */

/* reductions: the ordinals of io.jccl.RedOp.Kind, and none */
#define JCCL_OP_SUM 0
#define JCCL_OP_PROD 1
#define JCCL_OP_MAX 2
#define JCCL_OP_MIN 3
#define JCCL_OP_AVG 4
#define JCCL_OP_PRE_MUL_SUM 5
#define JCCL_OP_NONE 6

/* status codes */
#define JCCL_STATUS_OK 0
#define JCCL_STATUS_TIMEOUT 1        /* a wait passed the deadline */
#define JCCL_STATUS_SIZE_MISMATCH 2  /* a message's size is not what the step expects */
#define JCCL_STATUS_ABORTED 3        /* another lane or rank failed first */
#define JCCL_STATUS_BAD_WORK 4       /* a descriptor the kernel cannot run */

/* The one parameter of every executor, by value: the operations the launch runs, in order. */
typedef struct jccl_batch {
    uint64_t works[JCCL_MAX_BATCH]; /* device addresses of jccl_work descriptors */
    uint32_t count;
    uint32_t pad;
} jccl_batch;

/* ---- the direct kernels: one call of every rank on one GPU, in one launch ---- */
#define JCCL_DIRECT_MAX_RANKS 32     /* ranks one direct launch serves */
#define JCCL_DIRECT_THREADS 512      /* threads per block of the direct kernels */
/* what each rank's output holds (io.jccl.Collective): the ranks' parts are `count` elements */
#define JCCL_DIRECT_ALL_REDUCE 0     /* out[r] = reduction of every in[k] */
#define JCCL_DIRECT_REDUCE 1         /* out[root] = reduction of every in[k] */
#define JCCL_DIRECT_BROADCAST 2      /* out[r] = in[root] */
#define JCCL_DIRECT_ALL_GATHER 3     /* out[r] part k = in[k] */
#define JCCL_DIRECT_REDUCE_SCATTER 4 /* out[r] = reduction of every in[k] part r */
#define JCCL_DIRECT_ALL_TO_ALL 5     /* out[r] part k = in[k] part r */
#define JCCL_DIRECT_GATHER 6         /* out[root] part k = in[k] */
#define JCCL_DIRECT_SCATTER 7        /* out[r] = in[root] part r */

/*
 * The one parameter of the direct kernels (jccl_direct_<type>), by value: every rank's buffers.
 * All ranks of a communicator on one GPU issued together need no FIFO: the launch's blocks read
 * every input and write every output, each element by one thread, which reads before it writes
 * (so in-place calls are safe). The stream order makes the inputs ready before it starts.
 *
 *   0                                                    8 * MAX_RANKS
 *   +----------------------------------------------------+------------------------------+
 *   | inputs[0 .. MAX_RANKS): device address per rank     | outputs[0 .. MAX_RANKS)      |
 *   +-------+--------+--------+------+-------+-------+----+------------------------------+
 *   | count | scalar | nranks | kind | redop | root  |   (544 bytes)
 *   +-------+--------+--------+------+-------+-------+
 */
typedef struct jccl_direct {
    uint64_t inputs[JCCL_DIRECT_MAX_RANKS];  /* each rank's send buffer (0 where it has none) */
    uint64_t outputs[JCCL_DIRECT_MAX_RANKS]; /* each rank's receive buffer (0 where it has none) */
    uint64_t count;          /* elements of one rank's part (NCCL's count) */
    uint64_t scalar;         /* preMulSum scalar, as in jccl_work */
    uint32_t nranks;
    uint32_t kind;           /* JCCL_DIRECT_* */
    uint32_t redop;          /* JCCL_OP_* */
    uint32_t root;
} jccl_direct;

/* The descriptor of one operation of one rank. Pointers are device
 * addresses (the status word may be host memory mapped into the device). */
typedef struct jccl_work {
    uint64_t inputs;         /* uint64_t[2 * nops]: the send buffer of each operation, then the
                              * scratch of each (io.jccl.plan.Buf.SCRATCH: one address per tile) */
    uint64_t outputs;        /* uint64_t[nops]: the receive buffer of each operation */
    uint64_t segments;       /* jccl_segment[nsegments] */
    uint64_t laneSteps;      /* jccl_lane_steps[nlanes * nsegments], lane-major */
    uint64_t steps;          /* jccl_step[] */
    uint64_t conns;          /* jccl_conn[]: what the steps' links name */
    uint64_t scratch;        /* LL/LL128 staging: (JCCL_MAX_LINKS + 1) messages per lane */
    uint64_t scratchPerLane; /* bytes, a multiple of 16 */
    uint64_t status;         /* jccl_status* in pinned host memory: the rank's first failure */
    uint64_t claim;          /* uint32_t* in device memory: the first failing lane of the rank takes it
                              * (an atomic on device memory; the status itself gets plain stores) */
    uint64_t abortFlag;      /* uint32_t*: shared by the ranks of the domain; non-zero stops every wait */
    uint64_t slotBytes;      /* bytes of one FIFO slot of this protocol */
    uint64_t scalar;         /* preMulSum scalar: the integer's bits, or the float (double for float64) */
    uint64_t timeoutNs;      /* a wait longer than this fails the lane */
    uint32_t nsegments;
    uint32_t nlanes;
    uint32_t nops;
    uint32_t elementSize;
    uint32_t redop;          /* JCCL_OP_* */
    uint32_t nranks;         /* AVG divides by it */
    uint32_t rank;
    uint32_t protocol;       /* JCCL_PROTO_* (each kernel also knows its own; checked) */
    uint32_t pairedLanes;    /* 0: block b runs lane b with all its threads; else nlanes / 2, and
                              * block b runs lanes b and b + pairedLanes at once, its threads split
                              * between them (the split tree's reducing and broadcasting lanes) */
    uint32_t pad;
} jccl_work;

/* A schedule run repeat times over consecutive tiles: run i adds firstShift + i * stride elements
 * to the offset of every region (io.jccl.plan.Segment). */
typedef struct jccl_segment {
    uint64_t firstShift;
    uint64_t stride;
    uint64_t repeat;
    uint64_t firstTile;      /* index of its first tile among the rank's tiles (for error reports) */
} jccl_segment;

/* The steps of one lane in one segment: steps[first .. first + count). */
typedef struct jccl_lane_steps {
    uint32_t first;
    uint32_t count;
} jccl_lane_steps;

/* One primitive (io.jccl.plan.Step). Offsets and count are elements, relative to the tile. */
typedef struct jccl_step {
    uint8_t kind;            /* JCCL_SEND .. JCCL_LOCAL_COPY */
    uint8_t flags;           /* JCCL_STEP_* */
    uint8_t nrecv;
    uint8_t nsend;
    uint16_t srcOp;          /* operation of a group whose buffer the source region is in */
    uint16_t dstOp;
    uint16_t recv[JCCL_MAX_LINKS]; /* indexes into conns: FIFOs this rank receives on */
    uint16_t send[JCCL_MAX_LINKS]; /* indexes into conns: FIFOs of the peers this rank sends to */
    uint64_t srcOffset;
    uint64_t dstOffset;
    uint64_t count;
} jccl_step;

/* One FIFO (in the receiver's memory) as a link of this rank sees it. */
typedef struct jccl_conn {
    uint64_t fifo;           /* device address of the FIFO's head word */
    uint32_t peer;
    uint32_t channel;
    uint32_t flags;          /* JCCL_CONN_* */
    uint32_t pad;
} jccl_conn;

/* The first failure of a launch (written once, by the lane that failed first). */
typedef struct jccl_status {
    uint32_t code;           /* JCCL_STATUS_* */
    uint32_t lane;
    uint32_t step;           /* index of the step within its lane's segment */
    uint32_t peer;           /* the rank waited for, or sending the wrong size */
    uint32_t channel;
    uint32_t pad;
    uint64_t tile;
    uint64_t got;            /* bytes announced (size mismatch) */
    uint64_t expected;
} jccl_status;

#endif
