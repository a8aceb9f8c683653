// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.log.Log;

/**
 * The network proxy's timeline: one TRACE line of subsystem NET per message event, when
 * {@code JCCL_DEBUG=TRACE JCCL_DEBUG_SUBSYS=NET} asks for it, so that a run shows when each
 * message of each connection was posted, left and arrived (docs/simulator.md, "Timeline"):
 *
 * <pre>
 * host:pid:tid [4] jccl TRACE NET timeline 8412733105 isend Simple ch0 3->4 #17 524288 call 1f3a07
 * </pre>
 *
 * <p>The time is {@link System#nanoTime()} in µs: on Linux the monotonic clock, which the
 * processes of one host share, so the lines of a fabric's ranks merge into one timeline. Events:
 * {@code isend} (the sender's proxy handed message {@code #seq} to the net), {@code sent} (the
 * net is done with it, its slot released), {@code irecv} (the receiver's proxy posted a receive
 * for it into a free slot) and {@code arrived} (all of it came, published to the lane); the
 * call is the stamp of the collective that sent it ({@code CallStamp}, hexadecimal; 0 where not
 * known yet), so that one call's messages can be told from the others'. Off, it costs one branch
 * per event and builds nothing.
 */
final class NetTrace {
    private final Log log;
    private final boolean on;

    NetTrace(Log log) {
        this.log = log;
        this.on = log.on(Config.Debug.TRACE, Subsys.NET);
    }

    /** Message {@code seq} of {@code fifo}, of {@code bytes} (-1 where not known yet), stamped {@code stamp}, had {@code event}. */
    void event(String event, Fifo fifo, long seq, long bytes, int stamp) {
        if (on) {
            log.trace(Subsys.NET, "timeline " + System.nanoTime() / 1000 + " " + event + " " + fifo + " #" + seq + " " + bytes
                    + " call " + Integer.toHexString(stamp));
        }
    }
}
