package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * P26, differential: the same client scenario ({@link ClientPipelineDriver}: synchronous, asynchronous and one-way
 * calls, a timeout, a request from the server answered by a processor, the server closing the connection and the
 * client reconnecting, an idle channel closed with a call pending) runs on stock lib/'s NettyRemotingClient, on
 * patched lib/'s, and on patched lib/'s with P26 switched off, each in its own class loader against a scripted
 * loopback server. The frames the server receives are byte for byte the same, and so is everything the client
 * reports (responses, decoded headers, the callback's thread and outcome, the timeout, the channel events, the
 * processor's thread) except the one line P26 is about: the thread the client's handlers run on.
 */
class ClientPipelineIT {

    @Test
    void patchedClientWritesStocksFramesAndBehavesAsStockOffItsWorkerThreads() throws Exception {
        // Loaders and switches one after the other (the switch is a system property while PatchSwitches loads), then the
        // three scenarios at once: each has its own loader, server and clients.
        Path stockLib = TestCluster.dist("stock").resolve("lib");
        Path patchedLib = TestCluster.dist("patched").resolve("lib");
        try (URLClassLoader stockLoader = LibLoaders.of(stockLib); URLClassLoader patchedLoader = LibLoaders.of(patchedLib);
             URLClassLoader offLoader = LibLoaders.of(patchedLib)) {
            assertEquals(true, LibLoaders.switches(patchedLoader, "").getField("P26").getBoolean(null));
            assertEquals(false, LibLoaders.switches(offLoader, "P26").getField("P26").getBoolean(null));
            CompletableFuture<List<String>> stockRun = CompletableFuture.supplyAsync(() -> run(stockLoader, "stock"));
            CompletableFuture<List<String>> patchedRun = CompletableFuture.supplyAsync(() -> run(patchedLoader, "patched"));
            CompletableFuture<List<String>> offRun = CompletableFuture.supplyAsync(() -> run(offLoader, "patched, P26 off"));
            compare(stockRun.get(2, TimeUnit.MINUTES), patchedRun.get(2, TimeUnit.MINUTES), offRun.get(2, TimeUnit.MINUTES));
        }
    }

    private static void compare(List<String> stock, List<String> patched, List<String> off) {
        assertEquals("NettyClientWorkerThread_", handlerThread(stock), "stock decodes on its worker threads");
        assertEquals("NettyClientSelector_", handlerThread(patched), "P26: on the IO thread");
        assertEquals("NettyClientWorkerThread_", handlerThread(off), "P26 off: stock's worker threads");
        assertEquals(withoutHandlerThread(stock), withoutHandlerThread(patched));
        assertEquals(withoutHandlerThread(stock), withoutHandlerThread(off));

        // What the scenario must have seen, so that equal lists mean something.
        String all = String.join("\n", stock);
        assertTrue(all.contains("send response header: 7F00000100002A9F0000000000000F00 3 42 null"), all);
        assertTrue(all.contains("async callback: NettyClientPublicExecutor_ sendOK=true timeout=false code=0"), all);
        assertTrue(all.contains("timeout: RemotingTimeoutException"), all);
        assertTrue(all.contains("processor thread: ClientProcessor_"), all);
        assertTrue(all.contains("pending call: NettyClientPublicExecutor_ sendOK=false timeout=false response=null"), all);
        assertTrue(all.contains("idle events: [CONNECT, CLOSE, IDLE]"), all);
        assertTrue(all.contains("connections: 3"), all);
        assertEquals(10, stock.stream().filter(l -> l.matches("conn\\d+: .*")).count(), "frames the server received: " + all);
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("conn1: {\"code\":0,") && l.contains("answer to a question")),
            "the processor's answer reached the server: " + all);
    }

    private static List<String> run(URLClassLoader libLoader, String what) {
        long start = System.nanoTime();
        try (DriverLoader driver = new DriverLoader(libLoader, ClientPipelineDriver.class.getName())) {
            @SuppressWarnings("unchecked")
            List<String> lines = (List<String>) Class.forName(ClientPipelineDriver.class.getName(), true, driver)
                .getMethod("run").invoke(null);
            System.out.printf("[ClientPipelineIT] %s: %d ms%n", what, (System.nanoTime() - start) / 1_000_000);
            return lines;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(what + ": the scenario failed", e.getCause() != null ? e.getCause() : e);
        }
    }

    private static String handlerThread(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith(ClientPipelineDriver.HANDLER_THREAD)).findFirst().orElseThrow()
            .substring(ClientPipelineDriver.HANDLER_THREAD.length());
    }

    private static List<String> withoutHandlerThread(List<String> lines) {
        List<String> rest = new ArrayList<>(lines);
        rest.removeIf(l -> l.startsWith(ClientPipelineDriver.HANDLER_THREAD));
        return rest;
    }
}
