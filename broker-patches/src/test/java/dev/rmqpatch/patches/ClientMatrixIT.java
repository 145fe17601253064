package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 42's client-version matrix: stock Java remoting clients of several versions, each from its own jars (Maven
 * Central's rocketmq-client V and what it resolves: target/client-V, the pom's client-V executions; 4.9.0's from
 * stock's lib/) in a class loader of its own, against a stock 4.9.0 broker and the patched 4.9.0 broker (each started
 * once for the class, from broker.conf, with all patches on). {@link ClientMatrixDriver} sends synchronously,
 * asynchronously, one way, a batch, bodies over the compression threshold (and LZ4 and ZSTD ones where the client has
 * compression types, 4.9.4+), delayed, consumed once with RECONSUME_LATER (sent back, then redelivered from the retry
 * topic), in order to one queue, and transactions committed and rolled back by the local
 * listener, and reads them back with a push, a pull (DefaultMQPullConsumer: every version has it) and an orderly push
 * consumer; both brokers serve the same client version at once. Two rows run a client with a system property set:
 * 4.9.0 with the V1 send header, 5.1.4 with heart beat V2. Each run's lines are written to target/client-matrix/.
 *
 * <p>What is checked: the stock broker's run gives the expected outcome lines (every message back, delays honoured,
 * rolled-back messages never delivered, order kept), and the patched broker's run gives the same lines as stock's,
 * message by message (body, tags, keys, every property but those made anew), with ONE designed exception: the messages
 * of a batch from a 4.9.1+ client. Those clients write a message's properties without the trailing separator, and
 * 4.9.0's batch encoder appends the batch's own properties straight after them, so stock loses each batched message's
 * last property (the control); the patched broker must keep every property for every client version (patch P36, made in
 * parallel to this test: until it is in the build, that one assertion fails on the patched side and says so).
 */
class ClientMatrixIT {

    /** Versions whose producers end a message's properties without the separator (4.9.1's messageProperties2String). */
    private static final List<String> NO_TRAILING_SEPARATOR = List.of("4.9.1", "4.9.7", "5.1.4");
    /** Versions with compression types in the sysFlag (4.9.4+). */
    private static final List<String> COMPRESSION_TYPES = List.of("4.9.7", "5.1.4");
    /** One client version against one broker must be done by then; a hang fails the run with this in its message. */
    private static final long RUN_TIMEOUT_S = 150;

    private static TestCluster stock;
    private static TestCluster patched;
    private static ExecutorService runs;

    /** 5.x clients log to ${rocketmq.log.root:-~/logs/rocketmqlogs} (4.x: rocketmq.client.logRoot, set by the pom). */
    private static final String LOG_ROOT_5 = "rocketmq.log.root";
    private static String logRootBefore;

