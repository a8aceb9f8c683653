// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.kernels.WorkLayout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/** A kernel's {@code jccl_status} as the exception the host engine would have thrown for it. */
final class StatusReport {
    private StatusReport() {
    }

    static JcclException exception(int rank, MemorySegment status, Duration timeout) {
        StructLayout s = WorkLayout.STATUS;
        int code = status.get(ValueLayout.JAVA_INT, WorkLayout.offset(s, "code"));
        int lane = status.get(ValueLayout.JAVA_INT, WorkLayout.offset(s, "lane"));
        int step = status.get(ValueLayout.JAVA_INT, WorkLayout.offset(s, "step"));
        int peer = status.get(ValueLayout.JAVA_INT, WorkLayout.offset(s, "peer"));
        int channel = status.get(ValueLayout.JAVA_INT, WorkLayout.offset(s, "channel"));
        long tile = status.get(ValueLayout.JAVA_LONG, WorkLayout.offset(s, "tile"));
        long got = status.get(ValueLayout.JAVA_LONG, WorkLayout.offset(s, "got"));
        long expected = status.get(ValueLayout.JAVA_LONG, WorkLayout.offset(s, "expected"));
        String where = "lane " + lane + ", tile " + tile + ", step " + step;
        return switch (code) {
            case WorkLayout.STATUS_TIMEOUT -> new JcclException(ErrorCode.TIMEOUT, rank, "no progress for "
                    + timeout.toSeconds() + " s waiting for rank " + peer + " on channel " + channel + " (" + where
                    + "); a peer did not make the matching call");
            case WorkLayout.STATUS_SIZE_MISMATCH -> new JcclException(ErrorCode.REMOTE_ERROR, rank, "rank " + peer
                    + " sent " + got + " bytes on channel " + channel + " where " + where + " expects " + expected
                    + "; ranks called different operations or sizes");
            case WorkLayout.STATUS_ABORTED -> new JcclException(ErrorCode.REMOTE_ERROR, rank, "aborted while waiting for rank "
                    + peer + " on channel " + channel + " (" + where + "): another rank failed or called abort");
            case WorkLayout.STATUS_BAD_WORK -> new JcclException(ErrorCode.INTERNAL_ERROR, rank, "the kernel refused its"
                    + " work descriptor (" + where + ", values " + got + ", " + expected + ")");
            default -> new JcclException(ErrorCode.INTERNAL_ERROR, rank, "unknown kernel status " + code);
        };
    }
}
