package dev.rmqpatch.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Client names, parallel to the broker variants', and what each puts into its agent JVMs. */
class ClientVariantTest {
    @TempDir
    Path dir;

    @Test
    void namesGiveTheKindThePatchesOffAndCopies() throws Exception {
        ClientVariant stock = ClientVariant.parse("stock");
        assertEquals(ClientVariant.Kind.STOCK, stock.kind());
        assertEquals(List.of(), stock.disabledPatches());
        ClientVariant patched = ClientVariant.parse(" patched-without-P7+P26 ");
        assertEquals("patched-without-P7+P26", patched.name());
        assertEquals(ClientVariant.Kind.PATCHED, patched.kind());
        assertEquals(List.of("P7", "P26"), patched.disabledPatches());
        ClientVariant copy = ClientVariant.parse("agent#2");
        assertEquals(ClientVariant.Kind.AGENT, copy.kind());
        assertEquals("agent#2", copy.name());
        ClientVariant wire = ClientVariant.parse("wire");
        assertEquals(ClientVariant.Kind.WIRE, wire.kind());
        assertEquals(dev.rmqpatch.bench.workload.ClientMode.WIRE, wire.mode(), "its agents send with the wire client");
        assertEquals(dev.rmqpatch.bench.workload.ClientMode.ROCKETMQ, patched.mode());
        assertEquals(List.of(), wire.jvmOptions(dir.resolve("rmqpatch-agent.jar")), "the harness's own JVM options only");
        assertEquals(List.of(), wire.classPathFirst(List.of(dir.resolve("rocketmq-client-4.9.0.jar")), dir));
        ClientVariant onJdk8 = ClientVariant.parse("patched-without-P26@8#2");
        assertEquals(8, onJdk8.jdk());
        assertEquals(List.of("P26"), onJdk8.disabledPatches());
        assertEquals(null, stock.jdk(), "no suffix: the harness's JDK");
        ClientVariant release = ClientVariant.parse("5.3.3@8#2");
        assertEquals(ClientVariant.Kind.RELEASE, release.kind());
        assertEquals("5.3.3", release.release());
        assertEquals(8, release.jdk());
        assertEquals(dev.rmqpatch.bench.workload.ClientMode.ROCKETMQ, release.mode());
        assertEquals(List.of(), release.jvmOptions(dir.resolve("rmqpatch-agent.jar")), "the harness's own JVM options only");
        assertEquals("4.9.8", ClientVariant.parse("4.9.8").release());
        assertEquals(null, stock.release());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ClientVariant.parse("4.9.0")).getMessage().contains("say stock"));
        for (String bad : List.of("Stock", "patched-without-", "patched-without-p7", "agent@", "stock@11", "stock#2@8", "4.9.0-patched",
            "stock-without-P1", "wire-without-P7", "5.3.3-without-P1", "5.3", "5.3.3-tuned", "")) {
            assertThrows(IllegalArgumentException.class, () -> ClientVariant.parse(bad), bad);
        }
    }

    @Test
    void onlyTheClassPathAndTheAgentOptionsDiffer() throws Exception {
        Path agentJar = dir.resolve("rmqpatch-agent.jar");
        List<Path> patchedJars = List.of(dir.resolve("rocketmq-client-4.9.0.jar"), dir.resolve("rmqpatch-codec-1.jar"));
        ClientVariant stock = ClientVariant.parse("stock");
        ClientVariant patched = ClientVariant.parse("patched-without-P26");
        ClientVariant agent = ClientVariant.parse("agent");
        assertEquals(List.of(), stock.jvmOptions(agentJar));
        assertEquals(List.of(), stock.classPathFirst(patchedJars, dir));
        assertEquals(List.of("-Drmqpatch.disable=P26"), patched.jvmOptions(agentJar));
        assertEquals(patchedJars, patched.classPathFirst(patchedJars, dir));
        assertEquals(List.of("-javaagent:" + agentJar), agent.jvmOptions(agentJar));
        assertEquals(List.of(), agent.classPathFirst(patchedJars, dir), "the agent rewrites the stock jars");
    }

    @Test
    void agentCommandLinesDifferOnlyInTheClientsOwnPart() throws Exception {
        List<String> same = List.of("-Xms512m", "-Xmx512m", "-XX:ActiveProcessorCount=2");
        List<String> args = List.of("--name", "agent-1");
        String main = "dev.rmqpatch.bench.agent.AgentMain";
        dev.rmqpatch.bench.coordinator.HelperJdk harness = dev.rmqpatch.bench.coordinator.HelperJdk.harness();
        Path agentJar = dir.resolve("rmqpatch-agent.jar");
        List<Path> jars = List.of(dir.resolve("rocketmq-client-4.9.0.jar"), dir.resolve("rmqpatch-codec-1.jar"));
        List<String> stock = dev.rmqpatch.bench.coordinator.LocalJvm.command(harness, same, List.of(), main, args);
        ClientVariant patched = ClientVariant.parse("patched-without-P26");
        List<String> withOwn = new java.util.ArrayList<>(same);
        withOwn.addAll(patched.jvmOptions(agentJar));
        List<String> p = dev.rmqpatch.bench.coordinator.LocalJvm.command(harness, withOwn, patched.classPathFirst(jars, dir), main, args);
        int cp = stock.indexOf("-cp");
        assertEquals(stock.subList(0, cp), p.subList(0, cp), "the same java and options before the client's own");
        assertEquals(List.of("-Drmqpatch.disable=P26"), p.subList(cp, p.indexOf("-cp")));
        String patchedPath = p.get(p.indexOf("-cp") + 1);
        assertTrue(patchedPath.startsWith(jars.get(0) + java.io.File.pathSeparator + jars.get(1) + java.io.File.pathSeparator), patchedPath);
        assertTrue(patchedPath.endsWith(stock.get(cp + 1)), "then the harness's own class path, stock client included");
        assertEquals(stock.subList(cp + 2, stock.size()), p.subList(p.indexOf("-cp") + 2, p.size()));

        // On JDK 8 (@8): that JDK's java, and no module options, which JDK 8 would refuse to start with.
        Path jdk8 = dir.resolve("jdk8");
        List<String> old = dev.rmqpatch.bench.coordinator.LocalJvm.command(dev.rmqpatch.bench.coordinator.HelperJdk.at(jdk8), same, List.of(),
            main, args);
        assertEquals(jdk8.resolve("bin").resolve("java").toString(), old.get(0));
        assertTrue(stock.contains("--add-opens") && !old.contains("--add-opens"), old.toString());
        assertEquals(stock.subList(stock.indexOf("-Djava.awt.headless=true"), stock.size()), old.subList(1, old.size()));
    }

    @Test
    void listsNeedTwoDistinctClients() {
        assertEquals(2, ClientVariant.parseList("stock, patched,").size());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ClientVariant.parseList("stock,stock")).getMessage().contains("twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ClientVariant.parseList("stock")).getMessage().contains("at least two"));
    }

    @Test
    void patchedJarsComeFromThePatchedDistributionOrSayHowToBuildThem() throws Exception {
        String missing = assertThrows(ClientVariant.MissingPartException.class, () -> ClientVariant.patchedJars(dir, "4.9.0")).getMessage();
        assertTrue(missing.contains("rocketmq-4.9.0-patched") && missing.contains("scripts/build.sh --rocketmq-version 4.9.0"), missing);
        Path lib = Files.createDirectories(dir.resolve("rocketmq-4.9.0-patched/lib"));
        for (String a : List.of("rocketmq-client", "rocketmq-common", "rocketmq-remoting", "rocketmq-logging", "rocketmq-broker")) {
            Files.createFile(lib.resolve(a + "-4.9.0.jar"));
        }
        String noCodec = assertThrows(ClientVariant.MissingPartException.class, () -> ClientVariant.patchedJars(dir, "4.9.0")).getMessage();
        assertTrue(noCodec.contains("rmqpatch-codec-"), noCodec);
        Files.createFile(lib.resolve("rmqpatch-codec-0.1.0-SNAPSHOT.jar"));
        assertEquals(List.of(lib.resolve("rocketmq-client-4.9.0.jar"), lib.resolve("rocketmq-common-4.9.0.jar"),
            lib.resolve("rocketmq-remoting-4.9.0.jar"), lib.resolve("rocketmq-logging-4.9.0.jar"), lib.resolve("rmqpatch-codec-0.1.0-SNAPSHOT.jar")),
            ClientVariant.patchedJars(dir, "4.9.0"), "the client-side jars and the codec, never the broker's");
    }

    /**
     * A release client's class path first: its stock distribution's lib/ but the release's server modules and the harness's
     * own libraries, in file-name order; a missing distribution names the build command.
     */
    @Test
    void releaseJarsComeFromItsStockDistributionOrSayHowToBuildIt() throws Exception {
        ClientVariant release = ClientVariant.parse("5.3.3@8");
        String missing = assertThrows(ClientVariant.MissingPartException.class, () -> release.classPathFirst(List.of(), dir)).getMessage();
        assertTrue(missing.contains("rocketmq-5.3.3-stock") && missing.contains("scripts/build.sh --rocketmq-version 5.3.3 --stock-only"), missing);
        Path lib = Files.createDirectories(dir.resolve("rocketmq-5.3.3-stock/lib"));
        List<String> kept = List.of("fastjson-1.2.83.jar", "fastjson2-2.0.43.jar", "netty-all-4.1.114.Final.jar",
            "netty-transport-native-epoll-4.1.114.Final-linux-x86_64.jar", "rocketmq-client-5.3.3.jar", "rocketmq-common-5.3.3.jar",
            "rocketmq-proto-2.0.4.jar", "rocketmq-remoting-5.3.3.jar", "rocketmq-slf4j-api-1.0.1.jar");
        List<String> left = List.of("gson-2.9.0.jar", "rocketmq-broker-5.3.3.jar", "rocketmq-store-5.3.3.jar", "rocketmq-tools-5.3.3.jar",
            "snakeyaml-2.0.jar", "readme.txt");
        for (String f : left) {
            Files.createFile(lib.resolve(f));
        }
        String noClient = assertThrows(ClientVariant.MissingPartException.class, () -> release.classPathFirst(List.of(), dir)).getMessage();
        assertTrue(noClient.contains("rocketmq-client-5.3.3.jar") && noClient.contains("--stock-only"), noClient);
        for (String f : kept) {
            Files.createFile(lib.resolve(f));
        }
        List<Path> expected = new java.util.ArrayList<>();
        kept.forEach(f -> expected.add(lib.resolve(f)));
        assertEquals(expected, release.classPathFirst(List.of(dir.resolve("patched.jar")), dir));
        // 4.9.x: rocketmq-logging is the client's too.
        Path lib498 = Files.createDirectories(dir.resolve("rocketmq-4.9.8-stock/lib"));
        for (String f : List.of("rocketmq-client-4.9.8.jar", "rocketmq-logging-4.9.8.jar", "rocketmq-namesrv-4.9.8.jar", "netty-all-4.1.65.Final.jar")) {
            Files.createFile(lib498.resolve(f));
        }
        assertEquals(List.of(lib498.resolve("netty-all-4.1.65.Final.jar"), lib498.resolve("rocketmq-client-4.9.8.jar"),
            lib498.resolve("rocketmq-logging-4.9.8.jar")), ClientVariant.parse("4.9.8").classPathFirst(List.of(), dir));
    }

    @Test
    void aMissingAgentJarSaysHowToBuildIt() throws Exception {
        String missing = assertThrows(ClientVariant.MissingPartException.class, () -> ClientVariant.agentJar(dir)).getMessage();
        assertTrue(missing.contains(ClientVariant.AGENT_BUILD), missing);
        Path jar = dir.resolve(ClientVariant.AGENT_JAR);
        Files.createDirectories(jar.getParent());
        Files.createFile(jar);
        assertEquals(jar, ClientVariant.agentJar(dir));
    }

    @Test
    void sidesParse() {
        assertEquals(ClientVariant.Side.CONSUMER, ClientVariant.Side.parse("consumer"));
        assertThrows(IllegalArgumentException.class, () -> ClientVariant.Side.parse("Producer"));
    }
}
