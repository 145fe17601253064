package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.RunsAlone;
import dev.rmqpatch.bench.efficiency.EfficiencyWarnings;
import dev.rmqpatch.cluster.Jdk8Home;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI smoke of scripts/compare.sh --efficiency with real brokers: two variants up at once, two one-second windows per
 * variant at a given rate, pinned and split (or their fallback where affinity cannot be set) and the profiler attached; then the
 * same for --topology ms-sync. The first run's patched broker runs on JDK 8 (a variant's {@code @8}) where one can be had,
 * as always in CI. It checks the documented results.json, table, chart and flame graphs; nothing about
 * speed.
 */
@RunsAlone
@Timeout(600)
class CompareEfficiencyIT {
    /**
     * Pairs of windows per run: an interval needs two, and one more lets a window that missed its rate on a slow machine
     * (one of a run's windows, now and then, on a machine slow on system calls) cost its pair without the figure; with
     * two, such a run had nothing to check and skipped (5 of 6 of these tests in one CI run). The rates (250 and 500
     * msg/s) are low for the same reason: on such a machine a broker a few seconds after its start (C2 still compiling)
     * stored 300-475 msg/s of a 500 msg/s target in its ms-sync windows. These runs check the pipeline, not figures.
     */
    private static final String PAIRS = "3";

    @TempDir
    Path dir;

