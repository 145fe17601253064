package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.RunsAlone;
import dev.rmqpatch.bench.agent.Agent;
import dev.rmqpatch.bench.agent.AgentHttpServer;
import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.auth.SecretFiles;
import dev.rmqpatch.bench.broker.JmxTestJvm;
import dev.rmqpatch.bench.command.CompareCommand;
import dev.rmqpatch.bench.engine.PlanFailedException;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.sink.SinkServer;
import dev.rmqpatch.cluster.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare --efficiency --remote, whole, against processes it did not start, all on loopback: two no-op sinks stand in
 * for two variants' clusters (name server and master in one: their stored-message counters are what the windows
 * count), two child JVMs with deploy's JMX options (password login, read-only role) stand in for their broker JVMs,
 * whose CPU each window reads over JMX, and a running agent with a token file loads them. The two JVMs spend CPU at
 * different paces, so the ratio shows which JVM each variant's windows read. Windows are 1 s; nothing about speed is
 * asserted.
 */
@RunsAlone
class RemoteEfficiencyInProcessTest {
    private static final AgentToken TOKEN = AgentToken.generate();
    private static final String PASSWORD = "a-read-only-password-0123456789";

    @TempDir
    Path dir;
    private final List<SinkServer> sinks = new ArrayList<>();
    private final List<JmxTestJvm> jvms = new ArrayList<>();
    private AgentHttpServer agent;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        for (int i = 0; i < 2; i++) {
            sinks.add(new SinkServer("127.0.0.1", 0, 4, 2));
            Path jmxDir = Files.createDirectories(dir.resolve("jmx-" + i));
            // One login for both: deploy gives every broker of a deployment the same read-only password.
            jvms.add(JmxTestJvm.startReadOnly(jmxDir, "rmqpatch-monitor", PASSWORD));
        }
        agent = new AgentHttpServer(new Agent("agent-1"), "127.0.0.1", 0, TOKEN, () -> { });
        TOKEN.writeNew(dir.resolve("agent.token"));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (agent != null) {
            agent.close();
        }
        sinks.forEach(SinkServer::close);
        for (JmxTestJvm j : jvms) {
            j.close();
        }
    }

    private String[] args(String password, String... more) {
        List<String> a = new ArrayList<>(List.of("--efficiency", "--variants", "4.9.0-tuned,4.9.0-patched",
            "--remote", "4.9.0-tuned:namesrv=127.0.0.1:" + sinks.get(0).port() + ",jmx=" + jvms.get(0).target(),
            "--remote", "4.9.0-patched:namesrv=127.0.0.1:" + sinks.get(1).port() + ",jmx=" + jvms.get(1).target(),
            "--agent", "127.0.0.1:" + agent.port(), "--agent-token-file", dir.resolve("agent.token").toString(),
            "--broker-jmx-password-file", password, "--rate", "400", "--window", "1", "--pairs", "3", "--warmup", "1",
            "--threads", "2", "--out", dir.resolve("out").toString()));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    private Path credentials() throws Exception {
        Path f = dir.resolve("jmx.credentials");
        if (!Files.exists(f)) {
            SecretFiles.writeNew(f, "rmqpatch-monitor " + PASSWORD + "\n");
        }
        return f;
    }

    @Test
    @Timeout(120)
    void windowsReadEachVariantsOwnBrokerJvmOverJmx() throws Exception {
        jvms.get(0).spin(10);
        jvms.get(1).spin(40);
        RunOptions o = CompareCommand.parse(args(credentials().toString()));
        assertEquals(dev.rmqpatch.bench.pinning.PinMode.OFF, o.pin, "nothing to pin on other hosts");
        assertEquals(1, o.agents);
        new RunContext(o, new PrintStream(printed, true, StandardCharsets.UTF_8)).run(o.plan);

        String out = printed.toString(StandardCharsets.UTF_8);
        JsonObject r = JsonParser.parseString(Files.readString(dir.resolve("out/results.json"))).getAsJsonObject();
        assertEquals("ok", r.get("status").getAsString(), out);
        assertEquals("jmx", r.get("cpuSource").getAsString());
        assertEquals(2, r.getAsJsonArray("remoteBrokers").size());
        assertEquals(List.of("127.0.0.1:" + sinks.get(1).port()), strings(r.getAsJsonArray("remoteBrokers").get(1).getAsJsonObject()
            .getAsJsonArray("masters")), "the masters come from the name server");
        assertEquals(RemoteBrokers.NO_PINNING, r.getAsJsonObject("pinning").get("notAppliedBecause").getAsString());
        int measured = 0;
        double[] cpuNanos = new double[2];
        for (JsonElement e : r.getAsJsonArray("windows")) {
            JsonObject w = e.getAsJsonObject();
            assertNull(w.get("brokerThreads"), "no /proc of other hosts");
            assertNull(w.get("otherCpuCores"), "this machine's CPU says nothing about the brokers' hosts");
            assertTrue(w.get("brokerCpuUsPerMsg").getAsDouble() > 0, w.toString());
            assertNotNull(w.get("gcPauseMs"), "GC over JMX too");
            int v = w.get("variant").getAsString().equals("4.9.0-tuned") ? 0 : 1;
            cpuNanos[v] += w.get("brokerCpuUsPerMsg").getAsDouble() * 1000 * w.get("messagesStored").getAsLong();
            if (w.get("phase").getAsString().equals(Window.MEASURE)) {
                measured++;
                // Whether it held is the machine's business (a busy CI box stalls a window now and then): it is recorded.
                assertNotNull(w.get("heldRate"), w.toString());
            }
        }
        assertEquals(6, measured);
        for (int v = 0; v < 2; v++) {
            // What the windows charged to a variant is CPU its own JVM spent (JMX reads it in 10 ms ticks, as /proc does).
            assertTrue(cpuNanos[v] <= jvms.get(v).cpuNanos() + 50_000_000L, v + ": " + cpuNanos[v] + " > " + jvms.get(v).cpuNanos());
        }
        JsonObject patched = r.getAsJsonArray("variants").get(1).getAsJsonObject().getAsJsonObject("brokerCpuUsPerMsg");
        assertTrue(patched.get("pairs").getAsInt() >= 2, "one stalled window at most: " + patched);
        assertEquals(2, patched.getAsJsonArray("ratioCi95").size());
        // The "patched" JVM spins four times as much: its windows read it, not the other one.
        assertTrue(patched.get("ratio").getAsDouble() > 1.5, patched.toString());
        String table = Files.readString(dir.resolve("out/table.txt"));
        assertTrue(table.contains("broker CPU: each broker JVM's ProcessCpuTime over JMX"), table);
        assertTrue(Files.exists(dir.resolve("out/chart.png")));
    }

    @Test
    @Timeout(60)
    void aBrokerJmxThatCannotBeReadStopsTheRunBeforeAnyLoad() throws Exception {
        RunOptions o = CompareCommand.parse(args(credentials().toString()));
        // The second variant's JMX port answers nothing: its CPU could not be measured.
        o.remote = List.of(o.remote.get(0), dev.rmqpatch.bench.engine.RemoteCluster.parse(
            "4.9.0-patched:namesrv=127.0.0.1:" + sinks.get(1).port() + ",jmx=127.0.0.1:" + FreePorts.any()));
        PlanFailedException e = assertThrows(PlanFailedException.class,
            () -> new RunContext(o, new PrintStream(printed, true, StandardCharsets.UTF_8)).run(o.plan));
        assertTrue(e.getMessage().contains("4.9.0-patched master(s): broker JMX 127.0.0.1:"), e.getMessage());
        assertEquals(0, sinks.get(0).messages() + sinks.get(1).messages(), "no load before every broker can be read");
        JsonObject r = JsonParser.parseString(Files.readString(dir.resolve("out/results.json"))).getAsJsonObject();
        assertEquals("failed", r.get("status").getAsString());
    }

    private static List<String> strings(JsonArray a) {
        List<String> out = new ArrayList<>();
        a.forEach(e -> out.add(e.getAsString()));
        return out;
    }
}
