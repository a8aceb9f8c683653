// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.P2pArgs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NCCL's group semantics: operations issued by this thread between {@link #start()} and the
 * matching {@link #end()} are held back and issued together at the end. A group of sends and
 * receives whose peers match never deadlocks, whatever order each rank issued them in; one thread
 * can drive several ranks of {@link Communicator#initAll} this way. Groups nest; only the
 * outermost end issues. All operations of one communicator in a group must use one stream.
 *
 * <p>Each rank sends {@code n} floats to the next of a ring and receives as many from the one
 * before, one thread driving every rank of {@code comms} (from {@code initAll}), rank r with its
 * stream {@code streams[r]} and buffers {@code out[r]} and {@code in[r]}:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="group"}
 */
public final class Group {
    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

    private Group() {
    }

    /** What one communicator collected in the open group. */
    static final class Batch {
        final Stream stream;
        final List<CollectiveArgs> collectives = new ArrayList<>();
        final List<P2pArgs> p2p = new ArrayList<>();

        Batch(Stream stream) {
            this.stream = stream;
        }
    }

    private static final class State {
        int depth;
        final Map<Communicator, Batch> batches = new LinkedHashMap<>();
    }

    public static void start() {
        STATE.get().depth++;
    }

    /** Closes the innermost group; the outermost issues everything collected, per communicator. */
    public static void end() {
        State s = STATE.get();
        if (s.depth == 0) {
            throw new JcclException(ErrorCode.INVALID_USAGE, JcclException.NO_RANK, "Group.end() without Group.start()");
        }
        if (--s.depth > 0) {
            return;
        }
        List<Map.Entry<Communicator, Batch>> batches = new ArrayList<>(s.batches.entrySet());
        s.batches.clear();
        // Parts of ranks sharing a GPU may run in one launch (EngineRank.submitAll); a part that
        // cannot be issued at all fails alone, after the others went.
        List<io.jccl.engine.EngineRank.Issue> todo = new ArrayList<>(batches.size());
        JcclException first = null;
        for (Map.Entry<Communicator, Batch> e : batches) {
            try {
                todo.add(e.getKey().issueOf(e.getValue().collectives, e.getValue().p2p, e.getValue().stream));
            } catch (JcclException ex) {
                first = first == null ? ex : first;
            }
        }
        try {
            io.jccl.engine.EngineRank.submitAll(todo);
        } catch (JcclException ex) {
            first = first == null ? ex : first;
        }
        if (first != null) {
            throw first;
        }
    }

    /** Runs {@code body} inside a group. */
    public static void run(Runnable body) {
        start();
        try {
            body.run();
        } finally {
            end();
        }
    }

    static boolean active() {
        return STATE.get().depth > 0;
    }

    /** The batch of {@code comm} in the open group; the stream must be the one it already uses. */
    static Batch batch(Communicator comm, Stream stream) {
        Batch b = STATE.get().batches.computeIfAbsent(comm, c -> new Batch(stream));
        if (b.stream != stream) {
            throw new JcclException(ErrorCode.INVALID_USAGE, comm.rank(),
                    "operations of one communicator in a group must use one stream");
        }
        return b;
    }
}