    @BeforeAll
    static void startBrokers() throws java.io.IOException {
        logRootBefore = System.getProperty(LOG_ROOT_5);
        if (logRootBefore == null && System.getProperty("rocketmq.client.logRoot") != null) {
            System.setProperty(LOG_ROOT_5, System.getProperty("rocketmq.client.logRoot"));
        }
        runs = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "client-matrix-run");
            t.setDaemon(true);
            return t;
        });
        // A failed start stops what started: start() closes its own cluster, @AfterAll (run after a failed @BeforeAll
        // too) the other.
        stock = start("stock");
        patched = start("patched");
    }

    private static TestCluster start(String variant) throws java.io.IOException {
        TestCluster c = new TestCluster(TestCluster.dist(variant), "broker.conf");
        try {
            return c.start();
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @AfterAll
    static void stopBrokers() {
        if (logRootBefore == null) {
            System.clearProperty(LOG_ROOT_5);
        }
        try {
            if (runs != null) {
                runs.shutdownNow();
            }
        } finally {
            try {
                if (stock != null) {
                    stock.close();
                    stock = null;
                }
            } finally {
                if (patched != null) {
                    patched.close();
                    patched = null;
                }
            }
        }
    }

    /**
     * The 4.9.0 client with the V1 send header (SEND_MESSAGE, code 10; a batch still goes as SEND_BATCH_MESSAGE with
     * the V2 header): MQClientAPIImpl reads the property once, when its class is initialised in the row's new loader.
     */
    private static final String V1 = "4.9.0 org.apache.rocketmq.client.sendSmartMsg=false";
    /** 5.1.4 with heart beat V2 (ClientConfig reads it when each client is made): the fingerprint, subscriptions once. */
    private static final String HEARTBEAT_V2 = "5.1.4 com.rocketmq.heartbeat.v2=true";

    /** The client version of a row: "5.1.4" of "5.1.4 name=value". */
    private static String base(String row) {
        return row.contains(" ") ? row.substring(0, row.indexOf(' ')) : row;
    }

    /** A client version's jars: 4.9.0's are stock's lib/ (the broker's, which carries the client), others target/client-V. */
    private static Path lib(String version) {
        version = base(version);
        if (version.equals("4.9.0")) {
            return Path.of(System.getProperty("rmqpatch.stock.lib"));
        }
        if (version.equals("4.9.1")) {
            return Path.of(System.getProperty("rmqpatch.client491.lib"));
        }
        return Path.of(System.getProperty("rmqpatch.client.lib.pattern").replace("{v}", version));
    }

    @ParameterizedTest(name = "client {0}")
    @ValueSource(strings = {"4.3.2", "4.7.1", "4.9.0", V1, "4.9.1", "4.9.7", "5.1.4", HEARTBEAT_V2})
    void patchedBrokerReturnsWhatStockReturns(String version) throws Exception {
        Path lib = lib(version);
        assertTrue(Files.isDirectory(lib), "no jars for client " + version + " at " + lib + " (run through mvn verify)");
        long t0 = System.nanoTime();
        List<String> onStock;
        List<String> onPatched;
        // A row "V name=value": client V with that system property set while it runs (the rows run one after the other).
        String property = version.contains("=") ? version.substring(version.indexOf(' ') + 1, version.indexOf('=')) : null;
        String before = property == null ? null : System.getProperty(property);
        if (property != null) {
            System.setProperty(property, version.substring(version.indexOf('=') + 1));
        }
        try (URLClassLoader client = LibLoaders.of(lib)) {
            Future<List<String>> s = runs.submit(() -> runDriver(client, stock.namesrvAddr(), version));
            Future<List<String>> p = runs.submit(() -> runDriver(client, patched.namesrvAddr(), version));
            onStock = await(s, "stock 4.9.0 broker, client " + version);
            onPatched = await(p, "patched 4.9.0 broker, client " + version);
        } finally {
            if (property != null && before == null) {
                System.clearProperty(property);
            } else if (property != null) {
                System.setProperty(property, before);
            }
        }
        String out = System.getProperty("rmqpatch.client.matrix.out");
        if (out != null) {
            Path dir = Files.createDirectories(Path.of(out));
            String name = version.replaceAll("[^0-9A-Za-z.]+", "_");
            Files.write(dir.resolve(name + "-stock.txt"), onStock);
            Files.write(dir.resolve(name + "-patched.txt"), onPatched);
        }
        System.out.printf("[ClientMatrixIT] client %s: both brokers in %.1f s%n", version, (System.nanoTime() - t0) / 1e9);
        onStock.stream().filter(l -> l.startsWith("info: ")).forEach(l -> System.out.println("[ClientMatrixIT] client "
            + version + " stock " + l));
        onPatched.stream().filter(l -> l.startsWith("info: ")).forEach(l -> System.out.println("[ClientMatrixIT] client "
            + version + " patched " + l));
        onStock.stream().filter(l -> l.startsWith("frame: ")).forEach(l -> System.out.println("[ClientMatrixIT] client "
            + version + " " + l));

        boolean newClient = NO_TRAILING_SEPARATOR.contains(base(version));
        List<String> stockOutcome = outcome(onStock);
        List<String> patchedOutcome = outcome(onPatched);
        Predicate<String> batchLine = ClientMatrixIT::aboutBatch;
        assertAll("client " + version,
            // The control: stock 4.9.0 serves every client version, but for the batch bug of 4.9.1+ clients.
            () -> assertEquals(expected(version, newClient), masked(stockOutcome),
                "stock 4.9.0 broker, client " + version + ": outcome"),
            // Message by message, patched = stock, the batches of 4.9.1+ clients aside (asserted below).
            () -> assertEquals(without(comparable(onStock), newClient ? batchLine : l -> false),
                without(comparable(onPatched), newClient ? batchLine : l -> false),
                "patched 4.9.0 broker, client " + version + ": every line but the batch's must equal stock's"),
            // The batch, as it must be once the broker patch for it (P36) is in: every property of every message kept.
            () -> assertEquals(batchOutcome(false), batchLines(patchedOutcome),
                "BATCH CASE: patched 4.9.0 broker, client " + version + ": every batched message must keep every"
                    + " property (" + (newClient ? "4.9.1+ client, no trailing separator: needs the broker's batch"
                    + " patch P36" : "older client: stock keeps them too") + ")"));
    }

    /**
     * A 4.9.4+ producer's compression types read by 4.9.0 consumers: a 5.1.4 producer puts a small, a ZLIB-typed
     * (0x301), an LZ4 (0x101), a small, a ZSTD (0x201) and a small message into one queue of each broker
     * ({@link ClientMatrixCrossDriver}); the stock 4.9.0 client and the patched one (the client folder, as
     * PatchedClientBrokersIT loads it) pull that queue from every offset. Both brokers return the same, and the
     * patched client decodes what the stock client decodes (what that is, is printed for docs/testing.md).
     */
    @Test
    void compressionTypesOfNewerProducersReadBy490Consumers() throws Exception {
        List<List<String>> reads = new ArrayList<>();
        try (URLClassLoader producer = LibLoaders.of(lib("5.1.4"));
             URLClassLoader stockClient = LibLoaders.of(lib("4.9.0"));
             URLClassLoader patchedClient = patchedClientLoader()) {
            for (TestCluster broker : List.of(stock, patched)) {
                String name = broker == stock ? "stock" : "patched";
                List<String> sent = invoke(producer, ClientMatrixCrossDriver.class, "send", broker.namesrvAddr(), "MxCross");
                assertEquals(ClientMatrixCrossDriver.TYPES.size(), sent.stream().filter(l -> l.contains(": SEND_OK queue 0"))
                    .count(), name + " broker: " + sent);
                for (URLClassLoader reader : List.of(stockClient, patchedClient)) {
                    String who = name + " broker, " + (reader == stockClient ? "stock" : "patched") + " 4.9.0 client";
                    List<String> read = invoke(reader, ClientMatrixCrossDriver.class, "read", broker.namesrvAddr(), "MxCross");
                    read.forEach(l -> System.out.println("[ClientMatrixIT] cross, " + who + ": " + l));
                    reads.add(read);
                }
            }
        }
        assertEquals(reads.get(0), reads.get(1), "stock broker: the patched 4.9.0 client decodes what the stock one does");
        assertEquals(reads.get(0), reads.get(2), "patched broker, stock client: as on the stock broker");
        assertEquals(reads.get(0), reads.get(3), "patched broker, patched client: as on the stock broker");
    }

    /** The delivered patched client: the client folder's jars, then stock's lib/ for what the folder does not hold. */
    private static URLClassLoader patchedClientLoader() throws Exception {
        Path folder = Path.of(System.getProperty("rmqpatch.client.folder")).resolve("lib");
        List<URL> rest = new ArrayList<>();
        try (Stream<Path> jars = Files.list(lib("4.9.0"))) {
            for (Path p : (Iterable<Path>) jars.sorted()::iterator) {
                String n = p.getFileName().toString();
                if (!n.startsWith("rocketmq-client-") && !n.startsWith("rocketmq-common-") && !n.startsWith("rocketmq-remoting-")
                    && !n.startsWith("rmqpatch-")) {
                    rest.add(p.toUri().toURL());
                }
            }
        }
        return LibLoaders.of(folder, rest.toArray(new URL[0]));
    }

    @SuppressWarnings("unchecked")
    private static List<String> invoke(ClassLoader lib, Class<?> driverClass, String method, String a, String b)
        throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(lib);
        try (DriverLoader driver = new DriverLoader(lib, driverClass.getName())) {
            return (List<String>) Class.forName(driverClass.getName(), true, driver)
                .getMethod(method, String.class, String.class).invoke(null, a, b);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    /** Whether an outcome or message line is about the batch's messages. */
    private static boolean aboutBatch(String l) {
        return l.startsWith("push batch:") || l.startsWith("pull batch:") || l.startsWith("push msg batch ")
            || l.startsWith("pull msg batch ");
    }

    private static List<String> await(Future<List<String>> run, String what) throws Exception {
        try {
            return run.get(RUN_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            run.cancel(true);
            fail(what + ": the run did not finish in " + RUN_TIMEOUT_S + " s (a send or consume hung)");
            return null;
        } catch (ExecutionException e) {
            throw new AssertionError(what + ": the run failed: " + e.getCause(), e.getCause());
        }
    }

    /** Every line but timings and the frames survey. */
    private static List<String> comparable(List<String> lines) {
        List<String> out = new ArrayList<>(lines);
        out.removeIf(l -> l.startsWith("info: ") || l.startsWith("frame: "));
        return out;
    }

    /** The outcome lines: no per-message lines. */
    private static List<String> outcome(List<String> lines) {
        List<String> out = comparable(lines);
        out.removeIf(l -> l.contains(" msg ") || l.startsWith("response: "));
        return out;
    }

    private static List<String> without(List<String> lines, Predicate<String> drop) {
        List<String> out = new ArrayList<>(lines);
        out.removeIf(drop);
        return out;
    }

    /** The batch outcome lines with the list of what was lost cut (it depends on the properties' hash order). */
    private static List<String> masked(List<String> outcome) {
        List<String> out = new ArrayList<>();
        for (String l : outcome) {
            out.add(aboutBatch(l) && l.contains(" lost something: ") ? l.substring(0, l.indexOf(": [")) : l);
        }
        return out;
    }

    private static List<String> batchLines(List<String> outcome) {
        List<String> out = new ArrayList<>(outcome);
        out.removeIf(l -> !aboutBatch(l));
        return out;
    }

    /** The two consumers' lines about the batch: every message back, with or without a lost property each. */
    private static List<String> batchOutcome(boolean lost) {
        int n = ClientMatrixDriver.PER_BATCH;
        String tail = n + " of " + n + " received, " + (lost ? n : 0) + " lost something";
        return List.of("push batch: " + tail, "pull batch: " + tail);
    }

    /** What the stock broker gives a client of {@code version} (batch lines with what was lost cut: {@link #masked}). */
    private static List<String> expected(String version, boolean batchLosesProperties) {
        boolean typed = COMPRESSION_TYPES.contains(base(version));
        List<String> out = new ArrayList<>();
        out.add("client: V" + base(version).replace('.', '_'));
        out.add("sync: " + ClientMatrixDriver.SYNC + " of " + ClientMatrixDriver.SYNC + " SEND_OK");
        out.add("retry: " + ClientMatrixDriver.RETRY + " of " + ClientMatrixDriver.RETRY + " SEND_OK");
        out.add("async: " + ClientMatrixDriver.ASYNC + " of " + ClientMatrixDriver.ASYNC + " SEND_OK");
        out.add("oneway: " + ClientMatrixDriver.ONEWAY + " sent");
        out.add("batch: SEND_OK for " + ClientMatrixDriver.PER_BATCH + " messages");
        String over = ", bodies over " + ClientMatrixDriver.COMPRESS_AT + " bytes";
        out.add("large: " + ClientMatrixDriver.LARGE + " of " + ClientMatrixDriver.LARGE + " SEND_OK" + over);
        out.add("delayed: " + ClientMatrixDriver.DELAYED + " of " + ClientMatrixDriver.DELAYED + " SEND_OK");
        if (typed) {
            out.add("lz4: 1 of 1 SEND_OK" + over);
            out.add("zstd: 1 of 1 SEND_OK" + over);
        }
        int ordered = ClientMatrixDriver.ORDERED;
        out.add("ordered sends: " + ordered + " of " + ordered + " SEND_OK to queues [" + ClientMatrixDriver.ORDERED_QUEUE + "]");
        List<String> states = new ArrayList<>();
        for (int i = 0; i < ClientMatrixDriver.TX; i++) {
            states.add(i % 2 == 0 ? "COMMIT_MESSAGE" : "ROLLBACK_MESSAGE");
        }
        out.add("transaction: " + ClientMatrixDriver.TX + " of " + ClientMatrixDriver.TX
            + " half messages SEND_OK, local states " + states);
        for (String consumer : List.of("push", "pull")) {
            // kinds in name order, as the driver reports them
            List<String[]> kinds = new ArrayList<>();
            kinds.add(new String[] {"async", "" + ClientMatrixDriver.ASYNC});
            kinds.add(new String[] {"batch", "" + ClientMatrixDriver.PER_BATCH});
            kinds.add(new String[] {"delayed", "" + ClientMatrixDriver.DELAYED});
            kinds.add(new String[] {"large", "" + ClientMatrixDriver.LARGE});
            if (typed) {
                kinds.add(new String[] {"lz4", "1"});
            }
            kinds.add(new String[] {"oneway", "" + ClientMatrixDriver.ONEWAY});
            kinds.add(new String[] {"retry", "" + ClientMatrixDriver.RETRY});
            kinds.add(new String[] {"sync", "" + ClientMatrixDriver.SYNC});
            if (typed) {
                kinds.add(new String[] {"zstd", "1"});
            }
            for (String[] k : kinds) {
                int n = Integer.parseInt(k[1]);
                boolean lost = k[0].equals("batch") && batchLosesProperties;
                out.add(consumer + " " + k[0] + ": " + n + " of " + n + " received, " + (lost ? n : 0) + " lost something");
                if (k[0].equals("delayed")) {
                    out.add(consumer + " delayed: every one delivered >= " + ClientMatrixDriver.DELAY_MS
                        + " ms after it was born");
                }
            }
        }
        out.add("ordered ordered: " + ordered + " of " + ordered + " received, 0 lost something");
        out.add("ordered: " + ordered + " received in order on queue " + ClientMatrixDriver.ORDERED_QUEUE);
        int committed = (ClientMatrixDriver.TX + 1) / 2;
        out.add("transaction push tx: " + committed + " of " + committed + " received, 0 lost something");
        return out;
    }

    /**
     * Runs {@code ClientMatrixDriver.run(namesrv, version)} defined over the client's loader (its RocketMQ, not the
     * test class path's), with that loader as the thread's context loader.
     */
    @SuppressWarnings("unchecked")
    private static List<String> runDriver(ClassLoader lib, String namesrv, String version) throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(lib);
        try (DriverLoader driver = new DriverLoader(lib, ClientMatrixDriver.class.getName())) {
            return (List<String>) Class.forName(ClientMatrixDriver.class.getName(), true, driver)
                .getMethod("run", String.class, String.class).invoke(null, namesrv, version);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }
}
