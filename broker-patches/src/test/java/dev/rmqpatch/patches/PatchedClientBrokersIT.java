package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import dev.rmqpatch.patches.cli.ListPatches;
import dev.rmqpatch.patches.transform.MethodEdit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28's "a stock broker, the patched broker and a 4.9.1 broker serve the patched client": the client as delivered
 * (the jars of target/rocketmq-4.9.0-client-patched/lib, with stock 4.9.0's third-party jars beside them as an
 * application's class path has them) in a class loader of its own, against a real single-master cluster of each kind
 * on loopback, one after the other: {@link PatchedClientScenario} sends every way the producer has (synchronous,
 * asynchronous, one way, batches, compressed bodies, in order to one queue, transactions committed, rolled back and
 * committed on the broker's check) and reads everything back with a push, a lite pull and an orderly consumer, field by
 * field. The client's classes are checked to be the rewritten ones (each of CLIENT_PATCHES in the jars' manifests, loaded from
 * the folder, bytes unlike stock's), and P26's effect is seen at run time: none of the client's worker threads ever
 * starts, where stock's first call starts one; so this cannot pass on stock jars.
 */
class PatchedClientBrokersIT {

    private static final String VERSION = System.getProperty("rmqpatch.rocketmq.version", "4.9.0");
    /** The address the frames test's broker advertises: its recording proxy's. */
    private static final String ADVERTISED = "127.0.0.2";
    /** The client's patches, whose targets are in the client's jars only. */
    private static final List<String> CLIENT_PATCHES = List.of("P26", "P27", "P28", "P31", "P33", "P34", "P35");
    /**
     * rocketmq-client 4.9.0's runtime dependencies (mvn dependency:tree of it: ClientDeliveryIT.STOCK, with
     * commons-validator's own) that the folder leaves stock: taken from stock's lib/ by name.
     */
    private static final List<String> STOCK_DEPENDENCIES = List.of("rocketmq-logging-", "fastjson-", "netty-all-",
        "commons-lang3-", "commons-codec-", "commons-validator-", "commons-beanutils-", "commons-digester-",
        "commons-logging-", "commons-collections-");

    private static URLClassLoader client;
    private static Class<?> switches;

    private static Path clientLib() {
        return Path.of(System.getProperty("rmqpatch.client.folder")).resolve("lib");
    }

    private static Path stockLib() {
        return Path.of(System.getProperty("rmqpatch.stock.lib"));
    }

    @BeforeAll
    static void loadTheDeliveredClient() throws Exception {
        client = clientLoader();
        switches = LibLoaders.switches(client, null);
    }

    /** The client folder's jars and stock's third-party ones, as an application's class path has them. */
    private static URLClassLoader clientLoader() throws Exception {
        List<URL> dependencies = new ArrayList<>();
        try (Stream<Path> jars = Files.list(stockLib())) {
            for (Path p : (Iterable<Path>) jars.sorted()::iterator) {
                if (STOCK_DEPENDENCIES.stream().anyMatch(p.getFileName().toString()::startsWith)) {
                    dependencies.add(p.toUri().toURL());
                }
            }
        }
        assertEquals(STOCK_DEPENDENCIES.size(), dependencies.size(), "one stock jar per dependency: " + dependencies);
        return LibLoaders.of(clientLib(), dependencies.toArray(new URL[0]));
    }

    @AfterAll
    static void close() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    /**
     * Every class a client patch rewrites comes, in the client's loader, from the folder's jar that lists the patch in its
     * manifest, and is not stock's class; the patch is switched on there.
     */
    @Test
    void theLoadedClientIsTheDeliveredPatchedOne() throws Exception {
        for (String id : CLIENT_PATCHES) {
            Patch patch = Patches.all().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
            assertTrue(switches.getField(id).getBoolean(null), id + " runs in the client's loader");
            for (String artifact : PatchTargets.jars(patch)) {
                String listed = ListPatches.patchesOf(clientLib().resolve(artifact + "-" + VERSION + ".jar").toFile());
                assertTrue(listed != null && Arrays.asList(listed.split(",\\s*")).contains(PatchTargets.label(patch)),
                    artifact + "'s manifest lists " + id + ": " + listed);
            }
            for (MethodEdit edit : patch.edits()) {
                String owner = edit.target().owner;
                String jar = PatchTargets.jarOf(owner) + "-" + VERSION + ".jar";
                Class<?> loaded = Class.forName(owner.replace('/', '.'), false, client);
                Path from = Path.of(loaded.getProtectionDomain().getCodeSource().getLocation().toURI());
                assertTrue(Files.isSameFile(clientLib().resolve(jar), from), owner + " comes from the client folder, not " + from);
                byte[] patched;
                try (InputStream in = client.getResourceAsStream(owner + ".class")) {
                    patched = in.readAllBytes();
                }
                byte[] stock;
                try (JarFile stockJar = new JarFile(stockLib().resolve(jar).toFile());
                     InputStream in = stockJar.getInputStream(stockJar.getJarEntry(owner + ".class"))) {
                    stock = in.readAllBytes();
                }
                assertFalse(Arrays.equals(stock, patched), owner + " is rewritten (" + id + ")");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"stock 4.9.0", "patched 4.9.0", "stock 4.9.1"})
    void brokerServesThePatchedClient(String broker) throws Exception {
        Path dist = TestCluster.dist(switch (broker) {
            case "stock 4.9.0" -> "stock";
            case "patched 4.9.0" -> "patched";
            default -> "stock491";
        });
        boolean patched = broker.startsWith("patched");
        // The broker checks half messages every second, each once it is a second old (stock: 60 s and 6 s).
        long t0 = System.nanoTime();
        try (TestCluster c = new TestCluster(dist, patched ? "broker-tuned.conf" : "broker.conf",
            "transactionCheckInterval=1000", "transactionTimeOut=1000").start()) {
            long started = System.nanoTime();
            boolean reportsPatches = Files.readAllLines(c.brokerLog()).stream()
                .anyMatch(l -> l.contains("rmqpatch: patches in the jars:"));
            assertEquals(patched, reportsPatches, broker + ": the broker's start-up line of patches");
            List<String> facts = scenario(c);
            System.out.printf("[PatchedClientBrokersIT] %s: cluster started in %.1f s, scenario %.1f s%n", broker,
                (started - t0) / 1e9, (System.nanoTime() - started) / 1e9);
            facts.stream().filter(l -> l.startsWith("info: ")).forEach(l -> System.out.println("[PatchedClientBrokersIT] "
                + broker + " " + l));
            List<String> observed = new ArrayList<>(facts);
            observed.removeIf(l -> l.startsWith("info: "));
            assertEquals(expected(broker.endsWith("4.9.1") ? "V4_9_1" : "V4_9_0"), observed, broker);
        }
    }

    /**
     * Issue 28's "frames from the patched client are byte-identical to the stock client's for the same messages": the
     * stock client (stock lib/) and the delivered patched client send the same messages ({@link ClientFramesDriver}:
     * synchronous, compressed, one-way, a batch, a topic created) through a {@link RecordingProxy} to one broker. The
     * broker listens on 127.0.0.1 only (S4) and advertises 127.0.0.2, where the proxy listens, so the route the name
     * server gives both clients leads through it. Every request frame but the heartbeats (their timing is the clients'
     * timers) must be equal, header and body, once what each client makes anew is masked: the opaque, the born
     * timestamp and the unique key.
     */
    @Test
    void patchedClientWritesTheStockClientsFrames() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf", "brokerIP1=" + ADVERTISED)
            .javaOpt("-Drmqpatch.bindAddress=127.0.0.1").start();
             URLClassLoader stock = LibLoaders.of(stockLib())) {
            int port = Integer.parseInt(c.brokerAddr().substring(c.brokerAddr().lastIndexOf(':') + 1));
            List<String> stockFrames = framesOf(stock, c, port);
            List<String> patchedFrames = framesOf(client, c, port);
            assertEquals(ClientFramesDriver.SYNC + ClientFramesDriver.LARGE + ClientFramesDriver.ONEWAY + 1,
                stockFrames.stream().filter(f -> f.startsWith("310 ")).count(), "SEND_MESSAGE_V2 frames: " + stockFrames);
            assertEquals(ClientFramesDriver.ONEWAY, stockFrames.stream().filter(f -> f.startsWith("310 ")
                && f.contains("\"flag\":2")).count(), "one-way frames: " + stockFrames);
            assertEquals(1, stockFrames.stream().filter(f -> f.startsWith("320 ")).count(), "the batch: " + stockFrames);
            assertEquals(1, stockFrames.stream().filter(f -> f.startsWith("17 ")).count(), "the topic: " + stockFrames);
            assertEquals(stockFrames.size(), patchedFrames.size(), "frames: stock " + stockFrames + "\npatched " + patchedFrames);
            for (int i = 0; i < stockFrames.size(); i++) {
                assertEquals(stockFrames.get(i), patchedFrames.get(i), "frame " + i);
            }
        }
    }

    /** The masked request frames one client's {@link ClientFramesDriver} run sent to the broker. */
    private static List<String> framesOf(ClassLoader lib, TestCluster c, int port) throws Exception {
        List<String> outcomes;
        List<RecordingProxy.Frame> frames;
        try (RecordingProxy proxy = new RecordingProxy(new InetSocketAddress(ADVERTISED, port),
            new InetSocketAddress("127.0.0.1", port))) {
            outcomes = runDriver(lib, ClientFramesDriver.class, c.namesrvAddr(), "FramesTopic");
            frames = proxy.frames();
        }
        assertTrue(outcomes.stream().allMatch(l -> l.endsWith(": SEND_OK")), outcomes.toString());
        List<String> masked = new ArrayList<>();
        for (RecordingProxy.Frame f : frames) {
            if (f.code() == 34 || f.code() == 35) {
                continue; // HEART_BEAT, UNREGISTER_CLIENT: sent on the clients' own timers and at shutdown
            }
            String header = f.header().replaceAll("\"opaque\":\\d+", "\"opaque\":#")
                .replaceAll("\"g\":\"\\d+\"", "\"g\":\"#\"")
                .replaceAll("UNIQ_KEY\\\\u0001[0-9A-F]+", "UNIQ_KEY\\\\u0001#");
            String body = new String(f.body(), StandardCharsets.ISO_8859_1).replaceAll("UNIQ_KEY\u0001[0-9A-F]+", "UNIQ_KEY\u0001#");
            masked.add(f.code() + " " + header + " body " + HexFormat.of().formatHex(body.getBytes(StandardCharsets.ISO_8859_1)));
        }
        return masked;
    }

    /** What every broker must give the patched client, from the scenario's numbers. */
    private static List<String> expected(String brokerVersion) {
        int all = PatchedClientScenario.ALL;
        return List.of(
            "broker: " + brokerVersion,
            "sync: " + PatchedClientScenario.SYNC + " of " + PatchedClientScenario.SYNC + " SEND_OK, "
                + PatchedClientScenario.SYNC + " with msgId = the unique key",
            "async: " + PatchedClientScenario.ASYNC + " of " + PatchedClientScenario.ASYNC
                + " SEND_OK with msgId = the unique key",
            "oneway: " + PatchedClientScenario.ONEWAY + " sent",
            "batch: " + PatchedClientScenario.BATCHES + " of " + PatchedClientScenario.BATCHES + " batches of "
                + PatchedClientScenario.PER_BATCH + " SEND_OK, " + PatchedClientScenario.BATCHES
                + " with msgId = their unique keys",
            "large: " + PatchedClientScenario.LARGE + " of " + PatchedClientScenario.LARGE
                + " SEND_OK with msgId = the unique key, " + PatchedClientScenario.LARGE + " over "
                + PatchedClientScenario.COMPRESS_AT + " bytes",
            "unique keys: " + all + " distinct of " + all,
            "ordered sends: " + PatchedClientScenario.ORDERED + " of " + PatchedClientScenario.ORDERED
                + " SEND_OK with msgId = the unique key, to queues [" + PatchedClientScenario.ORDERED_QUEUE + "]",
            "transaction: " + PatchedClientScenario.TX + " of " + PatchedClientScenario.TX
                + " half messages SEND_OK with msgId = the unique key, local states [COMMIT_MESSAGE, ROLLBACK_MESSAGE, "
                + "UNKNOW, COMMIT_MESSAGE, ROLLBACK_MESSAGE, COMMIT_MESSAGE, COMMIT_MESSAGE, ROLLBACK_MESSAGE, COMMIT_MESSAGE]",
            "push: " + all + " of " + all + " received, 0 differ, " + PatchedClientScenario.LARGE + " stored compressed",
            "pull: " + all + " of " + all + " received, 0 differ, " + PatchedClientScenario.LARGE + " stored compressed",
            "ordered: " + PatchedClientScenario.ORDERED + " received in order on queue " + PatchedClientScenario.ORDERED_QUEUE,
            "transaction push: " + PatchedClientScenario.TX_COMMITTED + " of " + PatchedClientScenario.TX_COMMITTED
                + " received, 0 differ, 0 stored compressed",
            "transaction: the broker checked seq " + PatchedClientScenario.UNKNOWN_SEQ,
            "transaction topic holds " + PatchedClientScenario.TX_COMMITTED + " messages",
            "netty client worker threads started: 0",
            "push consumers' pull results handled on: [NettyClientSelector_]",
            // a queue's first pull comes from the rebalance, through the PullMessageService; the rest from P33
            "push consumers' pulls sent from: [NettyClientSelector_, PullMessageService]");
    }

    /**
     * P31 switched off, differential: the same scenario against the patched broker gives the same lines but one, where
     * the push consumers' pull results were handled: on stock's callback executor again.
     */
    @Test
    void withP31OffPullResultsGoBackToTheCallbackExecutorAndNothingElseChanges() throws Exception {
        try (URLClassLoader off = clientLoader();
             TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf", "transactionCheckInterval=1000",
                 "transactionTimeOut=1000").start()) {
            assertEquals(false, LibLoaders.switches(off, "P31").getField("P31").getBoolean(null));
            List<String> observed = new ArrayList<>(runDriver(off, PatchedClientScenario.class, c.namesrvAddr(), c.brokerAddr()));
            observed.removeIf(l -> l.startsWith("info: "));
            List<String> expected = new ArrayList<>(expected("V4_9_0"));
            expected.set(expected.size() - 2, "push consumers' pull results handled on: [NettyClientPublicExecutor_]");
            // P33 makes the next pull only where P31 ran the callback: idle without it
            expected.set(expected.size() - 1, "push consumers' pulls sent from: [PullMessageService]");
            assertEquals(expected, observed);
        }
    }

    /**
     * P33 switched off, differential: the same lines but one, where the push consumers' pulls were sent: every one from
     * the PullMessageService thread again, the pull results still handled on the IO thread (P31).
     */
    @Test
    void withP33OffPullsGoBackToThePullServiceAndNothingElseChanges() throws Exception {
        try (URLClassLoader off = clientLoader();
             TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf", "transactionCheckInterval=1000",
                 "transactionTimeOut=1000").start()) {
            Class<?> offSwitches = LibLoaders.switches(off, "P33");
            assertEquals(false, offSwitches.getField("P33").getBoolean(null));
            assertEquals(true, offSwitches.getField("P31").getBoolean(null), "P31 stays on");
            List<String> observed = new ArrayList<>(runDriver(off, PatchedClientScenario.class, c.namesrvAddr(), c.brokerAddr()));
            observed.removeIf(l -> l.startsWith("info: "));
            List<String> expected = new ArrayList<>(expected("V4_9_0"));
            expected.set(expected.size() - 1, "push consumers' pulls sent from: [PullMessageService]");
            assertEquals(expected, observed);
        }
    }

    /** Runs {@link PatchedClientScenario} in the client's loader. */
    private static List<String> scenario(TestCluster c) throws Exception {
        return runDriver(client, PatchedClientScenario.class, c.namesrvAddr(), c.brokerAddr());
    }

    /**
     * Runs {@code driverClass.run(String, String)} defined over {@code lib} (its RocketMQ, not the test class path's),
     * with {@code lib} as the thread's context loader, as ClientPipelineIT runs its driver.
     */
    @SuppressWarnings("unchecked")
    private static List<String> runDriver(ClassLoader lib, Class<?> driverClass, String first, String second)
        throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(lib);
        try (DriverLoader driver = new DriverLoader(lib, driverClass.getName())) {
            return (List<String>) Class.forName(driverClass.getName(), true, driver)
                .getMethod("run", String.class, String.class).invoke(null, first, second);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }
}
