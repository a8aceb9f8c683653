// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.cuda.CapturedGraph;

/**
 * Collectives captured into a CUDA graph and replayed, as NCCL's are under
 * {@code cudaStreamBeginCapture} (PyTorch's CUDA graphs, nccl-tests' {@code -G}): the calls
 * {@link #capture} runs on a {@link CudaStream} are recorded, not run, and each {@link #launch}
 * runs all of them again with one driver call. A captured call keeps its buffers, sizes and
 * choices; every rank must replay its graphs in the same order as its peers, as with eager calls.
 * Calls captured on a stream wrapped with {@link CudaStream#wrap} under the caller's own
 * {@code cuStreamBeginCapture} are captured alike. What cannot be captured is refused while
 * capturing: an {@code *Async} call (its {@link Work} could never be waited for) and
 * {@link CudaStream#synchronize()}. Here rank {@code r} of {@code comms} captures 100 all-reduces
 * on its own stream and replays them:
 *
 * {@snippet class="io.jccl.JcclExamplesTestOnGpu" region="cuda-graph"}
 *
 * <p>(The example runs with the tests where {@link CudaDevice#available()}: a GPU and its driver.)
 * Destroy graphs ({@link #close()}) before the communicators whose calls they hold.
 */
public final class CudaGraph implements AutoCloseable {
    private final CapturedGraph graph;

    private CudaGraph(CapturedGraph graph) {
        this.graph = graph;
    }

    /**
     * Captures the calls {@code calls} issues on {@code stream} (and on streams joined to the
     * capture by events) and instantiates the graph; if {@code calls} throws, the capture is
     * dropped and the exception goes on.
     */
    public static CudaGraph capture(CudaStream stream, Runnable calls) {
        return new CudaGraph(CapturedGraph.capture(stream.engineStream(), calls));
    }

    /**
     * Captures into one graph the calls {@code calls} issues on {@code streams}, the streams of one
     * GPU: the first begins the capture, the others join it and are joined back at the end. Ranks
     * sharing the GPU, each on its own stream, whose calls are issued in one {@link Group}, are then
     * one kernel per call in the graph (the calls of all of them in one launch). Launch it with
     * {@link #launch(List)} on the same streams. Here the ranks of {@code comms} (all on {@code gpu}),
     * rank r on {@code streams.get(r)}, capture 100 all-reduces in one graph:
     *
     * {@snippet class="io.jccl.JcclExamplesTestOnGpu" region="cuda-graph-group"}
     */
    public static CudaGraph capture(java.util.List<CudaStream> streams, Runnable calls) {
        if (streams.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "streams", "is empty");
        }
        return new CudaGraph(CapturedGraph.capture(streams.stream().map(CudaStream::engineStream).toList(), calls));
    }

    /** Runs the captured calls on {@code stream}, asynchronously; its {@link CudaStream#synchronize()} reports their failures. */
    public void launch(CudaStream stream) {
        graph.launch(stream.engineStream());
    }

    /**
     * Runs the calls captured from {@code streams} ({@link #capture(java.util.List, Runnable)}), in
     * their order with the other work of each stream: on the first once the others' work before is
     * done, and each stream's work after waits for it.
     */
    public void launch(java.util.List<CudaStream> streams) {
        graph.launch(streams.stream().map(CudaStream::engineStream).toList());
    }

    /** Destroys the graph; launches in flight finish first, on the GPU. */
    @Override
    public void close() {
        graph.close();
    }
}
