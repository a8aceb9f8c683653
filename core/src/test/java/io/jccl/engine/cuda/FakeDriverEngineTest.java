// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.Collective;
import io.jccl.proto.Protocol;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CUDA engine end to end without a GPU: the GPU tests of {@link CudaCollectivesTest} (a sample
 * of small calls bitwise against the host engine, send/recv, the caller's work in order on blocking
 * streams, refused buffers and streams, abort, timeout, size mismatch) against a fake libcuda
 * (test resource fake_cuda.cpp) built by g++ over the kernels' host emulation and loaded through
 * {@code jccl.cuda.lib}. Every Java path runs: device memory, registration, descriptors and their
 * upload, module and function lookup, launch parameters, batches, streams, events, status reports.
 * The CUDA library is loaded once per JVM, so this class runs in its own (core's pom: surefire
 * execution fake-cuda).
 */
class FakeDriverEngineTest {
    private static Path library;
    private static FakeTopologyChecks topology;

    @BeforeAll
    static void fakeDriver(@TempDir Path dir) throws Exception {
        library = EmulationBuild.compile(dir, "fake_cuda.cpp", "libfakecuda.so", "the fake CUDA driver", "-shared", "-fPIC");
        String before = System.getProperty("jccl.cuda.lib");
        System.setProperty("jccl.cuda.lib", dir.resolve("libfakecuda.so").toString());
        if (!Boolean.getBoolean("jccl.test.fake.cuda.jvm") && (before != null || !CudaDevice.available())) {
            // -Dtest put this class in the JVM of the other tests, which loaded another CUDA library
            // first; the fake-cuda execution runs it in its own.
            String why = "FakeDriverEngineTest runs in a JVM of its own (surefire execution fake-cuda), not beside "
                    + "tests that loaded another CUDA library";
            System.err.println("[jccl] SKIPPED here: " + why);
            Assumptions.abort(why);
        }
        assertThat(CudaDevice.available()).as("the fake driver must be the CUDA library this JVM loads first").isTrue();
        // The fake NVML (no GPUs of its own until a test describes them) before anything loads NVML:
        // the tests' GPUs then have no NVLinks whatever NVML this machine has.
        Path nvml = EmulationBuild.compileLibrary(dir, "fake_nvml.cpp", "libfakenvml.so", "the fake NVML");
        System.setProperty("jccl.nvml.lib", nvml.toString());
        topology = new FakeTopologyChecks(library, nvml);
        CudaCollectivesTest.useDevice(CudaDevice.open(0));
        CudaMultiGpuTest.useDevices(List.of(CudaDevice.open(0), CudaDevice.open(1)));
    }

    @AfterAll
    static void close() {
        CudaCollectivesTest.closeAll();
    }

