// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A network the proxy moves FIFO messages over, in the shape of NCCL's net plugin
 * ({@code ncclNet_t}): devices and their properties; a listener whose {@link NetHandle} the ranks
 * exchange through the bootstrap; connect and accept; memory registration; {@code isend},
 * {@code irecv} and {@code test}; a close for each comm. The proxy ({@code NetProxy}) knows FIFOs
 * and drives any implementation alike; an implementation knows its wire and nothing of FIFOs.
 * {@link Nets#open} chooses it.
 *
 * <p>Where this differs from NCCL's C API, for Java:
 * <ul>
 *   <li>A process listens once and every connection to it names itself with a {@code tag} (the
 *       proxy's: protocol, channel, ranks), which the sender gives to {@link #connect} and
 *       {@link #accept} returns, authenticated: connections are made on first use, when no
 *       bootstrap exchange of a handle per connection (NCCL's way) is possible.</li>
 *   <li>{@link #connect} and {@link #accept} block, each until a deadline ({@link System#nanoTime}
 *       time): on a virtual thread that costs nothing, where NCCL's return "not yet".</li>
 *   <li>A {@link NetPoller} lets a proxy thread sleep until a receive may have progressed, instead
 *       of spinning on {@link #test}.</li>
 * </ul>
 *
 * <p>Requests: each comm owns {@link NetProperties#maxRequests()} request objects, made with it;
 * {@link #isend}/{@link #irecv} hand one out (null when all are in flight: post again later) and
 * {@link #test} returns true for it once, when it is done, which frees it; its
 * {@link NetRequest#size()} stays readable until the next post on that comm. Messages match in
 * order: the n-th {@code isend} of a connection fills the n-th {@code irecv}. A comm is used by
 * one thread at a time. Failures are {@link IOException}s whose message names the connection
 * ({@link NetSetup#names()}) and what went wrong; the proxy turns them into an abort naming the peer.
 */
public interface Net extends AutoCloseable {
    /** The implementation, for logs ("Socket", "IB"). */
    String name();

    /** Devices (NICs) it can use. */
    int devices();

    NetProperties properties(int device);

    /** Proxy threads per direction that should serve its connections (sockets: JCCL_SOCKET_NTHREADS). */
    int proxyThreads();

    /** What one connection is made of, for logs: "2 socket(s) per connection". */
    String connectionShape();

    /** Starts listening on {@code device}; its {@link ListenComm#handle()} is what senders connect to. */
    ListenComm listen(int device) throws IOException;

    /** Connects to the listener of {@code handle} as connection {@code tag}, retrying until {@code deadline}. */
    SendComm connect(int device, NetHandle handle, long tag, long deadline) throws IOException;

    /** The next connection that came to {@code listener} whole and authentic, or null at {@code deadline}. */
    RecvComm accept(ListenComm listener, long deadline) throws IOException;

    /** Registers {@code region} for sends or receives of {@code comm}; a net that needs none still returns a handle. */
    MemoryHandle register(NetComm comm, MemorySegment region, MemoryKind kind) throws IOException;

    void deregister(MemoryHandle memory);

    /**
     * Posts the next message of {@code comm}, stamped with {@code stamp} (22 bits the receiving
     * request reports, {@link NetRequest#stamp()}, as RDMA's immediate data; 0 for none):
     * {@code size} bytes at {@code data} + {@code offset},
     * inside {@code memory}'s region, or with {@code memory} null in host memory nobody registered
     * (then the net makes its own way: sockets read it in place, RDMA would copy it). The bytes stay
     * unchanged until {@link #test} says done. Null when no request is free.
     */
    NetRequest isend(SendComm comm, MemorySegment data, long offset, long size, MemoryHandle memory, int stamp) throws IOException;

    /**
     * Posts a buffer for the next message of {@code comm}: up to {@code maxSize} bytes at
     * {@code data} + {@code offset}; a larger message fails the connection. Null when no request is free.
     */
    NetRequest irecv(RecvComm comm, MemorySegment data, long offset, long maxSize, MemoryHandle memory) throws IOException;

    /** Moves {@code request}'s comm on without blocking; true once the request is done (and free again). */
    boolean test(NetRequest request) throws IOException;

    /** A waiting place for one proxy thread and the receiving comms it serves. */
    NetPoller poller() throws IOException;

    /**
     * Ends {@code comm} so the receiver sees a close, not a loss (unless a message is cut: then it
     * is a loss), writing by {@code deadline}, and closes it.
     */
    void closeSend(SendComm comm, long deadline);

    /** Stops receiving on {@code comm} and closes it; what it still had posted is never filled. */
    void closeRecv(RecvComm comm);

    void closeListen(ListenComm listener);

    /** Closes every comm and listener it made. */
    @Override
    void close();
}