    /** Runs compare.sh; on a timeout SIGTERM first, so its shutdown hook stops brokers, name servers and agents. */
    private static String run(List<String> args, Path log) throws Exception {
        List<String> command = new ArrayList<>(List.of(Dists.repoRoot().resolve("scripts/compare.sh").toString(), "--no-build"));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(p.waitFor(240, TimeUnit.SECONDS), "compare.sh finished");
        } finally {
            if (p.isAlive()) {
                p.destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
        String printed = Files.readString(log);
        assertEquals(0, p.exitValue(), printed);
        return printed;
    }

    private static void assertNothingLeft(Path out) {
        String runDir = out.toString();
        List<ProcessHandle> left = ProcessHandle.allProcesses()
            .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains(runDir)).orElse(false)).toList();
        assertTrue(left.isEmpty(), "processes of the run still alive: " + left);
    }

    /**
     * On a machine too busy for a run's rate (other load beside CI, or a machine slow on system calls), a variant can
     * have no figure to check: no window in a pair at all, or fewer pairs than an interval needs (two) because windows
     * missed the rate. Then the harness must have said so in its warnings (no usable pair, or windows that missed the
     * rate), every process of the run must be gone, and this test stops there, saying why (skipped, with the reason
     * in the report): the figures cannot be checked, and nothing else may be missing.
     */
    private static void assumeTheMachineKeptUp(JsonObject r, Path out) {
        List<String> busy = new ArrayList<>();
        for (JsonElement e : r.getAsJsonArray("variants")) {
            JsonObject v = e.getAsJsonObject();
            JsonObject cpu = v.getAsJsonObject("brokerCpuUsPerMsg");
            if (cpu == null || cpu.get("windows").getAsInt() == 0
                || (cpu.has("pairs") && cpu.get("pairs").getAsInt() < 2)) {
                busy.add(v.get("name").getAsString());
            }
        }
        if (busy.isEmpty()) {
            return;
        }
        List<String> warnings = new ArrayList<>();
        r.getAsJsonArray("warnings").forEach(w -> warnings.add(w.getAsString()));
        for (String name : busy) {
            // a pair is lost by either variant's window: the warning may name the other one
            assertTrue(warnings.stream().anyMatch(w -> w.startsWith(name + ": " + EfficiencyWarnings.TOO_BUSY)
                    || w.contains(EfficiencyWarnings.MISSED_RATE)),
                name + " has no figure and the harness did not say so: " + warnings);
        }
        assertNothingLeft(out);
        String why = "the machine was too busy to keep two pairs of windows at this rate, so " + busy + " have no figure to check; the harness said: "
            + warnings;
        System.out.println("[CompareEfficiencyIT] " + why);
        Assumptions.abort(why);
    }

    @Test
    void pairedWindowsGiveARatioWithAnIntervalAndAFlameGraphPerVariant() throws Exception {
        Dists.stock();
        Dists.patched();
        Path out = dir.resolve("eff");
        // The patched variant's servers on JDK 8 where one can be had (always in CI): the harness's @8, and the
        // profiler attached to a JDK 8 broker.
        Path jdk8 = Jdk8Home.forTests();
        String patchedName = jdk8 != null ? "4.9.0-patched@8" : "4.9.0-patched";
        if (jdk8 == null) {
            System.err.println("[CompareEfficiencyIT] no JDK 8 here (" + Jdk8Home.failure() + "); the patched broker runs on this JDK");
        }
        String printed = run(List.of("--efficiency", "--variants", "4.9.0-tuned," + patchedName, "--pairs", PAIRS, "--window", "1", "--warmup", "2",
            "--rate", "500", "--pin", "on,split", "--profile", "--threads", "4", "--broker-heap", "512m", "--out", out.toString()), dir.resolve("eff.log"));
        assertTrue(printed.contains("[measure     pair"), printed);

        JsonObject r = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", r.get("status").getAsString(), printed);
        assumeTheMachineKeptUp(r, out);
        ResultKeys.assertSameAsSample("efficiency-results.keys", r, java.util.Set.of("4.9.0-tuned", patchedName));
        assertEquals("efficiency", r.get("mode").getAsString());
        assertEquals(500.0, r.get("rateMsgPerS").getAsDouble());
        assertEquals("--rate", r.get("rateSource").getAsString());
        assertEquals("4.9.0-tuned", r.get("baseline").getAsString());
        assertEquals(Integer.parseInt(PAIRS), r.get("pairsMeasured").getAsInt());
        JsonObject pinning = r.getAsJsonObject("pinning");
        assertTrue(pinning.get("activeProcessorCount").getAsInt() > 0);
        assertSplitWasApplied(r);

        JsonArray variants = r.getAsJsonArray("variants");
        assertEquals(2, variants.size());
        for (JsonElement e : variants) {
            JsonObject v = e.getAsJsonObject();
            JsonObject cpu = v.getAsJsonObject("brokerCpuUsPerMsg");
            assertTrue(cpu.get("median").getAsDouble() > 0, v.toString());
            assertTrue(v.getAsJsonObject("storedBytesPerMsg").get("median").getAsDouble() > 300);
            JsonObject threads = v.getAsJsonObject("threads");
            assertTrue(threads.getAsJsonObject("contextSwitchesPerMsg").get("median").getAsDouble() > 0, threads.toString());
            if (v.get("name").getAsString().equals("4.9.0-tuned")) {
                // JDK 17 gives the kernel the thread names: the send executor and netty's threads are told apart.
                assertTrue(threads.getAsJsonObject("groupCpuUsPerMsg").has("send"), threads.toString());
                assertTrue(threads.getAsJsonObject("groupCpuUsPerMsg").has("netty-io"), threads.toString());
            }
            JsonObject profile = v.getAsJsonObject("profile");
            assertTrue(profile.get("samples").getAsLong() > 0, profile.toString());
            double areas = 0;
            for (var a : profile.getAsJsonObject("areas").entrySet()) {
                areas += a.getValue().getAsDouble();
            }
            assertEquals(1.0, areas, 0.001, "the area shares add up");
            String html = Files.readString(out.resolve(profile.get("flameGraph").getAsString()));
            assertTrue(html.startsWith("<!DOCTYPE html>"));
        }
        JsonObject servers = r.getAsJsonObject("metadata").getAsJsonObject("variants");
        String tunedJava = servers.getAsJsonObject("4.9.0-tuned").getAsJsonArray("brokerCommandLine").get(0).getAsString();
        String patchedJava = servers.getAsJsonObject(patchedName).getAsJsonArray("brokerCommandLine").get(0).getAsString();
        System.out.println("[CompareEfficiencyIT] 4.9.0-tuned broker ran " + tunedJava + "; " + patchedName + " broker ran " + patchedJava);
        if (jdk8 != null) {
            assertTrue(Path.of(patchedJava).startsWith(jdk8), patchedName + " ran " + patchedJava + ", not JDK 8's java under " + jdk8);
            assertTrue(!Path.of(tunedJava).startsWith(jdk8), "4.9.0-tuned (no suffix) ran JDK 8's java: " + tunedJava);
        }
        JsonObject patched = variants.get(1).getAsJsonObject().getAsJsonObject("brokerCpuUsPerMsg");
        assertTrue(patched.get("ratio").getAsDouble() > 0);
        if (patched.get("pairs").getAsInt() >= 2) {
            JsonArray ci = patched.getAsJsonArray("ratioCi95");
            assertEquals(2, ci.size());
            assertTrue(ci.get(0).getAsDouble() <= ci.get(1).getAsDouble());
        } else {
            // A window that missed its rate on a loaded CI machine leaves its pair out: then it must be reported,
            // and an interval needs two pairs.
            assertTrue(patched.get("ratioCi95") == null || patched.get("ratioCi95").isJsonNull(), patched.toString());
            boolean reported = false;
            for (JsonElement e : r.getAsJsonArray("windows")) {
                reported |= !e.getAsJsonObject().get("inInterval").getAsBoolean();
            }
            assertTrue(reported, "a pair left out of the interval is listed among the windows: " + printed);
        }
        String verdict = patched.get("verdict").getAsString();
        assertTrue(verdict.equals("resolved") || verdict.equals("unresolved"), verdict);

        JsonObject profile = r.getAsJsonObject("profile");
        String event = profile.get("event").getAsString();
        assertTrue(event.equals("cpu") || event.equals("itimer"), event);
        assertTrue(profile.get("profiledWindows").getAsString().contains("separate from the interval"));
        JsonArray windows = r.getAsJsonArray("windows");
        boolean profiledOutside = true;
        for (JsonElement e : windows) {
            JsonObject w = e.getAsJsonObject();
            profiledOutside &= !(w.get("profiled").getAsBoolean() && w.get("inInterval").getAsBoolean());
        }
        assertTrue(profiledOutside, "profiled windows never count for the interval");

        String table = Files.readString(out.resolve("table.txt"));
        assertTrue(table.contains("x 4.9.0-tuned") && table.contains("95% CI"), table);
        assertTrue(table.contains("threads per message stored") && table.contains("cs/msg"), table);
        assertTrue(table.contains("where the broker's CPU goes") && table.contains("top 15 self-time methods"), table);
        assertTrue(Files.size(out.resolve("chart.png")) > 1000);
        assertNothingLeft(out);
    }

    /**
     * --pin on,split: the split cell's windows ran with each broker's netty IO and send threads on different CPUs, as the
     * run read them back from /proc/PID/task/TID/status (Cpus_allowed_list) at each window start; or, where affinity
     * cannot be set, the run went on unpinned and said why.
     */
    private static void assertSplitWasApplied(JsonObject r) {
        JsonObject pinning = r.getAsJsonObject("pinning");
        JsonObject split = pinning.getAsJsonObject("split");
        assertNotNull(split, pinning.toString());
        if (pinning.has("notAppliedBecause")) {
            assertTrue(split.has("notAppliedBecause"), pinning.toString());
            return;
        }
        assertTrue(List.of("pinned", "split").contains(pinning.get("placement").getAsString()), pinning.toString());
        assertTrue(!split.get("ioCpus").equals(split.get("sendCpus")), split.toString());
        int splitWindows = 0;
        for (JsonElement e : r.getAsJsonArray("windows")) {
            JsonObject w = e.getAsJsonObject();
            if ("measure".equals(w.get("phase").getAsString()) && "split".equals(w.get("placement").getAsString())) {
                splitWindows++;
                assertTrue(w.getAsJsonObject("brokerThreads").get("contextSwitchesPerMsg").getAsDouble() > 0, w.toString());
            }
        }
        assertEquals(2 * Integer.parseInt(PAIRS), splitWindows, PAIRS + " split pairs of 2 windows: " + r.getAsJsonArray("windows"));
        boolean tuned = false;
        for (JsonElement e : split.getAsJsonArray("brokers")) {
            JsonObject b = e.getAsJsonObject();
            if (b.get("variant").getAsString().equals("4.9.0-tuned")) {
                // JDK 17 gives the kernel the thread names: its IO and send threads were found and read back on their CPUs.
                JsonObject groups = b.getAsJsonObject("groups");
                assertTrue(groups.get("netty-io").getAsInt() > 0 && groups.get("send").getAsInt() > 0, b.toString());
                tuned = true;
            }
        }
        assertTrue(tuned, split.toString());
        for (JsonElement e : split.getAsJsonArray("brokers")) {
            // Every broker was split by its thread names, or the run says why not (a JDK that leaves its threads unnamed).
            JsonObject b = e.getAsJsonObject();
            JsonObject groups = b.getAsJsonObject("groups");
            boolean said = false;
            for (JsonElement w : r.getAsJsonArray("warnings")) {
                said |= w.getAsString().startsWith(b.get("variant").getAsString() + ": the split placement found");
            }
            assertTrue(groups.get("netty-io").getAsInt() > 0 && groups.get("send").getAsInt() > 0 || said, b + " " + r.getAsJsonArray("warnings"));
        }
    }

    @Test
    void msSyncReportsTheMastersAndTheSlavesCpuWithConsumers() throws Exception {
        Dists.stock();
        Dists.patched();
        Path out = dir.resolve("ms");
        String printed = run(List.of("--efficiency", "--topology", "ms-sync", "--variants", "4.9.0-tuned,4.9.0-patched", "--pairs", PAIRS, "--window",
            "1", "--warmup", "2", "--rate", "250", "--pin", "off", "--threads", "4", "--consumers", "1", "--broker-heap", "512m", "--out", out.toString()),
            dir.resolve("ms.log"));
        JsonObject r = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", r.get("status").getAsString(), printed);
        assumeTheMachineKeptUp(r, out);
        assertEquals("ms-sync", r.getAsJsonObject("metadata").get("topology").getAsString());
        assertEquals("--pin off", r.getAsJsonObject("pinning").get("notAppliedBecause").getAsString());
        for (JsonElement e : r.getAsJsonArray("variants")) {
            JsonObject v = e.getAsJsonObject();
            assertNotNull(v.getAsJsonObject("slaveCpuUsPerMsg"), v.toString());
            assertTrue(v.getAsJsonObject("slaveCpuUsPerMsg").get("median").getAsDouble() > 0, v.toString());
            assertTrue(v.getAsJsonObject("slaveThreads").getAsJsonObject("contextSwitchesPerMsg").get("median").getAsDouble() > 0,
                v.toString());
        }
        for (JsonElement w : r.getAsJsonArray("warnings")) {
            assertTrue(!w.getAsString().contains("replication"), w.getAsString());
        }
        // --consumers 1: each cluster's topic has a consumer that keeps up with what the window stores.
        for (JsonElement e : r.getAsJsonArray("windows")) {
            JsonObject w = e.getAsJsonObject();
            if ("measure".equals(w.get("phase").getAsString())) {
                assertTrue(w.get("consumed").getAsLong() > 0.5 * w.get("acked").getAsLong(), w.toString());
            }
        }
        assertTrue(Files.readString(out.resolve("table.txt")).contains("slave us/msg"));
        assertNothingLeft(out);
    }

    /**
     * --clients stock,patched,wire: one broker, each client its own agent JVM, two pairs of one-second windows. Checks the
     * documented results.json and that each agent JVM ran the classes it claims: the patched one RocketMQ's classes from the
     * patched distribution's jars (rewritten: rmqpatch$ bridges in RemotingCommand), the stock and wire ones the stock jars
     * (the wire client encodes its frames once with stock code), with the same JVM options apart from the class path; the
     * wire client's sends are written and answered on its event loop (netty-io), with no sender threads.
     */
    @Test
    void clientsTakeTurnsAgainstOneBrokerOnTheirOwnClassPaths() throws Exception {
        Dists.stock();
        Path patchedLib = Dists.patched().resolve("lib").toRealPath();
        Path out = dir.resolve("clients");
        String printed = run(List.of("--efficiency", "--clients", "stock,patched,wire", "--pairs", PAIRS, "--window", "1", "--warmup", "1",
            "--rate", "250", "--pin", "off", "--threads", "4", "--broker-heap", "512m", "--out", out.toString()), dir.resolve("clients.log"));
        JsonObject r = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", r.get("status").getAsString(), printed);
        assumeTheMachineKeptUp(r, out);
        // The interval's fields need two usable pairs, which a loaded machine may not give: optional in the sample.
        ResultKeys.assertSameAsSample("client-efficiency-results.keys", r, java.util.Set.of("stock", "patched", "wire"));
        assertEquals("CLIENT", r.get("mainFigure").getAsString());
        assertEquals("stock", r.get("baseline").getAsString());
        assertEquals("producer", r.getAsJsonObject("clients").get("side").getAsString());
        assertEquals("4.9.0-tuned", r.getAsJsonObject("clients").get("broker").getAsString());
        JsonArray variants = r.getAsJsonArray("variants");
        assertEquals(3, variants.size());
        List<String> names = List.of("stock", "patched", "wire");
        List<String> optionsBeforeClassPath = new ArrayList<>();
        for (JsonElement e : variants) {
            JsonObject v = e.getAsJsonObject();
            String name = v.get("name").getAsString();
            assertTrue(v.getAsJsonObject("clientCpuUsPerMsg").get("median").getAsDouble() > 0, v.toString());
            assertTrue(v.getAsJsonObject("brokerCpuUsPerMsg").get("median").getAsDouble() > 0, v.toString());
            JsonObject groups = v.getAsJsonObject("clientThreads").getAsJsonObject("groupCpuUsPerMsg");
            assertTrue(groups.getAsJsonObject("netty-io").get("median").getAsDouble() > 0, groups.toString());
            assertEquals(!name.equals("wire"), groups.has("app-senders") && groups.getAsJsonObject("app-senders").get("median").getAsDouble() > 0,
                name + " " + groups);
            JsonObject client = v.getAsJsonObject("client");
            JsonArray command = client.getAsJsonArray("commandLines").get(0).getAsJsonArray();
            List<String> args = new ArrayList<>();
            command.forEach(x -> args.add(x.getAsString()));
            int cp = args.indexOf("-cp");
            optionsBeforeClassPath.add(String.join(" ", args.subList(0, cp)));
            String remoting = null;
            int bridges = -1;
            for (JsonElement c : client.getAsJsonArray("loadedClasses")) {
                JsonObject lc = c.getAsJsonObject();
                if (lc.get("name").getAsString().endsWith(".RemotingCommand")) {
                    remoting = Path.of(java.net.URI.create(lc.get("jar").getAsString())).toRealPath().toString();
                    bridges = lc.get("rmqpatchMethods").getAsInt();
                }
            }
            assertNotNull(remoting, client.toString());
            String agentOut = Files.readString(out.resolve("agents").resolve(name).resolve("agent-" + (names.indexOf(name) + 1) + ".out"));
            assertTrue(agentOut.contains("RocketMQ class org.apache.rocketmq.remoting.protocol.RemotingCommand from "), agentOut);
            if (name.equals("patched")) {
                assertEquals(5, client.getAsJsonArray("classPathFirst").size(), client.toString());
                assertTrue(args.get(cp + 1).startsWith(client.getAsJsonArray("classPathFirst").get(0).getAsString()), args.get(cp + 1));
                assertTrue(remoting.startsWith(patchedLib.toString()), remoting + " is not from " + patchedLib);
                assertTrue(bridges > 0, "the patched RemotingCommand has rmqpatch's bridges: " + client);
            } else {
                assertEquals(0, client.getAsJsonArray("classPathFirst").size(), client.toString());
                assertTrue(!remoting.startsWith(patchedLib.toString()), remoting);
                assertEquals(0, bridges, "the stock RemotingCommand has no rmqpatch bridges: " + client);
            }
        }
        assertEquals(optionsBeforeClassPath.get(0), optionsBeforeClassPath.get(1), "the same JVM options apart from the class path");
        assertEquals(optionsBeforeClassPath.get(0), optionsBeforeClassPath.get(2), "the wire client's agent JVM too");
        JsonObject wire = variants.get(2).getAsJsonObject().getAsJsonObject("clientCpuUsPerMsg");
        assertTrue(wire.get("ratio").getAsDouble() > 0, wire.toString());
        JsonObject patched = variants.get(1).getAsJsonObject().getAsJsonObject("clientCpuUsPerMsg");
        assertTrue(patched.get("ratio").getAsDouble() > 0, patched.toString());
        for (JsonElement e : r.getAsJsonArray("windows")) {
            JsonObject w = e.getAsJsonObject();
            if ("measure".equals(w.get("phase").getAsString())) {
                assertTrue(w.get("clientMessages").getAsLong() > 0 && w.has("clientCpuUsPerMsg"), w.toString());
            }
        }
        String table = Files.readString(out.resolve("table.txt"));
        assertTrue(table.contains("client us/msg") && table.contains("x stock") && table.contains("patched client"), table);
        assertNothingLeft(out);
    }

    /**
     * --clients stock@8,patched@8, producer and consumer side: each client's agent JVMs run on JDK 8 (its java, no module
     * options) and report it, the patched one with the rewritten classes; on the consumer side the stock producers that
     * feed them stay on the harness's JDK. Skipped outside CI where no JDK 8 can be had; in CI it must run.
     */
    @Test
    void clientsRunOnJdk8() throws Exception {
        Path jdk8 = Jdk8Home.forTests();
        org.junit.jupiter.api.Assumptions.assumeTrue(jdk8 != null, "no JDK 8 here: " + Jdk8Home.failure());
        Dists.stock();
        Dists.patched();
        for (String side : List.of("producer", "consumer")) {
            Path out = dir.resolve("clients-jdk8-" + side);
            String printed = run(List.of("--efficiency", "--clients", "stock@8,patched@8", "--client-side", side, "--pairs", PAIRS, "--window", "1",
                "--warmup", "1", "--rate", "250", "--pin", "off", "--threads", "4", "--broker-heap", "512m", "--out", out.toString()),
                dir.resolve("clients-jdk8-" + side + ".log"));
            JsonObject r = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
            assertEquals("ok", r.get("status").getAsString(), printed);
            assumeTheMachineKeptUp(r, out);
            assertEquals(side, r.getAsJsonObject("clients").get("side").getAsString());
            for (JsonElement e : r.getAsJsonArray("variants")) {
                JsonObject v = e.getAsJsonObject();
                JsonObject client = v.getAsJsonObject("client");
                assertTrue(client.get("javaVersion").getAsString().startsWith("1.8."), client.toString());
                List<String> command = new ArrayList<>();
                client.getAsJsonArray("commandLines").get(0).getAsJsonArray().forEach(x -> command.add(x.getAsString()));
                assertEquals(jdk8.resolve("bin/java").toString(), command.get(0));
                assertTrue(!command.contains("--add-opens"), command.toString());
                assertTrue(v.getAsJsonObject("clientCpuUsPerMsg").get("median").getAsDouble() > 0, v.toString());
                int bridges = -1;
                for (JsonElement c : client.getAsJsonArray("loadedClasses")) {
                    if (c.getAsJsonObject().get("name").getAsString().endsWith(".RemotingCommand")) {
                        bridges = c.getAsJsonObject().get("rmqpatchMethods").getAsInt();
                    }
                }
                assertEquals(v.get("name").getAsString().startsWith("patched"), bridges > 0, client.toString());
            }
            if (side.equals("consumer")) {
                List<List<String>> load = new ArrayList<>();
                r.getAsJsonObject("clients").getAsJsonArray("loadAgentCommandLines").forEach(l -> {
                    List<String> one = new ArrayList<>();
                    l.getAsJsonArray().forEach(x -> one.add(x.getAsString()));
                    load.add(one);
                });
                assertTrue(!load.isEmpty() && load.get(0).contains("--add-opens"), "the stock producers stay on the harness's JDK: " + load);
            }
            assertNothingLeft(out);
        }
    }

    /**
     * --clients stock,4.9.8,5.3.3 --client-side consumer (each @8 where a JDK 8 can be had, as the measurement runs them):
     * the release clients' push consumers take their turns through the harness's client rig, each agent JVM's RocketMQ
     * classes from that release's stock distribution, every window's client kept up with the rate; the release's class path
     * first in results.json. (ReleaseClientsIT checks both sides' messages one by one.)
     */
    @Test
    void releaseClientsTakeTurnsOnTheirOwnJars() throws Exception {
        Dists.stock();
        String jdk = Jdk8Home.forTests() == null ? "" : "@8";
        Path out = dir.resolve("clients-releases");
        String printed = run(List.of("--efficiency", "--clients", "stock" + jdk + ",4.9.8" + jdk + ",5.3.3" + jdk, "--client-side", "consumer",
            "--pairs", PAIRS, "--window", "1", "--warmup", "1", "--rate", "250", "--pin", "off", "--threads", "4", "--broker-heap", "512m",
            "--out", out.toString()), dir.resolve("clients-releases.log"));
        JsonObject r = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", r.get("status").getAsString(), printed);
        assumeTheMachineKeptUp(r, out);
        for (JsonElement e : r.getAsJsonArray("variants")) {
            JsonObject v = e.getAsJsonObject();
            String name = v.get("name").getAsString();
            String release = name.startsWith("stock") ? null : name.substring(0, 5);
            JsonObject client = v.getAsJsonObject("client");
            assertEquals(release == null ? "stock" : "release", client.get("kind").getAsString(), client.toString());
            assertEquals(release == null, client.getAsJsonArray("classPathFirst").isEmpty(), client.toString());
            assertTrue(v.getAsJsonObject("clientCpuUsPerMsg").get("median").getAsDouble() > 0, v.toString());
            for (JsonElement c : client.getAsJsonArray("loadedClasses")) {
                String jar = c.getAsJsonObject().get("jar").getAsString();
                assertTrue(jar.contains(release == null ? "-4.9.0.jar" : "rocketmq-" + release + "-stock/lib/"), name + ": " + jar);
            }
        }
        for (JsonElement e : r.getAsJsonArray("windows")) {
            JsonObject w = e.getAsJsonObject();
            if ("measure".equals(w.get("phase").getAsString())) {
                assertTrue(w.get("clientMessages").getAsLong() > 0, w.toString());
            }
        }
        assertNothingLeft(out);
    }

    @Test
    void runsGiveARatioAcrossRunsWithEachRunsOwnResults() throws Exception {
        Dists.stock();
        Path out = dir.resolve("runs");
        // An A/A comparison (the same variant twice, its own brokers each) over two whole runs.
        String printed = run(List.of("--efficiency", "--variants", "4.9.0-tuned,4.9.0-tuned#2", "--runs", "2", "--pairs", PAIRS, "--window", "1",
            "--warmup", "1", "--rate", "250", "--pin", "off", "--threads", "4", "--broker-heap", "512m", "--out", out.toString()),
            dir.resolve("runs.log"));
        assertTrue(printed.contains("run 2 of 2") && printed.contains("variants in the order [4.9.0-tuned#2, 4.9.0-tuned]"), printed);
        JsonObject r = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", r.get("status").getAsString(), printed);
        assertEquals(2, r.get("runsCompleted").getAsInt());
        JsonArray runs = r.getAsJsonArray("runs");
        assertEquals(2, runs.size());
        double product = 1;
        for (int k = 1; k <= 2; k++) {
            JsonObject one = JsonParser.parseString(Files.readString(out.resolve("run-" + k).resolve("results.json"))).getAsJsonObject();
            assertEquals("ok", one.get("status").getAsString());
            assumeTheMachineKeptUp(one, out);
            double ratio = 0;
            for (JsonElement v : one.getAsJsonArray("variants")) {
                if (v.getAsJsonObject().get("name").getAsString().equals("4.9.0-tuned#2")) {
                    ratio = v.getAsJsonObject().getAsJsonObject("brokerCpuUsPerMsg").get("ratio").getAsDouble();
                }
            }
            assertTrue(ratio > 0, one.toString());
            assertEquals(ratio, runs.get(k - 1).getAsJsonObject().getAsJsonObject("ratios").getAsJsonObject("4.9.0-tuned#2")
                .getAsJsonObject("brokerCpuUsPerMsg").get("ratio").getAsDouble(), 1e-9);
            product *= ratio;
            assertTrue(Files.size(out.resolve("run-" + k).resolve("chart.png")) > 1000);
        }
        JsonObject across = null;
        for (JsonElement v : r.getAsJsonArray("variants")) {
            if (v.getAsJsonObject().get("name").getAsString().equals("4.9.0-tuned#2")) {
                across = v.getAsJsonObject().getAsJsonObject("figures").getAsJsonObject("brokerCpuUsPerMsg");
            }
        }
        assertNotNull(across, r.toString());
        assertEquals(Math.sqrt(product), across.get("ratio").getAsDouble(), 1e-9, "the geometric mean of the runs' ratios");
        assertEquals(2, across.getAsJsonArray("ratioCi95").size());
        assertEquals("unresolved", across.get("verdict").getAsString(), "two runs never resolve");
        String table = Files.readString(out.resolve("table.txt"));
        assertTrue(table.contains("across runs") && table.contains("95% CI (t over runs)"), table);
        assertTrue(Files.size(out.resolve("chart.png")) > 1000);
        assertNothingLeft(out);
    }
}