    static List<CudaCollectivesTest.Case> cases() {
        return List.of(
                new CudaCollectivesTest.Case(2, "ring", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 1000, false, 0),
                new CudaCollectivesTest.Case(4, "ring", Protocol.LL128, Collective.ALL_REDUCE, DataType.BFLOAT16, RedOp.AVG, 5000, true, 0),
                new CudaCollectivesTest.Case(4, "tree", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.FLOAT16, RedOp.PROD, 7000, false, 0),
                new CudaCollectivesTest.Case(8, "ring", Protocol.LL, Collective.ALL_GATHER, DataType.INT32, null, 100, false, 0),
                new CudaCollectivesTest.Case(4, "ring", Protocol.SIMPLE, Collective.ALL_TO_ALL, DataType.INT64, null, 300, false, 0),
                new CudaCollectivesTest.Case(2, "ring", Protocol.LL128, Collective.BROADCAST, DataType.FLOAT64, null, 3000, false, 1),
                new CudaCollectivesTest.Case(4, "ring", Protocol.LL, Collective.REDUCE, DataType.FLOAT8_E4M3, RedOp.preMulSum(0.3), 999, false, 2),
                new CudaCollectivesTest.Case(3, "ring", Protocol.SIMPLE, Collective.REDUCE_SCATTER, DataType.UINT8, RedOp.MIN, 777, false, 0),
                // plans with scratch, on two channels: the butterfly folding a rank, rhd's halves
                new CudaCollectivesTest.Case(3, "butterfly", Protocol.LL128, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 20_001, false, 0),
                new CudaCollectivesTest.Case(4, "rhd", Protocol.SIMPLE, Collective.ALL_REDUCE, DataType.INT64, RedOp.AVG, 100_003, true, 0),
                // the split tree on two channels: two blocks, each running a pair of lanes on two teams
                new CudaCollectivesTest.Case(5, "splittree", Protocol.LL, Collective.ALL_REDUCE, DataType.FLOAT32, RedOp.SUM, 30_001, false, 0));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theEngineOnTheFakeDriverMatchesTheHostEngine(CudaCollectivesTest.Case k) {
        CudaCollectivesTest.compare(k);
    }

    @ParameterizedTest(name = "GPUs {0} P2P off {1}: {2}")
    @MethodSource("io.jccl.engine.cuda.CudaMultiGpuTest#cases")
    void ranksOfOneProcessOnTwoGpus(int[] layout, boolean p2pOff, CudaCollectivesTest.Case k) {
        new CudaMultiGpuTest().collectivesAcrossGpusAreTheHostEnginesBitwise(layout, p2pOff, k);
    }

    @ParameterizedTest(name = "P2P off {0}, SHM off {1}")
    @org.junit.jupiter.params.provider.CsvSource({"false,false", "true,false", "true,true"})
    void acrossGpusThreadsMeetThroughTheBootstrap(boolean p2pOff, boolean shmOff) throws Exception {
        new CudaMultiGpuTest().initCudaThreadsOnSeveralGpusMeetThroughTheBootstrap(p2pOff, shmOff);
    }

    @Test
    void wrapTakesAnotherAllocatorsMemoryAndRefusesTheRest() {
        UserCallsOnGpu.wrapTakesAnotherAllocatorsMemoryAndRefusesTheRest(CudaDevice.open(0), CudaDevice.open(1));
    }

    @Test
    void capturedCollectivesReplayedAHundredTimesAreExact() {
        CudaGraphsOnGpu.capturedCollectivesReplayExactly(CudaDevice.open(0), 3, 1000, 100);
    }

    /** The fake's count of direct kernels run (jccl_fake_direct_launches). */
    private static long directLaunches() {
        try {
            java.lang.foreign.SymbolLookup lib = java.lang.foreign.SymbolLookup.libraryLookup(library, java.lang.foreign.Arena.global());
            return (long) java.lang.foreign.Linker.nativeLinker().downcallHandle(lib.find("jccl_fake_direct_launches").orElseThrow(),
                    java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_LONG)).invokeExact();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    @Test
    void aGroupOfEveryRankOfAGpuIsOneDirectLaunch() {
        DirectLaunchOnGpu.everyCollectiveInOneLaunch(CudaDevice.open(0), 3, FakeDriverEngineTest::directLaunches);
    }

    @Test
    void aBadPartLaunchesNothingAndADirectLaunchOrdersTheRanksNextCalls() {
        DirectLaunchOnGpu.refusalsAndOrderAroundADirectLaunch(CudaDevice.open(0), 3, FakeDriverEngineTest::directLaunches);
    }

    @Test
    void groupsCapturedFromEveryRanksStreamAreOneKernelPerCall() {
        DirectLaunchOnGpu.groupsCapturedInOneGraphReplayExactly(CudaDevice.open(0), 3, 1000, 100,
                FakeDriverEngineTest::directLaunches);
    }

    @Test
    void whatCannotBeCapturedIsRefusedWithTheReason() {
        CudaGraphsOnGpu.whatCannotBeCapturedIsRefusedWithTheReason(CudaDevice.open(0));
    }

    @Test
    void workHandlesOnCudaStreams() throws Exception {
        UserCallsOnGpu.workOnCudaStreams(CudaDevice.open(0));
    }

    @Test
    void barrierAndByteCollectivesOnCudaRanks() throws Exception {
        UserCallsOnGpu.barrierAndBytesOnCudaRanks(CudaDevice.open(0));
    }

    @Test
    void acrossGpusLl128IsLeftOut() {
        new CudaMultiGpuTest().ll128IsLeftOutAcrossGpusAndRefusedAlone();
    }

    @Test
    void acrossGpusInfoNamesEachPairsTransport() throws java.io.IOException {
        new CudaMultiGpuTest().infoNamesEachPairsTransport();
    }

    @Test
    void acrossGpusPlansLieOnTheChannelsOfATopologyFile() throws java.io.IOException {
        new CudaMultiGpuTest().plansLieOnTheChannelsOfATopologyFile();
    }

    @Test
    void acrossGpusBuffersAndStreamsOfTheOtherGpuAreRefused() {
        new CudaMultiGpuTest().buffersAndStreamsOfAnotherGpuAreRefused();
    }

    @Test
    void acrossGpusAFailureStopsTheOtherGpusRanks() {
        new CudaMultiGpuTest().aFailureOnOneGpuStopsTheRanksOnTheOther();
    }

    @Test
    void acrossGpusSplitKeepsEachRanksGpu() {
        new CudaMultiGpuTest().splitKeepsEachRanksGpu();
    }

    @Test
    void acrossGpusShrinkKeepsEachRanksGpu() {
        new CudaMultiGpuTest().shrinkKeepsEachRanksGpuAndFinishFlushes();
    }

    @Test
    void probeListsEightGpusOnNvSwitches() {
        topology.probeListsEightGpusOnNvSwitches();
    }

    @Test
    void probeSeesPairsOverPciWithoutNvLinks() {
        topology.probeSeesPairsOverPciWithoutNvLinks();
    }

    @Test
    void probeWithoutNvmlSeesNoNvLinksAndDoesNotFail() {
        topology.withoutNvmlThereAreNoNvLinksAndNoFailure();
    }

    @Test
    void withoutATopologyFileRanksPlanOnTheDetectedNvLinks() throws Exception {
        topology.ranksPlanOnTheNvLinksOfTheDetectedNode();
    }

    @Test
    void sendRecvInOneGroup() {
        new CudaCollectivesTest().sendRecvRingInOneGroupMovesEveryRanksBytes();
    }

    @Test
    void callsOnNewBuffersKeepDescriptorMemoryBounded() {
        new CudaCollectivesTest().callsOnNewBuffersEveryTimeKeepEachRanksDescriptorMemoryBounded();
    }

    @Test
    void theCallersWorkAndCollectivesKeepTheirOrderOnBlockingStreams() {
        new CudaCollectivesTest().collectivesRunInOrderWithTheCallersWorkOnItsOwnBlockingStreams();
    }

    @Test
    void refusalsAndAbort() {
        new CudaCollectivesTest().hostMemoryAndSharedStreamsAreRefusedNamingTheArgument();
    }

    @Test
    void blocksThatCannotAllBeResidentAreRefused() {
        new CudaCollectivesTest().ranksWhoseBlocksCannotAllBeResidentAreRefused();
    }

    @Test
    void timeoutAndSizeMismatch() {
        new CudaCollectivesTest().aRankThatNeverCallsTimesOutAndMismatchedSizesAreNamed();
    }

    @Test
    void ranksOfTwoProcessesConnectThroughCudaIpc() throws Exception {
        List<String> out = CudaProcesses.check(2, library.toString(), Map.of("JCCL_DEBUG", "INFO"));
        assertThat(out.get(0)).contains("[0] jccl INFO INIT rank 1 (pid").contains("via P2P/CUDA IPC");
    }

    @Test
    void withP2pDisabledRanksOfThreeProcessesConnectThroughPinnedHostMemory() throws Exception {
        List<String> out = CudaProcesses.check(3, library.toString(), Map.of("JCCL_DEBUG", "INFO", "JCCL_P2P_DISABLE", "1",
                "JCCL_TEST_COUNT", "3001"));
        assertThat(out.get(2)).contains("[2] jccl INFO INIT rank 0 (pid").contains("via SHM/pinned host memory");
    }

    @Test
    void aRankWhoseProcessIsKilledIsNamedBySurvivorWithinSeconds() throws Exception {
        String out = CudaProcesses.killOne(library.toString(), Map.of());
        assertThat(out).contains("remote_error").containsPattern("rank 1 \\(pid \\d+ on [^)]+\\)(: its process)? died"); // the kernel watchdog's words, or the keep-alive's
    }

    @Test
    void withP2pAndShmOffRanksOfTwoProcessesConnectThroughTheSocketProxy() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(CudaProcesses.SOCKETS_ONLY);
        env.putAll(Map.of("JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "3001"));
        List<String> out = CudaProcesses.checkWithoutLl128(library.toString(), List.of(env, env));
        assertThat(out.get(1)).contains("[1] jccl INFO INIT rank 0 (pid").contains("via NET/Socket (pinned host memory");
    }

    @Test
    void capturedCallsOfTwoProcessesReplayOverTheSocketProxyAndPinnedHostMemory() throws Exception {
        Map<String, String> sockets = new java.util.HashMap<>(CudaProcesses.SOCKETS_ONLY);
        sockets.putAll(Map.of("JCCL_TEST_GRAPH", "1", "JCCL_TEST_COUNT", "3001"));
        CudaProcesses.checkWithoutLl128(library.toString(), List.of(sockets, sockets));
        Map<String, String> pinned = Map.of("JCCL_P2P_DISABLE", "1", "JCCL_TEST_GRAPH", "1", "JCCL_TEST_COUNT", "3001");
        CudaProcesses.check(2, library.toString(), pinned);
    }

    @Test
    void ranksOfTwoHostsConnectThroughTheSocketProxyAndWithinAHostAsBefore() throws Exception {
        // JCCL_HOSTID makes hosts of processes: ranks 0 and 1 share host a (CUDA IPC), rank 2 is
        // host b (sockets), so one communicator mixes GPU-scope and system-scope connections.
        Map<String, String> a = Map.of("JCCL_HOSTID", "gpu-host-a", "JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "3001");
        List<String> out = CudaProcesses.checkWithoutLl128(library.toString(), List.of(a, a,
                Map.of("JCCL_HOSTID", "gpu-host-b", "JCCL_TEST_COUNT", "3001")));
        assertThat(out.get(0)).contains("[0] jccl INFO INIT rank 1 (pid").containsPattern("rank 1 \\(pid[^\n]*via P2P/CUDA IPC")
                .containsPattern("rank 2 \\(pid[^\n]*via NET/Socket");
    }

    @Test
    void ranksOfProcessesOnTwoPeerAccessibleGpusConnectThroughCudaIpc() throws Exception {
        // The fake driver's JCCL_FAKE_PCI_BUS_ID makes rank 1's process stand on another GPU.
        List<String> out = CudaProcesses.checkWithoutLl128(library.toString(), List.of(
                Map.of("JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "3001"),
                Map.of("JCCL_FAKE_PCI_BUS_ID", "0000:01:00.0", "JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "3001")));
        assertThat(out.get(0)).contains("via P2P/CUDA IPC (its GPU 0000:01:00.0, peer access; LL128 off)");
        assertThat(out.get(1)).contains("via P2P/CUDA IPC (its GPU 0000:00:00.0, peer access; LL128 off)");
    }

    @Test
    void withoutPeerAccessOnEitherSideRanksOfTwoGpusMeetInPinnedHostMemory() throws Exception {
        // Only rank 1's driver refuses peer access: both must still agree on host memory.
        List<String> out = CudaProcesses.checkWithoutLl128(library.toString(), List.of(
                Map.of("JCCL_DEBUG", "INFO", "JCCL_TEST_COUNT", "3001"),
                Map.of("JCCL_FAKE_PCI_BUS_ID", "0000:01:00.0", "JCCL_FAKE_NO_PEER", "1", "JCCL_DEBUG", "INFO",
                        "JCCL_TEST_COUNT", "3001")));
        assertThat(out.get(0)).contains("via SHM/pinned host memory (its GPU 0000:01:00.0; LL128 off)");
        assertThat(out.get(1)).contains("via SHM/pinned host memory (its GPU 0000:00:00.0; LL128 off)");
    }

    @Test
    void threadsOfTwoProcessesOnTwoGpusConnectEachPairItsOwnWay() throws Exception {
        // ranks 0, 1 in one process and 2, 3 in the other, on GPUs 0, 1, 0, 1 of the same two
        List<String> out = CudaProcesses.checkOnGpus(library.toString(), 2, 2, Map.of("JCCL_DEBUG", "INFO",
                "JCCL_TEST_COUNT", "3001"));
        assertThat(out.get(0)).contains("[0] jccl INFO INIT rank 1 (pid").containsPattern("\\[0\\] jccl INFO INIT rank 1 [^\n]*via P2P/peer access to GPU"
                        + " 0000:81:00.0 \\(LL128 off\\)")
                .containsPattern("\\[0\\] jccl INFO INIT rank 2 [^\n]*via P2P/CUDA IPC\n")
                .containsPattern("\\[0\\] jccl INFO INIT rank 3 [^\n]*via P2P/CUDA IPC \\(its GPU 0000:81:00.0, peer access; LL128 off\\)");
    }

    @Test
    void threadsOfTwoProcessesOnTwoGpusWithoutPeerAccessMeetInHostMemoryAcrossGpus() throws Exception {
        List<String> out = CudaProcesses.checkOnGpus(library.toString(), 2, 2, Map.of("JCCL_DEBUG", "INFO",
                "JCCL_TEST_COUNT", "3001", "JCCL_FAKE_NO_PEER", "1"));
        assertThat(out.get(1)).containsPattern("\\[3\\] jccl INFO INIT rank 2 [^\n]*via SHM/pinned host memory to GPU 0000:00:00.0")
                .containsPattern("\\[3\\] jccl INFO INIT rank 1 [^\n]*via P2P/CUDA IPC\n")
                .containsPattern("\\[3\\] jccl INFO INIT rank 0 [^\n]*via SHM/pinned host memory \\(its GPU 0000:00:00.0; LL128 off\\)");
    }

    /**
     * A send completes without its receiver while the FIFO has free slots: through pinned host
     * memory the sender may close and exit first, and its FIFO file must stay for the receiver,
     * whose wait must not give up at once on the sender's exit. (Through CUDA IPC the sender
     * waits for the receiver to export its FIFO, so it cannot finish first.)
     */
    @Test
    void aMessageWaitsForItsReceiverAfterTheSenderClosedAndExited() throws Exception {
        String out = CudaProcesses.lateReceive(library.toString(), Map.of("JCCL_P2P_DISABLE", "1"));
        assertThat(out).contains("ok late");
    }

    @Test
    void aRankKilledBehindTheSocketProxyIsNamedBySurvivorWithinSeconds() throws Exception {
        String out = CudaProcesses.killOne(library.toString(), CudaProcesses.SOCKETS_ONLY);
        assertThat(out).contains("remote_error").containsPattern("lost (its connection with )?rank 1 \\(pid \\d+ on [^)]+\\)"); // the proxy's words, or the keep-alive's
    }

    @Test
    void initCudaRanksOnThreadsOfOneProcessShareItsFifos() throws Exception {
        new CudaCollectivesTest().initCudaRanksOnThreadsOfOneProcessShareItsFifos();
    }

    @Test
    void withP2pAndShmOffRanksReachEachOtherThroughTheSocketProxy() throws Exception {
        new CudaCollectivesTest().withP2pAndShmOffRanksReachEachOtherThroughTheSocketProxy();
    }

    @Test
    void splitMakesCudaRanksOfEachColorFromThreadsAndFromTheBootstrap() throws Exception {
        new CudaCollectivesTest().splitMakesCudaRanksOfEachColorFromThreadsAndFromTheBootstrap();
    }

    @Test
    void withoutCudaIpcInOneProcessBothFailAtOnceNamingItAndTheWayOut() throws Exception {
        // JCCL_TIMEOUT is 60 s in the ranks: failing within 30 s means nobody waited for it
        List<String> out = CudaProcesses.failing(library.toString(),
                List.of(Map.of(), Map.of("JCCL_FAKE_IPC_UNSUPPORTED", "1")), 30);
        assertThat(out.get(1)).contains("cannot export the FIFO from rank 0").contains("cuIpcGetMemHandle")
                .contains("JCCL_P2P_DISABLE=1");
        assertThat(out.get(0)).containsPattern("rank 1 \\(pid \\d+ on [^)]+\\) could not export its FIFO through CUDA IPC")
                .contains("JCCL_P2P_DISABLE=1");
    }

    @Test
    void anAbortInOneProcessFailsTheOtherNamingTheRankThatAborted() throws Exception {
        new CudaCollectivesTest().anAbortInOneProcessFailsTheOtherNamingTheRankThatAborted();
    }
}
